"""The `campaign decision-2d6` group (its commands are in play.py, supplies.py and views.py)."""
from __future__ import annotations

import click

COMMANDS = click.Group()  # gathered by __init__.py, named by commands/index.py


@COMMANDS.group("decision-2d6")
def decision_2d6() -> None:
    """Decision rolls (seed 004): 2d6 exploding + stat vs a target, supply dice, D100 trackers."""
