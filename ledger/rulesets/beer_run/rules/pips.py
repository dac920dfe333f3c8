"""Beer Run: kept successes landed as pips (seed "Determine Effects", "Abilities Reduced to Zero", "Cede").

Upper hand first; a pip lowers an opposing die one size; an ability at zero gains the goal,
Health at zero is death; ceding gives the opposition its goal.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.beer_run.rules.abilities import HEALTH, Ability, find, lower
from campaign_ledger.ledger.rulesets.beer_run.rules.compare import Comparison


@dataclass(frozen=True)
class Effect:
    """One side's successes landed on the other: the applied pips are exact, for undo."""

    by: int
    abilities: tuple[Ability, ...]
    pips: tuple[tuple[str, int], ...]
    lost: int
    zeroed: tuple[str, ...]
    goal_gained: bool
    died: bool


def apply_pips(target: Sequence[Ability], split: Mapping[str, int], kept: int,
               by: int = 0) -> Effect:
    """Land kept successes as pips, split as the side likes; a pip may not pass zero.

    The split must total the kept successes; only when the target has fewer pips left in all
    its abilities may it total less (it must then take them all), and the rest is lost.
    """
    if any(p < 0 for p in split.values()):
        raise BadInput("Pips on an ability cannot be negative.")
    for name, pips in split.items():
        size = find(target, name).size
        if pips and size == 0:
            raise RuleViolation(f"{name} is already gone and cannot take pips.")
        if pips > size:
            raise RuleViolation(f"{name} is d{size} and can lose at most {size} pips, not {pips}.")
    due = min(kept, sum(a.size for a in target))
    if sum(split.values()) != due:
        raise RuleViolation(f"The pips must add up to {due}, not {sum(split.values())}.")
    after = tuple(Ability(a.name, a.category, lower(a.size, split.get(a.name, 0))) for a in target)
    zeroed = tuple(a.name for a, b in zip(target, after) if a.size > 0 and b.size == 0)
    pips = tuple(sorted((n, p) for n, p in split.items() if p))
    return Effect(by, after, pips, kept - due, zeroed, bool(zeroed), HEALTH in zeroed)


def resolve_effects(comparison: Comparison, sheets: tuple[Sequence[Ability], Sequence[Ability]],
                    splits: tuple[Mapping[str, int], Mapping[str, int]],
                    dead_strike_back: bool = True) -> tuple[Effect, ...]:
    """Upper hand first, then the other side; `splits[i]` are side i's pips on the other sheet.

    The seed fixes the order but not whether a side killed by the upper hand still lands its
    successes; by default it does (the dice were rolled together), a campaign may say no.
    """
    first = comparison.upper_hand or 0
    effects: list[Effect] = []
    for side in (first, 1 - first):
        kept = comparison.kept[side]
        if not dead_strike_back and any(e.died for e in effects):
            effects.append(replace(apply_pips(sheets[1 - side], {}, 0, side), lost=kept))
        else:
            effects.append(apply_pips(sheets[1 - side], splits[side], kept, side))
    return tuple(effects)


def cede(ceder: Sequence[Ability], goal_ability: str | None = None, by: int = 0) -> Effect:
    """Seed "Cede": the opposition gains its goal; if that goal was an ability at zero, it is."""
    size = find(ceder, goal_ability).size if goal_ability else 0
    split = {goal_ability: size} if goal_ability and size else {}
    return replace(apply_pips(ceder, split, size, by), goal_gained=True)
