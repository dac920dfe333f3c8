"""Undo: a new entry per aggregate that restores exactly what a unit of play changed.

Every accepted command after `new` is a unit of play (ledger/units.py names them).

Dependencies are attribute-level reads and writes. While a command runs, every
aggregate records which of its game-state attributes the command read or assigned
(`ledger.reversible.recording`); the command log keeps them in the command's detail
(`touches`). What a unit wrote is the difference its own events make to each aggregate.
A later unit depends on U when it touched an attribute U (or a dependent of U) wrote:
it used a value U produced, so without U it could have gone otherwise. Aggregate level
would be too coarse (nearly every command reads the Campaign), and comparing written
attributes only misses a round that read the phase an earlier round left. A later unit
that touched nothing U wrote would have run the same without U, so reversing U alone
leaves the state a campaign played without U would hold. Units logged before reads were
recorded count as touching every attribute of every aggregate they changed.

`undo U` refuses when U has dependents, naming all of them; `--cascade` reverses exactly
those, transitively, newest first.
"""
from __future__ import annotations

import copy
import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, Iterable
from uuid import UUID

from campaign_ledger.ledger.chain import chained
from campaign_ledger.ledger.errors import RuleViolation
from campaign_ledger.ledger.reversible import Reversible, recording
from campaign_ledger.ledger.table import Table
from campaign_ledger.ledger.units import Touches, Unit
from campaign_ledger.ledger.words import change

LATER_PLAY_USED_IT = "later-play-used-it"  # the refusal's rule: `undo --dry-run` shows the cascade instead
ANY = "*"  # every attribute of an aggregate (units logged before reads were recorded)

