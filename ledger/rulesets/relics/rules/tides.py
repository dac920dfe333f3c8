"""Relics of the Moon: after the Cohort turn (seed 000 steps 7-8, seed 001 "Destiny and Doom").

Successes resolve the Challenge's dice toward its rating; criticals and overpowering successes
raise Destiny (capped at 3 x PCs, the excess lost), botches and overpowering successes Doom; a
Common Threat moves neither. The Hand of Doom's price is Doom spent.
"""
from __future__ import annotations

from campaign_ledger.ledger.rulesets.relics.rules.results import Tally
from campaign_ledger.ledger.rulesets.relics.rules.versions import RulesVersion

HAND_OF_DOOM_COST = 5  # 001 "The Hand of Doom"


def dice_resolved(rating: int, resolved: int, successes: int) -> int:
    """Each success resolves one die; resolved dice never exceed the rating."""
    return max(0, min(successes, rating - resolved))


def tides(rules: RulesVersion, result: Tally, threat: str, pcs: int) -> tuple[int, int]:
    """Destiny and Doom gained on a Cohort turn; none against a Common Threat."""
    if threat == "Common":
        return 0, 0
    per_over = pcs if rules.destiny_per_overpowering is None else rules.destiny_per_overpowering
    destiny = result.criticals + per_over * result.overpowering
    doom = result.botches + result.major_botches + result.overpowering
    return destiny, doom


def cap_destiny(current: int, gain: int, cap: int) -> tuple[int, int]:
    """Return (applied, lost): Destiny never exceeds 3 x PCs and the excess is lost."""
    applied = max(0, min(gain, cap - current))
    return applied, gain - applied
