"""decision-2d6: what is added to a roll (seed 004 "Key Terms", "Advantage", "Gaining Advantage").

Bonuses, penalties and plain modifiers with their sign rules, and the five-step advantage scale
(Major Advantage a third decision die, Minor +3, Neutral, Minor -3, Major Disadvantage one die).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Sequence

from campaign_ledger.ledger.errors import BadInput


def whole(value: object, what: str) -> int:
    """Accept a whole number only, so a typo never silently becomes a die face or a stat."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"The {what} must be a whole number, not '{value}'.")
    return value


# --- Modifiers: seed "Key Terms" -----------------------------------------------------------

class ModifierKind(Enum):
    """What the rule text states: a bonus, a penalty, or a plain modifier (either sign)."""

    BONUS = "bonus"
    PENALTY = "penalty"
    MODIFIER = "modifier"


@dataclass(frozen=True)
class Modifier:
    """A stated modifier; a penalty is written with its sign (-2), as at the table."""

    value: int
    kind: ModifierKind = ModifierKind.MODIFIER

    @property
    def counted(self) -> int:
        """The value that counts: a negative bonus is 0, a positive penalty is 0 (Key Terms)."""
        value = whole(self.value, f"{self.kind.value} value")
        if self.kind is ModifierKind.BONUS:
            return max(value, 0)
        if self.kind is ModifierKind.PENALTY:
            return min(value, 0)
        return value


def bonus(value: int) -> Modifier:
    """A stated bonus; it never lowers a roll."""
    return Modifier(value, ModifierKind.BONUS)


def penalty(value: int) -> Modifier:
    """A stated penalty; it never raises a roll."""
    return Modifier(value, ModifierKind.PENALTY)


def counted_modifiers(modifiers: Sequence[Modifier | int]) -> int:
    """Sum of what the modifiers count for; a plain int is a plain modifier."""
    return sum(m.counted if isinstance(m, Modifier) else Modifier(m).counted for m in modifiers)


# --- Advantage scale: seed "Advantage", "Gaining Advantage" --------------------------------

class Advantage(IntEnum):
    """The five-step scale; the value is the position, Neutral at 0."""

    MAJOR_DISADVANTAGE = -2
    MINOR_DISADVANTAGE = -1
    NEUTRAL = 0
    MINOR_ADVANTAGE = 1
    MAJOR_ADVANTAGE = 2

    @property
    def decision_dice(self) -> int:
        """Major Advantage rolls 3d6 (all summed), Major Disadvantage 1d6, the rest 2d6."""
        return {2: 3, -2: 1}.get(self.value, 2)

    @property
    def flat_modifier(self) -> int:
        """Minor Advantage is +3, Minor Disadvantage -3; the Major steps change dice only."""
        return {1: 3, -1: -3}.get(self.value, 0)


def shift_advantage(level: Advantage, steps: int) -> Advantage:
    """Move along the scale, clamped: a grant at Major Advantage changes nothing (seed)."""
    position = level + whole(steps, "number of advantage steps")
    return Advantage(max(Advantage.MAJOR_DISADVANTAGE, min(Advantage.MAJOR_ADVANTAGE, position)))


def grant_advantage(level: Advantage, grants: int = 1) -> Advantage:
    """Each effect that "grants advantage" moves one step in the user's favour."""
    return shift_advantage(level, grants)
