"""What a PC and a Challenge share: they hold traits (001 "Traits"), gained, removed and replaced.

The rule lives here once; each aggregate binds these bodies to its own events in two lines
(`trait_gained = event(TraitGained)(gain)`), so the stored topics stay `Character.TraitGained`
and `Challenge.TraitGained`, as ledgers already hold them (tests/test_old_files.py).
"""
from __future__ import annotations

from typing import Any, ClassVar

from campaign_ledger.ledger.errors import NotFound
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.upcasts import trait_v1_v2


class TraitGained(Reversible.Event):
    """v2 adds how often the trait may be used and the Challenge types it applies to."""

    class_version = 2
    upcast_v1_v2 = staticmethod(trait_v1_v2)
    name: str
    modifier: str
    polarity: str
    cost: str
    target: str
    frequency: str
    types: list
    words: str = ""  # a Motto's own words (`campaign motto Kira "..."`); entries before them have none


def gain(self: Any, name: str, modifier: str, polarity: str, cost: str, target: str,
         frequency: str, types: list, words: str = "") -> None:
    self.traits = {**self.traits, name.casefold(): {
        "name": name, "modifier": modifier, "polarity": polarity, "cost": cost, "target": target,
        "frequency": frequency, "types": list(types), **({"words": words} if words else {})}}


def remove(self: Any, name: str, reason: str) -> None:
    """A correction (issue 13): the trait leaves the sheet; history keeps when it was gained."""
    self.traits = {k: v for k, v in self.traits.items() if k != name.casefold()}


def replace(self: Any, name: str, modifier: str, polarity: str, previous: str, reason: str,
            target: str | None = None) -> None:
    """A correction: the same trait with another modifier (its cost and limits kept). `target` is
    the pool it modifies from now on when that changes (a flipped polarity, or `--target`); entries
    written before it was kept have none and leave the pool as it was."""
    key = name.casefold()
    pool = {"target": target} if target else {}
    self.traits = {**self.traits, key: {**self.traits[key], "modifier": modifier, "polarity": polarity, **pool}}


class TraitHolder:
    """Finding a held trait by name, case aside (mixed into the aggregates)."""

    OWNER: ClassVar[str] = "{name}"  # how a refusal names the owner ("The Challenge {name}")
    name: str
    traits: dict[str, dict[str, Any]]

    def trait(self, name: str) -> dict[str, Any]:
        try:
            return self.traits[name.strip().casefold()]
        except KeyError:
            owner = self.OWNER.format(name=self.name)
            raise NotFound(f"{owner} has no trait named '{name.strip()}'.") from None
