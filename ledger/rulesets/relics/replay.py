"""Replay a contested Relics round: the very faces that were rolled, with other choices.

The round's choices are read back from its events (leader, assists, traits and how
they were paid, Destiny, faces, placements, Stress). The changed round is played on a
scratch copy of the ledger as it stood before it, then the later entries that still
stand (not undone) as recorded. The recorded column is never re-computed: it is the
ledger's own figures, at the round's last entry and now, so a replay cannot disagree
with the record it is compared to. A round that was undone can be replayed too (undo.py
lists only live units, so the lookup of units, reversed ones included, lives here).
"""
from __future__ import annotations

import dataclasses
import tempfile
from dataclasses import dataclass
from typing import Any, Iterator

from ledger.campaign import Campaign
from ledger.chain import chained
from ledger.rulesets.relics.challenge import Challenge
from ledger.errors import BadInput, LedgerError
from ledger.ids import CAMPAIGN_ID, challenge_id, pc_id
from ledger.rulesets.relics.turns import Placing, Throw, TraitUse
from ledger.replay import Found, incarnations, notifications, scratch, side_by_side
from ledger.undo import Unit


@dataclass(frozen=True)
class Side:
    uses: tuple[TraitUse, ...] = ()
    faces: tuple[int, ...] | None = None
    placement: tuple[tuple[str, tuple[int, ...]], ...] = ()
    extra: tuple[int, ...] | None = None  # faces the GM gives for dice the record lacks


def _start(app: Any, unit: Unit) -> int:
    """The round's first entry of play: a committed correction's own reversal comes before it."""
    from ledger.reversible import Reversible
    first, last = unit.ranges[0]
    for n in app.recorder.select_notifications(first, last - first + 1, stop=last):
        if not isinstance(app.mapper.to_domain_event(n), Reversible.Reversed):
            return n.id
    return first


def _events(app: Any, unit: Unit) -> Iterator[Any]:
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
    for e in _events(app, unit):
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


def play(app: Any, choices: Choices) -> dict[str, Any]:
    """Play a whole round on `app` (a scratch ledger) with these choices."""
    outcome: dict[str, Any] = {}
    app.run(lambda t: play_on(t, choices, outcome), "replay")
    return outcome


def play_on(t: Any, choices: Choices, outcome: dict[str, Any], strict: bool = False) -> dict[str, Any]:
    """The round's steps on a Table; `outcome` gathers each side's successes and notes.

    Faces that do not fit a pool are refused (see `_fit_faces`); `strict` is for a
    correction to be committed, which may only add faces, never replace recorded ones.
    """
    from ledger.rulesets.relics import turns
    notes = outcome.setdefault("notes", [])
    ch = t.challenge(choices.challenge)
    key = f"{ch.name}:{ch.round}"
    turns.cohort_huddle(t, ch, choices.leader, list(choices.assists) if choices.assists is not None else None,
                        list(choices.cohort.uses), choices.destiny)
    _roll(t, ch, choices.cohort, None, notes, strict, "--faces")
    if ch.phase == "challenge" and choices.answer is None:
        notes.append(f"{ch.name} would take a turn here; its dice were never rolled (give them with --challenge-faces)")
    elif ch.phase == "challenge" and choices.answer is not None:
        turns.challenge_huddle(t, ch, list(choices.answer.uses))
        _roll(t, ch, choices.answer, choices.stress, notes, strict, "--challenge-faces")
        if ch.phase == "challenge-stress":
            notes.append(f"{ch.name} would score other Stress; the recorded distribution no longer adds up")
    elif choices.answer is not None and choices.answer.extra is not None:
        notes.append(f"{ch.name} takes no turn in this replay: --challenge-faces is not used")
    for e in ch._pending_events:  # this round's tallies, before they are saved
        if isinstance(e, Challenge.RoundTallied):
            outcome[f"{e.side.capitalize()} successes"] = e.successes
    return {"unit": key}


