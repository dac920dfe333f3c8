"""Action dice (`action-dice`, seed 003): three dice against a difficulty from 1 to 10.

Pure functions over plain values: faces are always passed in (see `ledger.dice`), so a replay
never rolls again. Refusals are `RuleViolation` (rules say no) or `BadInput` (unreadable input).
"""
from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger import values

MIN_DIFFICULTY, MAX_DIFFICULTY = 1, 10
POOL_SIZE, FILLER_DIE = 3, 4
ASSET_SIZES = (4, 6, 8, 10, 12)  # ruling: the seed names d4-d12 only; other sizes are unreadable
DEFAULT_FEATURES_LIMIT = 3  # ruling: the seed names a features limit but no number
MAX_CONDITION_LEVEL = 3


class ChallengeRating(enum.Enum):
    """The GM's shorthand for a base difficulty (seed: Difficulty, rating table)."""

    XX = "XX"
    D4 = "D4"
    D6 = "D6"
    D8 = "D8"
    D10 = "D10"
    D12 = "D12"
    PLUS = "++"


# Seed "Difficulty" table: XX Easy 1 ... D12 Extremely Hard 6; ++ Almost Impossible 7-10.
_BASE_DIFFICULTY = {ChallengeRating.XX: 1, ChallengeRating.D4: 2, ChallengeRating.D6: 3,
                    ChallengeRating.D8: 4, ChallengeRating.D10: 5, ChallengeRating.D12: 6}


class Outcome(enum.Enum):
    """Four grades; declared in order of successes 0-3, so the order IS the seed's Outcome table."""

    COMPLETE_FAILURE = "Complete Failure"
    MOSTLY_FAILURE = "Mostly Failure"
    MOSTLY_SUCCESS = "Mostly Success"
    COMPLETE_SUCCESS = "Complete Success"

    @property
    def succeeded(self) -> bool:
        """Seed "Binary outcomes": a simple pass/fail test passes on Mostly or Complete Success."""
        return self in (Outcome.MOSTLY_SUCCESS, Outcome.COMPLETE_SUCCESS)


def _whole(value: object, what: str) -> int:
    """Accept only real integers: a bool or a float is a slip, not a number."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"The {what} must be a whole number, not '{value}'.")
    return value


def parse_challenge_rating(text: str | ChallengeRating) -> ChallengeRating:
    """Read 'xx', 'd8', 'D12', '++' as the GM types them, ignoring case and spaces."""
    if isinstance(text, ChallengeRating):
        return text
    try:
        return ChallengeRating(str(text).strip().upper())
    except ValueError:
        raise BadInput(f"A challenge rating is XX, D4, D6, D8, D10, D12 or ++, not '{text}'.") \
            from None


def base_difficulty(rating: str | ChallengeRating, chosen: int | None = None) -> int:
    """Turn a challenge rating into a base difficulty; only ++ lets the GM choose (7-10)."""
    rating = parse_challenge_rating(rating)
    if rating is not ChallengeRating.PLUS:  # seed "Difficulty": fixed values for XX-D12
        if chosen is not None and chosen != _BASE_DIFFICULTY[rating]:
            raise BadInput(f"A {rating.value} challenge has difficulty {_BASE_DIFFICULTY[rating]}; "
                           f"only ++ lets you choose one.")
        return _BASE_DIFFICULTY[rating]
    if chosen is None:  # seed "Difficulty": ++ is 7-10, the host picks
        raise BadInput("A ++ challenge needs you to choose its difficulty, from 7 to 10.")
    if not 7 <= _whole(chosen, "difficulty") <= MAX_DIFFICULTY:
        raise RuleViolation(f"A ++ challenge has a difficulty from 7 to 10, not {chosen}.")
    return chosen


def _check_difficulty(difficulty: int) -> int:
    """Keep every difficulty on the seed's 1-10 scale."""
    if not MIN_DIFFICULTY <= _whole(difficulty, "difficulty") <= MAX_DIFFICULTY:
        raise RuleViolation(f"Difficulty runs from 1 to 10, so {difficulty} is off the scale.")
    return difficulty


def net_position(advantages: int = 0, disadvantages: int = 0) -> int:
    """Seed "Difficulty": all circumstances weigh into ONE step: +1 advantage, -1, or 0."""
    if min(_whole(advantages, "advantages"), _whole(disadvantages, "disadvantages")) < 0:
        raise BadInput("Advantages and disadvantages are counted from 0 up.")
    return (advantages > disadvantages) - (disadvantages > advantages)


def action_difficulty(base: int, advantages: int = 0, disadvantages: int = 0) -> int:
    """Personalise a base difficulty to one character; the step is lost at either end of 1-10."""
    # Seed "Difficulty": advantage -1, disadvantage +1; RULES.md: it stays within 1-10.
    adjusted = _check_difficulty(base) - net_position(advantages, disadvantages)
    return max(MIN_DIFFICULTY, min(MAX_DIFFICULTY, adjusted))


def parse_die(die: int | str) -> int:
    """Read an asset die as 'd8', 'D8' or 8, so sheets and typed commands both work."""
    text = str(die).strip().lower()
    sides = text[1:] if text.startswith("d") else text
    if isinstance(die, bool) or not values.is_number(sides) or int(sides) not in ASSET_SIZES:
        raise BadInput(f"An asset die is a d4, d6, d8, d10 or d12, not '{die}'.")
    return int(sides)


