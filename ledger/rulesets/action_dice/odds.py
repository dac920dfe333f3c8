"""Action dice: exact chances of each outcome grade for three dice against a difficulty.

icepool sums the dice, each counted by the rules' own `count_successes` (a die beating the
difficulty, strictly); the grade and the binary reading are the rules' `outcome_for`.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

import icepool

from campaign_ledger.ledger.odds import Dist, from_die
from campaign_ledger.ledger.rulesets.action_dice import rules


def successes(dice: Sequence[int], difficulty: int) -> Dist:
    """How many of the dice beat the difficulty: {0..3: p}."""
    sizes = rules.action_pool(dice)  # three dice, d4s filling in, as the roll has them
    rules.action_difficulty(difficulty)  # on the 1-10 scale, or refused as the roll refuses it
    counted = [icepool.d(s).map(lambda face: rules.count_successes((face,), difficulty)) for s in sizes]
    return from_die(icepool.reduce(lambda a, b: a + b, counted))


def outcome_odds(dice: Sequence[int], difficulty: int) -> dict[str, Any]:
    """Each grade's chance, the binary test's chance of passing, and the pass chance at every difficulty."""
    count = successes(dice, difficulty)
    grades = {grade.value: count.get(n, Fraction(0)) for n, grade in enumerate(rules.Outcome)}
    passes = sum((p for n, p in count.items() if rules.outcome_for(n).succeeded), Fraction(0))
    by_difficulty = {d: sum((p for n, p in successes(dice, d).items() if rules.outcome_for(n).succeeded),
                            Fraction(0))
                     for d in range(rules.MIN_DIFFICULTY, rules.MAX_DIFFICULTY + 1)}
    return {"dice": list(rules.action_pool(dice)), "difficulty": difficulty, "successes": count,
            "grades": grades, "test_passes": passes, "test_passes_at": by_difficulty}
