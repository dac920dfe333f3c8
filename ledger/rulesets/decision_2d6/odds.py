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
from functools import lru_cache
from typing import Any, Sequence

import icepool

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger.odds import Dist, at_least, from_die
from campaign_ledger.ledger.rulesets.decision_2d6 import rules as d2

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


# --- Contested rolls (seed 004 "Contested Rolls", "Resolving a Tie") ---------------------------------

def _sign(d: int) -> int:
    return (d > 0) - (d < 0)


@lru_cache(maxsize=None)
def _race(lead: int, first: int, second: int) -> tuple[Fraction, Fraction, Fraction]:
    """P(first total higher, tied, lower) when the first is `lead` ahead and each side still has this many
    exploding chains to roll. Exact with no depth cap: a pair of sixes leaves the state as it was (solved
    as a geometric series), every other pair retires a chain, and a side with no chains left only
    needs the other side's smallest possible total compared with the lead."""
    if not first and not second:
        return tuple(Fraction(int(_sign(lead) == s)) for s in (1, 0, -1))  # type: ignore[return-value]
    if not second and lead + first > 0:  # every chain adds at least 1
        return Fraction(1), Fraction(0), Fraction(0)
    if not first and lead - second < 0:
        return Fraction(0), Fraction(0), Fraction(1)
    faces = range(1, d2.DIE_MAX + 1)
    top = d2.DIE_MAX
    if first and second:
        pairs = [(x, y) for x in faces for y in faces if (x, y) != (top, top)]
        weight = Fraction(1, len(faces) ** 2) / (1 - Fraction(1, len(faces) ** 2))
        moves = [(lead + x - y, first - (x < top), second - (y < top)) for x, y in pairs]
    elif first:
        weight = Fraction(1, len(faces))
        moves = [(lead + x, first - (x < top), 0) for x in faces]
    else:
        weight = Fraction(1, len(faces))
        moves = [(lead - y, 0, second - (y < top)) for y in faces]
    totals = [Fraction(0)] * 3
    for move in moves:
        for k, p in enumerate(_race(*move)):
            totals[k] += weight * p
    return totals[0], totals[1], totals[2]


def contest_odds(first: d2.Contestant, second: d2.Contestant) -> dict[str, Any]:
    """A contested roll: who wins the first roll (or ties), who wins in the end (a tie rerolls only the
    dice, so the end is the first roll's odds without its ties), and the rolls expected."""
    lead = _offset(first.stat, first.modifiers, first.advantage) - _offset(second.stat, second.modifiers,
                                                                            second.advantage)
    if abs(lead) > FARTHEST:
        raise BadInput(f"The sides' totals start more than {FARTHEST} apart; the contest is decided before "
                       "the dice (the other side's chance is under 1 in 10^30).")
    higher, tie, lower = _race(lead, first.advantage.decision_dice, second.advantage.decision_dice)
    decided = higher + lower
    return {"first_roll": {"first": higher, "tie": tie, "second": lower},
            "wins": {"first": higher / decided, "second": lower / decided},
            "expected_rolls": 1 / decided}


# --- D100 trackers (seed 004 "D100 or Percentage"; the ruling at rules.d100_use) --------------------

def _use(value: int, step: int) -> dict[tuple[bool, int], Fraction]:
    """One use of a tracker at `value`, as the rules decide it for each d100 face: (supplied, after)."""
    return from_die(icepool.d(100).map(lambda face: (lambda u: (u.supplied, u.tracker.value))(
        d2.d100_use(d2.D100Tracker(value), face, step))))


def tracker_odds(value: int, step: int) -> dict[str, Any]:
    """The chance the next use goes ahead, the uses it has left before it runs out (at 0% it refuses
    a use), exact; when a use costs no points the count has no end: the chart stops at a tail."""
    if value == 0:
        return {"next_use": None, "uses": {0: Fraction(1)}, "uses_at_least": {0: Fraction(1)},
                "tail": None, "expected_uses": Fraction(0)}
    expected = _expected_uses(value, step)
    uses: dict[int, Fraction] = {}
    going, n = {value: Fraction(1)}, 0  # trackers still usable after n uses, by value
    while expected is not None and going and sum(going.values()) >= TAIL:  # None: it never runs out
        after: dict[int, Fraction] = {}
        for v, p in going.items():
            for (supplied, left), q in _use(v, step).items():
                if supplied and left > 0:
                    after[left] = after.get(left, Fraction(0)) + p * q
                else:
                    count = n + supplied
                    uses[count] = uses.get(count, Fraction(0)) + p * q
        going, n = after, n + 1
    rest = sum(going.values(), Fraction(0))
    return {"next_use": sum((q for (supplied, _), q in _use(value, step).items() if supplied), Fraction(0)),
            "uses": dict(sorted(uses.items())),
            "uses_at_least": {k: p + rest for k, p in at_least(uses).items()},
            "tail": {"from": n, "probability": rest} if rest else None,
            "expected_uses": expected}


@lru_cache(maxsize=None)
def _expected_uses(value: int, step: int) -> Fraction | None:
    """E[uses] = P(go ahead) x (1 + E[uses at the value left]); a use that costs nothing repeats the
    same state, so E = p / (1 - p) there; None when it never runs out (100% and no step)."""
    use = _use(value, step)
    p = sum((q for (supplied, _), q in use.items() if supplied), Fraction(0))
    left = max(value - step, 0)
    if left == value:
        return None if p == 1 else p / (1 - p)
    rest = _expected_uses(left, step) if left > 0 else Fraction(0)
    return None if rest is None else p * (1 + rest)
