"""The command log walked into units of play: each command filed under a name (a round's shared
`Guards:2`, another command's own `push Kira #2`), and which later command reversed it. The walk
needs only the log's rows; ledger/units.py names and finds units with it, and ledger/unit_log.py
walks the rows of one name with it (neither imports the other)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from campaign_ledger.ledger.chain import chained

ROUND = re.compile(r"^.+:\d+$")  # "Vault Guards:2": the commands of one round share it
NOT_UNITS = ("start", "undo")  # `new` makes the campaign; an undo is undone by nothing
OWN_COUNT = re.compile(r"\(#\d+\)$")  # a roll's own per-character count: `Billy's Strength roll (#1)`


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
