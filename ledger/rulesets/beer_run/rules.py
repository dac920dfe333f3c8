"""Beer Run (`beer-run`): opposed mixed-size pools, Intensity, abilities worn down by pips.

Pure functions over plain values: faces are always passed in, nothing is rolled or stored
here, so a replay reaches the same result as the live command. Seed: `002_82d154e100c0dead.txt`
("Resolution"); rulings from RULES.md "Beer Run" win over it. Sides of a comparison are 0 and 1.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ledger.errors import BadInput, NotFound, RuleViolation

# RULES.md "Beer Run": the campaign names the categories, three by default. The seed names
# none; body, mind and manner cover a fight, a ritual and a bargain. Health sits in Physical.
DEFAULT_CATEGORIES: tuple[str, ...] = ("Physical", "Mental", "Social")
HEALTH = "Health"
INTENSITY_MAX = 10_000  # the seed sets no ceiling; past this an Intensity is a typo, refused before the ledger
GOAL_DIFFICULTY_DICE = 3  # seed "Helping Goal": the GM may replace up to three dice


# --- Dice notation (RULES.md "Beer Run": dice of any size d1 and up; a pip is one size step) ---

def parse_die(text: str) -> int:
    """Read 'd8' as 8: an ability is one die, so a count ('2d6') is not an ability."""
    match = re.fullmatch(r"\s*[dD](\d+)\s*", text)
    if not match or int(match.group(1)) < 1:
        raise BadInput(f"An ability die is written d1, d2, d3 and up, not '{text}'.")
    return int(match.group(1))


def format_die(size: int) -> str:
    """Write a size for the GM; size 0 means the ability is gone, so it is not a die."""
    return f"d{size}" if size > 0 else "gone"


def lower(size: int, pips: int) -> int:
    """Lower a die by pips (d8 less 3 pips is d5); below zero is refused, not clamped."""
    if pips > size:
        raise RuleViolation(f"A {format_die(size)} can lose at most {size} pips, not {pips}.")
    return size - pips


def check_faces(sizes: Sequence[int], faces: Sequence[int]) -> tuple[int, ...]:
    """Check faces entered at the table against the pool, so a typo never becomes a fact."""
    if len(faces) != len(sizes):
        raise BadInput(f"This pool rolls {len(sizes)} dice; you entered {len(faces)} faces.")
    for size, face in zip(sizes, faces):
        if not 1 <= face <= size:
            raise BadInput(f"A d{size} shows 1 to {size}; {face} is not a face of it.")
    return tuple(faces)


# --- Characters (RULES.md "Beer Run": abilities in categories; Health is an ability) ---

@dataclass(frozen=True)
class Ability:
    """One ability die on a sheet; size 0 stays on the sheet so history can show it gone."""

    name: str
    category: str
    size: int

    def __post_init__(self) -> None:
        if self.size < 0:
            raise BadInput(f"{self.name} cannot be smaller than gone (size 0).")


def find(abilities: Sequence[Ability], name: str) -> Ability:
    """Look an ability up by name; the GM names abilities, the ledger never guesses."""
    for ability in abilities:
        if ability.name == name:
            return ability
    raise NotFound(f"There is no ability called {name} on this character.")


# --- Intensity (seed "Assemble Dice Pool", "Extra Dice") ---

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


# --- Compare Rolls (seed "Compare Rolls"; RULES.md "Beer Run": compare) ---

@dataclass(frozen=True)
class Comparison:
    """What one comparison produced; side 0 is the first pool given, side 1 the second."""

    pairs: tuple[tuple[int, int], ...]
    scored: tuple[int, int]
    kept: tuple[int, int]
    upper_hand: int | None

    def mirrored(self) -> Comparison:
        """The same comparison seen from the other side."""
        flip = {0: 1, 1: 0, None: None}
        return Comparison(tuple((b, a) for a, b in self.pairs), self.scored[::-1],
                          self.kept[::-1], flip[self.upper_hand])


def _pairs(a: Sequence[int], b: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """High to low, pair by pair; a side out of dice compares as a d1 showing 1."""
    if any(face < 1 for face in (*a, *b)):
        raise BadInput("Every die shows 1 or more.")
    n = max(len(a), len(b))
    return tuple(zip(_high_to_low(a, n), _high_to_low(b, n)))


def _high_to_low(faces: Sequence[int], n: int) -> list[int]:
    return sorted(faces, reverse=True) + [1] * (n - len(faces))


def _kept(scored: int, has_upper_hand: bool) -> int:
    """The upper hand keeps all; the other side keeps its 1st, 3rd, 5th... success."""
    return scored if has_upper_hand else (scored + 1) // 2


def compare(a: Sequence[int], b: Sequence[int]) -> Comparison:
    """Opposed roll: the first untied pair gives the upper hand, which keeps every success."""
    pairs = _pairs(a, b)
    winners = [0 if x > y else 1 for x, y in pairs if x != y]
    upper = winners[0] if winners else None
    scored = (winners.count(0), winners.count(1))
    kept = (_kept(scored[0], upper == 0), _kept(scored[1], upper == 1))
    return Comparison(pairs, scored, kept, upper)


def compare_many(target: Sequence[int],
                 sides: Sequence[Sequence[int]]) -> tuple[Comparison, ...]:
    """Several against one target: each compares alone (side 0 = that side, 1 = the target)."""
    return tuple(compare(side, target) for side in sides)


# --- Determine Effects, Abilities Reduced to Zero (seed sections of those names) ---

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


# --- Helping Goal, Situation Goal (seed sections of those names; RULES.md "Beer Run") ---

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
