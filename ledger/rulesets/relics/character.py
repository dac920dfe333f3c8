"""A player character: Expertise, traits, Stress and Agony (001 "Stress and Agony")."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import event

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.ids import pc_id
from campaign_ledger.ledger.rulesets.relics import rules as relics
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.rulesets.relics import holder
from campaign_ledger.ledger.rulesets.relics.holder import TraitHolder


class Character(TraitHolder, Reversible):
    STATE_DEFAULTS = {"retired": None}

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

    # --- corrections (issue 13): new entries, never edits ---------------------------------------

    @event("Renamed")
    def renamed(self, old: str, new: str) -> None:
        """The stream (and its id, from the first name) stays; the campaign maps the new name to it."""
        self.name = new

    @event("Retired")
    def retired_from_play(self, reason: str) -> None:
        self.retired = reason or "retired"

    @event("Returned")
    def returned(self, stressed_out: bool) -> None:
        """Back at the table as they left it (`stressed_out` is kept for the read tables)."""
        self.retired = None

    @event("ExpertiseChanged")
    def expertise_changed(self, expertise: dict, primary: str, previous: dict, previous_primary: str,
                          reason: str) -> None:
        self.expertise, self.primary = dict(expertise), primary

    class TraitGained(holder.TraitGained):
        """A trait on its owner (see ledger/rulesets/relics/holder.py)."""

    trait_gained = event(TraitGained)(holder.gain)
    trait_removed = event("TraitRemoved")(holder.remove)
    trait_replaced = event("TraitReplaced")(holder.replace)

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

    def check_in_game(self) -> None:
        """Out for good (5 Agony) or retired by the GM: a retired PC neither leads, assists nor takes Stress."""
        if self.out:
            raise RuleViolation(f"{self.name} is out of the game for good ({self.agony} Agony).")
        if self.retired:
            raise RuleViolation(f"{self.name} is retired ({self.retired}); `campaign pc return {self.name}` "
                                "brings them back.")

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


def takers(t: Any, stress: dict[str, int]) -> dict[str, int]:
    """Stress by the PCs' names as the campaign spells them; a retired PC takes none."""
    named = {}
    for name, amount in stress.items():
        pc = t.pc(name)
        if pc.retired and amount:
            t.allow(pc.check_in_game)
        named[pc.name] = amount
    return named


def current_names(t: Any, names: list[str]) -> set[str]:
    """The names a list of PCs (a Challenge's group) means now, renames followed."""
    return {t.pc(name).name if t.exists(pc_id(t.pc_key(name))) else name for name in names}


def primary_type(primary: str, ranks: dict[str, int]) -> str:
    """The Primary Expertise, one of the types the PC has a rank in (it leads with it: 001 "Expertise");
    `pc add Zed --expertise Phantom=2 --primary Venger` is refused, not kept with no rank behind it."""
    primary = relics.canonical(primary, relics.TYPES, "type of Expertise")
    if not ranks.get(primary):
        held = ", ".join(k for k, v in ranks.items() if v)
        raise BadInput(f"The Primary Expertise is one the PC has a rank in ({held}), not {primary}.")
    return primary


def expertise_ranks(expertise: dict[str, int], allow_none: bool = False) -> dict[str, int]:
    """Ranks by canonical type, 0 to 5 (001 "Expertise"); a new PC needs at least one."""
    ranks = {relics.canonical(k, relics.TYPES, "type of Expertise"): v for k, v in expertise.items()}
    if any(not 0 <= v <= 5 for v in ranks.values()):
        raise BadInput("Expertise ranks go from 0 to 5.")
    if allow_none and not ranks:
        raise BadInput("Give the ranks to change, e.g. Phantom=3 (0 takes a type away).")
    if not allow_none and not any(ranks.values()):  # Phantom=0 alone is no Expertise either
        raise BadInput("A PC needs at least one Expertise, e.g. --expertise Phantom=3.")
    return ranks