def _roll(t: Any, ch: Challenge, side: Side, stress: dict[str, int] | None, notes: list[str],
          strict: bool, option: str) -> None:
    from ledger.rulesets.relics import turns
    pending = ch.pending or {}
    need = pending["pool"]["size"] - len(pending["autos"])
    faces = _fit_faces(side, need, pending["side"].capitalize(), option, strict, notes)
    turns.advance(t, ch, Throw(faces), Placing(side.placement, True), None)
    fitted = _fit_stress(ch, stress)
    if ch.phase == "challenge-stress" and fitted is not None:
        turns.distribute(t, ch, fitted)


def _fit_faces(side: Side, need: int, name: str, option: str, strict: bool, notes: list[str]) -> tuple[int, ...]:
    """The faces a pool rolls in a replay: the recorded ones, then the GM's for the dice the record lacks.

    Dice are facts: given faces never silently replace recorded ones. A count that does not
    fit is refused with the number needed. Only a what-if of the Challenge turn may be given
    whole (other luck for the other side), and never in a committed correction.
    """
    recorded, given = tuple(side.faces or ()), side.extra
    lacking = need - len(recorded)
    pool = (f"In this replay the {name} pool rolls {_count(need, 'die', 'dice')} and the record has "
            f"{_count(len(recorded), 'face', 'faces')}")
    if given is None:
        if lacking > 0:
            raise BadInput(f"{pool}: give the {lacking} missing with {option}.")
        if lacking < 0:
            notes.append(f"{pool}: the first {need} are used ({_listed(recorded[:need])})")
        return recorded[:need]
    if lacking > 0 and len(given) == lacking:
        return recorded + given
    whole = option == "--challenge-faces" and not strict
    if whole and len(given) == need:
        notes.append(f"The {name}'s recorded faces ({_listed(recorded) or 'none'}) are replaced by "
                     f"{_listed(given)} in this what-if")
        return given
    if lacking <= 0:
        raise BadInput(f"{pool}: it lacks none, so {option} has no dice to fill; leave it out"
                       + (f" or give all {need} to try other luck." if whole else "."))
    raise BadInput(f"{pool}: {option} needs {_count(lacking, 'face', 'faces')}, not {len(given)}"
                   + (f" (or all {need} to try other luck)." if whole else "."))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _listed(faces: tuple[int, ...]) -> str:
    return ", ".join(str(f) for f in faces)


def _fit_stress(ch: Challenge, stress: dict[str, int] | None) -> dict[str, int] | None:
    """A changed round may score other Stress: the recorded split is kept only if it still adds up."""
    if ch.phase != "challenge-stress" or stress is None:
        return stress
    return stress if sum(stress.values()) == (ch.pending or {}).get("stress") else None


def figures(app: Any, challenge: str, versions: dict[Any, int] | None = None) -> dict[str, Any]:
    """Pools, the Challenge and every PC's Stress and Agony; at `versions` (aggregate id -> version) if given."""
    def get(aggregate_id: Any) -> Any:
        if versions is None:
            return app.repository.get(aggregate_id)
        return app.repository.get(aggregate_id, version=versions[aggregate_id])
    camp = get(CAMPAIGN_ID)
    ch = get(challenge_id(challenge))
    result = {"Destiny": camp.destiny, "Doom": camp.doom, f"{ch.name} dice resolved": ch.resolved,
              f"{ch.name} waiting for": ch.phase}
    for name in camp.pcs:
        pc = get(pc_id(name))
        result[f"{name} Stress"] = pc.stress
        result[f"{name} Agony"] = pc.agony
    return result


def ledger_figures(app: Any, challenge: str, entry: int | None = None) -> dict[str, Any]:
    """The ledger's own figures at `entry` (None: now): the aggregates as the record leaves them there."""
    if entry is None:
        return figures(app, challenge)
    versions = {n.originator_id: n.originator_version for n in notifications(app, entry)}
    return figures(app, challenge, versions)


def recorded_tallies(app: Any, unit: Unit) -> dict[str, int]:
    """Each side's successes as the round's own entries tallied them."""
    return {f"{e.side.capitalize()} successes": e.successes
            for e in _events(app, unit) if isinstance(e, Challenge.RoundTallied)}


