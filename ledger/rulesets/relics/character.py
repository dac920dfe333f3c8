"""A player character: Expertise, traits, Stress and Agony (001 "Stress and Agony")."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import event

from ledger.errors import NotFound, RuleViolation
from ledger.ids import pc_id
from ledger.rulesets.relics import rules as relics
from ledger.reversible import Reversible
from ledger.upcasts import trait_v1_v2 as traits_v1_v2


class Character(Reversible):
    @staticmethod
    def create_id(name: str) -> UUID:
        return pc_id(name)

    @event("Joined")
    def __init__(self, name: str, expertise: dict[str, int], primary: str) -> None:
        self.name = name
        self.expertise = dict(expertise)
        self.primary = primary
        self.traits: dict[str, dict[str, Any]] = {}
        self.stress = 0
        self.agony = 0
        self.stressed_out = False
        self.out = False

    class TraitGained(Reversible.Event):
        """v2 adds how often the trait may be used and the Challenge types it applies to."""

        class_version = 2
        upcast_v1_v2 = staticmethod(traits_v1_v2)
        name: str
        modifier: str
        polarity: str
        cost: str
        target: str
        frequency: str
        types: list

    @event(TraitGained)
    def trait_gained(self, name: str, modifier: str, polarity: str, cost: str, target: str,
                     frequency: str, types: list) -> None:
        self.traits[name.casefold()] = {"name": name, "modifier": modifier, "polarity": polarity,
                                        "cost": cost, "target": target, "frequency": frequency,
                                        "types": list(types)}

    @event("StressApplied")
    def stress_applied(self, amount: int, stress: int, challenge: str, round: int) -> None:
        self.stress = stress

    @event("StressedOut")
    def became_stressed_out(self, stress: int) -> None:
        self.stressed_out = True

    @event("PushedTheLimit")
    def pushed_the_limit(self, stress_before: int, stress: int) -> None:
        self.stress = stress
        self.stressed_out = False

    @event("AgonyGained")
    def agony_gained(self, agony: int) -> None:
        self.agony = agony

    @event("TakenOut")
    def taken_out(self, agony: int) -> None:
        self.out = True

    @event("StressRecovered")
    def stress_recovered(self, amount: int, stress: int, stressed_out: bool, why: str) -> None:
        self.stress, self.stressed_out = stress, stressed_out

    @event("GrowthTested")
    def growth_tested(self, pool: int, faces: list, entered: bool, modifiers: list, placement: dict,
                      results: list, successes: int, passed: bool) -> None:
        pass

    @event("AgonyRecovered")
    def agony_recovered(self, agony: int) -> None:
        self.agony = agony

    # --- commands ---------------------------------------------------------------------------

    def recover_stress(self, rules: relics.RulesVersion, amount: int, why: str) -> None:
        """Stress never goes below 0; a PC under the threshold is no longer Stressed Out."""
        stress = max(0, self.stress - amount)
        self.stress_recovered(self.stress - stress, stress, self.stressed_out and relics.stressed_out(rules, stress),
                              why)

    def rank(self, challenge_type: str) -> int:
        return self.expertise.get(challenge_type, 0)

    def trait(self, name: str) -> dict[str, Any]:
        try:
            return self.traits[name.strip().casefold()]
        except KeyError:
            raise NotFound(f"{self.name} has no trait named '{name}'.") from None

    def check_in_game(self) -> None:
        if self.out:
            raise RuleViolation(f"{self.name} is out of the game for good ({self.agony} Agony).")

    def check_can_act(self) -> None:
        """A Stressed Out PC contributes nothing until it Pushes the Limit."""
        self.check_in_game()
        if self.stressed_out:
            raise RuleViolation(f"{self.name} is Stressed Out and contributes nothing until they Push the Limit.")

    def take_stress(self, rules: relics.RulesVersion, amount: int, challenge: str, round: int) -> None:
        self.stress_applied(amount, self.stress + amount, challenge, round)
        if not self.stressed_out and relics.stressed_out(rules, self.stress):
            self.became_stressed_out(self.stress)

    def check_stressed_out(self) -> None:
        if not self.stressed_out:
            raise RuleViolation(f"{self.name} is not Stressed Out; only a Stressed Out PC can Push the Limit.")

    def push_the_limit(self, rules: relics.RulesVersion) -> None:
        """Stress rolls over past the threshold (a GM may allow it below: it then drops to 0)."""
        self.pushed_the_limit(self.stress, relics.push_the_limit(rules, max(self.stress, rules.stressed_out_at)))
        self.agony_gained(self.agony + 1)
        if relics.out_of_the_game(rules, self.agony):
            self.taken_out(self.agony)
