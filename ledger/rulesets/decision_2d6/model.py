"""Aggregates and events of decision-2d6 campaigns (seed 004).

A character (`Hero`) with Level, Will, Fort, stats and attributes, and the decision rolls it
makes; an `Item` with a supply die; a D100 `Tracker` (ammunition); a `Contest` between two
characters with every tie reroll kept. Event bodies only store what the command worked out
with `ledger.rulesets.decision_2d6.rules`: they never roll, check or compute a rule, so replay is exact.
Every event carries the name it is about, so the history reads without a lookup.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import event

from campaign_ledger.ledger.errors import BadInput, NotFound
from campaign_ledger.ledger.ids import CAMPAIGN_ID
from campaign_ledger.ledger.reversible import Reversible

_NAMESPACE = uuid5(CAMPAIGN_ID, "decision-2d6")
LEVEL, WILL, FORT, STAT, ATTRIBUTE = "level", "will", "fort", "stat", "attribute"
CORE = {LEVEL: "Level", WILL: "Will", FORT: "Fort"}


def _id(kind: str, name: str) -> UUID:
    return uuid5(_NAMESPACE, f"{kind}:{name.strip().casefold()}")


def hero_id(name: str) -> UUID:
    return _id("character", name)


def item_id(name: str) -> UUID:
    return _id("item", name)


def tracker_id(name: str) -> UUID:
    return _id("tracker", name)


class Hero(Reversible):
    """A character of a decision-2d6 campaign (player character or one the GM runs)."""

    @staticmethod
    def create_id(name: str) -> UUID:
        return hero_id(name)

    @event("Created")
    def __init__(self, name: str, level: int, will: int, fort: int, stats: dict, attributes: dict,
                 stress: int, vitality: int) -> None:
        self.name = name
        self.level, self.will, self.fort = level, will, fort
        self.stats: dict[str, int] = dict(stats)
        self.attributes: dict[str, int] = dict(attributes)
        self.stress, self.vitality = stress, vitality
        self.rolls = 0

    @event("ScoreChanged")
    def score_changed(self, name: str, score: str, kind: str, before: int | None, after: int,
                      stress: int, vitality: int, reason: str) -> None:
        if kind == STAT:
            self.stats[score] = after
        elif kind == ATTRIBUTE:
            self.attributes[score] = after
        else:
            setattr(self, kind, after)
        self.stress, self.vitality = stress, vitality

    @event("DecisionRolled")
    def decision_rolled(self, name: str, stat: str, stat_value: int, modifiers: list, advantage: str,
                        grants: int, rolled_with: str, faces: list, chains: list, entered: bool,
                        total: int, target: int | None, difficulty: str | None, success: bool | None,
                        purpose: str) -> None:
        self.rolls += 1

    # --- reading the sheet (commands only) ------------------------------------------------

    def scores(self) -> dict[str, tuple[str, str, int]]:
        """Every score by folded name: (kind, name as written, value)."""
        found = {k: (k, label, getattr(self, k)) for k, label in CORE.items()}
        found.update({n.casefold(): (STAT, n, v) for n, v in self.stats.items()})
        found.update({n.casefold(): (ATTRIBUTE, n, v) for n, v in self.attributes.items()})
        return found

    def score(self, name: str) -> tuple[str, str, int]:
        """A stat or attribute to roll with (Will and Fort too); NotFound names what there is."""
        found = self.scores().get(name.strip().casefold())
        if found is None or found[0] == LEVEL:
            rollable = [label for key, (kind, label, _) in self.scores().items() if kind != LEVEL]
            raise NotFound(f"{self.name} has no stat or attribute named '{name}' "
                           f"(there are {', '.join(rollable)}).")
        return found


class Item(Reversible):
    """A piece of equipment whose supplies are a die: D12, D10, D8, D6, D4 or Empty."""

    @staticmethod
    def create_id(name: str) -> UUID:
        return item_id(name)

    @event("Stocked")
    def __init__(self, name: str, holder: str | None, die: str) -> None:
        self.name, self.holder, self.die = name, holder, die

    @event("SupplyRolled")
    def supply_rolled(self, name: str, before: str, face: int, after: str, threshold: int,
                      entered: bool, purpose: str) -> None:
        self.die = after

    @event("UsedWhileEmpty")
    def used_while_empty(self, name: str, purpose: str, override: str) -> None:
        pass

    @event("Restocked")
    def restocked(self, name: str, before: str, after: str, reason: str) -> None:
        self.die = after


class Tracker(Reversible):
    """A D100 percentage tracker (ammunition), with every d100 rolled against it."""

    @staticmethod
    def create_id(name: str) -> UUID:
        return tracker_id(name)

    @event("Started")
    def __init__(self, name: str, holder: str | None, value: int, step: int) -> None:
        self.name, self.holder, self.value, self.step = name, holder, value, step
        self.rolls: list[int] = []

    @event("Rolled")
    def tracker_rolled(self, name: str, before: int, face: int, after: int, supplied: bool,
                       step: int, entered: bool, purpose: str) -> None:
        self.value = after
        self.rolls.append(face)

    @event("UsedAtZero")
    def used_at_zero(self, name: str, purpose: str, override: str) -> None:
        pass

    @event("Set")
    def tracker_set(self, name: str, before: int, after: int, reason: str) -> None:
        self.value = after


class Contest(Reversible):
    """One contested roll: both sides, every round (ties rerolled), and the winner.

    Contests have no name, so their ids are eventsourcing's default random ids, drawn when
    the command runs (never on replay: the id is stored with the event).
    """

    @event("Decided")
    def __init__(self, sides: list, position: str, grants: list, rounds: list, winner: str,
                 entered: bool, purpose: str) -> None:
        self.sides = [dict(s) for s in sides]
        self.rounds = [dict(r) for r in rounds]
        self.winner = winner


def reason(text: str | None, what: str = "A GM override") -> str | None:
    """A stated reason, stripped; an empty one is no reason at all."""
    if text is None:
        return None
    if not text.strip():
        raise BadInput(f"{what} needs a reason.")
    return text.strip()


def plain(value: Any) -> Any:
    """Tuples as lists, so an event holds what a round trip through storage gives back."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value
