"""The live units of play read from the newest command backwards: what undo, `undo --dry-run` and
`undo --list` weigh, at a cost that does not grow with the campaign.

`ledger.units.every_unit` reads the whole log forward, since a unit's name and whether it stands
depend on the commands before and after it. Both depend on few of them: a name on the rows filed
under the same name (a round keeps its name; another command counts how often its name came before)
and on the rows whose names could equal it (`producers`); whether it stands, on the rows that
reverse units after it (indexed: migrations m013). So each unit met reading backwards is settled by
`every_unit` over that subset of the log, grown until the names it gives (and the units its own
corrections reversed) bring in no new rows (`_incarnations`): a reversal naming a unit outside it
changes nothing inside it, since a key equal to a name or filed name inside is among those read. A
subset that grows past SUBSET_MAX rows, or a name SQLite's NOCASE cannot fold, is read as the whole
log instead. tests/test_undo_newest.py holds this to `every_unit`'s answer, unit by unit, on
campaigns of every ruleset.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

from campaign_ledger.ledger.chain import chained
from campaign_ledger.ledger.unit_log import REVERSING, Rows
from campaign_ledger.ledger.units import NOT_UNITS, Unit, every_unit, find, live_units
from campaign_ledger.ledger.values import INT_MAX, is_number

PAGE = 20  # command-log rows read at a time, newest first (an undo of the latest weighs a few)
SUBSET_MAX = 5000  # rows: past this, one unit's subset is no cheaper than the whole log
COUNTED = re.compile(r"^(.+) #\d+$")  # `push Kira #2`: the name of `push Kira`'s second unit
ENTRY = re.compile(r"^(.+) \(entry \d+\)$")  # a name a GM's odd naming would repeat takes its entry number
ROWS = "SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands"


def producers(name: str) -> set[str]:
    """The names a command may be filed under for a unit to be named `name` (see units._name)."""
    found = {name}
    for pattern in (ENTRY, COUNTED):
        for n in list(found):
            if (m := pattern.match(n)) is not None:
                found.add(m.group(1))
    return found


class Newest:
    """The live units, newest first (by their last entry), read from the command log backwards as
    far as a question needs; `lowest` is the first entry of the oldest row read in that walk
    (`read_whole`: the whole log was read), and `rows_read` the first entries of the rows a subset
    read (undo verifies them: ledger/undo_reads.py)."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self.log = chained(recorder)
        self.rows: Iterator[tuple] = self.log.command_rows_newest_first(PAGE)
        self.units: list[Unit] = []  # live, newest first
        self.keys: set[str] = set()
        self.lowest: int | None = None
        self.done = False
        self.read_whole = False
        self.rows_read: set[int] = set()
        self._known: dict[str, list[tuple[Unit, Any]] | None] = {}  # a name -> its subset's units
        self._whole: list[Unit] | None = None
        self._every: list[tuple[Unit, Any]] | None = None  # the whole log's units, once read

    # --- the questions undo asks -------------------------------------------------------------

    def latest(self) -> Unit | None:
        """The unit `undo` takes without a name: the live unit with the newest entry."""
        while not self.units and self._step():
            pass
        return self.units[0] if self.units else None

    def newest(self, count: int | None) -> list[Unit]:
        """The `count` live units with the newest last entries (all of them: None)."""
        while (count is None or len(self.units) < count) and self._step():
            pass
        return self.units[:count]

    def ending_after(self, entry: int) -> list[Unit]:
        """Every live unit ending after `entry` (what can have used a unit begun there), in the order they began."""
        while (self.lowest is None or self.lowest > entry) and self._step():
            pass
        return sorted((u for u in self.units if u.last > entry), key=lambda u: u.first)

    def find(self, key: str | None) -> Unit:
        """`ledger.units.find` over the live units, answered from the rows the key names when it can
        (a name, a first entry, a name filed under); else (nothing found, or several filed under it:
        the refusal lists the latest) from the whole log, as before."""
        if key is None:
            latest = self.latest()
            return find([latest] if latest is not None else [], None)
        wanted = key.strip().casefold()
        live = self._live_named(key.strip())
        if live is not None:
            named = [u for u in live if u.key.casefold() == wanted]
            if named:
                return named[0]
            if is_number(wanted.lstrip("#")) and int(wanted.lstrip("#")) <= INT_MAX:  # (past it: no entry; SQL refuses it)
                at = self._unit_starting(int(wanted.lstrip("#")))
                if at is not None:
                    return at
            filed = [u for u in live if u.stored.casefold() == wanted]
            if len(filed) == 1:
                return filed[0]
        return find(self.whole(), key)

    def whole(self) -> list[Unit]:
        """Every live unit, in the order they began, read from the whole log (`ledger.units.live_units`)."""
        if self._whole is None:
            self._whole = live_units(self.recorder)
            self.read_whole = True
        return self._whole

    # --- reading backwards -------------------------------------------------------------------

    def _step(self) -> bool:
        """One more row, newest first: its unit kept if it stands and is new; False at the log's start."""
        if self.done:
            return False
        row = next(self.rows, None)
        if row is None:
            self.done = True
            return False
        first, last, command, stored, _ = row
        self.lowest = first
        if not stored or command in NOT_UNITS:
            return True
        unit, reversal = self._unit_of(first, stored)
        if reversal is None and unit.key not in self.keys:
            self.keys.add(unit.key)
            self.units.append(unit)
        return True

    def _unit_of(self, first: int, stored: str) -> tuple[Unit, Any]:
        """The unit (and what reversed it, or None) holding the command that starts at `first`."""
        every = self._incarnations(stored)
        if every is None:
            every = self._whole_log()
        for unit, reversal in every:
            if any(f == first for f, _ in unit.ranges):
                return unit, reversal
        raise AssertionError(f"entry #{first}'s command is in no unit")  # its own subset holds it

    def _unit_starting(self, entry: int) -> Unit | None:
        rows = self.log._select(f"{ROWS} WHERE first_entry = ?", (entry,))
        if not rows or not rows[0][3] or rows[0][2] in NOT_UNITS:
            return None
        self.rows_read.add(entry)
        unit, reversal = self._unit_of(entry, rows[0][3])
        return unit if reversal is None and unit.first == entry else None

    def _live_named(self, name: str) -> list[Unit] | None:
        every = self._incarnations(name)
        return None if every is None else [u for u, reversal in every if reversal is None]

    def _incarnations(self, name: str) -> list[tuple[Unit, Any]] | None:
        """`every_unit`'s answer for the units filed under `name`'s producers, from the rows filed
        under them and the reversing rows after the first of those, grown until nothing new is
        named (None: read the whole log instead)."""
        if name in self._known:
            return self._known[name]
        names: set[str] = set()
        wanted = producers(name)
        every: list[tuple[Unit, Any]] | None = []
        while not wanted <= names:
            names |= wanted
            rows = self._subset(names)
            if rows is None:
                every = None
                break
            every = every_unit(Rows(rows))
            wanted = set().union(*(producers(u.key) | producers(u.stored) for u, _ in every),
                                 *(producers(k) for r in rows if r[3] in names and r[2] not in NOT_UNITS
                                   for k in _reverses(r[4])))  # what a correction it returns restores
        self._known[name] = every
        return every

    def _subset(self, names: set[str]) -> list[tuple] | None:
        if not all(n.isascii() for n in names):  # SQLite's NOCASE folds ASCII only
            return None
        rows: dict[int, tuple] = {}
        for n in names:
            rows.update((r[0], r) for r in self.log._select(f"{ROWS} WHERE {self.log.UNIT_NAMED}", (n,)))
        if rows:
            rows.update((r[0], r) for r in self.log._select(f"{ROWS} WHERE {REVERSING} AND first_entry > ?",
                                                            (min(rows),)))
            self.rows_read.update(rows)
        return sorted(rows.values()) if len(rows) <= SUBSET_MAX else None

    def _whole_log(self) -> list[tuple[Unit, Any]]:
        from campaign_ledger.ledger.unit_log import WithoutTouches

        if self._every is None:
            self._every = every_unit(WithoutTouches(self.recorder))
        self.read_whole = True  # the whole log was read: undo verifies the whole chain
        return self._every


def _reverses(detail: str | None) -> list[str]:
    """The unit names a stored command detail says it reversed."""
    if not detail or '"reverses"' not in detail:
        return []
    keys = json.loads(detail).get("reverses", [])
    return [k for k in keys if isinstance(k, str)]
