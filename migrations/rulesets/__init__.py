"""Each ruleset's read-table migrations, one module each, registered on the one migration set
(imported by migrations/__init__.py, which names none of them)."""
