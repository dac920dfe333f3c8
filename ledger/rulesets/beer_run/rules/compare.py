"""Beer Run: comparing two rolls (seed "Compare Rolls"; RULES.md "Beer Run": compare).

High to low, pair by pair; ties discarded; the first untied pair gives the upper hand, which
keeps every success, the other side its 1st, 3rd, 5th... A side out of dice shows a d1's 1.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from campaign_ledger.ledger.errors import BadInput


@dataclass(frozen=True)
class Comparison:
    """What one comparison produced; side 0 is the first pool given, side 1 the second."""

    pairs: tuple[tuple[int, int], ...]
    scored: tuple[int, int]
    kept: tuple[int, int]
    upper_hand: int | None

    def mirrored(self) -> Comparison:
        """The same comparison seen from the other side."""
        flip = {0: 1, 1: 0, None: None}
        return Comparison(tuple((b, a) for a, b in self.pairs), self.scored[::-1],
                          self.kept[::-1], flip[self.upper_hand])


def _pairs(a: Sequence[int], b: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """High to low, pair by pair; a side out of dice compares as a d1 showing 1."""
    if any(face < 1 for face in (*a, *b)):
        raise BadInput("Every die shows 1 or more.")
    n = max(len(a), len(b))
    return tuple(zip(_high_to_low(a, n), _high_to_low(b, n)))


def _high_to_low(faces: Sequence[int], n: int) -> list[int]:
    return sorted(faces, reverse=True) + [1] * (n - len(faces))


def _kept(scored: int, has_upper_hand: bool) -> int:
    """The upper hand keeps all; the other side keeps its 1st, 3rd, 5th... success."""
    return scored if has_upper_hand else (scored + 1) // 2


def compare(a: Sequence[int], b: Sequence[int]) -> Comparison:
    """Opposed roll: the first untied pair gives the upper hand, which keeps every success."""
    pairs = _pairs(a, b)
    winners = [0 if x > y else 1 for x, y in pairs if x != y]
    upper = winners[0] if winners else None
    scored = (winners.count(0), winners.count(1))
    kept = (_kept(scored[0], upper == 0), _kept(scored[1], upper == 1))
    return Comparison(pairs, scored, kept, upper)


def compare_many(target: Sequence[int],
                 sides: Sequence[Sequence[int]]) -> tuple[Comparison, ...]:
    """Several against one target: each compares alone (side 0 = that side, 1 = the target)."""
    return tuple(compare(side, target) for side in sides)
