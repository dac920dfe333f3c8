"""Replay a contested round: the very faces that were rolled, with other choices.

The round's choices are read back from its events (leader, assists, traits and how
they were paid, Destiny, faces, placements, Stress). The replay runs on a scratch
copy of the ledger as it stood before the round, once as recorded and once as
changed, then plays the later rounds as recorded to show what they would become.
"""
from __future__ import annotations

import dataclasses
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ledger.campaign import Campaign
from ledger.challenge import Challenge
from ledger.errors import BadInput, LedgerError
from ledger.ids import CAMPAIGN_ID, challenge_id, pc_id
from ledger.turns import Placing, Throw, TraitUse
from ledger.undo import Unit


@dataclass(frozen=True)
class Side:
    uses: tuple[TraitUse, ...] = ()
    faces: tuple[int, ...] | None = None
    placement: tuple[tuple[str, tuple[int, ...]], ...] = ()


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
    for first, last in unit.ranges:
        for n in app.recorder.select_notifications(first, last - first + 1, stop=last):
            e = app.mapper.to_domain_event(n)
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
    cohort = Side(uses, changes.faces or choices.cohort.faces, placement)
    answer = choices.answer
    if answer is not None and changes.challenge_place:
        answer = dataclasses.replace(answer, placement=changes.challenge_place)
    if changes.challenge_faces is not None:
        answer = dataclasses.replace(answer or Side(), faces=changes.challenge_faces)
    leader_changed = changes.leader is not None or changes.assists is not None
    return dataclasses.replace(
        choices, leader=changes.leader or choices.leader,
        assists=changes.assists if changes.assists is not None else (None if leader_changed else choices.assists),
        destiny=choices.destiny if changes.destiny is None else changes.destiny,
        cohort=cohort, answer=answer, stress=changes.stress if changes.stress is not None else choices.stress)


def _still_there(label: str, uses: tuple[TraitUse, ...]) -> bool:
    return any(f"{u.owner}:{u.name}".casefold() == label.casefold() for u in uses)


def play(app: Any, choices: Choices) -> dict[str, Any]:
    """Play a whole round on `app` (a scratch ledger) with these choices."""
    outcome: dict[str, Any] = {}
    app.run(lambda t: play_on(t, choices, outcome), "replay")
    return outcome


def play_on(t: Any, choices: Choices, outcome: dict[str, Any], strict: bool = False) -> dict[str, Any]:
    """The round's steps on a Table; `outcome` gathers each side's successes and notes.

    A pool that now rolls more dice than were recorded stops the round there (a note),
    or, when the correction is to be committed (`strict`), refuses it.
    """
    from ledger import turns
    notes = outcome.setdefault("notes", [])
    ch = t.challenge(choices.challenge)
    key = f"{ch.name}:{ch.round}"
    turns.cohort_huddle(t, ch, choices.leader, list(choices.assists) if choices.assists is not None else None,
                        list(choices.cohort.uses), choices.destiny)
    if _roll(t, ch, choices.cohort, None, notes, strict, "--faces"):
        if ch.phase == "challenge" and choices.answer is None:
            notes.append(f"{ch.name} would take a turn here; its dice were never rolled")
        if ch.phase == "challenge" and choices.answer is not None:
            turns.challenge_huddle(t, ch, list(choices.answer.uses))
            _roll(t, ch, choices.answer, choices.stress, notes, strict, "--challenge-faces")
            if ch.phase == "challenge-stress":
                notes.append(f"{ch.name} would score other Stress; the recorded distribution no longer adds up")
    for e in ch._pending_events:  # this round's tallies, before they are saved
        if isinstance(e, Challenge.RoundTallied):
            outcome[f"{e.side.capitalize()} successes"] = e.successes
    return {"unit": key}


def _roll(t: Any, ch: Challenge, side: Side, stress: dict[str, int] | None, notes: list[str],
          strict: bool, option: str) -> bool:
    from ledger import turns
    pending = ch.pending or {}
    need = pending["pool"]["size"] - len(pending["autos"])
    faces = side.faces or ()
    if len(faces) < need:
        message = (f"The {pending['side'].capitalize()} pool would roll {need} dice but {len(faces)} faces were "
                   f"recorded; give {option} to play it.")
        if strict:
            raise BadInput(message)
        notes.append(message)
        return False
    turns.advance(t, ch, Throw(tuple(faces[:need])), Placing(side.placement, True), None)
    fitted = _fit_stress(ch, stress)
    if ch.phase == "challenge-stress" and fitted is not None:
        turns.distribute(t, ch, fitted)
    return True


def _fit_stress(ch: Challenge, stress: dict[str, int] | None) -> dict[str, int] | None:
    """A changed round may score other Stress: the recorded split is kept only if it still adds up."""
    if ch.phase != "challenge-stress" or stress is None:
        return stress
    return stress if sum(stress.values()) == (ch.pending or {}).get("stress") else None


def figures(app: Any, challenge: str) -> dict[str, Any]:
    camp = app.repository.get(CAMPAIGN_ID)
    ch = app.repository.get(challenge_id(challenge))
    result = {"Destiny": camp.destiny, "Doom": camp.doom, f"{ch.name} dice resolved": ch.resolved,
              f"{ch.name} waiting for": ch.phase}
    for name in camp.pcs:
        pc = app.repository.get(pc_id(name))
        result[f"{name} Stress"] = pc.stress
        result[f"{name} Agony"] = pc.agony
    return result


