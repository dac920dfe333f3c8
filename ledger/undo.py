"""Undo: a new entry per aggregate that restores exactly what a unit of play changed.

Every accepted command after `new` is a unit of play, filed under a name in the command
log: a round groups the commands of one turn (`Guards:2`), any other command is its own
unit, named from what the GM did plus a per-campaign sequence (`push Kira #2`). The
sequence is counted when the log is read (the log is append-only, so a name never
changes and no two units share one), never an internal version number.

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
import re
from dataclasses import dataclass, field
from typing import Any, Iterable
from uuid import UUID

from ledger import rulesets
from ledger.chain import chained
from ledger.errors import NotFound, RuleViolation
from ledger.reversible import recording
from ledger.table import Table

ROUND = re.compile(r"^.+:\d+$")  # "Vault Guards:2": the commands of one round share it
ANY = "*"  # every attribute of an aggregate (units logged before reads were recorded)
NOT_UNITS = ("start", "undo")  # `new` makes the campaign; an undo is undone by nothing
CORE_ROUND_COMMANDS = frozenset({"replay"})  # a committed replay plays its round again
OWN_COUNT = re.compile(r"\(#\d+\)$")  # a roll's own per-character count: `Billy's Strength roll (#1)`
SUBJECTS = ("pc", "hero", "character", "difficulty", "challenge", "item", "tracker", "contest", "conflict",
            "owner", "rule", "scenario", "title", "name")


Touches = frozenset[tuple[str, str]]


@dataclass(frozen=True)
class Unit:
    key: str  # the name a GM types
    ranges: tuple[tuple[int, int], ...]
    stored: str = ""  # the name the command log files it under
    touches: Touches | None = None  # None: logged before reads were recorded
    commands: tuple[str, ...] = ()

    @property
    def first(self) -> int:
        return self.ranges[0][0]

    @property
    def last(self) -> int:
        return self.ranges[-1][1]

    @property
    def entries(self) -> list[int]:
        return [e for first, last in self.ranges for e in range(first, last + 1)]


@dataclass
class Reversal:
    unit: Unit
    changes: dict[UUID, dict[str, Any]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


def filed(command: str, report: dict[str, Any], touched: set[tuple[str, str]]) -> tuple[str | None, dict]:
    """The unit name and detail the command log keeps for one command (see the docstring)."""
    detail = dict(report.get("detail") or {})
    if command in NOT_UNITS:
        return report.get("unit"), detail
    by_aggregate: dict[str, list[str]] = {}
    for aggregate_id, name in sorted(touched):
        by_aggregate.setdefault(aggregate_id, []).append(name)
    detail["touches"] = by_aggregate
    unit = report.get("unit") or label(command, report)
    if command not in round_commands() or not ROUND.match(unit):
        detail["single"] = True  # a name like `push Bo:1` is no round
    return unit, detail


def round_commands() -> frozenset[str]:
    """The commands that play a round: their unit is `Name:round`, shared by the round's commands."""
    return CORE_ROUND_COMMANDS.union(*(r.round_commands for r in rulesets.declared()))  # the command's own is


def label(command: str, report: dict[str, Any]) -> str:
    """What the GM did, in a few words: the command and what it was about (`add pc Kira`)."""
    subject = next((report[k] for k in SUBJECTS if isinstance(report.get(k), str) and report[k]), "")
    for ruleset in rulesets.declared():  # `supply roll Rope`, whichever way it was played
        command = command.removeprefix(ruleset.command_prefix) if ruleset.command_prefix else command
    return f"{command.replace('_', ' ')} {subject}".strip()


def live_units(recorder: Any) -> list[Unit]:
    """Units not yet reversed, in the order they began."""
    return [unit for unit, reversal in every_unit(recorder) if reversal is None]


def every_unit(recorder: Any) -> list[tuple[Unit, tuple[int, int] | None]]:
    """Every unit the ledger ever played, in the order they began, with the entries of the
    command that reversed it (None while it stands); replay reaches undone rounds this way."""
    open_: dict[str, dict[str, Any]] = {}
    closed: list[tuple[str, dict[str, Any], tuple[int, int]]] = []
    seen: dict[str, int] = {}
    taken: set[str] = set()
    for first, last, command, stored, detail in chained(recorder).commands():
        for key in detail.get("reverses", []):
            closed += [(name, unit, (first, last)) for name, unit in _close(open_, key)]
        if not stored or command in NOT_UNITS:
            continue
        name = _name(stored, first, detail, seen, taken)
        unit = open_.setdefault(name, {"ranges": [], "stored": stored, "touches": set(), "commands": []})
        unit["ranges"].append((first, last))
        unit["commands"].append(command)
        if unit["touches"] is not None and "touches" in detail:
            unit["touches"] |= {(a, n) for a, names in detail["touches"].items() for n in names}
        else:
            unit["touches"] = None
    every = [(_unit(k, u), None) for k, u in open_.items()] + [(_unit(k, u), r) for k, u, r in closed]
    return sorted(every, key=lambda pair: pair[0].first)


