"""Undo: a new entry per aggregate that restores exactly what a unit of play changed.

A unit is a round (every command that played `Guards:2`) or another undoable command
(a Push the Limit). Its effect on each aggregate is the difference between the state
before its first event and the state its own events produce. Undo restores those
attributes, but only where nothing later changed them again: otherwise a later unit
depends on it, and the GM must reverse that one too (`cascade`, newest first).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from ledger.chain import chained
from ledger.errors import NotFound, RuleViolation
from ledger.table import Table


@dataclass(frozen=True)
class Unit:
    key: str
    ranges: tuple[tuple[int, int], ...]

    @property
    def first(self) -> int:
        return self.ranges[0][0]

    @property
    def entries(self) -> list[int]:
        return [e for first, last in self.ranges for e in range(first, last + 1)]


@dataclass
class Reversal:
    unit: Unit
    changes: dict[UUID, dict[str, Any]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


def live_units(recorder: Any) -> list[Unit]:
    """Units not yet reversed, in the order they began."""
    open_: dict[str, list[tuple[int, int]]] = {}
    for first, last, command, unit, detail in chained(recorder).commands():
        for key in detail.get("reverses", []):
            open_.pop(key, None)
        if unit and command != "undo":
            open_.setdefault(unit, []).append((first, last))
    return sorted((Unit(k, tuple(r)) for k, r in open_.items()), key=lambda u: u.first)


def find(units: list[Unit], key: str | None) -> Unit:
    if not units:
        raise RuleViolation("There is nothing to undo.")
    if key is None:
        return units[-1]
    for unit in units:
        if unit.key.casefold() == key.strip().casefold():
            return unit
    raise NotFound(f"No round '{key}' can be undone; rounds: {', '.join(u.key for u in units[-8:])}.")


def plan(t: Table, unit: Unit) -> Reversal:
    """What reversing `unit` restores, checked against the state the Table holds now."""
    app = t.app
    events: dict[UUID, list[Any]] = {}
    for first, last in unit.ranges:
        for n in app.recorder.select_notifications(first, last - first + 1, stop=last):
            e = app.mapper.to_domain_event(n)
            events.setdefault(e.originator_id, []).append(e)
    reversal = Reversal(unit)
    for aggregate_id, evs in events.items():
        if evs[0].originator_version == 1:
            raise RuleViolation(f"{unit.key} created something undo cannot remove.")
        before = app.repository.get(aggregate_id, version=evs[0].originator_version - 1)
        after = copy.deepcopy(before)
        for e in evs:
            after._version = e.originator_version - 1  # apply the unit's own events only
            after = e.mutate(after)
        now = t.load(aggregate_id, "An aggregate of this round is missing.")
        changes = _changes(unit, now, before.state(), after.state(), now.state())
        if changes:
            reversal.changes[aggregate_id] = changes
            label = getattr(now, "name", type(now).__name__)
            reversal.lines += [f"{label}: {LABELS.get(k, k)} {_show(after.state()[k])} -> {_show(v)}"
                               for k, v in changes.items()]
    if not reversal.changes and events:  # it changed nothing: still marked reversed, on its first aggregate
        reversal.changes[next(iter(events))] = {}
        reversal.lines.append("nothing to restore; its entries are marked reversed")
    return reversal


LABELS = {"stressed_out": "Stressed Out", "out": "out of the game", "resolved": "dice resolved",
          "phase": "waiting for", "turn": "turn in progress", "pending": "pool in progress",
          "destiny": "Destiny", "doom": "Doom", "stress": "Stress", "agony": "Agony"}


def _changes(unit: Unit, now: Any, before: dict, after: dict, current: dict) -> dict[str, Any]:
    changed = {k: v for k, v in before.items() if after.get(k) != v}
    for k in changed:
        if current.get(k) != after.get(k):
            label = getattr(now, "name", type(now).__name__)
            raise RuleViolation(f"Later entries changed {label}'s {LABELS.get(k, k)} after {unit.key}; "
                                "undo them first, or add --cascade to reverse them too.")
    return changed


def apply(t: Table, reversal: Reversal) -> None:
    for aggregate_id, changes in reversal.changes.items():
        t.load(aggregate_id, "").reversed_by(reversal.unit.key, reversal.unit.entries, changes)


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "{...}" if value else "{}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[...]"
    return str(value)