@dataclass
class Reversal:
    unit: Unit
    changes: dict[UUID, dict[str, Any]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


def dependents(app: Any, units: Any, target: Unit, known: dict[Any, Any] | None = None) -> list[Unit]:
    """Every live unit that used what `target` wrote, transitively, in the order they began (only
    units ending after the first of those found can have used them: their touches alone are read;
    `units`: the live units, or ledger.units_newest.Newest reading back only as far as that)."""
    taken: dict[str, set[tuple[str, str]]] = {target.key: writes(app, target, known)}
    firsts = {target.key: target.first}
    found: list[Unit] = []
    lowest, later, logged = None, [], {}
    grew = True
    while grew:
        grew = False
        if lowest != min(firsts.values()):  # a dependent begun earlier (interleaved play): look further back
            lowest = min(firsts.values())
            later = units.ending_after(lowest) if hasattr(units, "ending_after") else [u for u in units if u.last > lowest]
            logged = _logged_touches(app, later)
        for unit in later:
            if unit.key in taken or not any(unit.last > firsts[k] for k in taken):
                continue
            touched = touches(app, unit, logged)
            if any(unit.last > firsts[k] and _overlap(touched, w) for k, w in taken.items()):
                taken[unit.key], firsts[unit.key] = writes(app, unit, known), unit.first
                found.append(unit)
                grew = True
    return sorted(found, key=lambda u: u.first)


def _overlap(touched: Iterable[tuple[str, str]], written: set[tuple[str, str]]) -> bool:
    aggregates = {a for a, _ in written}
    return any((a, n) in written or (n == ANY and a in aggregates) for a, n in touched)


def touches(app: Any, unit: Unit, logged: dict[int, Touches] | None = None) -> Touches:
    """What the unit read or assigned (its commands' `touches` in the command log); for an older
    unit, everything on what it changed."""
    if unit.touches is None:
        return frozenset((str(a), ANY) for a in _events(app, unit))
    if unit.touches:  # given whole by the caller
        return unit.touches
    logged = _logged_touches(app, [unit]) if logged is None else logged
    return frozenset().union(*(logged.get(first, ()) for first, _ in unit.ranges))


def _logged_touches(app: Any, units: list[Unit]) -> dict[int, Touches]:
    """The `touches` of the commands of these units, by each command's first entry, read from the
    command log over the entries they span (units are listed without them: ledger/units.py)."""
    firsts = {first for unit in units if unit.touches is not None for first, _ in unit.ranges}
    if not firsts:
        return {}
    rows = chained(app.recorder).command_rows(min(firsts), max(firsts))
    return {first: frozenset((a, n) for a, names in json.loads(detail or "{}").get("touches", {}).items()
                             for n in names)
            for first, (_, _, _, detail) in rows.items() if first in firsts}


def writes(app: Any, unit: Unit, known: dict[Any, Any] | None = None) -> set[tuple[str, str]]:
    """The attributes the unit's own events changed (a list of members counts by its members'
    own aggregates, which the unit made or changed: adding Bo does not use Kira's joining)."""
    effects = unit_effects(app, unit, known)
    members = {a: _members(app, a, known) for a in effects}
    return {(str(a), k) for a, (before, after) in effects.items()
            for k in (set(before) | set(after)) - members[a]
            if before.get(k) != after.get(k) or k in getattr(before, "also", ())}


class Unplayed(dict):
    """The state an interleaved unit would have left unplayed (see `_interleaved_effect`), and
    `also`: what its own events changed though the play after them left it as it would be
    without them. The unit wrote those too: play after it that used them depends on it."""

    also: frozenset[str] = frozenset()


def _members(app: Any, aggregate_id: UUID, known: dict[Any, Any] | None = None) -> frozenset[str]:
    """The aggregate's lists of members, by its class (kept in `known` for a listing: an aggregate
    never changes class, and `undo --list` asks for the same few aggregates unit after unit)."""
    return aggregate_class(app, aggregate_id, known).MEMBERS


def aggregate_class(app: Any, aggregate_id: UUID, known: dict[Any, Any] | None = None) -> type:
    """The aggregate's class (its MEMBERS, its WORDS), kept in `known` for a listing."""
    if known is not None and (MEMBERS, aggregate_id) in known:
        return known[MEMBERS, aggregate_id]
    with recording(None):
        kind = type(app.repository.get(aggregate_id))
    if known is not None:
        known[MEMBERS, aggregate_id] = kind
    return kind


MEMBERS = "members"  # in a listing's `known`, beside each unit's effects (by its key)


def _events(app: Any, unit: Unit) -> dict[UUID, list[Any]]:
    events: dict[UUID, list[Any]] = {}
    for first, last in unit.ranges:
        for n in app.recorder.select_notifications(first, last - first + 1, stop=last):
            e = app.mapper.to_domain_event(n)
            events.setdefault(e.originator_id, []).append(e)
    return events


def unit_effects(app: Any, unit: Unit, known: dict[Any, Any] | None = None) -> dict[UUID, tuple[dict, dict]]:
    """Each aggregate's state before the unit, and after the unit's own events only (`known`: those
    already worked out by this listing, by unit, and kept there)."""
    if known is not None and unit.key in known:
        return known[unit.key]
    effects = {}
    with recording(None):  # undo's own look at the past is not a read by the command
        for aggregate_id, evs in _events(app, unit).items():
            effects[aggregate_id] = _effect(app, unit, aggregate_id, evs)
    if known is not None:
        known[unit.key] = effects
    return effects


def _effect(app: Any, unit: Unit, aggregate_id: UUID, evs: list[Any]) -> tuple[dict, dict]:
    """One aggregate's state before and after; one the unit made reads as empty before it."""
    if evs[0].originator_version == 1:
        return {}, app.repository.get(aggregate_id, version=evs[-1].originator_version).state()
    before = app.repository.get(aggregate_id, version=evs[0].originator_version - 1)
    after = copy.deepcopy(before)
    for e in evs:
        after._version = e.originator_version - 1  # apply the unit's own events only
        after = e.mutate(after)
    if evs[-1].originator_version - evs[0].originator_version + 1 == len(evs):
        return before.state(), after.state()  # played in one stretch: only its own events changed it
    return _interleaved_effect(app, aggregate_id, evs, before, after)


def _interleaved_effect(app: Any, aggregate_id: UUID, evs: list[Any], before: Any, own: Any) -> tuple[dict, dict]:
    """Other play changed the aggregate between the unit's events (a Disaster trait made between a
    round's turns, and ended by its last): the unit's own events applied to the state before it miss
    what they did to that play (ending the trait), so the state it leaves is read as it stood
    (`after`), and the state it would have left unplayed (`before`) by replaying the others' events
    alone. An attribute its own events changed that an undo between them then restored to the
    value the unit left (the undo of a later unit) goes back to its value before the unit."""
    first, last = evs[0].originator_version, evs[-1].originator_version
    mine = {e.originator_version for e in evs}
    without, undid = copy.deepcopy(before), False
    for e in app.repository.event_store.get(aggregate_id, gt=first - 1, lte=last):
        if e.originator_version not in mine:
            without._version = e.originator_version - 1
            without = e.mutate(without)
            undid = undid or isinstance(e, (Reversible.Reversed, Reversible.Remade))
    was, played = before.state(), app.repository.get(aggregate_id, version=last).state()
    unplayed, ran = Unplayed(without.state()), own.state()
    unplayed.also = frozenset(k for k in set(was) | set(ran) if ran.get(k) != was.get(k))
    for k in unplayed.also if undid else ():  # an undo between restored what the unit left: as before it
        if unplayed.get(k) == played.get(k):
            unplayed[k] = was.get(k)
    return unplayed, played


def reversals(t: Table, units: Any, target: Unit, cascade: bool, play_only: bool = False) -> list[Reversal]:
    """Reverse the target, and with cascade its dependents first (newest first), on the Table.

    Undo reverses each unit whole: a committed correction undone brings back the round it
    corrected (ledger/units.py), which a dependent correction would bring back in the middle of
    a cascade, under the units still to reverse, so that one is refused. A correction of a round
    reverses only the play of a correction among them (`play_only`): the round it corrected stays
    reversed."""
    deps = dependents(t.app, units, target)
    if deps and not cascade:
        raise RuleViolation(f"Later play used what {target.key} did: {', '.join(u.key for u in deps)}. "
                            "Undo them first, or add --cascade to reverse them too.", rule=LATER_PLAY_USED_IT)
    refused = None if play_only else cascade_refusal(target, deps)
    if refused:
        raise RuleViolation(refused, rule=LATER_PLAY_USED_IT)
    if play_only:
        target, deps = play_of(t.app, target), [play_of(t.app, u) for u in deps]
    group = [*deps, target]
    if _interleaved(group):
        return _together(t, target, deps)
    done = []
    for unit in sorted(group, key=lambda u: u.last, reverse=True):
        reversal = plan(t, unit)
        apply(t, reversal)
        done.append(reversal)
    return done


def cascade_refusal(target: Unit, deps: list[Unit]) -> str | None:
    """Why `undo TARGET --cascade` is refused, if it is: a committed correction among the dependents
    (undoing it restores the round it corrected, in the middle of the cascade); `undo --list` says so too."""
    corrections = [u.key for u in deps if u.restores]
    if not corrections:
        return None
    return (f"Later play used what {target.key} did, and {corrections[-1]} is a committed correction: undo it "
            f"first (the round it corrected stands again), then {target.key}.")


def play_of(app: Any, unit: Unit) -> Unit:
    """The unit without the reversal a committed correction began with: its play alone."""
    if not unit.restores:
        return unit
    kept = [n.id for first, last in unit.ranges
            for n in app.recorder.select_notifications(first, last - first + 1, stop=last)
            if not isinstance(app.mapper.to_domain_event(n), Reversible.Reversed)]
    ranges: list[tuple[int, int]] = []
    for entry in kept:
        if ranges and ranges[-1][1] == entry - 1:
            ranges[-1] = (ranges[-1][0], entry)
        else:
            ranges.append((entry, entry))
    return dataclasses.replace(unit, ranges=tuple(ranges), restores=())


def _interleaved(group: list[Unit]) -> bool:
    """Some unit was played in the middle of another (a Disaster trait made between a round's
    turns): no order of reversing one at a time restores both, so they are reversed together."""
    spans = sorted((u.first, u.last) for u in group)
    return any(later_first < last for (_, last), (later_first, _) in zip(spans, spans[1:]))


def _together(t: Table, target: Unit, deps: list[Unit]) -> list[Reversal]:
    """One reversal over every entry of the target and its dependents: each aggregate goes back to
    how it stood before the first of them, where nothing outside them changed it since."""
    ranges = tuple(sorted(r for u in [target, *deps] for r in u.ranges))
    combined = plan(t, Unit(target.key, ranges, target.stored))
    apply(t, combined)
    together = [Reversal(target, combined.changes, combined.lines)]
    return together + [Reversal(u, {}, [f"reversed together with {target.key}"])
                       for u in sorted(deps, key=lambda u: u.last, reverse=True)]


def plan(t: Table, unit: Unit) -> Reversal:
    """What reversing `unit` restores, checked against the state the Table holds now."""
    reversal = Reversal(unit)
    effects = unit_effects(t.app, unit)
    for aggregate_id, (before, after) in effects.items():
        now = t.load(aggregate_id, "An aggregate of this unit is missing.")
        changes = _changes(unit, now, before, after, now.state()) if before else _unmake(unit, now, after)
        if changes:
            reversal.changes[aggregate_id] = changes
            label = getattr(now, "name", type(now).__name__)
            reversal.lines += ([f"{label}: unmade, as if never made"] if changes.get("unmade") else
                               [f"{label}: " + change(labelled(k), now.state()[k] if k in type(now).MEMBERS else after[k], v,
                                                       type(now).WORDS.get(k))
                                for k, v in changes.items()])
    if not reversal.changes and effects:  # it changed nothing: still marked reversed, on its first aggregate
        reversal.changes[next(iter(effects))] = {}
        reversal.lines.append("nothing to restore; its entries are marked reversed")
    return reversal


LABELS = {"stressed_out": "Stressed Out", "out": "out of the game", "resolved": "dice resolved",
          "phase": "stage", "turn": "turn in progress", "pending": "pool in progress",
          "destiny": "Destiny", "doom": "Doom", "stress": "Stress", "agony": "Agony",
          "session_open": "open session", "pcs": "PCs", "due": "pips due"}


def labelled(attribute: str) -> str:
    """An attribute as a GM names it (`Stressed Out`, `open session`), never its Python name."""
    return LABELS.get(attribute, attribute.replace("_", " "))


def _changes(unit: Unit, now: Any, before: dict, after: dict, current: dict) -> dict[str, Any]:
    changed = {k: v for k, v in before.items() if after.get(k) != v}
    for k in changed:
        if k in type(now).MEMBERS:  # the unit's own members out, later ones kept in their order
            was = changed[k]
            changed[k] = [m for m in current[k] if m not in after[k] or m in was] + \
                [m for m in was if m not in current[k]]
        elif current.get(k) != after.get(k):
            label = getattr(now, "name", type(now).__name__)
            raise RuleViolation(f"Later entries changed {label}'s {labelled(k)} after {unit.key}; "
                                "undo them first.")
    return changed


def _unmake(unit: Unit, now: Any, after: dict) -> dict[str, Any]:
    """What the unit made is unmade: absent to play and to every read table, as if never made."""
    current = now.state()
    for k, v in after.items():  # nothing later may have changed it since
        if current.get(k) != v:
            raise RuleViolation(f"Later entries changed {getattr(now, 'name', type(now).__name__)}'s "
                                f"{labelled(k)} after {unit.key}; undo them first.")
    return {"unmade": True}


def apply(t: Table, reversal: Reversal) -> None:
    for aggregate_id, changes in reversal.changes.items():
        t.load(aggregate_id, "").reversed_by(reversal.unit.key, reversal.unit.entries, changes)