def _unit(key: str, u: dict[str, Any]) -> Unit:
    return Unit(key, tuple(u["ranges"]), u["stored"], None if u["touches"] is None else frozenset(u["touches"]),
                tuple(u["commands"]))


def _name(stored: str, first: int, detail: dict, seen: dict[str, int], taken: set[str]) -> str:
    """A round keeps its name; another command gets its per-campaign sequence number.

    Counted in log order, so a name never changes; a name a GM's odd naming would repeat
    (a PC called `Kira #2`) takes its first entry number too."""
    if ROUND.match(stored) and not detail.get("single"):
        return stored
    seen[stored] = seen.get(stored, 0) + 1
    own = OWN_COUNT.search(stored) or ("#" in stored and "touches" not in detail)  # older names: own number
    name = stored if own and seen[stored] == 1 else f"{stored} #{seen[stored]}"
    if name in taken:
        name = f"{name} (entry {first})"
    taken.add(name)
    return name


def _close(open_: dict[str, dict[str, Any]], key: str) -> list[tuple[str, dict[str, Any]]]:
    """A reversal names units as it saw them; older ledgers named every unit of a shared name at once."""
    if key in open_:
        return [(key, open_.pop(key))]
    return [(name, open_.pop(name)) for name in [n for n, u in open_.items() if u["stored"] == key]]


def find(units: list[Unit], key: str | None) -> Unit:
    """A unit by its name, its first entry number (`23` or `#23`), or a name it was filed under."""
    if not units:
        raise RuleViolation("There is nothing to undo.")
    if key is None:
        return max(units, key=lambda u: u.last)
    wanted = key.strip().casefold()
    for unit in units:
        if unit.key.casefold() == wanted:
            return unit
    if wanted.lstrip("#").isdigit():
        for unit in units:
            if unit.first == int(wanted.lstrip("#")):
                return unit
    filed_as = [u for u in units if u.stored.casefold() == wanted]
    if len(filed_as) == 1:
        return filed_as[0]
    if filed_as:
        raise RuleViolation(f"Several units are named '{key}': {', '.join(u.key for u in filed_as)}; "
                            "give one of these names.")
    raise NotFound(f"No unit '{key}' can be undone; the latest: {', '.join(u.key for u in units[-8:])} "
                   "(see `campaign undo --list`).")


def dependents(app: Any, units: list[Unit], target: Unit) -> list[Unit]:
    """Every live unit that used what `target` wrote, transitively, in the order they began."""
    taken: dict[str, set[tuple[str, str]]] = {target.key: writes(app, target)}
    firsts = {target.key: target.first}
    found: list[Unit] = []
    grew = True
    while grew:
        grew = False
        for unit in units:
            if unit.key in taken or not any(unit.last > firsts[k] for k in taken):
                continue
            touched = touches(app, unit)
            if any(unit.last > firsts[k] and _overlap(touched, w) for k, w in taken.items()):
                taken[unit.key], firsts[unit.key] = writes(app, unit), unit.first
                found.append(unit)
                grew = True
    return sorted(found, key=lambda u: u.first)


def _overlap(touched: Iterable[tuple[str, str]], written: set[tuple[str, str]]) -> bool:
    aggregates = {a for a, _ in written}
    return any((a, n) in written or (n == ANY and a in aggregates) for a, n in touched)


def touches(app: Any, unit: Unit) -> Touches:
    """What the unit read or assigned; for an older unit, everything on what it changed."""
    if unit.touches is not None:
        return unit.touches
    return frozenset((str(a), ANY) for a in _events(app, unit))


def writes(app: Any, unit: Unit) -> set[tuple[str, str]]:
    """The attributes the unit's own events changed (a list of members counts by its members'
    own aggregates, which the unit made or changed: adding Bo does not use Kira's joining)."""
    return {(str(a), k) for a, (before, after) in _effects(app, unit).items()
            for k in set(before) | set(after) if before.get(k) != after.get(k) and k not in _members(app, a)}


def _members(app: Any, aggregate_id: UUID) -> frozenset[str]:
    with recording(None):
        return type(app.repository.get(aggregate_id)).MEMBERS


def _events(app: Any, unit: Unit) -> dict[UUID, list[Any]]:
    events: dict[UUID, list[Any]] = {}
    for first, last in unit.ranges:
        for n in app.recorder.select_notifications(first, last - first + 1, stop=last):
            e = app.mapper.to_domain_event(n)
            events.setdefault(e.originator_id, []).append(e)
    return events


def _effects(app: Any, unit: Unit) -> dict[UUID, tuple[dict, dict]]:
    """Each aggregate's state before the unit, and after the unit's own events only."""
    effects = {}
    with recording(None):  # undo's own look at the past is not a read by the command
        for aggregate_id, evs in _events(app, unit).items():
            effects[aggregate_id] = _effect(app, unit, aggregate_id, evs)
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
    return before.state(), after.state()


