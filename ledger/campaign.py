"""The campaign: ruleset, the table's PCs, and the pools the whole Cohort shares.

Destiny and Doom live here (001 "Destiny and Doom") because every PC and every
Challenge draws on them; so does the marker of the one turn in progress at the table.
"""
from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from campaign_ledger.ledger.errors import RuleViolation
from campaign_ledger.ledger.ids import CAMPAIGN_ID
from campaign_ledger.ledger.reversible import Reversible


class Campaign(Reversible):
    STATE_DEFAULTS = {"scenario_number": 0, "scene": None, "scenes": 0, "encounter": None, "encounters": 0,
                      "cohort_traits": {}, "temporary": [], "uses": {}, "opportunities": {}, "aliases": {}}
    MEMBERS = frozenset({"pcs"})

    @staticmethod
    def create_id() -> Any:
        return CAMPAIGN_ID

    @event("Started")
    def __init__(self, name: str, ruleset: str, rules_version: str, settings: dict | None = None) -> None:
        self.name = name
        self.ruleset = ruleset
        self.rules_version = rules_version
        self.settings: dict = dict(settings or {})
        self.pcs: list[str] = []
        self.scenario: str | None = None
        self.destiny = 0
        self.doom = 0
        self.turn: dict | None = None
        self.sessions = 0
        self.session_open: str | None = None
        self.house_rules: dict[str, Any] = {}

    @event("PCJoined")
    def pc_joined(self, name: str) -> None:
        self.pcs.append(name)

    @event("PCRenamed")
    def pc_renamed(self, old: str, new: str, key: str) -> None:
        """Ids come from a PC's first name (`key`): every later name maps to it, old ones too. What
        the campaign keeps by the PC's name (its temporary traits, its traits' last uses) follows."""
        self.aliases = {**self.aliases, new.strip().casefold(): key}
        self.temporary = [{**x, "owner": new} if x["owner"].casefold() == old.casefold() else x for x in self.temporary]
        prefix = old.casefold() + ":"
        self.uses = {(new.casefold() + ":" + k[len(prefix):] if k.startswith(prefix) else k): v
                     for k, v in self.uses.items()}

    @event("ScenarioStarted")
    def scenario_started(self, title: str, destiny: int, doom: int) -> None:
        self.scenario = title
        self.scenario_number = self.scenario_number + 1
        self.destiny, self.doom = destiny, doom

    @event("TraitActivated")
    def trait_activated(self, owner: str, trait: str, modifier: str, challenge: str,
                        paid: str, destiny: int, doom: int) -> None:
        self.destiny += destiny
        self.doom += doom

    @event("DestinySpent")
    def destiny_spent(self, challenge: str, dice: int) -> None:
        self.destiny -= dice

    @event("TidesShifted")
    def tides_shifted(self, challenge: str, round: int, destiny: int, doom: int,
                      destiny_lost: int) -> None:
        self.destiny += destiny
        self.doom += doom

    @event("TurnBegan")
    def turn_began(self, challenge: str, side: str, round: int) -> None:
        self.turn = {"challenge": challenge, "side": side, "round": round}

    @event("TurnEnded")
    def turn_ended(self, challenge: str, side: str, round: int) -> None:
        self.turn = None

    @event("SessionStarted")
    def session_started(self, number: int, title: str) -> None:
        self.sessions = number
        self.session_open = title

    @event("SessionEnded")
    def session_ended(self, number: int, title: str) -> None:
        self.session_open = None

    @event("GMOverrode")
    def gm_overrode(self, rule: str, gm_override: str) -> None:
        """The GM's last word on a rule the command broke; the entry keeps both."""

    @event("NoteTaken")
    def note_taken(self, text: str, tags: list, about: str | None, round: str | None,
                   entry: int | None, gm_only: bool) -> None:
        """The GM's own record (issue 13): it changes no game state, so undo only marks it reversed."""

    @event("HouseRuleChanged")
    def house_rule_changed(self, rule: str, value: Any, previous: Any, reason: str) -> None:
        self.house_rules[rule] = value

    # --- structure: Scenes and Events (the game's; "encounters" in code) ------------------------

    @event("SceneStarted")
    def scene_started(self, number: int, title: str) -> None:
        self.scenes, self.scene = number, {"number": number, "title": title}

    @event("SceneEnded")
    def scene_ended(self, number: int, title: str, reason: str) -> None:
        self.scene = None

    @event("EncounterStarted")
    def encounter_started(self, number: int, title: str, mode: str) -> None:
        self.encounters = number
        self.encounter = {"number": number, "title": title, "mode": mode, "challenges": []}

    @event("EncounterChallengeAdded")
    def encounter_challenge_added(self, number: int, challenge: str) -> None:
        self.encounter = {**self.encounter, "challenges": [*self.encounter["challenges"], challenge]}

    @event("EncounterEnded")
    def encounter_ended(self, number: int, title: str, reason: str) -> None:
        self.encounter = None

    # --- traits the campaign keeps: the Cohort's, the temporary ones, and the uses ------------

    @event("CohortTraitGained")
    def cohort_trait_gained(self, trait: dict) -> None:
        self.cohort_traits = {**self.cohort_traits, trait["name"].casefold(): dict(trait)}

    @event("TemporaryTraitCreated")
    def temporary_trait_created(self, owner: str, trait: dict) -> None:
        self.temporary = [*self.temporary, dict(trait)]

    @event("TraitExpired")
    def trait_expired(self, owner: str, trait: str, expires: str) -> None:
        self.temporary = [x for x in self.temporary
                          if not (x["owner"] == owner and x["name"] == trait and x.get("expires") == expires)]

    @event("TraitUsed")
    def trait_used(self, trait: str, scope: str) -> None:
        self.uses = {**self.uses, trait.casefold(): scope}

    @event("DestinyGained")
    def destiny_gained(self, challenge: str, round: int, amount: int, lost: int, reason: str) -> None:
        self.destiny += amount

    @event("Paid")
    def paid(self, destiny: int, doom: int, reason: str) -> None:
        """A cost paid outside a trait: Buy Time, a split, Check This Out, the Hand of Doom."""
        self.destiny += destiny
        self.doom += doom

    @event("OpportunityCreated")
    def opportunity_created(self, challenge: str, round: int, pc: str) -> None:
        self.opportunities = {**self.opportunities, f"{challenge}:{round}": pc}

    # --- checks (run on commands, never on replay) --------------------------------------

    def check_no_turn_elsewhere(self, challenge: str) -> None:
        if self.turn and self.turn["challenge"] != challenge:
            raise RuleViolation(f"The {self.turn['side']} turn on {self.turn['challenge']} is unfinished; "
                                "finish it first (see `campaign status`).")

    def check_scenario(self) -> None:
        if self.scenario is None:
            raise RuleViolation("No Scenario has started; start one with `campaign scenario start TITLE`.")

    def pay(self, cost: str, gm: bool, amount: int = 1) -> tuple[int, int]:
        """Deltas for a cost: the Cohort spends Destiny or adds Doom; the GM spends Doom."""
        if cost == "free":
            return 0, 0
        if cost == "destiny":
            if self.destiny < amount:
                raise RuleViolation("The Destiny pool is empty." if self.destiny == 0 else
                                    f"The Destiny pool holds {self.destiny}; this costs {amount}.")
            return -amount, 0
        if gm:
            if self.doom < amount:
                raise RuleViolation("The Doom pool is empty; the GM has no Doom to spend." if self.doom == 0 else
                                    f"The Doom pool holds {self.doom}; this costs the GM {amount}.")
            return 0, -amount
        return 0, amount
