"""The table's live view (`campaign serve`): a read-only page the players watch while the GM plays.

view.py builds what the page shows from the read tables (each ruleset's own part from its
`projections/rulesets/<ruleset>/table_view.py`), page.py renders it, watcher.py notices a command
run in another process (the ledger's latest notification id) and hub.py hands each new view to every
open stream; app.py is the Starlette application, with no write route at all.
"""
