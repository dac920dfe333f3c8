"""Decision rolls (seed 004) on the command line: `campaign decision-2d6 ...` (play.py, supplies.py, views.py)."""
from campaign_ledger.commands.rulesets.decision_2d6 import play, supplies, views  # noqa: F401  (their commands join the group)
from campaign_ledger.commands.rulesets.decision_2d6.group import COMMANDS  # noqa: F401  (what commands/index.py names)
