"""Beer Run: exact odds of one opposed comparison of two mixed pools before they are rolled.

icepool walks both pools together from the highest face down (a two-input multiset evaluator):
pairs form in the order the rules compare them, high to low, so the walk knows which side wins
the first untied pair and how many pairs each side wins. The rest is the rules' own: the shorter
pool is padded with d1s showing 1, and the final (upper hand, kept successes) comes from
`ledger.rulesets.beer_run.rules.compare` on a pairing with those very wins. Dice already rolled are
fixed faces: the odds of the rest are conditional on them.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

import icepool

from ledger.odds import Dist, at_least, chance, from_die, marginal, mean
from ledger.rulesets.beer_run import rules

Outcome = tuple[int, int, int]  # upper hand (0, 1, or -1 for none), kept by side 0, kept by side 1


@dataclass(frozen=True)
class Side:
    """A side's dice to roll (sizes) and faces already on the table (a pool that has rolled)."""

    dice: tuple[int, ...] = ()
    faces: tuple[int, ...] = ()

    def pool(self, padding: int) -> list[icepool.Die]:
        """As icepool dice; the padding is the rules' d1 showing 1 for a side out of dice."""
        return [icepool.d(s) for s in self.dice] + [icepool.Die([f]) for f in self.faces] + \
            [icepool.Die([1])] * padding

    @property
    def size(self) -> int:
        return len(self.dice) + len(self.faces)


def _result(first: int | None, wins: tuple[int, int]) -> Outcome:
    """Ask the rules: a pairing, high to low, whose first untied pair and wins are these."""
    order = ([first] if first is not None else []) + [0] * (wins[0] - (first == 0)) + [1] * (wins[1] - (first == 1))
    a, b = [], []
    for k, winner in enumerate(order):
        low = 2 * (len(order) - k)  # each pair a step below the one before, so sorting keeps the order
        a.append(low + (winner == 0))
        b.append(low + (winner == 1))
    c = rules.compare(a, b)
    return (-1 if c.upper_hand is None else c.upper_hand), c.kept[0], c.kept[1]


class _Comparison(icepool.MultisetEvaluator):
    """State: dice one side has shown above the other's (positive: side 0), first winner, wins."""

    def initial_state(self, order: Any, outcomes: Any, *sizes: Any) -> tuple:
        if order != icepool.Order.Descending:
            raise icepool.UnsupportedOrder("pairs form from the highest face down")
        return 0, None, 0, 0

    def next_state(self, state: tuple, order: Any, face: int, a: int, b: int) -> tuple:
        ahead, first, wins0, wins1 = state
        if ahead >= 0:  # side 0's higher dice meet side 1's dice at this face: side 0 wins those pairs
            won = min(ahead, b)
            ahead, b = ahead - won, b - won
            wins0 += won
            first = 0 if first is None and won else first
            ahead = ahead + a if ahead else a - b  # the rest at this face tie, pair by pair
        else:
            won = min(-ahead, a)
            ahead, a = ahead + won, a - won
            wins1 += won
            first = 1 if first is None and won else first
            ahead = ahead - b if ahead else a - b
        return ahead, first, wins0, wins1

    def final_outcome(self, state: tuple, *_: Any) -> Outcome:
        _, first, wins0, wins1 = state
        return _result(first, (wins0, wins1))


def comparison(first: Side, second: Side) -> Dist:
    """The joint distribution of (upper hand, kept by the first, kept by the second)."""
    n = max(first.size, second.size)
    pools = (icepool.Pool(first.pool(n - first.size)), icepool.Pool(second.pool(n - second.size)))
    return from_die(_Comparison().evaluate(*pools)) if n else {_result(None, (0, 0)): Fraction(1)}


def opposed_odds(first: Side, second: Side, first_abilities: Mapping[str, int] = {},
                 second_abilities: Mapping[str, int] = {}) -> dict[str, Any]:
    """Who has the upper hand, each side's kept successes, and the chance each can take an
    opposing ability to zero (kept successes at least its size: all pips on it)."""
    joint = comparison(first, second)
    kept = [marginal(joint, lambda k: k[1]), marginal(joint, lambda k: k[2])]
    return {
        "upper_hand": {"first": chance(joint, lambda k: k[0] == 0), "second": chance(joint, lambda k: k[0] == 1),
                       "neither": chance(joint, lambda k: k[0] == -1)},
        "kept": {"first": kept[0], "second": kept[1]},
        "kept_at_least": {"first": at_least(kept[0]), "second": at_least(kept[1])},
        "to_zero": {"first": _zeroing(kept[0], second_abilities), "second": _zeroing(kept[1], first_abilities)},
    }


def _zeroing(kept: Dist, abilities: Mapping[str, int]) -> dict[str, Fraction]:
    """For each opposing ability, P(enough kept successes to take it to zero this round)."""
    return {name: chance(kept, lambda n, size=size: n >= size) for name, size in abilities.items() if size > 0}


def goal_odds(own: Side, difficulty: Side) -> dict[str, Any]:
    """A helping or situational goal's roll (seed "Helping Goal", "Situation Goal"): the roller's pool
    against the difficulty pool (its own penalty dice among them), compared as any roll is. Each kept
    success is one use of the die sought (`rules.goal_dice`), each of the difficulty's kept successes
    a penalty die for the roller."""
    joint = comparison(own, difficulty)
    uses, penalties = marginal(joint, lambda k: k[1]), marginal(joint, lambda k: k[2])
    return {"uses": uses, "uses_at_least": at_least(uses), "penalties": penalties,
            "expected_uses": mean(uses), "expected_penalties": mean(penalties)}
