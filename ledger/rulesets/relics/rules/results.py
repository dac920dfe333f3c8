"""Relics of the Moon: a die's final result as successes (seed 000 step 6, 001 "Results and Successes").

9+ is an overpowering success (3), 7-8 a critical (2), 5-6 a success, 2-4 nothing, 0-1 a botch
(-1), below 0 a major botch (-2); net successes of -1 or fewer are a Disaster.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


def successes_of(result: int) -> int:
    if result >= 9:
        return 3
    if result >= 7:
        return 2
    if result >= 5:
        return 1
    if result >= 2:
        return 0
    return -1 if result >= 0 else -2


@dataclass(frozen=True)
class Tally:
    results: tuple[int, ...]
    successes: int
    criticals: int
    overpowering: int
    botches: int
    major_botches: int

    @property
    def disaster(self) -> bool:
        return self.successes <= -1


def tally(results: Sequence[int]) -> Tally:
    counts = [successes_of(r) for r in results]
    return Tally(tuple(results), sum(counts), counts.count(2), counts.count(3),
                 counts.count(-1), counts.count(-2))
