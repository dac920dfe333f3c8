"""The CLI's words for a decision roll and a contest: faces, sides `Billy:Stealth`, modifiers by
side, a contest's rounds `3,4/6,2,5` (the `contest` command and `odds contest` read them alike)."""
from __future__ import annotations

from typing import Any

from campaign_ledger.commands.parsing import parse_pairs
from campaign_ledger.ledger.errors import BadInput


def d2d6_faces(faces: str | None, roll: bool) -> tuple[int, ...] | None:
    """`--faces 3,6,6,2` as the table's faces (None: the program rolls); not with --roll."""
    from campaign_ledger.ledger.dice import parse_faces

    if faces is not None and roll:
        raise BadInput("Give --faces from the table or --roll, not both.")
    return parse_faces(faces) if faces is not None else None


def d2d6_side(text: str) -> tuple[str, str]:
    """`Billy:Stealth` -> (character, stat)."""
    name, colon, stat = text.rpartition(":")
    if not colon or not name.strip() or not stat.strip():
        raise BadInput(f"Name a side as CHARACTER:STAT, e.g. Billy:Stealth, not '{text}'.")
    return name.strip(), stat.strip()


def d2d6_by_side(given: tuple[str, ...], kind: str) -> list[tuple[str, int]]:
    """Repeated `--bonus Billy=1 --bonus Ogre=2` as (side, value) pairs, in the order given."""
    return [(who.strip(), value) for text in given for who, value in parse_pairs(text, f"a {kind}").items()]


def d2d6_round(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    from campaign_ledger.ledger.dice import parse_faces

    first, slash, second = text.partition("/")
    if not slash:
        raise BadInput(f"Give one roll of a contest as FIRST/SECOND faces, e.g. 3,4/6,2,5, not '{text}'.")
    return parse_faces(first), parse_faces(second)


def d2d6_contest_words(first: str, second: str, favoured: tuple[str, ...], bonuses: tuple[str, ...],
                       penalties: tuple[str, ...], modifiers: tuple[str, ...]) -> tuple[Any, Any, dict[str, Any]]:
    """A contest as typed (`Billy:Stealth Ogre:Wits --bonus Ogre=1 --advantage Billy=minor`, for
    `contest` and `odds contest`): its sides (character, stat), the side favoured with the level, and
    the modifiers by side; each refused in the order the GM has always met them."""
    from campaign_ledger.decision_2d6 import contest_sides

    by_side = {plural: d2d6_by_side(given, kind) for kind, plural, given in
               (("bonus", "bonuses", bonuses), ("penalty", "penalties", penalties),
                ("modifier", "modifiers", modifiers))}
    sides = (d2d6_side(first), d2d6_side(second))
    contest_sides(*sides, **by_side)  # a modifier for someone else: refused before the advantage is read
    if len(favoured) > 1:  # given twice, click kept the last one alone, silently
        raise BadInput("Advantage in a contest goes to one side: give --advantage once "
                       "(--grant moves a side one step).")
    advantage = None
    if favoured:
        who, eq, level = favoured[0].partition("=")
        if not eq:
            raise BadInput(f"Give advantage as NAME=minor or NAME=major, not '{favoured[0]}'.")
        advantage = (who.strip(), level.strip())
    return sides, advantage, by_side
