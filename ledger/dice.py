"""Dice as facts.

This is the one place where randomness enters the program. Everything else takes
faces as plain values, so a replay can never roll again and dice entered from a
physical roll travel the same path as dice the program rolled.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from campaign_ledger.ledger.errors import BadInput

_system_random = random.SystemRandom()


@dataclass(frozen=True)
class Roll:
    """Faces of one throw, and whether they came from the table or the program."""

    sides: int
    faces: tuple[int, ...]
    entered: bool

    def __post_init__(self) -> None:
        object.__setattr__(self, "faces", tuple(int(f) for f in self.faces))


def roll(count: int, sides: int = 6) -> Roll:
    """Roll with the operating system's randomness (never inside an event body)."""
    return Roll(sides, tuple(_system_random.randint(1, sides) for _ in range(count)), False)


def parse_faces(text: str) -> tuple[int, ...]:
    """Read faces typed at the table: '1,3,3,4,5' or '1 3 3 4 5'."""
    parts = [p for p in text.replace(",", " ").split() if p]
    try:
        return tuple(int(p) for p in parts)
    except ValueError:
        raise BadInput(f"Faces must be whole numbers separated by commas, not '{text}'.") from None


def entered(faces: tuple[int, ...], count: int, sides: int = 6) -> Roll:
    """Check faces entered from a physical roll against the dice the pool rolls."""
    if len(faces) != count:
        raise BadInput(f"This pool rolls {count} {'die' if count == 1 else 'dice'}; "
                       f"you entered {len(faces)} {'face' if len(faces) == 1 else 'faces'}.")
    bad = [f for f in faces if not 1 <= f <= sides]
    if bad:
        raise BadInput(f"A d{sides} shows 1 to {sides}; {bad[0]} is not a face of it.")
    return Roll(sides, faces, True)
