"""Beer Run: assembling and paying for a pool (seed "Assemble Dice Pool", "Extra Dice").

One die per category for 1 Intensity; k extra dice cost k(k+1)/2 more; an unaffordable pool is refused.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.beer_run.rules.abilities import DEFAULT_CATEGORIES, Ability, find

INTENSITY_MAX = 10_000  # the seed sets no ceiling; past this an Intensity is a typo, refused before the ledger


def extra_dice_cost(extra: int) -> int:
    """k extra dice cost 1 + 2 + ... + k = k(k+1)/2 Intensity (the seed's table)."""
    if extra < 0:
        raise BadInput("The number of extra dice cannot be negative.")
    return extra * (extra + 1) // 2


def roll_cost(extra: int) -> int:
    """A roll costs 1 Intensity for the base pool plus the extra dice."""
    return 1 + extra_dice_cost(extra)


@dataclass(frozen=True)
class Pool:
    """The ability dice a side rolls and the Intensity it pays for them."""

    dice: tuple[int, ...]
    cost: int


def _check_base(abilities: Sequence[Ability], base: Sequence[Ability],
                categories: Sequence[str]) -> None:
    """One die from each category the character still has a die in; none may be skipped."""
    seen: dict[str, str] = {}
    for ability in base:
        if ability.category in seen:
            raise RuleViolation(f"The base pool takes one die per category; "
                                f"{seen[ability.category]} and {ability.name} are both "
                                f"{ability.category}.")
        seen[ability.category] = ability.name
    for category in categories:
        if category not in seen and any(a.category == category and a.size > 0 for a in abilities):
            raise RuleViolation(f"The base pool must include a {category} die.")


def build_pool(abilities: Sequence[Ability], base: Sequence[str], extra: Sequence[str],
               intensity: int, categories: Sequence[str] = DEFAULT_CATEGORIES) -> Pool:
    """Validate which abilities a side rolls and price it, so an unaffordable roll is refused."""
    chosen = [find(abilities, name) for name in (*base, *extra)]
    for ability in chosen:
        if ability.category not in categories:
            raise RuleViolation(f"{ability.name} is in {ability.category}, "
                                f"which is not a category of this campaign.")
        if ability.size == 0:
            raise RuleViolation(f"{ability.name} is gone and cannot be rolled.")
        if sum(a.name == ability.name for a in chosen) > 1:
            raise RuleViolation(f"{ability.name} can join the pool only once.")
    _check_base(abilities, chosen[:len(base)], categories)
    cost = roll_cost(len(extra))
    if cost > intensity:
        raise RuleViolation(f"This pool costs {cost} Intensity and only {intensity} is left.")
    return Pool(tuple(a.size for a in chosen), cost)