def action_pool(assets: Sequence[int | str] = ()) -> tuple[int, int, int]:
    """The three die sizes to roll: the assets in the order given, then a d4 per missing one."""
    # Seed "Ability": up to 3 relevant assets; always roll three dice; a D4 for each lacking.
    sizes = tuple(parse_die(a) for a in assets)
    if len(sizes) > POOL_SIZE:
        raise RuleViolation(f"An action pool holds at most 3 assets; choose 3 of the {len(sizes)}.")
    first, second, third = sizes + (FILLER_DIE,) * (POOL_SIZE - len(sizes))
    return first, second, third


def check_faces(dice: Sequence[int | str], faces: Sequence[int]) -> tuple[int, ...]:
    """Check faces entered or rolled against the pool, die by die, before counting them."""
    sizes = tuple(parse_die(d) for d in dice)
    if len(sizes) != POOL_SIZE:
        raise BadInput(f"An action roll uses exactly 3 dice, not {len(sizes)}.")
    if len(faces) != POOL_SIZE:
        raise BadInput(f"An action roll needs 3 faces; you entered {len(faces)}.")
    for sides, face in zip(sizes, faces):
        if not 1 <= _whole(face, "face") <= sides:
            raise BadInput(f"A d{sides} shows 1 to {sides}; {face} is not a face of it.")
    return tuple(faces)


def count_successes(faces: Sequence[int], difficulty: int) -> int:
    """Seed "Outcome": a die succeeds only if it beats the difficulty; a tie fails."""
    return sum(1 for face in faces if face > difficulty)


def outcome_for(successes: int) -> Outcome:
    """Seed "Outcome" table: 0-3 successes out of three dice name the grade."""
    if not 0 <= _whole(successes, "number of successes") <= POOL_SIZE:
        raise BadInput(f"Three dice give 0 to 3 successes, not {successes}.")
    return tuple(Outcome)[successes]


def _action_key(action: str) -> str:
    """Actions are matched by name, ignoring case and surrounding spaces."""
    key = str(action).strip().lower()
    if not key:
        raise BadInput("Name the action the character is taking.")
    return key


@dataclass(frozen=True)
class Condition:
    """A condition on a character: its level 1-3 and the kinds of action it hinders."""

    name: str
    level: int
    impacts: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not str(self.name).strip():
            raise BadInput("A condition needs a name.")
        if not 1 <= _whole(self.level, "condition level") <= MAX_CONDITION_LEVEL:
            raise RuleViolation(f"A condition's level runs from 1 to 3, not {self.level}.")
        object.__setattr__(self, "impacts", frozenset(_action_key(a) for a in self.impacts))

    def incapacitates(self, action: str) -> bool:
        """Seed "Incapacitated": only a severe (level 3) condition that impacts this action."""
        return self.level == MAX_CONDITION_LEVEL and _action_key(action) in self.impacts


def change_condition(condition: Condition, steps: int) -> Condition | None:
    """Raise (steps > 0) or lower (steps < 0) a condition's level.

    Ruling (the seed is silent): raising stops at 3, its severe top; lowering below 1 means
    the condition is treated and gone, so None comes back.
    """
    level = min(MAX_CONDITION_LEVEL, condition.level + _whole(steps, "number of steps"))
    return Condition(condition.name, level, condition.impacts) if level >= 1 else None


def rule_breaks(action: str, conditions: Iterable[Condition] = (), features: Sequence[str] = (),
                features_limit: int = DEFAULT_FEATURES_LIMIT) -> tuple[str, ...]:
    """Every rule an intended roll breaks, as GM sentences; ask it before rolling, too."""
    if _whole(features_limit, "features limit") < 0:
        raise BadInput("The features limit is a whole number from 0 up.")
    names = [str(f).strip() for f in features]
    if any(not n for n in names):
        raise BadInput("Every feature invoked needs a name.")
    breaks = [f"The character is incapacitated by {c.name} (level 3) and cannot attempt "
              f"{_action_key(action)} until it is treated."
              for c in conditions if c.incapacitates(action)]  # seed "Incapacitated"
    if len(names) > features_limit:  # seed "Ability": features limit
        breaks.append(f"This roll invokes {len(names)} features, more than the character's "
                      f"limit of {features_limit}.")
    return tuple(breaks)


@dataclass(frozen=True)
class ActionResult:
    """One action roll as a fact: what was rolled, against what, and what it meant."""

    action: str
    difficulty: int
    dice: tuple[int, ...]
    faces: tuple[int, ...]
    successes: int
    outcome: Outcome
    features: tuple[str, ...] = ()
    overridden: tuple[str, ...] = ()  # the refusals the GM set aside
    gm_override: str | None = None

    @property
    def succeeded(self) -> bool:
        """The binary reading of the roll (seed "Binary outcomes")."""
        return self.outcome.succeeded


def resolve_action(action: str, difficulty: int, dice: Sequence[int | str],
                   faces: Sequence[int], *,
                   conditions: Iterable[Condition] = (), features: Sequence[str] = (),
                   features_limit: int = DEFAULT_FEATURES_LIMIT,
                   gm_override: str | None = None) -> ActionResult:
    """Resolve an action roll, refusing a broken rule unless the GM gives a reason to allow it."""
    # RULES.md "The GM has the last word": the reason and what it set aside stay on the result.
    reason = None if gm_override is None else str(gm_override).strip()
    if reason == "":
        raise BadInput("A GM override needs a reason.")
    sizes = tuple(parse_die(d) for d in dice)
    checked = check_faces(sizes, faces)
    breaks = rule_breaks(action, tuple(conditions), features, features_limit)
    if breaks and reason is None:
        raise RuleViolation(breaks[0])
    successes = count_successes(checked, _check_difficulty(difficulty))
    return ActionResult(_action_key(action), difficulty, sizes, checked, successes,
                        outcome_for(successes), tuple(str(f).strip() for f in features),
                        breaks, reason)
