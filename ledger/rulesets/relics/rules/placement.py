"""Relics of the Moon: placing Simple modifiers on the dice (seed 000 step 5, seed 001 "Simple").

The stacking rules (one modifier of each polarity per die, every part placed while a die can
take it) and `best_placement`, the exact search behind `--best` and the odds of the offered play.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Mapping, Sequence

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.relics.rules.modifiers import BENEFICIAL, HINDERING, Modifier
from campaign_ledger.ledger.rulesets.relics.rules.results import successes_of

Placement = Mapping[int, Sequence[int]]  # modifier index -> 0-based dice positions


def apply_simple(faces: Sequence[int], mods: Sequence[Modifier], placement: Placement,
                 strict: bool = True) -> tuple[int, ...]:
    """Check a placement against the stacking rules and return the final results.

    Not `strict`: the GM has overridden the stacking rules; only dice off the pool are refused.
    """
    results = list(faces)
    for polarity in (HINDERING, BENEFICIAL):
        used: set[int] = set()
        parts = sum(m.dice for m in mods if m.polarity == polarity)
        for index, mod in enumerate(mods):
            if mod.polarity != polarity:
                continue
            dice = list(placement.get(index, ()))
            if strict:
                _check_dice(mod, dice, len(results), used)
            elif any(not 0 <= d < len(results) for d in dice):
                raise BadInput(f"The pool has dice 1 to {len(results)}; {mod} was placed off it.")
            used.update(dice)
            for d in dice:
                results[d] += mod.signed
        if strict and len(used) < min(parts, len(results)):
            raise RuleViolation(f"Every {polarity} Simple modifier must be placed while a die can take it.")
    return tuple(results)


def _check_dice(mod: Modifier, dice: list[int], size: int, used: set[int]) -> None:
    if any(not 0 <= d < size for d in dice):
        raise BadInput(f"The pool has dice 1 to {size}; {mod} was placed off it.")
    if len(set(dice)) != len(dice):
        raise RuleViolation(f"{mod} must go on {mod.dice} different dice.")
    if len(dice) > mod.dice:
        raise RuleViolation(f"{mod} goes on {mod.dice} {'die' if mod.dice == 1 else 'dice'}, not {len(dice)}.")
    if used.intersection(dice):
        raise RuleViolation(f"A die cannot carry two {mod.polarity} Simple modifiers.")


def best_placement(faces: Sequence[int], mods: Sequence[Modifier], given: Placement) -> dict[int, tuple[int, ...]]:
    """Complete a placement: each side places what it has not placed, best for itself.

    Hindering parts go where they cost the pool most, then Beneficial parts where they
    gain most: net successes first, then fewest botches, then most criticals.
    """
    placement = {i: tuple(d) for i, d in given.items()}
    for polarity, sign in ((HINDERING, -1), (BENEFICIAL, 1)):
        current = list(faces)
        for i, dice in placement.items():
            # Only dice not yet taken by this side are offered, and only the GM's pieces
            # change those: the Cohort's own pieces sit on dice it already took.
            if mods[i].polarity == HINDERING:
                for d in dice:
                    current[d] += mods[i].signed
        open_mods = [i for i, m in enumerate(mods) if m.polarity == polarity and i not in placement]
        if open_mods:
            placement.update(_optimise(current, mods, placement, polarity, open_mods, sign))
    return placement


def _optimise(current: list[int], mods: Sequence[Modifier], placement: Placement, polarity: str,
              open_mods: list[int], sign: int) -> dict[int, tuple[int, ...]]:
    taken = {d for i, ds in placement.items() if mods[i].polarity == polarity for d in ds}
    # By value, not by the order the dice came up: among equally good placements the one
    # offered then depends on the faces alone, so the odds of --best play are well defined.
    free = sorted((d for d in range(len(current)) if d not in taken), key=lambda d: current[d])
    values = sorted({mods[i].signed for i in open_mods})
    counts = tuple(sum(mods[i].dice for i in open_mods if mods[i].signed == v) for v in values)
    parts_total = sum(m.dice for m in mods if m.polarity == polarity)
    need = min(parts_total, len(current)) - len(taken)
    chosen = _assign(tuple(current[d] for d in free), tuple(values), counts, need, sign)
    result: dict[int, list[int]] = {i: [] for i in open_mods}
    for die, value in zip(free, chosen):
        if value is None:
            continue
        index = next(i for i in open_mods if mods[i].signed == value and len(result[i]) < mods[i].dice)
        result[index].append(die)
    return {i: tuple(ds) for i, ds in result.items()}


def _assign(results: tuple[int, ...], values: tuple[int, ...], counts: tuple[int, ...],
            need: int, sign: int) -> list[int | None]:
    """Exact search (memoised) for the best value per die; pools are at most 3 x PCs dice.

    A score (net successes, then fewest botches, then most criticals) is one whole number
    whose order is that of the three, so the search adds numbers, not tuples; among equal
    scores the first option (leave the die, then the values in order) is kept.
    """
    weight = 2 * len(results) + 3  # each of the last two sums stays within +-len(results)

    def score(result: int) -> int:
        s = successes_of(result)
        return sign * ((s * weight - (s < 0)) * weight + (s >= 2))

    @lru_cache(maxsize=None)
    def best(i: int, left: tuple[int, ...], need_left: int) -> tuple[int, int]:
        if i == len(results):
            return (-10**18 if need_left > 0 else 0), -1
        top, pick = None, -1
        if len(results) - i > need_left:
            top = best(i + 1, left, need_left)[0] + score(results[i])
        if need_left > 0:
            for k, v in enumerate(values):
                if left[k]:
                    total = best(i + 1, left[:k] + (left[k] - 1,) + left[k + 1:], need_left - 1)[0] \
                        + score(results[i] + v)
                    if top is None or total > top:
                        top, pick = total, k
        return top, pick  # type: ignore[return-value]

    picks: list[int | None] = []
    left, need_left = counts, min(need, sum(counts))  # need <= 0 (all taken) places nothing
    for i in range(len(results)):
        k = best(i, left, need_left)[1]
        picks.append(None if k < 0 else values[k])
        if k >= 0:
            left, need_left = left[:k] + (left[k] - 1,) + left[k + 1:], need_left - 1
    return picks
