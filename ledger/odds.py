"""Odds before the dice: exact probabilities, one pure module per ruleset.

Why here and pure: a GM asks before rolling whether a Destiny is worth spending, so the
answer must be the one the dice will be judged by. Each module computes over its ruleset's
own resolver in `ledger/rulesets/<ruleset>/rules` (never a restated rule), through icepool wherever
icepool can express the question. No I/O, no eventsourcing: the CLI builds the pool and prints the answer.
Probabilities are `Fraction`s; `--json` writes them as "767/1296", text as percentages.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Hashable, Mapping, TypeVar

K = TypeVar("K", bound=Hashable)
Dist = dict[Any, Fraction]  # outcome -> exact probability; the values add up to 1


def from_die(die: Any) -> Dist:
    """An icepool Die as {outcome: Fraction}, outcomes in order."""
    total = die.denominator()
    return {outcome: Fraction(quantity, total) for outcome, quantity in die.items() if quantity}


def marginal(joint: Mapping[Any, Fraction], key: Callable[[Any], K]) -> dict[K, Fraction]:
    """Collapse a joint distribution onto one figure of each outcome, sorted by that figure."""
    result: dict[K, Fraction] = {}
    for outcome, p in joint.items():
        k = key(outcome)
        result[k] = result.get(k, Fraction(0)) + p
    return dict(sorted(result.items()))


def at_least(dist: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """P(result >= k) for every k the distribution reaches: what a GM asks ("at least 2?")."""
    result: dict[int, Fraction] = {}
    tail = Fraction(0)
    for k in sorted(dist, reverse=True):
        tail += dist[k]
        result[k] = tail
    return dict(sorted(result.items()))


def mean(dist: Mapping[Any, Fraction], value: Callable[[Any], Any] = lambda x: x) -> Fraction:
    """The expected value of a figure of the outcome (exact)."""
    return sum((Fraction(value(k)) * p for k, p in dist.items()), Fraction(0))


def chance(dist: Mapping[Any, Fraction], event: Callable[[Any], bool]) -> Fraction:
    """P(event) over a distribution."""
    return sum((p for k, p in dist.items() if event(k)), Fraction(0))


def percent(p: Fraction) -> str:
    """A probability as a GM reads it: 87.2%, and never 0.0% or 100.0% for what can still happen."""
    value = float(p) * 100
    if 0 < value < 0.05:
        return "<0.1%"
    if 99.95 <= value < 100:
        return ">99.9%"
    return f"{value:.1f}%"
