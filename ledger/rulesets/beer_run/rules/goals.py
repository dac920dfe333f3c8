"""Beer Run: dice won beyond the sheet (seed "Helping Goal", "Situation Goal", "Outcome Dice").

A helping or situational goal rolls against three dice of the die it seeks (or the GM's pool with
up to three replaced): each kept success is a use of that die, each opposing kept success a
penalty die for the roller. Outcome dice are gained or inflicted for good.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from campaign_ledger.ledger.errors import RuleViolation
from campaign_ledger.ledger.rulesets.beer_run.rules.abilities import Ability
from campaign_ledger.ledger.rulesets.beer_run.rules.compare import Comparison

GOAL_DIFFICULTY_DICE = 3  # seed "Helping Goal": the GM may replace up to three dice


@dataclass(frozen=True)
class SituationDie:
    """A die that joins its owner's pool free of Intensity, one use per roll, while uses last."""

    size: int
    uses: int


@dataclass(frozen=True)
class PenaltyDie:
    """A die that joins the opposing pool of its character's next roll, once.

    A lasting one is an Outcome die inflicted for good: it joins every roll until the GM lifts it.
    """

    size: int
    lasting: bool = False


def goal_difficulty(target: int, pool: Sequence[int] = (),
                    replaced: Sequence[int] = ()) -> tuple[int, ...]:
    """The pool a helping or situational goal rolls against.

    With no GM pool it is three dice of the target size (the seed's usual practice);
    otherwise the GM puts the target size in place of up to three dice at `replaced`.
    """
    if not pool:
        return (target,) * GOAL_DIFFICULTY_DICE
    if len(set(replaced)) > GOAL_DIFFICULTY_DICE:
        raise RuleViolation(f"At most {GOAL_DIFFICULTY_DICE} difficulty dice may be replaced.")
    if any(not 0 <= i < len(pool) for i in replaced):
        raise RuleViolation(f"The difficulty pool has only {len(pool)} dice.")
    return tuple(target if i in replaced else size for i, size in enumerate(pool))


@dataclass(frozen=True)
class GoalDice:
    """What a helping or situational goal yields: a situation die and penalty dice."""

    situation: SituationDie | None
    penalties: tuple[PenaltyDie, ...]


def goal_dice(target: int, comparison: Comparison, side: int = 0) -> GoalDice:
    """Each kept success is one use of the target die; each kept opposing success a penalty die.

    For helping the situation die goes to the ally (this round and on), for a situational goal
    to the roller (from the next roll); the penalty dice go to the roller either way.
    """
    uses, failures = comparison.kept[side], comparison.kept[1 - side]
    situation = SituationDie(target, uses) if uses else None
    return GoalDice(situation, (PenaltyDie(target),) * failures)


def spend_situation_dice(
        held: Sequence[SituationDie]) -> tuple[tuple[int, ...], tuple[SituationDie, ...]]:
    """Dice joining this roll, and what is left: every held die is used once per roll."""
    left = tuple(SituationDie(d.size, d.uses - 1) for d in held if d.uses > 1)
    return tuple(d.size for d in held if d.uses > 0), left


def spend_penalty_dice(
        held: Sequence[PenaltyDie]) -> tuple[tuple[int, ...], tuple[PenaltyDie, ...]]:
    """Dice joining the opposing pool of this roll, and what is left (only lasting ones)."""
    return tuple(d.size for d in held), tuple(d for d in held if d.lasting)


# --- Outcome Dice (seed "Outcome Dice") ---

def gain_outcome_die(abilities: Sequence[Ability], gained: Ability) -> tuple[Ability, ...]:
    """A die acquired for good is a new ability; a gone one of that name comes back at its size."""
    if gained.size < 1:
        raise RuleViolation("An outcome die is d1 or larger.")
    if any(a.name == gained.name and a.size > 0 for a in abilities):
        raise RuleViolation(f"This character already has {gained.name}; give the new die "
                            f"another name.")
    return tuple(a for a in abilities if a.name != gained.name) + (gained,)


def inflict_outcome_die(size: int) -> PenaltyDie:
    """A die inflicted for good opposes every roll of its victim until the GM lifts it."""
    if size < 1:
        raise RuleViolation("An outcome die is d1 or larger.")
    return PenaltyDie(size, lasting=True)
