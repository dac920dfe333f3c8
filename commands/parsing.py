"""The table's shorthand on the command line: `Kira=2,Bo=1`, trait uses, faces, placements, times."""
from __future__ import annotations

from typing import Any, Callable

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger import values


def parse_pairs(text: str, what: str) -> dict[str, int]:
    """'Phantom=3,Venger=1' -> {'Phantom': 3, 'Venger': 1}."""
    result: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        try:
            number = int(value)
        except ValueError:
            raise BadInput(f"Write {what} as NAME=NUMBER,NAME=NUMBER, not '{text}'.") from None
        if name.strip().casefold() in (n.casefold() for n in result):  # the later one silently won
            raise BadInput(f"{name.strip()} is named twice in '{text}'; give each name once.")
        result[name.strip()] = number
    return result


def parse_throw(faces: str | None, roll: bool):
    from campaign_ledger.ledger.dice import parse_faces
    from campaign_ledger.ledger.rulesets.relics.turns import Throw

    if faces is not None and roll:
        raise BadInput("Give --faces from the table or --roll, not both.")
    return Throw(parse_faces(faces) if faces is not None else None, roll)


def parse_placing(places: tuple[str, ...], best: bool):
    from campaign_ledger.ledger.dice import parse_faces
    from campaign_ledger.ledger.rulesets.relics.turns import Placing

    given = []
    for value in places:
        label, eq, dice = value.rpartition("=")
        if not eq or not label.strip():
            raise BadInput(f"Place a modifier as TRAIT=DICE (dice numbered from 1), e.g. Blaster=1,4, not '{value}'.")
        given.append((label.strip(), parse_faces(dice)))
    return Placing(tuple(given), best)


TIME_HELP = "a time like 2026-11-22T20:15 is the GM's local time unless it gives its zone (+01:00, Z)"


at_option = click.option("--at", metavar="N|TIME",
                         help=f"Show it as it stood at entry N, or at a time ({TIME_HELP}).")


def parse_stress(text: str | None) -> dict[str, int] | None:
    return None if text is None else parse_pairs(text, "Stress")


turn_options = [
    click.option("--faces", help="Faces rolled at the table, e.g. 1,3,3,4,5."),
    click.option("--roll", is_flag=True, help="Let the program roll the dice."),
    click.option("--place", "places", multiple=True, metavar="TRAIT=DICE",
                 help="Put a Simple modifier on dice (numbered from 1), e.g. Blaster=1,4. Repeatable."),
    click.option("--best", is_flag=True, help="Take the offered placement for every modifier not placed."),
]


def later_steps(f: Callable) -> Callable:
    """The inputs a turn may still be waiting for after its roll."""
    f = click.option("--stress", help="Stress distribution for a Challenge roll, e.g. Kira=2,Bo=1.")(f)
    return turn_options[3](turn_options[2](f))


def turn_inputs(f: Callable) -> Callable:
    for option in reversed(turn_options):
        f = option(f)
    return f


def parse_settings(values: tuple[str, ...]) -> dict[str, str]:
    result = {}
    for value in values:
        key, eq, setting = value.partition("=")
        if not eq or not key.strip():
            raise BadInput(f"Write a setting as KEY=VALUE, not '{value}'.")
        result[key.strip()] = setting.strip()
    return result


def parse_names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