def reversals(t: Table, units: list[Unit], target: Unit, cascade: bool) -> list[Reversal]:
    """Reverse the target, and with cascade its dependents first (newest first), on the Table."""
    deps = dependents(t.app, units, target)
    if deps and not cascade:
        raise RuleViolation(f"Later play used what {target.key} did: {', '.join(u.key for u in deps)}. "
                            "Undo them first, or add --cascade to reverse them too.")
    group = [*deps, target]
    if _interleaved(group):
        return _together(t, target, deps)
    done = []
    for unit in sorted(group, key=lambda u: u.last, reverse=True):
        reversal = plan(t, unit)
        apply(t, reversal)
        done.append(reversal)
    return done


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


def listing(app: Any, limit: int | None = None) -> list[dict[str, Any]]:
    """The units that can be undone now, newest first, with what a cascade would take along."""
    units = live_units(app.recorder)
    newest = sorted(units, key=lambda u: u.last, reverse=True)[:limit]
    rows = []
    for unit in newest:
        deps = [u.key for u in dependents(app, units, unit)]
        did = _did(app, unit)
        rows.append({"unit": unit.key, "first_entry": unit.first, "entries": [unit.first, unit.last],
                     "entry_range": [unit.first, unit.last],  # `entries` (the same pair) is kept for old scripts
                     "commands": list(unit.commands), "did": did, "dependents": deps})
    return rows


def _did(app: Any, unit: Unit) -> str:
    """One line: the commands, and what they changed on whom."""
    changed = []
    for aggregate_id, (before, after) in _effects(app, unit).items():
        keys = ["made"] if not before else ["made again"] if before.get("unmade") else [LABELS.get(k, k) for k in after if before.get(k) != after.get(k)]
        if keys:
            who = after.get("name") or "the campaign"
            changed.append(f"{who}: {', '.join(keys)}")
    commands = ", ".join(dict.fromkeys(c.replace("_", " ") for c in unit.commands))
    return f"{commands}; " + ("; ".join(changed) if changed else "changed nothing")


def plan(t: Table, unit: Unit) -> Reversal:
    """What reversing `unit` restores, checked against the state the Table holds now."""
    reversal = Reversal(unit)
    effects = _effects(t.app, unit)
    for aggregate_id, (before, after) in effects.items():
        now = t.load(aggregate_id, "An aggregate of this unit is missing.")
        changes = _changes(unit, now, before, after, now.state()) if before else _unmake(unit, now, after)
        if changes:
            reversal.changes[aggregate_id] = changes
            label = getattr(now, "name", type(now).__name__)
            reversal.lines += ([f"{label}: unmade, as if never made"] if changes.get("unmade") else
                               [f"{label}: {LABELS.get(k, k)} {_show(now.state()[k] if k in type(now).MEMBERS else after[k])}"
                                f" -> {_show(v)}" for k, v in changes.items()])
    if not reversal.changes and effects:  # it changed nothing: still marked reversed, on its first aggregate
        reversal.changes[next(iter(effects))] = {}
        reversal.lines.append("nothing to restore; its entries are marked reversed")
    return reversal


LABELS = {"stressed_out": "Stressed Out", "out": "out of the game", "resolved": "dice resolved",
          "phase": "waiting for", "turn": "turn in progress", "pending": "pool in progress",
          "destiny": "Destiny", "doom": "Doom", "stress": "Stress", "agony": "Agony"}


def _changes(unit: Unit, now: Any, before: dict, after: dict, current: dict) -> dict[str, Any]:
    changed = {k: v for k, v in before.items() if after.get(k) != v}
    for k in changed:
        if k in type(now).MEMBERS:  # the unit's own members out, later ones kept in their order
            was = changed[k]
            changed[k] = [m for m in current[k] if m not in after[k] or m in was] + \
                [m for m in was if m not in current[k]]
        elif current.get(k) != after.get(k):
            label = getattr(now, "name", type(now).__name__)
            raise RuleViolation(f"Later entries changed {label}'s {LABELS.get(k, k)} after {unit.key}; "
                                "undo them first.")
    return changed


def _unmake(unit: Unit, now: Any, after: dict) -> dict[str, Any]:
    """What the unit made is unmade: absent to play and to every read table, as if never made."""
    current = now.state()
    for k, v in after.items():  # nothing later may have changed it since
        if current.get(k) != v:
            raise RuleViolation(f"Later entries changed {getattr(now, 'name', type(now).__name__)}'s "
                                f"{LABELS.get(k, k)} after {unit.key}; undo them first.")
    return {"unmade": True}


def apply(t: Table, reversal: Reversal) -> None:
    for aggregate_id, changes in reversal.changes.items():
        t.load(aggregate_id, "").reversed_by(reversal.unit.key, reversal.unit.entries, changes)


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "{...}" if value else "{}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[...]"
    return str(value)
