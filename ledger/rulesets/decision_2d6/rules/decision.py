"""decision-2d6: the decision roll (seed 004 "Decision Rolls", "Difficulty Scale", "Success and Failure").

Decision dice explode on every 6, even a 6 rolled by an explosion; the roll is the dice, the stat
and the modifiers, against a target number that a tie meets.

Ruling: explosion dice are assigned first-in first-out: the n-th extra face belongs to the n-th
six still waiting for its extra die (what you get rolling all pending dice together).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum
from typing import Sequence

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger.rulesets.decision_2d6.rules.modifiers import Advantage, Modifier, counted_modifiers, whole

DIE_MAX = 6  # "Decision Rolls": a six is the max value of a decision die


# --- Exploding decision dice: seed "Decision Rolls - the Primary Mechanic" ------------------

def _checked_faces(faces: Sequence[int]) -> tuple[int, ...]:
    """Faces of a d6 only: an impossible face is a typo, never a roll."""
    for face in faces:
        if not 1 <= whole(face, "decision die face") <= DIE_MAX:
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
                        whole(stat, "stat or attribute"), counted_modifiers(modifiers))


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
    return total >= whole(target, "target number")
