"""A Challenge and its rounds: the Cohort turn, then the Challenge turn (000 "Resolving a Challenge").

The round in progress is part of the Challenge's state, so a turn can be played in one
command or step by step (pool, roll, placements, Stress) as at a real table.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import event

from campaign_ledger.ledger.errors import RuleViolation
from campaign_ledger.ledger.ids import challenge_id
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.rulesets.relics import holder
from campaign_ledger.ledger.rulesets.relics.holder import TraitHolder
from campaign_ledger.ledger.upcasts import disaster_v1_v2

COHORT, CHALLENGE = "cohort", "challenge"
NEXT_STEP = {
    "cohort": "the Cohort turn", "cohort-roll": "the Cohort's roll",
    "cohort-place": "placing the Cohort pool's Simple modifiers", "challenge": "the Challenge turn",
    "challenge-roll": "the Challenge's roll", "challenge-place": "placing the Challenge pool's Simple modifiers",
    "challenge-stress": "distributing the Challenge's Stress", "resolved": "nothing: it is resolved",
    "ended": "nothing: it has ended",
}


class Challenge(TraitHolder, Reversible):
    OWNER = "The Challenge {name}"
    STATE_DEFAULTS = {"encounter": None, "group": [], "rounds_left": None, "test": None, "supplies": None,
                      "outcome": None, "disaster": None}

    @staticmethod
    def create_id(name: str) -> UUID:
        return challenge_id(name)

    @event("Opened")
    def __init__(self, name: str, threat: str, type: str, rating: int) -> None:
        self.name = name
        self.threat = threat
        self.type = type
        self.rating = rating
        self.resolved = 0
        self.leader: str | None = None
        self.round = 1
        self.phase = "cohort"
        self.traits: dict[str, dict[str, Any]] = {}
        self.pending: dict[str, Any] | None = None

    class TraitGained(holder.TraitGained):
        """A trait on its owner (see ledger/rulesets/relics/holder.py)."""

    trait_gained = event(TraitGained)(holder.gain)
    trait_removed = event("TraitRemoved")(holder.remove)
    trait_replaced = event("TraitReplaced")(holder.replace)

    @event("LeaderChosen")
    def leader_chosen(self, leader: str, round: int) -> None:
        self.leader = leader

    @event("PoolBuilt")
    def pool_built(self, side: str, round: int, contributors: list, activated: list, pool: dict,
                   autos: list, auto_lost: int, simple: list) -> None:
        self.phase = f"{side}-roll"
        self.pending = {"side": side, "contributors": contributors, "activated": activated,
                        "pool": pool, "autos": list(autos), "simple": simple}

    @event("PoolRolled")
    def pool_rolled(self, side: str, round: int, faces: list, entered: bool) -> None:
        self.phase = f"{side}-place"
        assert self.pending is not None
        self.pending["faces"] = list(faces)

    @event("ModifiersPlaced")
    def modifiers_placed(self, side: str, round: int, placement: dict, results: list, offered: bool) -> None:
        assert self.pending is not None
        self.pending["results"] = list(results)

    @event("RoundTallied")
    def round_tallied(self, side: str, round: int, results: list, successes: int, criticals: int,
                      overpowering: int, botches: int, major_botches: int, disaster: bool) -> None:
        if side == COHORT:
            self.phase = CHALLENGE
            self.pending = None
        elif successes > 0:
            self.phase = "challenge-stress"
            assert self.pending is not None
            self.pending["stress"] = successes
        else:
            self._next_round()

    @event("DiceResolved")
    def dice_resolved(self, round: int, count: int, resolved: int) -> None:
        self.resolved = resolved

    class DisasterStruck(Reversible.Event):
        """v2: the round the Disaster happened in (v1 named the next round on a Challenge turn)."""

        class_version = 2
        upcast_v1_v2 = staticmethod(disaster_v1_v2)
        side: str
        round: int

    @event(DisasterStruck)
    def disaster_struck(self, side: str, round: int) -> None:
        self.disaster = {"side": side, "round": round}

    @event("Resolved")
    def became_resolved(self, round: int) -> None:
        self.phase = "resolved"
        self.pending = None

    @event("StressDistributed")
    def stress_distributed(self, round: int, distribution: dict) -> None:
        self._next_round()

    # --- what kind of Challenge it is (001 "Scenes, Events, and Challenges", "Tests") ----------

    @event("Configured")
    def configured(self, encounter: int | None, group: list, rounds: int | None, test: dict | None) -> None:
        self.encounter, self.group, self.rounds_left = encounter, list(group), rounds
        self.test = dict(test) if test else None

    @event("TimeBought")
    def time_bought(self, round: int, rounds_left: int) -> None:
        self.rounds_left = rounds_left

    @event("RoundSpent")
    def round_spent(self, round: int, rounds_left: int) -> None:
        self.rounds_left = rounds_left

    @event("Ended")
    def ended(self, round: int, reason: str) -> None:
        self.phase, self.pending, self.outcome = "ended", None, reason

    @event("TestStressDue")
    def test_stress_due(self, round: int, stress: int) -> None:
        self.phase, self.pending = "challenge-stress", {"side": "challenge", "stress": stress}

    @event("TestDecided")
    def test_decided(self, round: int, successes: int, needed: int, passed: bool) -> None:
        self.outcome = "passed" if passed else "failed"

    @event("SplitOff")
    def split_off(self, into: str, dice: int, rating: int, group: list, keeps: list) -> None:
        self.rating, self.group = rating, list(keeps)

    @event("SuppliesSpent")
    def supplies_spent(self, round: int, type: str, rank: int, traded: bool) -> None:
        self.supplies = {"type": type, "rank": rank, "traded": traded}

    @event("DisasterTraitMade")
    def disaster_trait_made(self, round: int, side: str, trait: str, owner: str) -> None:
        self.disaster = None

    # --- corrections (issue 13) -----------------------------------------------------------------

    @event("Rated")
    def rated(self, rating: int, previous: int, reason: str) -> None:
        self.rating = rating

    @event("Closed")
    def closed(self, round: int, outcome: str, reason: str) -> None:
        """The GM closes it (the Cohort got what it wanted) or abandons it (walked away): no more turns."""
        self.phase, self.pending, self.outcome = "ended", None, outcome

    def _next_round(self) -> None:
        self.round += 1
        self.phase = COHORT
        self.pending = None

    # --- checks -----------------------------------------------------------------------------

    def expect(self, *phases: str) -> None:
        """Refuse a step out of order, naming the step the table is at."""
        if self.phase not in phases:
            raise RuleViolation(f"{self.name} is waiting for {NEXT_STEP[self.phase]}.")

    @property
    def unresolved(self) -> int:
        return self.rating - self.resolved

    @property
    def last_round(self) -> int:
        """The round last played (between rounds, the round counter already names the next)."""
        return self.round - 1 if self.phase == "cohort" and self.round > 1 else self.round

    @property
    def finished(self) -> bool:
        return self.phase in ("resolved", "ended")
