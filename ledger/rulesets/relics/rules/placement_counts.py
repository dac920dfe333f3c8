"""Relics of the Moon: the rules' `best_placement` worked on counts of equal results, for the odds.

Why: the odds resolve thousands of face multisets, and the rules' search walks die by die. Dice
showing the same result are interchangeable, so the same search can walk result by result: for
each result (lowest first) it decides how many of its dice take each value. The offer is the same:
the best score (net successes, then fewest botches, then most criticals, as the rules weigh it),
and among equal scores the rules' first-kept choice (a lower die left alone before a higher one,
then the smaller value first), which, with the dice sorted by result, is: at the lowest result,
the most dice left alone, then the most taking the first value, and so on. Checked against
`best_placement` on every multiset of a few dice (tests/test_odds_relics_counts.py).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Mapping, Sequence

from campaign_ledger.ledger.rulesets.relics.rules.modifiers import BENEFICIAL, HINDERING, Modifier
from campaign_ledger.ledger.rulesets.relics.rules.results import successes_of

Counts = tuple[tuple[int, int], ...]  # (result, how many dice show it), results ascending
Key = tuple[int, int, int, int, int]  # successes, criticals, overpowering, botches, major botches


@lru_cache(maxsize=4096)
def tally_of(counts: Counts) -> Key:
    """The rules' tally of dice given as counts of each result."""
    s = c = o = b = m = 0
    for result, k in counts:
        level = successes_of(result)
        s += level * k
        c += k * (level == 2)
        o += k * (level == 3)
        b += k * (level == -1)
        m += k * (level == -2)
    return s, c, o, b, m


WEIGHT = 1001  # any weight over twice the dice orders scores as the rules' 2n+3 does (a pool is at most 100 + autos)


def resolve(counts: Counts, simple: Sequence[Modifier]) -> Key:
    """The tally after both sides place their Simple modifiers as --best offers (Hindering first)."""
    n = sum(k for _, k in counts)
    sides = _sides(tuple(simple)) if n else ()
    for number, (values, have, sign) in enumerate(sides):
        final = number == len(sides) - 1
        found = _best(counts, have, min(sum(have), n), values, sign, final)
        assert found is not None  # need <= n: every side's parts fit
        if final:
            return found[1]  # type: ignore[return-value]
        counts = found[1]  # type: ignore[assignment]
    return tally_of(counts)


def resolve_lowest(lowest: int, sizes: Sequence[int], rest: Counts, simple: tuple[Modifier, ...]) -> list[Key]:
    """`resolve` of ((lowest, k),) + rest for each k in sizes (every result in rest above `lowest`): the
    first side's search below `rest` is shared, which is most of the odds' work."""
    sides = _sides(simple)
    if not sides:
        return [resolve(((lowest, k),) + rest if k else rest, simple) for k in sizes]
    values, have, sign = sides[0]
    final = len(sides) == 1
    above = sum(k for _, k in rest)
    keys = []
    for size in sizes:
        n = size + above
        need = min(sum(have), n)
        if not size or not n:
            found = _best(rest, have, need, values, sign, final) if n else (0, (0, 0, 0, 0, 0) if final else ())
        else:
            top: tuple[int, tuple[int, ...], object] | None = None
            for y, placed, left_after in _splits(size, have, need, above):
                sub = _best(rest, left_after, need - placed, values, sign, final)
                if sub is not None:
                    total = sub[0] + _gain(lowest, size, y, values, sign)
                    if top is None or total > top[0]:
                        top = (total, y, sub[1])
            assert top is not None
            found = (top[0], _joined(_placed(lowest, size, top[1], values), top[2], final))
        if final:
            keys.append(found[1])  # type: ignore[arg-type]
        else:
            keys.append(resolve(found[1], tuple(m for m in simple if m.polarity == BENEFICIAL)))  # type: ignore[arg-type]
    return keys


def _joined(here: Counts, after: object, final: bool) -> object:
    """The dice of one result after placing, with what the search left above them (tally or results)."""
    if final:
        return tuple(a + b for a, b in zip(tally_of(here), after))  # type: ignore[call-overload]
    merged: dict[int, int] = dict(after)  # type: ignore[call-overload]
    for r, k in here:
        merged[r] = merged.get(r, 0) + k
    return tuple(sorted((r, k) for r, k in merged.items() if k))


@lru_cache(maxsize=1 << 16)
def _sides(simple: tuple[Modifier, ...]) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]:
    """Each side that places, in the rules' order (Hindering first): its values, parts of each, sign."""
    found = []
    for polarity, sign in ((HINDERING, -1), (BENEFICIAL, 1)):
        mods = [m for m in simple if m.polarity == polarity]
        if mods:
            values = tuple(sorted({m.signed for m in mods}))
            found.append((values, tuple(sum(m.dice for m in mods if m.signed == v) for v in values), sign))
    return tuple(found)


@lru_cache(maxsize=1 << 16)
def _splits(size: int, left: tuple[int, ...], need: int, above: int) -> tuple[tuple[tuple[int, ...], int, tuple[int, ...]], ...]:
    """How a result's `size` dice may take values, in the rules' order of preference: fewest placed
    first (a lower die is left alone first), then the most of the first value, and so on. Each as
    (dice taking each value, dice placed, values left)."""
    ranges = [range(min(l, size, need), -1, -1) for l in left]
    found = [y for y in product(*ranges) if sum(y) <= min(size, need) and above >= need - sum(y)]
    return tuple((y, sum(y), tuple(l - t for l, t in zip(left, y))) for y in sorted(found, key=sum))


@lru_cache(maxsize=1 << 16)
def _gain(result: int, size: int, y: tuple[int, ...], values: tuple[int, ...], sign: int) -> int:
    """The score of `size` dice showing `result` when y of them take each value (the rules' weighing)."""
    def score(r: int) -> int:
        s = successes_of(r)
        return sign * ((s * WEIGHT - (s < 0)) * WEIGHT + (s >= 2))
    return (size - sum(y)) * score(result) + sum(t * score(result + v) for t, v in zip(y, values))


@lru_cache(maxsize=1 << 18)  # bounded: a shell or the live page asks about many pools in one process
def _best(counts: Counts, left: tuple[int, ...], need: int, values: tuple[int, ...], sign: int,
          final: bool) -> tuple[int, object] | None:
    """The best score of the dice in `counts` (results ascending) with these values still to place,
    and what the rules' first-kept best placement leaves: its tally if `final`, else its results."""
    if not counts:
        return (0, (0, 0, 0, 0, 0) if final else ()) if need == 0 else None
    (result, size), rest = counts[0], counts[1:]
    top: tuple[int, tuple[int, ...], object] | None = None
    for y, placed, left_after in _splits(size, left, need, sum(k for _, k in rest)):
        sub = _best(rest, left_after, need - placed, values, sign, final)
        if sub is not None:
            total = sub[0] + _gain(result, size, y, values, sign)
            if top is None or total > top[0]:
                top = (total, y, sub[1])
    if top is None:
        return None
    total, y, after = top
    return total, _joined(_placed(result, size, y, values), after, final)


@lru_cache(maxsize=1 << 16)
def _placed(result: int, size: int, y: tuple[int, ...], values: tuple[int, ...]) -> Counts:
    return ((result, size - sum(y)),) + tuple((result + v, t) for t, v in zip(y, values))


def counts_of(results: Sequence[int]) -> Counts:
    found: Mapping[int, int] = {}
    for r in results:
        found[r] = found.get(r, 0) + 1  # type: ignore[index]
    return tuple(sorted(found.items()))
