"""What the table decided in a Relics round, read back from its events, and the GM's changes to it
(the dice are facts, not choices: they come from the record, or the GM for dice it lacks)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterator

from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.rulesets.relics.turns import TraitUse
from campaign_ledger.ledger.units import Unit


@dataclass(frozen=True)
class Side:
    uses: tuple[TraitUse, ...] = ()
    faces: tuple[int, ...] | None = None
    placement: tuple[tuple[str, tuple[int, ...]], ...] = ()
    extra: tuple[int, ...] | None = None  # faces the GM gives for dice the record lacks


def events_of(app: Any, unit: Unit) -> Iterator[Any]:
    """The unit's own events, in order."""
    for first, last in unit.ranges:
        for n in app.recorder.select_notifications(first, last - first + 1, stop=last):
            yield app.mapper.to_domain_event(n)


@dataclass(frozen=True)
class Choices:
    """Everything the table decided in one round (the dice are not choices)."""

    challenge: str
    leader: str | None = None
    assists: tuple[str, ...] | None = None
    destiny: int = 0
    cohort: Side = Side()
    answer: Side | None = None  # the Challenge turn, if it was played
    stress: dict[str, int] | None = None


@dataclass(frozen=True)
class Changes:
    """What the GM wants to try instead; anything left None keeps the record."""

    leader: str | None = None
    assists: tuple[str, ...] | None = None
    destiny: int | None = None
    add: tuple[TraitUse, ...] = ()
    drop: tuple[str, ...] = ()
    place: tuple[tuple[str, tuple[int, ...]], ...] = ()
    faces: tuple[int, ...] | None = None
    challenge_place: tuple[tuple[str, tuple[int, ...]], ...] = ()
    challenge_faces: tuple[int, ...] | None = None
    stress: dict[str, int] | None = None
    sets: dict[str, str] = dataclasses.field(default_factory=dict)  # a single roll's choices (other rulesets)


def recorded_choices(app: Any, unit: Unit) -> Choices:
    paid: dict[str, str] = {}
    sides: dict[str, dict[str, Any]] = {"cohort": {}, "challenge": {}}
    found: dict[str, Any] = {}
    for e in events_of(app, unit):
        if isinstance(e, Campaign.TraitActivated):
            paid[f"{e.owner}:{e.trait}"] = e.paid
        elif isinstance(e, Challenge.PoolBuilt):
            sides[e.side]["activated"] = [a["label"] for a in e.activated]
            found["challenge"] = app.repository.get(e.originator_id, version=e.originator_version).name
            if e.side == "cohort":
                found["leader"] = next(c["pc"] for c in e.contributors if c["role"] == "lead")
                found["assists"] = tuple(c["pc"] for c in e.contributors if c["role"] == "assist")
                found["destiny"] = e.pool.get("destiny", 0)
        elif isinstance(e, Challenge.PoolRolled):
            sides[e.side]["faces"] = tuple(e.faces)
        elif isinstance(e, Challenge.ModifiersPlaced):
            sides[e.side]["placement"] = tuple((k, tuple(d + 1 for d in v)) for k, v in e.placement.items())
        elif isinstance(e, Challenge.StressDistributed):
            found["stress"] = dict(e.distribution)
    if "leader" not in found:
        raise BadInput(f"{unit.key} is not a round with a Cohort turn or a decision or action roll; "
                       "only those can be replayed.")

    def side(s: dict[str, Any]) -> Side:
        uses = tuple(TraitUse(*label.split(":", 1), paid=_paid(paid.get(label))) for label in s.get("activated", []))
        return Side(uses, s.get("faces"), s.get("placement", ()))
    return Choices(found["challenge"], found["leader"], found["assists"], found["destiny"],
                   side(sides["cohort"]), side(sides["challenge"]) if sides["challenge"] else None,
                   found.get("stress"))


def _paid(paid: str | None) -> str | None:
    return paid if paid in ("destiny", "doom") else None


def changed(choices: Choices, changes: Changes) -> Choices:
    dropped = {d.casefold() for d in changes.drop}
    keep = tuple(u for u in choices.cohort.uses
                 if f"{u.owner}:{u.name}".casefold() not in dropped and u.name.casefold() not in dropped)
    uses = keep + changes.add
    placement = changes.place or tuple(p for p in choices.cohort.placement if _still_there(p[0], uses))
    cohort = Side(uses, choices.cohort.faces, placement, changes.faces)
    answer = choices.answer
    if answer is not None and changes.challenge_place:
        answer = dataclasses.replace(answer, placement=changes.challenge_place)
    if changes.challenge_faces is not None:
        answer = dataclasses.replace(answer or Side(), extra=changes.challenge_faces)
    leader_changed = changes.leader is not None or changes.assists is not None
    return dataclasses.replace(
        choices, leader=changes.leader or choices.leader,
        assists=changes.assists if changes.assists is not None else (None if leader_changed else choices.assists),
        destiny=choices.destiny if changes.destiny is None else changes.destiny,
        cohort=cohort, answer=answer, stress=changes.stress if changes.stress is not None else choices.stress)


def _still_there(label: str, uses: tuple[TraitUse, ...]) -> bool:
    return any(f"{u.owner}:{u.name}".casefold() == label.casefold() for u in uses)


def described(c: Choices) -> dict[str, Any]:
    return {"leader": c.leader, "assists": list(c.assists) if c.assists is not None else "every PC able",
            "destiny": c.destiny, "traits": [f"{u.owner}:{u.name}" + (f"={u.paid}" if u.paid else "")
                                             for u in c.cohort.uses],
            "faces": list(c.cohort.faces or ()), "placement": dict(c.cohort.placement),
            "stress": c.stress}
