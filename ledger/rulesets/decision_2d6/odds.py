"""decision-2d6: exact odds of a decision roll (exploding dice, any advantage) and of supply dice.

Explosions have no depth cap in the game, and none here: an exploding die is followed (icepool's
`explode`) deep enough that every chain still exploding is already past every total asked about,
so each figure below the reported tail is exact, and the tail ("T or more") is the exact rest.
The mean is exact too: a chain is a face, plus a new chain whenever the face is the max.
Every rule (who explodes, advantage's dice and +-3, bonus and penalty signs, meeting the target,
supply steps) comes from `ledger.rulesets.decision_2d6.rules`.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

import icepool

from ledger.errors import BadInput
from ledger.odds import Dist, at_least, from_die
from ledger.rulesets.decision_2d6 import rules as d2

TAIL = Fraction(1, 10**6)  # the chart stops where what is left is rarer than one in a million
FARTHEST = 300  # dice totals past this are rarer than 1 in 10^30 on any roll; followed exactly, they only cost time


def _offset(stat: int, modifiers: Sequence[d2.Modifier | int], level: d2.Advantage) -> int:
    """What the rules add to the dice: a roll with no dice is exactly that (stat, counted, +-3)."""
    return d2.DecisionRoll(level, (), stat, d2.counted_modifiers(modifiers)).total


def _check_reach(needed: int) -> None:
    if needed > FARTHEST:
        raise BadInput(f"That target needs more than {FARTHEST} on the decision dice; no roll the game makes "
                       "gets there (the chance is under 1 in 10^30).")


def _chain(depth: int) -> icepool.Die:
    """One decision die and its explosions, `depth` extra dice deep (a deeper chain stops at the max)."""
    return icepool.d(d2.DIE_MAX).explode([d2.DIE_MAX], depth=depth)


def _exact_below(level: d2.Advantage, depth: int) -> int:
    """Dice totals below this are exact at `depth`: a cut chain alone already reaches it."""
    return d2.DIE_MAX * (depth + 1) + (level.decision_dice - 1)


def dice_totals(level: d2.Advantage, reach: int) -> tuple[Dist, int, Fraction]:
    """The decision dice's total: {total: p} exact for totals below the tail, the tail's start and mass.

    Deep enough for `reach` (a dice total that must be exact) and for a tail under TAIL.
    """
    depth = max(0, -(-reach // d2.DIE_MAX))
    while True:
        start = _exact_below(level, depth)
        dist = {k: p for k, p in from_die(level.decision_dice @ _chain(depth)).items() if k < start}
        tail = 1 - sum(dist.values())
        if tail < TAIL and start > reach:
            return dist, start, tail
        depth += 1


def chain_mean() -> Fraction:
    """E[chain] = E[face] + P(max) * E[chain], so E[face] / (1 - P(max)): 21/5 for a d6."""
    face = icepool.d(d2.DIE_MAX)
    return Fraction(face.mean()) / (1 - face.probability(d2.DIE_MAX))


def decision_odds(stat: int, modifiers: Sequence[d2.Modifier | int], level: d2.Advantage,
                  target: int | None) -> dict[str, Any]:
    """One decision roll: the totals (exact; the tail named), P(success) against the target, the mean."""
    offset = _offset(stat, modifiers, level)
    reach = (target - offset) if target is not None else 0
    _check_reach(reach)
    dice, start, tail = dice_totals(level, reach)
    totals = {k + offset: p for k, p in dice.items()}
    reached = {k: p + tail for k, p in at_least(totals).items()}  # every total in the tail is higher
    result: dict[str, Any] = {
        "totals": totals, "at_least": reached, "tail": {"from": start + offset, "probability": tail},
        "mean": level.decision_dice * chain_mean() + offset,
        "success": None if target is None else success(stat, modifiers, level, target),
    }
    return result


def success(stat: int, modifiers: Sequence[d2.Modifier | int], level: d2.Advantage, target: int) -> Fraction:
    """P(total meets the target), exact: every chain cut short is already past the target."""
    offset = _offset(stat, modifiers, level)
    _check_reach(target - offset)
    depth = max(0, -(-(target - offset) // d2.DIE_MAX))
    dice = level.decision_dice @ _chain(depth)
    return from_die(dice.map(lambda s: d2.succeeds(s + offset, target))).get(True, Fraction(0))


def every_level(stat: int, modifiers: Sequence[d2.Modifier | int], target: int | None) -> dict[str, Any]:
    """The same roll at each step of the advantage scale: P(success) and the mean."""
    return {level.name: {"success": None if target is None else success(stat, modifiers, level, target),
                         "mean": level.decision_dice * chain_mean() + _offset(stat, modifiers, level)}
            for level in sorted(d2.Advantage, reverse=True)}


def supply_odds(die: d2.SupplyDie, threshold: int) -> dict[str, Any]:
    """Supply dice: the chance the next roll steps the die down, and the uses expected before Empty."""
    if die is d2.SupplyDie.EMPTY:
        return {"step_down": None, "expected_uses": Fraction(0)}

    def after(size: int) -> Any:
        if size == d2.SupplyDie.EMPTY:
            return size  # Empty stays Empty: the supplies have run out
        current = d2.SupplyDie(size)
        return icepool.d(size).map(lambda face: int(d2.supply_roll(current, face, threshold).after))

    lowered = icepool.d(die.value).map(lambda face: d2.supply_roll(die, face, threshold).lowered)
    step = from_die(lowered).get(True, Fraction(0))
    never = any(from_die(icepool.d(s.value).map(lambda f, s=s: d2.supply_roll(s, f, threshold).lowered))
                .get(True, 0) == 0 for s in d2.SupplyDie if 0 < s.value <= die.value)
    uses = None if never else Fraction(icepool.mean_time_to_absorb(after, int(die)))
    return {"step_down": step, "expected_uses": uses}
