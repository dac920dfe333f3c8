"""Beer Run: exact odds of one opposed comparison of two mixed pools before they are rolled.

One walk over both pools from the highest face down (`comparison`, whole numbers, no recursion):
pairs form in the order the rules compare them, high to low, so the walk knows which side wins
the first untied pair and how many pairs each side wins; its work is known before it starts and a
comparison past MOST_STEPS is refused up front. The rest is the rules' own: the shorter
pool is padded with d1s showing 1, and the final (upper hand, kept successes) comes from
`ledger.rulesets.beer_run.rules.compare` on a pairing with those very wins. Dice already rolled are
fixed faces: the odds of the rest are conditional on them.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, Mapping

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger.odds import Dist, at_least, chance, marginal, mean
from campaign_ledger.ledger.rulesets.beer_run import rules

Outcome = tuple[int, int, int]  # upper hand (0, 1, or -1 for none), kept by side 0, kept by side 1


@dataclass(frozen=True)
class Side:
    """A side's dice to roll (sizes) and faces already on the table (a pool that has rolled)."""

    dice: tuple[int, ...] = ()
    faces: tuple[int, ...] = ()

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


MOST_STEPS = 60_000_000  # the work of the slowest comparisons `odds` answers, about a second (bench/odds.py)
FACE_COST = 2_000  # each face walked costs about this many steps even for the smallest pools


def steps(first: Side, second: Side) -> int:
    """The work of a comparison's odds, known before it starts: the faces walked, times the states a
    walk can be in (dice placed on each side, wins of each), times the ways a face can fall."""
    n = max(first.size, second.size)
    top = max(first.dice + first.faces + second.dice + second.faces + (1,))
    return top * ((len(first.dice) + 1) ** 2 * (len(second.dice) + 1) ** 2 * (n + 1) ** 2 + FACE_COST)


def check_size(first: Side, second: Side) -> None:
    """Refuse, before any work, a comparison whose exact odds would take more than a second or two."""
    work = steps(first, second)
    if work > MOST_STEPS:
        raise BadInput(f"These odds would take {work:,} steps (pools of {first.size} and {second.size} dice, up to "
                       f"d{max(first.dice + second.dice + (1,))}); campaign odds works out at most {MOST_STEPS:,} "
                       "(fewer dice, or smaller ones).")


def comparison(first: Side, second: Side) -> Dist:
    """The joint distribution of (upper hand, kept by the first, kept by the second).

    The pools are walked from the highest face down, as the rules pair them. Given that a die has not
    shown a face above f, it shows f with chance 1/f whatever its size, so only how many dice of each
    side are still unplaced matters: at each face, choose which of them show it (whole numbers of
    face assignments, divided once by the product of the sizes). Pairs form as they fall, so the walk
    knows the first untied pair and each side's wins (the evaluator the rules' `compare` finishes)."""
    check_size(first, second)
    n = max(first.size, second.size)
    fixed = [list(first.faces) + [1] * (n - first.size), list(second.faces) + [1] * (n - second.size)]
    top = max(first.dice + first.faces + second.dice + second.faces + (1,))
    # state: (rolled dice of side 0 placed, of side 1, first winner, wins 0, wins 1) -> face assignments
    states: dict[tuple[int, int, int | None, int, int], int] = {(0, 0, None, 0, 0): 1}
    for face in range(top, 0, -1):
        active = [sum(1 for d in side.dice if d >= face) for side in (first, second)]
        shown = [sum(1 for f in fx if f == face) for fx in fixed]
        above = [sum(1 for f in fx if f > face) for fx in fixed]
        grown: dict[tuple[int, int, int | None, int, int], int] = {}
        for (p0, p1, winner, wins0, wins1), ways in states.items():
            ahead = (p0 + above[0]) - (p1 + above[1])
            free0, free1 = active[0] - p0, active[1] - p1
            for k0 in (range(free0 + 1) if face > 1 else (free0,)):
                w0 = ways * comb(free0, k0)
                for k1 in (range(free1 + 1) if face > 1 else (free1,)):
                    a, b = k0 + shown[0], k1 + shown[1]
                    new_first, new0, new1 = winner, wins0, wins1
                    if ahead > 0 and b:
                        won = min(ahead, b)
                        new0 += won
                        new_first = 0 if new_first is None else new_first
                    elif ahead < 0 and a:
                        won = min(-ahead, a)
                        new1 += won
                        new_first = 1 if new_first is None else new_first
                    key = (p0 + k0, p1 + k1, new_first, new0, new1)
                    grown[key] = grown.get(key, 0) + w0 * comb(free1, k1)
        states = grown
    total = 1
    for d in first.dice + second.dice:
        total *= d
    found: dict[Outcome, int] = {}
    for (_, _, winner, wins0, wins1), ways in states.items():
        outcome = _result(winner, (wins0, wins1))
        found[outcome] = found.get(outcome, 0) + ways
    return {outcome: Fraction(ways, total) for outcome, ways in sorted(found.items())}


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
