"""Beer Run (seed 002) on the command line: `campaign beer-run ...` (setup.py, rounds.py, views.py)."""
from typing import Any


def __getattr__(name: str) -> Any:
    """`COMMANDS`, what commands/index.py names: every module's commands joined to the group, loaded
    when a command of the ruleset is run (its views alone, for `campaign sheet`, load only views.py)."""
    if name != "COMMANDS":
        raise AttributeError(name)
    from campaign_ledger.commands.rulesets.beer_run import rounds, setup, views  # noqa: F401  (their commands join the group)
    from campaign_ledger.commands.rulesets.beer_run.group import COMMANDS

    return COMMANDS
