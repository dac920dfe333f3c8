"""Units of play: what `undo`, `replay` and the history name, read from the command log.

Every accepted command after `new` is a unit of play, filed under a name in the command
log: a round groups the commands of one turn (`Guards:2`), any other command is its own
unit, named from what the GM did plus a per-campaign sequence (`push Kira #2`). The
sequence is counted when the log is read (the log is append-only, so a name never
changes and no two units share one), never an internal version number. What a unit
depends on, and how it is reversed, is ledger/undo.py's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from campaign_ledger.ledger import rulesets
from campaign_ledger.ledger.values import is_number
from campaign_ledger.ledger.chain import chained
from campaign_ledger.ledger.errors import NotFound, RuleViolation

ROUND = re.compile(r"^.+:\d+$")  # "Vault Guards:2": the commands of one round share it
NOT_UNITS = ("start", "undo")  # `new` makes the campaign; an undo is undone by nothing
CORE_ROUND_COMMANDS = frozenset({"replay"})  # a committed replay plays its round again
OWN_COUNT = re.compile(r"\(#\d+\)$")  # a roll's own per-character count: `Billy's Strength roll (#1)`
SUBJECTS = ("pc", "hero", "character", "difficulty", "challenge", "item", "tracker", "contest", "conflict",
            "owner", "rule", "scenario", "title", "name")


Touches = frozenset[tuple[str, str]]
NONE: Touches = frozenset()


@dataclass(frozen=True, slots=True)
class Unit:
    key: str  # the name a GM types
    ranges: tuple[tuple[int, int], ...]
    stored: str = ""  # the name the command log files it under
    touches: Touches | None = None  # None: logged before reads were recorded
    commands: tuple[str, ...] = ()
    restores: tuple[str, ...] = ()  # a committed correction: the units it reversed, which its undo brings back

    @property
    def first(self) -> int:
        return self.ranges[0][0]

    @property
    def last(self) -> int:
        return self.ranges[-1][1]

    @property
    def entries(self) -> list[int]:
        return [e for first, last in self.ranges for e in range(first, last + 1)]



def filed(command: str, report: dict[str, Any], touched: set[tuple[str, str]],
          recorder: Any = None) -> tuple[str | None, dict]:
    """The unit name and detail the command log keeps for one command (see the docstring).

    With the `recorder`, a name is never given twice (issue 35): a round played again after an
    undo, or a roll whose own count an undo took back, takes the next name no unit was filed
    under (`fresh`)."""
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
    return (unit if recorder is None else fresh(recorder, unit, detail)), detail


def fresh(recorder: Any, unit: str, detail: dict) -> str:
    """The name to file a new command under: a round's name as ledger/unit_log.py `round_name`
    gives it (the round it continues, or the next name never given; a correction keeps the name
    of the round it corrects), noting the round it plays when the two differ; a roll's own count
    (`(#3)`) moved past every count already filed (an undone roll's count comes back with the
    character's state, its name does not)."""
    from campaign_ledger.ledger.unit_log import filed_under, round_name

    if not detail.get("single"):
        played = detail.get("round", unit)
        name = unit if detail.get("reverses") else round_name(recorder, played)
        if name != played:
            detail["round"] = played
        return name
    while OWN_COUNT.search(unit) and filed_under(recorder, unit):
        count = OWN_COUNT.search(unit)
        unit = f"{unit[:count.start()]}(#{int(count.group()[2:-1]) + 1})"
    return unit


def given(recorder: Any, stored: str, detail: dict, first: int) -> str:
    """The name `undo` takes for the command just filed under `stored` from entry `first` (issue
    35: its report says this name): `_name`'s rules, asked of the few log rows filed under that
    name and the name it would take (the log's index), not of the whole log."""
    from campaign_ledger.ledger.unit_log import filed_under, light

    if ROUND.match(stored) and not detail.get("single"):
        return stored

    def before(name: str) -> list[tuple]:
        return [r for r in filed_under(recorder, name) if r[3] == name and r[0] <= first and r[2] not in NOT_UNITS]

    seen = len([r for r in before(stored) if not ROUND.match(stored) or light(r[4]).get("single")])
    own = OWN_COUNT.search(stored) or ("#" in stored and "touches" not in detail)
    name = stored if own and seen == 1 else f"{stored} #{seen}"
    if name != stored and any("touches" not in light(r[4]) for r in before(name) if r[0] < first):
        name = f"{name} (entry {first})"  # an older unit filed under this very name, with its own number
    return name


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
    """Units not yet reversed, in the order they began, read without what each touched (an empty
    set where the log kept it, None where it did not: ledger/unit_log.py; undo reads the touches of
    the units it weighs, ledger/undo.py `touches`), so a long campaign's units are not all held whole."""
    from campaign_ledger.ledger.unit_log import WithoutTouches

    return [unit for unit, reversal in every_unit(WithoutTouches(recorder)) if reversal is None]


def every_unit(recorder: Any) -> list[tuple[Unit, tuple[int, int] | None]]:
    """Every unit the ledger ever played, in the order they began, with the entries of the
    command that reversed it (None while it stands); replay reaches undone rounds this way.

    A committed correction (`replay --commit`) reverses the round it corrects before playing it
    again, so undoing the correction restores that round's state: the units it reversed stand
    again (REOPENS). A later correction of the correction reverses its play only (ledger/replay.py),
    so those stay reversed."""
    open_: dict[str, dict[str, Any]] = {}
    closed: list[tuple[str, dict[str, Any], tuple[int, int]]] = []
    seen: dict[str, int] = {}
    taken: set[str] = set()
    for first, last, command, stored, detail in chained(recorder).commands():
        now_closed = [(name, unit, (first, last)) for key in detail.get("reverses", [])
                      for name, unit in _close(open_, key)]
        closed += now_closed
        if command in REOPENS:
            for _, unit, _ in now_closed:
                _reopen(open_, closed, unit)
        if not stored or command in NOT_UNITS:
            continue
        name = _name(stored, first, detail, seen, taken)
        unit = open_.setdefault(name, {"ranges": [], "stored": stored, "touches": NONE, "commands": [], "closed": []})
        unit["ranges"].append((first, last))
        unit["commands"].append(command)
        unit["closed"] += [(n, u) for n, u, _ in now_closed]
        if unit["touches"] is not None and "touches" in detail:
            if detail["touches"]:  # (read without them, every unit shares one empty set)
                unit["touches"] = unit["touches"] | {(a, n) for a, names in detail["touches"].items() for n in names}
        else:
            unit["touches"] = None
    every = [(_unit(k, u), None) for k, u in open_.items()] + [(_unit(k, u), r) for k, u, r in closed]
    return sorted(every, key=lambda pair: pair[0].first)


REOPENS = ("undo",)  # reversing a unit whole: what a correction among those reversed stands again


def _reopen(open_: dict[str, dict[str, Any]], closed: list[tuple[str, dict[str, Any], tuple[int, int]]],
            unit: dict[str, Any]) -> None:
    """The units a correction reversed stand again, as when it reversed them (its undo restored them)."""
    back = {id(u) for _, u in unit["closed"]}
    closed[:] = [c for c in closed if id(c[1]) not in back]
    for name, u in unit["closed"]:
        open_.setdefault(name, u)


def _unit(key: str, u: dict[str, Any]) -> Unit:
    return Unit(key, tuple(u["ranges"]), u["stored"], None if u["touches"] is None else frozenset(u["touches"]),
                tuple(u["commands"]), tuple(n for n, _ in u["closed"]))  # (a frozenset of NONE is NONE: shared)


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
    if is_number(wanted.lstrip("#")):
        for unit in units:
            if unit.first == int(wanted.lstrip("#")):
                return unit
    filed_as = [u for u in units if u.stored.casefold() == wanted]
    if len(filed_as) == 1:
        return filed_as[0]
    if filed_as:
        raise RuleViolation(f"Several units are named '{key}': {', '.join(u.key for u in filed_as)}; "
                            "give one of these names.")
    latest = sorted(units, key=lambda u: u.last, reverse=True)[:8]  # newest first, as `undo --list` lists them
    raise NotFound(f"No unit '{key}' can be undone; the latest: {', '.join(u.key for u in latest)} "
                   "(see `campaign undo --list`).")
