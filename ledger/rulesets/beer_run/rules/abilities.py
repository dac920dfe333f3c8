"""Beer Run: ability dice on a sheet (RULES.md "Beer Run": dice of any size d1 and up; a pip is one size step).

How a die is written and lowered, faces checked against it, an ability and its category.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from campaign_ledger.ledger.errors import BadInput, NotFound, RuleViolation
from campaign_ledger.ledger.values import INT_MAX


# RULES.md "Beer Run": the campaign names the categories, three by default. The seed names
# none; body, mind and manner cover a fight, a ritual and a bargain. Health sits in Physical.
DEFAULT_CATEGORIES: tuple[str, ...] = ("Physical", "Mental", "Social")
HEALTH = "Health"


def parse_die(text: str) -> int:
    """Read 'd8' as 8: an ability is one die, so a count ('2d6') is not an ability. A size past
    SQLite's 64 bits is refused here in the die's words (the ledger's last net would name the
    event's field, and past 4,300 digits Python refuses to read the number at all)."""
    match = re.fullmatch(r"\s*[dD]0*(\d+)\s*", text, re.ASCII)
    if not match or match.group(1) == "0":
        raise BadInput(f"An ability die is written d1, d2, d3 and up, not '{text if len(text) <= 40 else text[:40] + '...'}'.")
    digits = match.group(1)
    if len(digits) > len(str(INT_MAX)) or int(digits) > INT_MAX:
        typed = f"d{digits}" if len(digits) <= 20 else f"a die of {len(digits):,} digits"
        raise BadInput(f"A die can be at most d{INT_MAX}, not {typed}.")
    return int(digits)


def format_die(size: int) -> str:
    """Write a size for the GM; size 0 means the ability is gone, so it is not a die."""
    return f"d{size}" if size > 0 else "gone"


def lower(size: int, pips: int) -> int:
    """Lower a die by pips (d8 less 3 pips is d5); below zero is refused, not clamped."""
    if pips > size:
        raise RuleViolation(f"A {format_die(size)} can lose at most {size} pips, not {pips}.")
    return size - pips


def check_faces(sizes: Sequence[int], faces: Sequence[int]) -> tuple[int, ...]:
    """Check faces entered at the table against the pool, so a typo never becomes a fact."""
    if len(faces) != len(sizes):
        raise BadInput(f"This pool rolls {len(sizes)} dice; you entered {len(faces)} faces.")
    for size, face in zip(sizes, faces):
        if not 1 <= face <= size:
            raise BadInput(f"A d{size} shows 1 to {size}; {face} is not a face of it.")
    return tuple(faces)


# --- Characters (RULES.md "Beer Run": abilities in categories; Health is an ability) ---

@dataclass(frozen=True)
class Ability:
    """One ability die on a sheet; size 0 stays on the sheet so history can show it gone."""

    name: str
    category: str
    size: int

    def __post_init__(self) -> None:
        if self.size < 0:
            raise BadInput(f"{self.name} cannot be smaller than gone (size 0).")


def find(abilities: Sequence[Ability], name: str) -> Ability:
    """Look an ability up by name; the GM names abilities, the ledger never guesses."""
    for ability in abilities:
        if ability.name == name:
            return ability
    raise NotFound(f"There is no ability called {name} on this character.")
