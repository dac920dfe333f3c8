"""Action dice (seed 003) on the command line: `campaign action-dice ...` (play.py writes, views.py reads)."""
from campaign_ledger.commands.rulesets.action_dice import play, views  # noqa: F401  (their commands join the group)
from campaign_ledger.commands.rulesets.action_dice.group import COMMANDS  # noqa: F401  (what commands/index.py names)
