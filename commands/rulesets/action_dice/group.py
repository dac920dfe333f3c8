"""The `campaign action-dice` group, and the words that describe an action roll (`action-dice roll`
and `campaign odds` take them both)."""
from __future__ import annotations

from typing import Callable

import click

COMMANDS = click.Group()  # gathered by __init__.py, named by commands/index.py


@COMMANDS.group("action-dice")
def action_dice() -> None:
    """Action dice (seed 003): three dice against a difficulty 1-10, four outcome grades."""


def roll_options(command: Callable) -> Callable:
    """What describes an action roll (who, what, against what, with what): `action-dice roll` and
    `campaign odds` take the same words."""
    options = [click.argument("character"), click.argument("action"),
               click.option("--rating", help="Challenge rating: XX, D4, D6, D8, D10, D12 or ++ (with --difficulty 7-10)."),
               click.option("--difficulty", type=int, help="The difficulty 1-10 itself, or the GM's pick for ++."),
               click.option("--advantage", "advantages", count=True,
                            help="A circumstance in the character's favour. Repeatable."),
               click.option("--disadvantage", "disadvantages", count=True, help="A circumstance against it. Repeatable."),
               click.option("--asset", "assets", multiple=True, help="An asset from the sheet (up to 3); d4s fill the rest."),
               click.option("--feature", "features", multiple=True, help="A feature from the sheet invoked on this roll.")]
    for option in reversed(options):
        command = option(command)
    return command
