"""The bestiary: Challenges the GM has defined (from a roster file) but not yet opened.

One aggregate per campaign, so loading a roster is one save; `challenge open NAME` with no
Threat, type or rating takes them (and its traits) from here.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import event

from campaign_ledger.ledger import values
from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger.ids import CAMPAIGN_ID
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.rulesets.relics import rules as relics

BESTIARY_ID: UUID = uuid5(CAMPAIGN_ID, "relics bestiary")


class Bestiary(Reversible):
    @staticmethod
    def create_id() -> UUID:
        return BESTIARY_ID

    @event("Started")
    def __init__(self) -> None:
        self.name = "the bestiary"
        self.entries: dict[str, dict[str, Any]] = {}

    @event("Defined")
    def defined(self, challenge: dict) -> None:
        """A Challenge's name, Threat, type, rating and traits, kept for when it is opened."""
        self.entries = {**self.entries, challenge["name"].casefold(): dict(challenge)}

    def entry(self, name: str) -> dict[str, Any] | None:
        return self.entries.get(name.strip().casefold())


def defined_as(t: Any, name: str, threat: str | None, type_: str | None, rating: int | None) -> dict[str, Any]:
    """A Challenge about to be opened: all of Threat, type and rating given, they are the Challenge;
    any left out, the bestiary's entry fills them (its traits too), every value checked as
    `challenge open` checks it."""
    given = {"threat": threat, "type": type_, "rating": rating}
    entry: dict[str, Any] = {"traits": []}
    if None in given.values():
        found = t.load(BESTIARY_ID, "").entry(name) if t.exists(BESTIARY_ID) else None
        if found is None:
            raise BadInput(f"Give --threat, --type and --rating: the bestiary defines no '{name.strip()}' "
                           "(see `campaign roster load`).")
        entry = found
    spec = {**entry, **{k: v for k, v in given.items() if v is not None}}
    spec["threat"] = relics.canonical(spec["threat"], relics.THREATS, "Threat")
    spec["type"] = relics.canonical(spec["type"], relics.TYPES, "Challenge type")
    values.integer(spec["rating"], "A Challenge's rating", 1, relics.MOST_DICE)
    return spec
