"""Relics of the Moon: Stress and Agony (seed 001 "Stress and Agony", "Removing Stress/Agony").

How a Challenge's Stress is shared out, Stressed Out and Pushing the Limit, out of the game at
Agony, the set recovery at a Scene's end, and the growth Agony buys.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.relics.rules.modifiers import Modifier, ranked_simple
from campaign_ledger.ledger.rulesets.relics.rules.versions import RulesVersion

HAND_OF_DOOM_STRESS = 2  # unavoidable, for each PC
DOWNTIME_STRESS = 3  # extended downtime, for each PC


def check_distribution(stress: int, distribution: Mapping[str, int], group: Sequence[str],
                       what: str | None = None) -> None:
    """A distribution of Stress (taken or recovered) names the PCs concerned and adds up."""
    strangers = [name for name in distribution if name not in group]
    if strangers:
        raise RuleViolation(f"{strangers[0]} is not facing this Challenge and cannot take its Stress." if what is None
                            else f"{strangers[0]} is not among the PCs in play.")
    if any(n < 0 for n in distribution.values()):
        raise BadInput("Stress given to a PC cannot be negative.")
    if sum(distribution.values()) != stress:
        raise RuleViolation(f"{what or f'The Challenge scored {stress} Stress'}; the distribution adds up to "
                            f"{sum(distribution.values())}.")


# --- Stress and Agony (001 Stress and Agony) -----------------------------------------------

def stressed_out(rules: RulesVersion, stress: int) -> bool:
    return stress >= rules.stressed_out_at


def push_the_limit(rules: RulesVersion, stress: int) -> int:
    """Stress rolls over: 12 becomes 2."""
    if stress < rules.stressed_out_at:
        raise RuleViolation(f"Only a Stressed Out PC ({rules.stressed_out_at}+ Stress) can Push the Limit.")
    return stress - rules.stressed_out_at


def out_of_the_game(rules: RulesVersion, agony: int) -> bool:
    return agony >= rules.agony_out_at


def set_recovery(stallion_ranks: Sequence[int]) -> int:
    """The set amount at a Scene's end: 1 Stress per PC with Stallion rank 2+."""
    return sum(1 for rank in stallion_ranks if rank >= 2)


def growth_bonus(rules: RulesVersion, agony: int) -> list[Modifier]:
    """k Agony add one Beneficial ranked Simple modifier of rank k (ruling; at most rank 5)."""
    return [ranked_simple(rules, min(agony, max(rules.ranked_simple)))] if agony else []
