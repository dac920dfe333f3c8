"""A Beer Run conflict: sides, goals, the round's rolls and the pips still to land (seed 002 "The Round").

Every side but the target opposes the target, and the target opposes each of them one by one
(seed "Compare Rolls"); with two sides the second is the target. A round: goals, helping rolls
(before any pool), one pool per acting side, then the comparisons, then the pips, upper hand first.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import event

from campaign_ledger.ledger.errors import NotFound, RuleViolation
from campaign_ledger.ledger.ids import CAMPAIGN_ID
from campaign_ledger.ledger.reversible import Reversible

OPPOSE, HELP, SITUATION = "oppose", "help", "situation"
ROLLING, EFFECTS, ENDED = "rolling", "effects", "ended"


def conflict_id(name: str) -> UUID:
    return uuid5(CAMPAIGN_ID, "beer-run conflict:" + name.strip().casefold())


class BeerRunConflict(Reversible):
    # An undo's lines: `pips due Ann's 3 pips on Bob -> none`, not `due by Ann on Bob kept 3 -> none`.
    WORDS = {"due": lambda d: f"{d['by']}'s {d['kept']} pip{'s' * (d['kept'] != 1)} on {d['on']}"}

    @staticmethod
    def create_id(name: str) -> UUID:
        return conflict_id(name)

    @event("Opened")
    def __init__(self, name: str, sides: list, target: str, static: list) -> None:
        self.name = name
        self.sides: list[str] = list(sides)
        self.static: list[str] = list(static)  # difficulty pools: no goal needed, no Intensity
        self.target = target
        self.round = 1
        self.out: dict[str, str] = {}
        self.goals: dict[str, dict[str, Any]] = {}
        self.rolls: dict[str, dict[str, Any]] = {}
        self.helpers: list[str] = []
        self.due: list[dict[str, Any]] = []
        self.ended = False

    @event("GoalDeclared")
    def goal_declared(self, round: int, side: str, kind: str, text: str, ability: str | None,
                      die: int | None, difficulty: list) -> None:
        self.goals[side] = {"kind": kind, "text": text, "ability": ability, "die": die,
                            "difficulty": list(difficulty)}

    @event("HelpRolled")
    def help_rolled(self, round: int, helper: str, ally: str, text: str, die: int, abilities: list,
                    dice: list, faces: list, penalty: list, penalty_faces: list, difficulty: list,
                    difficulty_faces: list, entered: bool, pairs: list, scored: list, kept: list,
                    upper_hand: str | None, uses: int, penalties: int) -> None:
        if helper in self.sides:
            self.goals[helper] = {"kind": HELP, "text": text, "ability": None, "die": die,
                                  "difficulty": list(difficulty), "ally": ally}
        self.helpers.append(helper)

    @event("PoolRolled")
    def pool_rolled(self, round: int, side: str, abilities: list, dice: list, situation: list,
                    faces: list, penalty: list, penalty_faces: list, difficulty_faces: list,
                    entered: bool, cost: int, paid: int, override: str | None) -> None:
        self.rolls[side] = {"faces": list(faces), "penalty_faces": list(penalty_faces),
                            "difficulty_faces": list(difficulty_faces)}

    @event("Compared")
    def compared(self, round: int, side: str, opponent: str, faces: list, opponent_faces: list,
                 pairs: list, scored: list, kept: list, upper_hand: str | None, due: list) -> None:
        self.due.extend(dict(d) for d in due)

    @event("SituationRolled")
    def situation_rolled(self, round: int, side: str, die: int, faces: list, difficulty: list,
                         difficulty_faces: list, pairs: list, scored: list, kept: list,
                         upper_hand: str | None, uses: int, penalties: int) -> None:
        pass

    @event("PipsLanded")
    def pips_landed(self, round: int, by: str, on: str, kept: int, pips: dict, lost: int,
                    zeroed: list) -> None:
        self.due.pop(0)

    @event("PipsLost")
    def pips_lost(self, round: int, by: str, on: str, kept: int, why: str) -> None:
        self.due.pop(0)

    @event("GoalGained")
    def goal_gained(self, round: int, side: str, goal: str | None, how: str) -> None:
        self.goals.pop(side, None)

    @event("SideLeft")
    def side_left(self, round: int, side: str, why: str) -> None:
        self.out[side] = why

    @event("Ceded")
    def ceded(self, round: int, side: str, to: list) -> None:
        self.out[side] = "ceded"

    @event("RoundEnded")
    def round_ended(self, round: int) -> None:
        self.round += 1
        self.rolls, self.helpers, self.due = {}, [], []
        self.goals = {s: g for s, g in self.goals.items() if g["kind"] == OPPOSE}

    @event("Ended")
    def conflict_ended(self, round: int, reason: str) -> None:
        self.ended = True

    # --- reading the round -----------------------------------------------------------------

    @property
    def phase(self) -> str:
        return ENDED if self.ended else EFFECTS if self.due else ROLLING

    def side(self, name: str) -> str:
        """The side's name as the conflict spells it."""
        for side in self.sides:
            if side.casefold() == name.strip().casefold():
                return side
        raise NotFound(f"{name} is not a side of {self.name}.")

    def still_in(self) -> list[str]:
        return [s for s in self.sides if s not in self.out]

    def opponents(self, side: str) -> list[str]:
        if side == self.target:
            return [s for s in self.still_in() if s != side]
        return [self.target] if self.target not in self.out else []

    def acting(self) -> list[str]:
        return [s for s in self.still_in() if s not in self.helpers]

    def waiting_for(self) -> list[str]:
        if self.ended:
            return []
        if self.due:
            d = self.due[0]
            return [f"{d['by']} to land {d['kept']} pip{'s' * (d['kept'] != 1)} on {d['on']}"]
        return [f"{s}'s {'roll' if s in self.goals or s in self.static else 'goal and roll'}"
                for s in self.acting() if s not in self.rolls]

    def summary(self) -> dict[str, Any]:
        return {"conflict": self.name, "round": self.round, "phase": self.phase, "target": self.target,
                "sides": {s: {"goal": self.goals.get(s), "rolled": s in self.rolls, "out": self.out.get(s)}
                          for s in self.sides},
                "next_pips": dict(self.due[0]) if self.due else None, "waiting_for": self.waiting_for()}

    # --- checks ------------------------------------------------------------------------------

    def check_open(self) -> None:
        if self.ended:
            raise RuleViolation(f"{self.name} is over.")

    def check_in(self, side: str) -> None:
        if side in self.out:
            raise RuleViolation(f"{side} has left {self.name} ({self.out[side]}).")

    def check_rolling(self) -> None:
        self.check_open()
        if self.due:
            raise RuleViolation(f"{self.name} round {self.round} is waiting for {self.waiting_for()[0]}.")

    def check_can_roll(self, side: str) -> None:
        self.check_rolling()
        self.check_in(side)
        if side in self.helpers:
            raise RuleViolation(f"{side} is helping this round and rolls no other pool.")
        if side in self.rolls:
            raise RuleViolation(f"{side} has already rolled in round {self.round}.")
