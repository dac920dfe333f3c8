"""Each ruleset's CLI commands, one package per ruleset (as ledger/rulesets/ and projections/rulesets/
hold its rules and its read tables): a package's `__init__` gathers its modules' commands on
`COMMANDS`, which commands/index.py names; its `group.py` holds the click groups they join, so no
module of a package imports another that imports it back."""
