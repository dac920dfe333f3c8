"""Rules of the `decision-2d6` ruleset (seed 004), as pure functions over plain values.

Why pure: dice are facts. Every face arrives as a value (rolled by `ledger.dice` or typed
in at the table), so replaying a campaign computes the same result without rolling again.
Nothing here rolls, reads or writes; refusals are `RuleViolation`, unreadable input `BadInput`.

Rulings where the seed and RULES.md are silent (see the report / README):
- Explosion dice are assigned first-in first-out: the n-th extra face belongs to the n-th
  six still waiting for its extra die (what you get rolling all pending dice together).
- Contested rerolls keep each side's stat, modifiers and advantage; only the dice are new.
- Contested advantage is one position on the scale; the favoured side takes it, the other
  side rolls Neutral (the seed: the two parties occupy the scale, nobody is at disadvantage).
- D100 trackers: see `d100_use`.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Sequence

from ledger.errors import BadInput, RuleViolation

DIE_MAX = 6  # "Decision Rolls": a six is the max value of a decision die
DEFAULT_SUPPLY_THRESHOLD = 3  # "Supply Rolls": "If the result is 3 or lower"
DEFAULT_D100_STEP = 10  # ruling: points a D100 tracker loses per use (campaign setting)


def _whole(value: object, what: str) -> int:
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
        value = _whole(self.value, f"{self.kind.value} value")
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
    position = level + _whole(steps, "number of advantage steps")
    return Advantage(max(Advantage.MAJOR_DISADVANTAGE, min(Advantage.MAJOR_ADVANTAGE, position)))


def grant_advantage(level: Advantage, grants: int = 1) -> Advantage:
    """Each effect that "grants advantage" moves one step in the user's favour."""
    return shift_advantage(level, grants)


# --- Exploding decision dice: seed "Decision Rolls - the Primary Mechanic" ------------------

def _checked_faces(faces: Sequence[int]) -> tuple[int, ...]:
    """Faces of a d6 only: an impossible face is a typo, never a roll."""
    for face in faces:
        if not 1 <= _whole(face, "decision die face") <= DIE_MAX:
            raise BadInput(f"A decision die shows 1 to 6; {face} is not a face of it.")
    return tuple(faces)


def dice_still_needed(faces: Sequence[int], advantage: Advantage = Advantage.NEUTRAL) -> int:
    """How many more d6 the roll needs: every 6, even on an explosion die, adds one."""
    pending = advantage.decision_dice
    for count, face in enumerate(_checked_faces(faces), start=1):
        if pending == 0:
            used = count - 1
            raise BadInput(f"This roll was complete after {used} "
                           f"{'face' if used == 1 else 'faces'}, but you entered {len(faces)}.")
        pending += (face == DIE_MAX) - 1
    return pending


def split_chains(faces: Sequence[int],
                 advantage: Advantage = Advantage.NEUTRAL) -> tuple[tuple[int, ...], ...]:
    """Split a complete flat sequence into one chain per decision die, stored die by die."""
    missing = dice_still_needed(faces, advantage)
    if missing:
        raise BadInput(f"This roll still needs {missing} more decision "
                       f"{'die' if missing == 1 else 'dice'}, since every 6 adds one.")
    count = advantage.decision_dice
    chains: list[list[int]] = [[] for _ in range(count)]
    waiting = deque(range(count))  # ruling: explosion dice go to waiting sixes in order
    for face in faces:
        die = waiting.popleft()
        chains[die].append(face)
        if face == DIE_MAX:
            waiting.append(die)
    return tuple(tuple(chain) for chain in chains)


@dataclass(frozen=True)
class DecisionRoll:
    """One decision roll: the chains die by die and what was added to them."""

    advantage: Advantage
    chains: tuple[tuple[int, ...], ...]
    stat: int
    modifiers: int  # counted modifiers, after the sign rules, advantage not included

    @property
    def dice_total(self) -> int:
        return sum(sum(chain) for chain in self.chains)

    @property
    def total(self) -> int:
        """2d6 + STAT or ATTRIBUTE + MODIFIERS, with Minor Advantage's +3 or -3."""
        return self.dice_total + self.stat + self.modifiers + self.advantage.flat_modifier


