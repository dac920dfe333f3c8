"""Action dice (seed 003) on the command line: `campaign action-dice ...` (play.py writes, views.py reads)."""
from typing import Any


def __getattr__(name: str) -> Any:
    """`COMMANDS`, what commands/index.py names: every module's commands joined to the group, loaded
    when a command of the ruleset is run (its views alone, for `campaign sheet`, load only views.py)."""
    if name != "COMMANDS":
        raise AttributeError(name)
    from campaign_ledger.commands.rulesets.action_dice import play, views  # noqa: F401  (their commands join the group)
    from campaign_ledger.commands.rulesets.action_dice.group import COMMANDS

    return COMMANDS