def scratch(app: Any, upto: int, directory: str) -> Any:
    """A copy of the ledger's first `upto` entries, to play on without touching the real one."""
    from ledger.application import open_ledger
    copy = open_ledger(str(Path(directory) / "scratch.db"), store="eventsourcing.sqlite")
    start = 0
    while start < upto:
        batch = app.recorder.select_notifications(start, min(500, upto - start), inclusive_of_start=False, stop=upto)
        if not batch:
            break
        copy.recorder.insert_events(batch)
        start = batch[-1].id
    return copy


def compare(app: Any, unit: Unit, changes: Changes) -> dict[str, Any]:
    """Recorded and replayed figures side by side, after the round and after what came later."""
    record = recorded_choices(app, unit)
    trial = changed(record, changes)
    with tempfile.TemporaryDirectory() as tmp_a, tempfile.TemporaryDirectory() as tmp_b:
        as_recorded, as_changed = scratch(app, unit.first - 1, tmp_a), scratch(app, unit.first - 1, tmp_b)
        recorded, replayed = play(as_recorded, record), play(as_changed, trial)
        notes = replayed.pop("notes")
        recorded.pop("notes")
        result: dict[str, Any] = {"round": unit.key, "after_round": _side_by_side(
            {**recorded, **figures(as_recorded, record.challenge)},
            {**replayed, **figures(as_changed, record.challenge)})}
        later = _later(app, unit)
        for label, action in later:
            for side, target in (("recorded", as_recorded), ("changed", as_changed)):
                try:
                    action(target)
                except LedgerError as e:
                    notes.append(f"{label} ({side}): could not be played again: {e}")
        if later:
            result["after_later_rounds"] = _side_by_side(figures(as_recorded, record.challenge),
                                                         figures(as_changed, record.challenge))
        result["notes"] = notes
        result["choices"] = {"recorded": _describe(record), "replayed": _describe(trial)}
    return result


def _later(app: Any, unit: Unit) -> list[tuple[str, Any]]:
    """What came after the round, as actions that play it again on a scratch ledger."""
    mine = {first for first, _ in unit.ranges}
    actions: list[tuple[str, Any]] = []
    played: set[str] = set()
    for first, last, command, key, _detail in app.recorder.commands():
        if first <= unit.first or first in mine:
            continue
        events = [app.mapper.to_domain_event(n)
                  for n in app.recorder.select_notifications(first, last - first + 1, stop=last)]
        if key and command != "undo" and any(isinstance(e, Challenge.PoolBuilt) for e in events):
            if key not in played:
                played.add(key)
                choices = recorded_choices(app, Unit(key, _ranges_of(app, key, first)))
                actions.append((key, lambda target, c=choices: play(target, c)))
            continue
        setup = _setup_actions(app, events, command)
        actions += [(f"entry #{first} ({command})", action) for action in setup]
        if not setup:
            actions.append((f"entry #{first} ({command})", _not_replayed))
    return actions


def _not_replayed(target: Any) -> None:
    raise LedgerError("a command replay does not play again")


def _ranges_of(app: Any, key: str, from_entry: int) -> tuple[tuple[int, int], ...]:
    ranges = []
    for first, last, command, unit, detail in app.recorder.commands():
        if first < from_entry:
            continue
        if key in detail.get("reverses", []):
            break
        if unit == key and command != "undo":
            ranges.append((first, last))
    return tuple(ranges)


def _setup_actions(app: Any, events: list[Any], command: str) -> list[Any]:
    """Commands other than rounds, read back from their events (those that can be played again)."""
    from ledger.character import Character
    actions: list[Any] = []
    for e in events:
        if isinstance(e, Character.PushedTheLimit):
            name = app.repository.get(e.originator_id, version=e.originator_version).name
            actions.append(lambda target, n=name: target.push_the_limit(n))
        elif isinstance(e, Character.Joined):
            actions.append(lambda target, e=e: target.add_pc(e.name, e.expertise, e.primary))
        elif isinstance(e, (Character.TraitGained, Challenge.TraitGained)):
            owner = app.repository.get(e.originator_id, version=e.originator_version).name
            actions.append(lambda target, e=e, o=owner: target.add_trait(
                o, e.name, e.modifier, e.polarity, e.cost, e.target, isinstance(e, Challenge.TraitGained)))
        elif isinstance(e, Campaign.ScenarioStarted):
            actions.append(lambda target, e=e: target.start_scenario(e.title))
        elif isinstance(e, Campaign.SessionStarted):
            actions.append(lambda target, e=e: target.start_session(e.title))
        elif isinstance(e, Campaign.SessionEnded):
            actions.append(lambda target: target.end_session())
        elif isinstance(e, Challenge.Opened):
            actions.append(lambda target, e=e: target.open_challenge(e.name, e.threat, e.type, e.rating))
    return actions


def _side_by_side(recorded: dict[str, Any], replayed: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"figure": k, "recorded": recorded.get(k), "replayed": replayed.get(k),
             "changed": recorded.get(k) != replayed.get(k)} for k in dict.fromkeys([*recorded, *replayed])]


def _describe(c: Choices) -> dict[str, Any]:
    return {"leader": c.leader, "assists": list(c.assists) if c.assists is not None else "every PC able",
            "destiny": c.destiny, "traits": [f"{u.owner}:{u.name}" + (f"={u.paid}" if u.paid else "")
                                             for u in c.cohort.uses],
            "faces": list(c.cohort.faces or ()), "placement": dict(c.cohort.placement),
            "stress": c.stress}
