"""decision-2d6: derived stats (seed 004 "The Rounding Rule": round down only at the end)."""
from __future__ import annotations

from campaign_ledger.ledger.rulesets.decision_2d6.rules.modifiers import whole


def _half_plus_half(level: int, other: int) -> int:
    """½ Level + ½ other, rounded down only at the end (halving first would lose a half)."""
    return (whole(level, "level") + other) // 2


def stress(level: int, will: int) -> int:
    """Stress = floor((Level + Will) / 2)."""
    return _half_plus_half(level, whole(will, "Will"))


def vitality(level: int, fort: int) -> int:
    """Vitality = floor((Level + Fort) / 2)."""
    return _half_plus_half(level, whole(fort, "Fort"))
