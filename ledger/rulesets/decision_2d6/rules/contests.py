"""decision-2d6: contested rolls (seed 004 "Contested Rolls", "Resolving a Tie", "Advantage and Contested Rolls").

Both sides roll; the higher total wins; a tie rerolls the decision dice until one wins.

Rulings: rerolls keep each side's stat, modifiers and advantage; only the dice are new.
Contested advantage is one position on the scale; the favoured side takes it, the other side
rolls Neutral (the seed: the two parties occupy the scale, nobody is at disadvantage).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Sequence

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger.rulesets.decision_2d6.rules.decision import DecisionRoll, decision_roll
from campaign_ledger.ledger.rulesets.decision_2d6.rules.modifiers import Advantage, Modifier


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
