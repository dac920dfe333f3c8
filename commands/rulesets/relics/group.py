"""Relics of the Moon's commands share one group (commands/index.py names, for each, the module
defining it, or this package when several do); `pc`, `trait` and `challenge` are joined by setup.py
and corrections.py alike, so they are here."""
from __future__ import annotations

import click

COMMANDS = click.Group()  # gathered by __init__.py, named by commands/index.py


@COMMANDS.group()
def pc() -> None:
    """Player characters."""


@COMMANDS.group()
def trait() -> None:
    """Traits of PCs and Challenges."""


@COMMANDS.group()
def challenge() -> None:
    """Challenges."""


POLARITY = click.option("--polarity", type=click.Choice(["beneficial", "hindering"]), default=None,
                        help="Needed only for Auto Results; the sign says it otherwise.")