def decision_roll(faces: Sequence[int], stat: int, modifiers: Sequence[Modifier | int] = (),
                  advantage: Advantage = Advantage.NEUTRAL) -> DecisionRoll:
    """Build a roll from complete faces; only these dice explode (not damage, not Luck)."""
    return DecisionRoll(advantage, split_chains(faces, advantage),
                        _whole(stat, "stat or attribute"), counted_modifiers(modifiers))


# --- Target numbers: seed "Difficulty Scale", "Success and Failure" -----------------------

class Difficulty(Enum):
    """Named rows of the difficulty scale; the GM may set any other target number."""

    SIMPLE = 6
    CHALLENGING = 12
    STRENUOUS = 18
    IMPOSSIBLE = 20


def target_number(difficulty: Difficulty | str) -> int:
    """The target number for a named difficulty ('simple', 'Strenuous Task', ...)."""
    if isinstance(difficulty, Difficulty):
        return difficulty.value
    key = str(difficulty).upper().replace("TASK", "").strip(' "“”')
    try:
        return Difficulty[key].value
    except KeyError:
        names = ", ".join(d.name.lower() for d in Difficulty)
        raise BadInput(f"'{difficulty}' is not a difficulty; use one of {names}.") from None


def succeeds(total: int, target: int) -> bool:
    """Success = higher than or equal to the target: a tie with a target succeeds."""
    return total >= _whole(target, "target number")


# --- Contested rolls: seed "Contested Rolls", "Resolving a Tie", "Advantage and Contested" -

class Side(Enum):
    FIRST = "first"
    SECOND = "second"


@dataclass(frozen=True)
class Contestant:
    """What one side adds to its dice; kept for every reroll (ruling: only dice are new)."""

    stat: int
    modifiers: tuple[Modifier | int, ...] = ()
    advantage: Advantage = Advantage.NEUTRAL


@dataclass(frozen=True)
class Contest:
    """Every round of a contested roll, rerolls kept; winner None means reroll again."""

    rounds: tuple[tuple[DecisionRoll, DecisionRoll], ...]
    winner: Side | None

    @property
    def needs_reroll(self) -> bool:
        return self.winner is None


def contested_advantage(position: Advantage) -> tuple[Advantage, Advantage]:
    """Split one scale position (from the first side's view) so nobody is at disadvantage."""
    if position >= Advantage.NEUTRAL:
        return position, Advantage.NEUTRAL
    return Advantage.NEUTRAL, Advantage(-position)


def contest(first: Contestant, second: Contestant,
            rounds: Sequence[tuple[Sequence[int], Sequence[int]]]) -> Contest:
    """Decide a contest from each round's faces: the higher total wins, a tie rerolls."""
    if not rounds:
        raise BadInput("A contested roll needs both sides' faces for at least one roll.")
    rolled: list[tuple[DecisionRoll, DecisionRoll]] = []
    winner: Side | None = None
    for faces_first, faces_second in rounds:
        if winner is not None:
            raise BadInput(f"The contest was already won on roll {len(rolled)}, "
                           "so there is no reroll to record after it.")
        a = decision_roll(faces_first, first.stat, first.modifiers, first.advantage)
        b = decision_roll(faces_second, second.stat, second.modifiers, second.advantage)
        rolled.append((a, b))
        if a.total != b.total:
            winner = Side.FIRST if a.total > b.total else Side.SECOND
    return Contest(tuple(rolled), winner)


# --- Derived stats: seed "The Rounding Rule" -----------------------------------------------

def _half_plus_half(level: int, other: int) -> int:
    """½ Level + ½ other, rounded down only at the end (halving first would lose a half)."""
    return (_whole(level, "level") + other) // 2


