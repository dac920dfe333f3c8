"""decision-2d6: supply dice and D100 trackers (seed 004 "Supply Rolls", "D100 or Percentage").

A supply die steps down (D12 ... D4, Empty) on a roll at or under the threshold; an Empty item
refuses a use. The seed gives D100 trackers no procedure: see the ruling at `d100_use`.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Sequence

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.decision_2d6.rules.modifiers import whole

DEFAULT_SUPPLY_THRESHOLD = 3  # "Supply Rolls": "If the result is 3 or lower"
DEFAULT_D100_STEP = 10  # ruling: points a D100 tracker loses per use (campaign setting)


class SupplyDie(IntEnum):
    """Die sizes in order; the value is the number of sides (Empty has none)."""

    EMPTY = 0
    D4 = 4
    D6 = 6
    D8 = 8
    D10 = 10
    D12 = 12

    def lowered(self) -> SupplyDie:
        """One step down: D12, D10, D8, D6, D4, Empty."""
        order = list(SupplyDie)
        return order[max(order.index(self) - 1, 0)]


@dataclass(frozen=True)
class SupplyRoll:
    """One supply roll as a fact: the die before, the face, the die after."""

    before: SupplyDie
    face: int
    after: SupplyDie

    @property
    def lowered(self) -> bool:
        return self.after is not self.before


def supply_roll(die: SupplyDie, face: int,
                threshold: int = DEFAULT_SUPPLY_THRESHOLD) -> SupplyRoll:
    """A roll at or under the threshold lowers the die; an Empty item cannot be rolled."""
    if die is SupplyDie.EMPTY:
        raise RuleViolation("This item is empty, so it cannot be used for anything "
                            "that needs a supply roll.")
    if whole(threshold, "supply threshold") < 0:
        raise BadInput(f"The supply threshold cannot be negative, and {threshold} is.")
    if not 1 <= whole(face, "supply die face") <= die.value:
        raise BadInput(f"A {die.name} shows 1 to {die.value}; {face} is not a face of it.")
    return SupplyRoll(die, face, die.lowered() if face <= threshold else die)


def supply_rolls(die: SupplyDie, faces: Sequence[int],
                 threshold: int = DEFAULT_SUPPLY_THRESHOLD) -> tuple[SupplyRoll, ...]:
    """Several supply rolls, each handled on its own against the die as it then stands."""
    results: list[SupplyRoll] = []
    for face in faces:
        results.append(supply_roll(die, face, threshold))
        die = results[-1].after
    return tuple(results)


# --- D100 trackers: seed "D100 or Percentage" (the seed gives no procedure) ---------------

@dataclass(frozen=True)
class D100Tracker:
    """A percentage (0-100) with every d100 face rolled against it, in order."""

    value: int
    rolls: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not 0 <= whole(self.value, "tracker value") <= 100:
            raise BadInput(f"A percentage tracker runs from 0 to 100, not {self.value}.")


@dataclass(frozen=True)
class D100Use:
    """The outcome of one use: whether there was enough, and the tracker afterwards."""

    supplied: bool
    tracker: D100Tracker


def d100_use(tracker: D100Tracker, face: int, step: int = DEFAULT_D100_STEP) -> D100Use:
    """Ruling: the percentage is the chance there is still enough.

    Roll d100 (00 is 100). At or under the value, the use goes ahead and the tracker loses
    `step` points (a campaign setting, default 10). Over it, the supply has just run out:
    the use fails and the tracker drops to 0. At 0 the tracker refuses a use, like an Empty
    supply die.
    """
    if tracker.value == 0:
        raise RuleViolation("This tracker is at 0%, so it cannot be used until it is refilled.")
    if not 1 <= whole(face, "d100 face") <= 100:
        raise BadInput(f"A d100 shows 1 to 100; {face} is not a face of it.")
    if whole(step, "tracker step") < 0:
        raise BadInput(f"A tracker's step cannot be negative, and {step} is.")
    supplied = face <= tracker.value
    value = max(tracker.value - step, 0) if supplied else 0
    return D100Use(supplied, D100Tracker(value, tracker.rolls + (face,)))
