"""Relics of the Moon: building a pool (seed 000 steps 2-3, seed 001 Expertise, Destiny, Auto Result).

The Cohort's dice (the leader's and assistants' Expertise, Add Dice, Destiny up to 3 x PCs) and
the Auto Results both sides' pools start with, the Threat's among them on a Challenge turn.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.relics.rules.modifiers import BENEFICIAL, HINDERING, Modifier
from campaign_ledger.ledger.rulesets.relics.rules.versions import RulesVersion


def lead_dice(rules: RulesVersion, rank: int, primary_matches: bool) -> int:
    """Rank 1 or none cannot lead in any version; 0.2.0 gives a matching Primary +3d6."""
    if rank not in rules.lead_dice:
        raise RuleViolation("A leader needs rank 2 or more in the Challenge's type.")
    if rules.primary_lead_dice is not None and primary_matches:
        return rules.primary_lead_dice
    return rules.lead_dice[rank]


def assist_dice(rules: RulesVersion, rank: int) -> int:
    return rules.assist_dice.get(rank, 0)


@dataclass(frozen=True)
class CohortPool:
    expertise: int
    hindering_add: int
    beneficial_add: int
    destiny: int
    size: int
    cap: int
    lost_to_cap: int


def build_cohort_pool(expertise: int, adds: Sequence[Modifier], destiny: int,
                      destiny_available: int, cap: int) -> CohortPool:
    """base = expertise - Hindering + Beneficial Add Dice, floor 0; Destiny 1:1 up to the cap."""
    hindering = sum(m.amount for m in adds if m.polarity == HINDERING)
    beneficial = sum(m.amount for m in adds if m.polarity == BENEFICIAL)
    base = max(0, expertise - hindering + beneficial)
    if destiny < 0:
        raise BadInput("Destiny spent on dice cannot be negative.")
    if destiny > destiny_available:
        raise RuleViolation(f"The Destiny pool holds {destiny_available}; you cannot spend {destiny}.")
    if destiny and base + destiny > cap:
        raise RuleViolation(f"The pool would be {base + destiny} dice; it may not exceed {cap} (3 x PCs).")
    size = min(base + destiny, cap)
    return CohortPool(expertise, hindering, beneficial, destiny, size, cap, base + destiny - size)


# --- Auto Results (000 step 3, 001 Auto Result) -------------------------------------------

def place_auto_results(size: int, hindering: Sequence[Modifier], beneficial: Sequence[Modifier],
                       base: Sequence[int] = ()) -> tuple[tuple[int, ...], int]:
    """Return the auto faces (they occupy the first dice) and how many parts were lost.

    Each part takes a die without an Auto Result while one is left, else it replaces one:
    a Hindering part the highest, a Beneficial part the lowest (A5 before A6, 000 step 3).
    """
    autos = list(base[:size])
    lost = 0
    parts = [(m.amount, HINDERING) for m in hindering for _ in range(m.dice)]
    parts += sorted((m.amount, BENEFICIAL) for m in beneficial for _ in range(m.dice))
    for value, polarity in parts:
        if len(autos) < size:
            autos.append(value)
        elif autos:
            pick = max if polarity == HINDERING else min
            autos[autos.index(pick(autos))] = value
        else:
            lost += 1
    return tuple(autos), lost


# --- The Challenge turn's Auto Results (000 Challenge Turn, 001 Facing a Challenge) ---------

def threat_autos(rules: RulesVersion, threat: str, resolved: int) -> tuple[int, ...]:
    return (rules.threat_auto[threat],) * resolved