def stress(level: int, will: int) -> int:
    """Stress = floor((Level + Will) / 2)."""
    return _half_plus_half(level, _whole(will, "Will"))


def vitality(level: int, fort: int) -> int:
    """Vitality = floor((Level + Fort) / 2)."""
    return _half_plus_half(level, _whole(fort, "Fort"))


# --- Supply dice: seed "Supply Rolls" -----------------------------------------------------

class SupplyDie(IntEnum):
    """Die sizes in order; the value is the number of sides (Empty has none)."""

    EMPTY = 0
    D4 = 4
    D6 = 6
    D8 = 8
    D10 = 10
    D12 = 12

    def lowered(self) -> SupplyDie:
        """One step down: D12, D10, D8, D6, D4, Empty."""
        order = list(SupplyDie)
        return order[max(order.index(self) - 1, 0)]


@dataclass(frozen=True)
class SupplyRoll:
    """One supply roll as a fact: the die before, the face, the die after."""

    before: SupplyDie
    face: int
    after: SupplyDie

    @property
    def lowered(self) -> bool:
        return self.after is not self.before


def supply_roll(die: SupplyDie, face: int,
                threshold: int = DEFAULT_SUPPLY_THRESHOLD) -> SupplyRoll:
    """A roll at or under the threshold lowers the die; an Empty item cannot be rolled."""
    if die is SupplyDie.EMPTY:
        raise RuleViolation("This item is empty, so it cannot be used for anything "
                            "that needs a supply roll.")
    if _whole(threshold, "supply threshold") < 0:
        raise BadInput(f"The supply threshold cannot be negative, and {threshold} is.")
    if not 1 <= _whole(face, "supply die face") <= die.value:
        raise BadInput(f"A {die.name} shows 1 to {die.value}; {face} is not a face of it.")
    return SupplyRoll(die, face, die.lowered() if face <= threshold else die)


def supply_rolls(die: SupplyDie, faces: Sequence[int],
                 threshold: int = DEFAULT_SUPPLY_THRESHOLD) -> tuple[SupplyRoll, ...]:
    """Several supply rolls, each handled on its own against the die as it then stands."""
    results: list[SupplyRoll] = []
    for face in faces:
        results.append(supply_roll(die, face, threshold))
        die = results[-1].after
    return tuple(results)


# --- D100 trackers: seed "D100 or Percentage" (the seed gives no procedure) ---------------

@dataclass(frozen=True)
class D100Tracker:
    """A percentage (0-100) with every d100 face rolled against it, in order."""

    value: int
    rolls: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not 0 <= _whole(self.value, "tracker value") <= 100:
            raise BadInput(f"A percentage tracker runs from 0 to 100, not {self.value}.")


@dataclass(frozen=True)
class D100Use:
    """The outcome of one use: whether there was enough, and the tracker afterwards."""

    supplied: bool
    tracker: D100Tracker


def d100_use(tracker: D100Tracker, face: int, step: int = DEFAULT_D100_STEP) -> D100Use:
    """Ruling: the percentage is the chance there is still enough.

    Roll d100 (00 is 100). At or under the value, the use goes ahead and the tracker loses
    `step` points (a campaign setting, default 10). Over it, the supply has just run out:
    the use fails and the tracker drops to 0. At 0 the tracker refuses a use, like an Empty
    supply die.
    """
    if tracker.value == 0:
        raise RuleViolation("This tracker is at 0%, so it cannot be used until it is refilled.")
    if not 1 <= _whole(face, "d100 face") <= 100:
        raise BadInput(f"A d100 shows 1 to 100; {face} is not a face of it.")
    if _whole(step, "tracker step") < 0:
        raise BadInput(f"A tracker's step cannot be negative, and {step} is.")
    supplied = face <= tracker.value
    value = max(tracker.value - step, 0) if supplied else 0
    return D100Use(supplied, D100Tracker(value, tracker.rolls + (face,)))
