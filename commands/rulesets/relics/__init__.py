"""Relics of the Moon on the command line: the rounds' turns (turns.py), the GM's named rules (gm.py),
PCs, traits, Scenarios, Scenes, Events and Challenges (setup.py, corrections.py), rosters (roster.py)
and what a GM reads (views.py)."""
from typing import Any


def __getattr__(name: str) -> Any:
    """`COMMANDS`, what commands/index.py names for `pc`, `trait` and `challenge` (defined in several
    modules): every module's commands joined to the group. A command one module defines is indexed to
    that module alone (a turn imports turns.py only), and `campaign sheet` loads views.py only."""
    if name != "COMMANDS":
        raise AttributeError(name)
    from campaign_ledger.commands.rulesets.relics import corrections, gm, roster, setup, turns, views  # noqa: F401  (their commands join the group)
    from campaign_ledger.commands.rulesets.relics.group import COMMANDS

    return COMMANDS
