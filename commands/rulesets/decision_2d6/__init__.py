"""Decision rolls (seed 004) on the command line: `campaign decision-2d6 ...` (play.py, supplies.py, views.py)."""
from typing import Any


def __getattr__(name: str) -> Any:
    """`COMMANDS`, what commands/index.py names: every module's commands joined to the group, loaded
    when a command of the ruleset is run (its views alone, for `campaign sheet`, load only views.py)."""
    if name != "COMMANDS":
        raise AttributeError(name)
    from campaign_ledger.commands.rulesets.decision_2d6 import play, supplies, views  # noqa: F401  (their commands join the group)
    from campaign_ledger.commands.rulesets.decision_2d6.group import COMMANDS

    return COMMANDS
