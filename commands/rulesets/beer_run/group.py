"""The `campaign beer-run` group (its commands are in setup.py, rounds.py and views.py)."""
from __future__ import annotations

import click

COMMANDS = click.Group()  # gathered by __init__.py, named by commands/index.py


@COMMANDS.group("beer-run")
def beer_run() -> None:
    """Beer Run campaigns: ability dice in categories, Intensity, opposed pools worn down by pips."""
