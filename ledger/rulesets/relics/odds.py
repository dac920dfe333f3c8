"""Relics of the Moon: exact odds of a pool before its faces, Simple modifiers placed as --best does.

The dice are counted by icepool (a multiset evaluator over the rolled d6); the one thing icepool
cannot express, the optimal placement of Simple modifiers, is the rules' own `best_placement`,
called once per distinct set of dice that can matter to it. A placement touches at most one die
per part of each side's modifiers, so beyond that many copies of a face the extra copies are
never touched: they are tallied as they are, and the placement is searched on the rest only.
Every figure comes from `ledger.rulesets.relics.rules` (tally, tides, the Destiny cap, dice resolved).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping, Sequence

import icepool

from ledger.odds import Dist, at_least, chance, marginal, mean, percent
from ledger.rulesets.relics import rules as relics

Key = tuple[int, int, int, int, int]  # successes, criticals, overpowering, botches, major botches
FACES = 6


@dataclass(frozen=True)
class Pool:
    """A pool before its faces: dice to roll, the Auto Result faces, the Simple modifiers to place."""

    rolled: int
    autos: tuple[int, ...] = ()
    simple: tuple[relics.Modifier, ...] = ()

    @property
    def parts(self) -> int:
        """How many dice the Simple modifiers can touch at most (one part per die and side)."""
        return sum(m.dice for m in self.simple)


def _key(t: relics.Tally) -> Key:
    return t.successes, t.criticals, t.overpowering, t.botches, t.major_botches


def _tally(key: Key) -> relics.Tally:
    return relics.Tally((), *key)


@lru_cache(maxsize=65536)
def resolve(dice: tuple[int, ...], simple: tuple[relics.Modifier, ...]) -> Key:
    """What --best makes of these dice: the rules' placement, then the rules' tally."""
    placement = relics.best_placement(dice, simple, {})
    return _key(relics.tally(relics.apply_simple(dice, simple, placement)))


@lru_cache(maxsize=None)
def _face_key(face: int) -> Key:
    return _key(relics.tally((face,)))


class _Evaluator(icepool.MultisetEvaluator):
    """Walks the rolled faces one value at a time: keeps up to `parts` copies for the placement,
    tallies the rest as they fall (a die no modifier can reach counts as rolled)."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool

    def initial_state(self, order: Any, outcomes: Any, *sizes: Any) -> tuple:
        return (), (0, 0, 0, 0, 0)

    def next_state(self, state: tuple, order: Any, face: int, count: int) -> tuple:
        kept, extra = state
        keep = min(count, self.pool.parts)
        spare = tuple(e + (count - keep) * f for e, f in zip(extra, _face_key(face)))
        return kept + (face,) * keep, spare

    def final_outcome(self, state: tuple, *_: Any) -> Key:
        kept, extra = state
        placed = resolve(self.pool.autos + kept, self.pool.simple)
        return tuple(a + b for a, b in zip(placed, extra))  # type: ignore[return-value]


def outcomes(pool: Pool) -> Dist:
    """The joint distribution of the tally (successes, criticals, overpowering, botches, major)."""
    if pool.rolled < 0:
        raise ValueError("a pool rolls 0 dice or more")
    if pool.rolled == 0:
        return {resolve(pool.autos, pool.simple): Fraction(1)}
    die = _Evaluator(pool).evaluate(icepool.d(FACES).pool(pool.rolled))
    total = die.denominator()
    return {outcome: Fraction(q, total) for outcome, q in die.items() if q}


def summary(joint: Dist) -> dict[str, Any]:
    """What any side's roll can come to: net successes, Disaster, expected criticals and botches."""
    successes = marginal(joint, lambda k: k[0])
    return {
        "successes": successes,
        "at_least": at_least(successes),
        "disaster": chance(joint, lambda k: _tally(k).disaster),
        "expected": {"successes": mean(successes), "criticals": mean(joint, lambda k: k[1]),
                     "overpowering": mean(joint, lambda k: k[2]), "botches": mean(joint, lambda k: k[3]),
                     "major_botches": mean(joint, lambda k: k[4])},
    }


@dataclass(frozen=True)
class CohortContext:
    """What the Tides and the rating need: the campaign's rules and where things stand."""

    rules: relics.RulesVersion
    threat: str
    pcs: int
    destiny: int  # Destiny in the pool now (after any spent in the Huddle)
    rating: int
    resolved: int
    needed: int | None = None  # a Test: the successes it needs to pass


def cohort_odds(pool: Pool, context: CohortContext) -> dict[str, Any]:
    """A Cohort turn: the summary, the Tides (capped Destiny, Doom), dice resolved toward the rating."""
    joint = outcomes(pool)
    cap = context.rules.destiny_cap_per_pc * context.pcs

    def tides(k: Key) -> tuple[int, int, int]:
        destiny, doom = relics.tides(context.rules, _tally(k), context.threat, context.pcs)
        applied, lost = relics.cap_destiny(context.destiny, destiny, cap)
        return applied, doom, lost

    resolved = marginal(joint, lambda k: relics.dice_resolved(context.rating, context.resolved, k[0]))
    unresolved = context.rating - context.resolved
    return {
        **summary(joint),
        "destiny": marginal(joint, lambda k: tides(k)[0]),
        "doom": marginal(joint, lambda k: tides(k)[1]),
        "expected_tides": {"destiny": mean(joint, lambda k: tides(k)[0]), "doom": mean(joint, lambda k: tides(k)[1]),
                           "destiny_lost_to_cap": mean(joint, lambda k: tides(k)[2])},
        "resolved": resolved,
        "resolves_challenge": chance(resolved, lambda n: unresolved > 0 and n == unresolved),
        "passes_test": None if context.needed is None else chance(joint, lambda k: k[0] >= context.needed),
    }


def challenge_odds(pool: Pool) -> dict[str, Any]:
    """A Challenge turn: each success is one Stress for the group facing it (none on 0 or less)."""
    joint = outcomes(pool)
    stress = marginal(joint, lambda k: max(k[0], 0))
    return {**summary(joint), "stress": stress, "expected_stress": mean(stress)}


def pending_pool(pending: Mapping[str, Any]) -> Pool:
    """The pool a Challenge waits on (its PoolBuilt state): dice to roll, autos, Simple modifiers."""
    autos = tuple(pending.get("autos", ()))
    simple = tuple(relics.parse_modifier(a["modifier"], a["polarity"]) for a in pending.get("simple", ()))
    return Pool(pending["pool"]["size"] - len(autos), autos, simple)


def pool_line(pending: Mapping[str, Any]) -> str:
    """One line for `campaign status`: the dice, what waits to be placed, and the odds that matter."""
    pool = pending_pool(pending)
    odds = summary(outcomes(pool))
    autos = f" + auto results {list(pool.autos)}" if pool.autos else ""
    placing = "; to place: " + ", ".join(f"{a['label']} {a['modifier']}" for a in pending.get("simple", ())) \
        if pending.get("simple") else ""
    first = "at least 1 Stress" if pending.get("side") == "challenge" else "at least 1 success"
    return (f"Pool: {pool.rolled}d6 to roll{autos}{placing}. Odds: {first} "
            f"{percent(odds['at_least'].get(1, Fraction(0)))}, Disaster {percent(odds['disaster'])}.")
