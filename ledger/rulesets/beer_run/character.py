"""A Beer Run character, or a GM's difficulty pool: ability dice, Intensity, situation and penalty dice.

Seed 002 "Resolution"; rules in ledger/rules/beer_run.py. Intensity lives on each character
(ruling: the seed has each acting side pay for its pool, and the GM builds a pool for every active
participant "as though he were the player for each", so every character holds its own). A
difficulty pool (the seed's "static" opposition) rolls all its dice each round and pays nothing.
Event bodies only store facts the command worked out (sizes after pips, dice left), so replay
never runs a rule again.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import event

from campaign_ledger.ledger.errors import NotFound, RuleViolation
from campaign_ledger.ledger.ids import CAMPAIGN_ID
from campaign_ledger.ledger.rulesets.beer_run import rules
from campaign_ledger.ledger.reversible import Reversible

CHARACTER, DIFFICULTY = "character", "difficulty"


def character_id(name: str) -> UUID:
    return uuid5(CAMPAIGN_ID, "beer-run character:" + name.strip().casefold())


def _uses(d: dict) -> str:
    return f"d{d['size']} for {d['uses']} roll{'' if d['uses'] == 1 else 's'}"


class BeerRunCharacter(Reversible):
    # An undo's lines say which die changed (`Attention d4 -> d3`), not the list of ability names.
    WORDS = {"abilities": lambda a: rules.format_die(a["size"]), "situation": _uses,
             "penalties": lambda d: f"d{d['size']} ({'lasting' if d['lasting'] else 'next roll'})"}

    @staticmethod
    def create_id(name: str) -> UUID:
        return character_id(name)

    @event("Created")
    def __init__(self, name: str, kind: str, abilities: list, intensity: int) -> None:
        self.name = name
        self.kind = kind
        self.abilities: list[dict[str, Any]] = [dict(a) for a in abilities]
        self.intensity = intensity
        self.situation: list[dict[str, int]] = []
        self.penalties: list[dict[str, Any]] = []
        self.dead = False

    @event("IntensityAdjusted")
    def intensity_adjusted(self, change: int, balance: int, reason: str) -> None:
        self.intensity = balance

    @event("IntensitySpent")
    def intensity_spent(self, conflict: str, round: int, cost: int, paid: int, balance: int,
                        override: str | None) -> None:
        self.intensity = balance

    @event("SituationDiceUsed")
    def situation_dice_used(self, conflict: str, round: int, used: list, left: list) -> None:
        self.situation = [dict(d) for d in left]

    @event("PenaltyDiceUsed")
    def penalty_dice_used(self, conflict: str, round: int, used: list, left: list) -> None:
        self.penalties = [dict(d) for d in left]

    @event("SituationDieGained")
    def situation_die_gained(self, size: int, uses: int, source: str, held: list) -> None:
        self.situation = [dict(d) for d in held]

    @event("PenaltyDiceGained")
    def penalty_dice_gained(self, sizes: list, lasting: bool, source: str, held: list) -> None:
        self.penalties = [dict(d) for d in held]

    @event("PenaltyLifted")
    def penalty_lifted(self, size: int, reason: str, held: list) -> None:
        self.penalties = [dict(d) for d in held]

    @event("PipsTaken")
    def pips_taken(self, conflict: str, round: int, by: str, pips: dict, sizes: dict, zeroed: list,
                   lost: int, ceded: bool) -> None:
        for ability in self.abilities:
            ability["size"] = sizes.get(ability["name"], ability["size"])

    @event("Died")
    def died(self, conflict: str, round: int) -> None:
        self.dead = True

    @event("OutcomeDieGained")
    def outcome_die_gained(self, ability: str, category: str, size: int, reason: str, abilities: list) -> None:
        self.abilities = [dict(a) for a in abilities]

    # --- reading the sheet as the rules module's values -------------------------------------

    def sheet(self) -> tuple[rules.Ability, ...]:
        return tuple(rules.Ability(a["name"], a["category"], a["size"]) for a in self.abilities)

    def held_situation(self) -> tuple[rules.SituationDie, ...]:
        return tuple(rules.SituationDie(d["size"], d["uses"]) for d in self.situation)

    def held_penalties(self) -> tuple[rules.PenaltyDie, ...]:
        return tuple(rules.PenaltyDie(d["size"], d["lasting"]) for d in self.penalties)

    def pips_left(self) -> int:
        return sum(a["size"] for a in self.abilities)

    # --- checks and commands (run on commands, never on replay) --------------------------------

    def check_alive(self) -> None:
        if self.dead:
            raise RuleViolation(f"{self.name} is dead.")

    def check_character(self, what: str) -> None:
        if self.kind != CHARACTER:
            raise RuleViolation(f"{self.name} is a difficulty pool; only a character {what}.")

    def adjust_intensity(self, change: int, reason: str) -> None:
        self.check_character("has Intensity")
        self.check_alive()
        if change == 0:
            raise RuleViolation("Give an amount of Intensity to gain or lose.")
        if self.intensity + change < 0:
            raise RuleViolation(f"{self.name} has only {self.intensity} Intensity to lose.")
        self.intensity_adjusted(change, self.intensity + change, reason)

    def pay(self, conflict: str, round: int, cost: int, override: str | None) -> int:
        """Pay for a pool; the rules module refused a short balance unless the GM overrode it."""
        paid = min(cost, self.intensity)
        if cost:
            self.intensity_spent(conflict, round, cost, paid, self.intensity - paid, override)
        return paid

    def use_held_dice(self, conflict: str, round: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Situation dice join this roll, penalty dice oppose it (RULES.md "Beer Run")."""
        situation, left = rules.spend_situation_dice(self.held_situation())
        if situation:
            self.situation_dice_used(conflict, round, list(situation), [vars(d) for d in left])
        penalty, kept = rules.spend_penalty_dice(self.held_penalties())
        if penalty:
            self.penalty_dice_used(conflict, round, list(penalty), [vars(d) for d in kept])
        return situation, penalty

    def gain_situation_die(self, die: rules.SituationDie, source: str) -> None:
        self.situation_die_gained(die.size, die.uses, source, self.situation + [vars(die)])

    def gain_penalty_dice(self, dice: tuple[rules.PenaltyDie, ...], source: str) -> None:
        if dice:
            self.penalty_dice_gained([d.size for d in dice], dice[0].lasting, source,
                                     self.penalties + [vars(d) for d in dice])

    def lift_penalty(self, size: int, reason: str) -> None:
        lasting = [i for i, d in enumerate(self.penalties) if d["lasting"] and d["size"] == size]
        if not lasting:
            raise NotFound(f"{self.name} carries no lasting penalty d{size}.")
        held = [d for i, d in enumerate(self.penalties) if i != lasting[0]]
        self.penalty_lifted(size, reason, held)

    def take(self, effect: rules.Effect, conflict: str, round: int, by: str, ceded: bool = False) -> None:
        sizes = {a.name: a.size for a in effect.abilities}
        self.pips_taken(conflict, round, by, dict(effect.pips), sizes, list(effect.zeroed), effect.lost, ceded)
        if effect.died and self.kind == CHARACTER:
            self.died(conflict, round)

    def gain_outcome(self, gained: rules.Ability, reason: str) -> None:
        abilities = rules.gain_outcome_die(self.sheet(), gained)
        self.outcome_die_gained(gained.name, gained.category, gained.size, reason, [vars(a) for a in abilities])
