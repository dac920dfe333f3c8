"""Beer Run (seed 002) on the command line: `campaign beer-run ...` (setup.py, rounds.py, views.py)."""
from campaign_ledger.commands.rulesets.beer_run import rounds, setup, views  # noqa: F401  (their commands join the group)
from campaign_ledger.commands.rulesets.beer_run.group import COMMANDS  # noqa: F401  (what commands/index.py names)
