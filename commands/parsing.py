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


def parse_trait_uses(values: tuple[str, ...]):
    from campaign_ledger.ledger.rulesets.relics.turns import TraitUse

    uses = []
    for value in values:
        owner, colon, rest = value.partition(":")
        if not colon or not owner.strip() or not rest.strip():
            raise BadInput(f"Name a trait as OWNER:TRAIT (optionally =destiny or =doom), not '{value}'.")
        name, _, paid = rest.partition("=")
        uses.append(TraitUse(owner.strip(), name.strip(), paid.strip().lower() or None))
    return uses


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


def parse_time(text: str, option: str) -> str:
    """A GM's time as the ledger stamps entries (UTC, ISO, seconds). A time without a zone is the
    GM's local time (the machine's zone, or $TZ): what the clock on the wall said at the table."""
    from datetime import datetime, timezone

    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise BadInput(f"{option} takes an entry number or a time like 2026-11-22T20:15, not '{text}'.") from None
    when = when if when.tzinfo else when.astimezone()  # a naive time is local
    return when.astimezone(timezone.utc).isoformat(timespec="seconds")


def entry_at(db: Any, at: str | None, option: str = "--at") -> int | None:
    """`--at 42` is entry 42; `--at 2026-11-22T20:15` the last entry made by then (local time unless
    given). Past the last entry is refused, naming it: the GM asked about a moment not recorded yet."""
    from campaign_ledger.projections import views

    if at is None:
        return None
    if values.is_number(at.strip()):
        entry = values.integer(int(at.strip()), option, 0)
        _not_past(db, option, at.strip(), entry=entry)
        return entry
    stamp = parse_time(at, option)
    _not_past(db, option, at.strip(), stamp=stamp)
    return views.last_entry_by(db, stamp)


def _not_past(db: Any, option: str, given: str, entry: int | None = None, stamp: str | None = None) -> None:
    from datetime import datetime

    from campaign_ledger.ledger.errors import RuleViolation

    row = db.execute("SELECT entry, time FROM history ORDER BY entry DESC LIMIT 1").fetchone()
    if row is None or (entry is not None and entry <= row[0]) or (stamp is not None and stamp <= row[1]):
        return
    when = datetime.fromisoformat(row[1])
    local = when.astimezone().isoformat(timespec="seconds")
    utc = f" ({when.isoformat(timespec='seconds')})" if when.astimezone().utcoffset() else ""
    raise RuleViolation(f"{option} {given} is past the campaign's last entry, #{row[0]} at {local}{utc}.")


def not_joined_yet(db: Any, entry: int, standing: Callable[[int | None], list]) -> None:
    """`sheet Ash --at 5` for Ash, who joined at #6, in the GM's words, not "there is no character
    named Ash": the first entry after `entry` at which `standing` (the sheets found as they stood
    after an entry; None: now) finds the character, found by halving (each a read of the versions)."""
    from campaign_ledger.ledger.errors import NotFound

    now = standing(None)
    if not now:
        return  # not in the campaign at all: known_character says so
    low, high = entry, db.execute("SELECT max(entry) FROM history").fetchone()[0]
    while high - low > 1:  # standing(low) finds no one, standing(high) finds them
        middle = (low + high) // 2
        low, high = (low, middle) if standing(middle) else (middle, high)
    who = now[0]["name"]
    raise NotFound(f"{who} had not joined yet at entry #{entry}: {who}'s sheet begins at entry #{high}.",
                   rule="unknown-character")


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


def parse_contest(first: str, second: str, favoured: str | None, bonuses: tuple[str, ...],
                  penalties: tuple[str, ...], modifiers: tuple[str, ...]) -> tuple[tuple[Any, Any], tuple[str, str] | None]:
    """A decision-2d6 contest as typed: `Billy:Stealth Ogre:Wits`, `--bonus Ogre=1`, `--advantage Billy=minor`
    -> the two sides (each with its stated modifiers) and the side favoured, with the level."""
    from campaign_ledger.ledger.rulesets.decision_2d6.commands import Side, Stated

    stated = [(who.strip(), Stated(kind, value))
              for kind, given in (("bonus", bonuses), ("penalty", penalties), ("modifier", modifiers))
              for text in given for who, value in parse_pairs(text, f"a {kind}").items()]

    def side(text: str) -> Any:
        name, colon, stat = text.rpartition(":")
        if not colon or not name.strip() or not stat.strip():
            raise BadInput(f"Name a side as CHARACTER:STAT, e.g. Billy:Stealth, not '{text}'.")
        return Side(name.strip(), stat.strip(),
                    tuple(m for who, m in stated if who.casefold() == name.strip().casefold()))

    sides = (side(first), side(second))
    named = {s.name.casefold() for s in sides}
    for who, _ in stated:
        if who.casefold() not in named:
            raise BadInput(f"{who} is not one of the two sides of this contest.")
    if favoured is None:
        return sides, None
    who, eq, level = favoured.partition("=")
    if not eq:
        raise BadInput(f"Give advantage as NAME=minor or NAME=major, not '{favoured}'.")
    return sides, (who.strip(), level.strip())