def compare(app: Any, found: Found, changes: Changes) -> dict[str, Any]:
    """The ledger's figures beside the changed round's, after the round and now.

    Recorded: the ledger at the round's last entry, and as it stands now. Replayed: the
    changed round on a copy of the ledger before it, then the later entries still standing.
    """
    unit = found.unit
    record = recorded_choices(app, unit)
    trial = changed(record, changes)
    last = unit.ranges[-1][1]
    with tempfile.TemporaryDirectory() as tmp:
        what_if = scratch(app, _start(app, unit) - 1, tmp)
        replayed = play(what_if, trial)
        notes = replayed.pop("notes")
        result: dict[str, Any] = {"round": unit.key, "undone_at": found.undone_at, "after_round": side_by_side(
            {**recorded_tallies(app, unit), **ledger_figures(app, record.challenge, last)},
            {**replayed, **figures(what_if, record.challenge)})}
        if (app.recorder.max_notification_id() or 0) > last:
            for label, action in _later(app, unit):
                try:
                    action(what_if)
                except LedgerError as e:
                    notes.append(f"{label} (changed): could not be played again: {e}")
            result["after_later_rounds"] = side_by_side(ledger_figures(app, record.challenge),
                                                         figures(what_if, record.challenge))
        if found.undone_at is not None:
            notes.insert(0, f"{unit.key} was undone at entry #{found.undone_at}: the recorded figures after the "
                            "round are the ledger's before that undo, and now after it; the replayed round is a "
                            "what-if (--commit plays it again now)")
        result["notes"] = notes
        result["choices"] = {"recorded": _describe(record), "replayed": _describe(trial)}
    return result


def _later(app: Any, unit: Unit) -> list[tuple[str, Any]]:
    """What came after the round and still stands, as actions that play it again on a scratch ledger.

    Units reversed since are left out, and so are the undo entries that reversed only
    units from this round on (this round included: an undone round's what-if plays it).
    """
    every = incarnations(app.recorder)
    owner = {first: f for f in every for first, _ in f.unit.ranges}
    reversed_in: dict[int, list[Found]] = {}
    for f in every:
        if f.reversal is not None:
            reversed_in.setdefault(f.reversal[0], []).append(f)
    actions: list[tuple[str, Any]] = []
    played: set[int] = set()
    for first, last, command, _key, _detail in chained(app.recorder).commands():
        mine = owner.get(first)
        if first <= unit.first or (mine is not None and (mine.unit == unit or mine.reversal is not None)):
            continue
        if command == "undo" and all(f.unit.first >= unit.first for f in reversed_in.get(first, [])):
            continue
        events = [app.mapper.to_domain_event(n)
                  for n in app.recorder.select_notifications(first, last - first + 1, stop=last)]
        if mine is not None and any(isinstance(e, Challenge.PoolBuilt) for e in events):
            if mine.unit.first not in played:
                played.add(mine.unit.first)
                choices = recorded_choices(app, mine.unit)
                actions.append((mine.unit.key, lambda target, c=choices: play(target, c)))
            continue
        setup = _setup_actions(app, events, command)
        actions += [(f"entry #{first} ({command})", action) for action in setup]
        if not setup:
            actions.append((f"entry #{first} ({command})", _not_replayed))
    return actions


def _not_replayed(target: Any) -> None:
    raise LedgerError("replay cannot play this kind of entry again")


def _setup_actions(app: Any, events: list[Any], command: str) -> list[Any]:
    """Commands other than rounds, read back from their events (those that can be played again)."""
    from ledger.rulesets.relics.character import Character
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


def _describe(c: Choices) -> dict[str, Any]:
    return {"leader": c.leader, "assists": list(c.assists) if c.assists is not None else "every PC able",
            "destiny": c.destiny, "traits": [f"{u.owner}:{u.name}" + (f"={u.paid}" if u.paid else "")
                                             for u in c.cohort.uses],
            "faces": list(c.cohort.faces or ()), "placement": dict(c.cohort.placement),
            "stress": c.stress}
