"""Each history entry's undo unit, by the name `campaign undo --list` gives it.

The names come from the command log on the ledger side (the naming rules of `ledger.units`),
never from SQL on the ledger's tables: the ledger may live on PostgreSQL while the read file is
SQLite. The log is append-only, so a name never changes once given: a history row is named
once, in the transaction that applies its entry, and an undo's entries, when applied, mark
the rows of every unit they reversed with what reversed them (`reversed_by`).

The log is read forward, a page at a time, as far as the rows to name reach, and what was read
is let go once its rows are named: a unit's name depends only on the commands before it, so
reading in order gives the names reading it whole gives (`ledger.units.every_unit`). What every
later command may still need (the units still open, which a later undo may name; the names
given; each command's count) grows with the campaign, so it is kept in a private temporary SQLite
file (`Known`), not in memory: a rebuild of a million entries holds what one of a thousand does.
A catch-up reads the log once from its start (names count from the first command), never once
per batch.
"""
from __future__ import annotations

import bisect
import json
import sqlite3
from typing import Any

from sqlite_utils import Database

from ledger.chain import chained
from ledger.unit_log import TOUCHES
from ledger.units import NOT_UNITS, OWN_COUNT, ROUND

NO_UNIT = ""  # stored for entries outside every unit (`new`, an undo's own entries); read back as null
PAGE = 2000  # entries of the command log read at a time


class UnitNames:
    """The command log's units, read forward lazily, for naming the history rows of one catch-up."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self._restart()

    def _restart(self) -> None:
        self.covered = 0  # commands starting at or before this entry have been read
        self.named_to = 0  # rows up to here are named: spans ending before it are let go
        self.starts: list[int] = []  # first entries of the spans read and not yet let go, in order
        self.spans: list[tuple[int, int, str]] = []  # (first, last, unit name), same order
        self.reversers: dict[int, tuple[str, list[tuple[str, int]]]] = {}  # first entry -> (label, units)
        # units not reversed (their rows are found by their name in the history when reversed, so
        # they hold no ranges), names given and counts of each command: on disk, see Known
        if getattr(self, "known", None) is not None:
            self.known.db.close()
        self.known = Known()

    def fill(self, db: Database) -> None:
        """Name every history row not named yet; mark the rows a newly applied undo reversed."""
        unnamed = [r[0] for r in db.execute("SELECT entry FROM history WHERE unit IS NULL ORDER BY entry")]
        if not unnamed:
            return
        if unnamed[0] <= self.named_to:  # a row before those named (not in a catch-up's order): read again
            self._restart()
        self._read_to(unnamed[-1], unnamed[0])
        db.conn.executemany("UPDATE history SET unit = ? WHERE entry = ?", [(self._unit_of(e), e) for e in unnamed])
        for entry in unnamed:
            if entry in self.reversers:
                self._mark(db, entry)
        self.named_to = unnamed[-1]
        self._let_go(unnamed[-1] + 1)

    def unit_at(self, db: Database, entry: int) -> str:
        """The unit of an entry whose history row is being inserted now (a catch-up names rows as
        it applies them, instead of updating every row after); an undo's first entry marks the
        rows it reversed, as `fill` does."""
        if entry <= self.named_to:  # applied again after a rollback: read from the start
            self._restart()
        if entry > self.covered:
            self._read_to(max(entry, min(entry + PAGE, self.recorder.max_notification_id() or 0)), entry)
        if entry in self.reversers:
            self._mark(db, entry)
        self.named_to = entry
        if self.spans and self.spans[0][1] < entry:
            self._let_go(entry)
        return self._unit_of(entry)

    def _mark(self, db: Database, entry: int) -> None:
        """The rows of the units the command at `entry` reversed: those named so from the unit's
        first entry up to the reversal (an earlier unit of the same name was closed before it)."""
        label, closed = self.reversers.pop(entry)
        db.conn.executemany("UPDATE history SET reversed_by = ? WHERE entry >= ? AND entry < ? AND unit = ?",
                            [(label, first, entry, name) for name, first in closed])

    def _let_go(self, before: int) -> None:
        """Forget the spans ending before `before` and the reversals starting before it: their rows are named."""
        gone = 0
        while gone < len(self.spans) and self.spans[gone][1] < before:
            gone += 1
        del self.starts[:gone], self.spans[:gone]
        if self.reversers:
            self.reversers = {first: r for first, r in self.reversers.items() if first >= before}

    def _unit_of(self, entry: int) -> str:
        i = bisect.bisect_right(self.starts, entry) - 1
        if i >= 0 and self.spans[i][0] <= entry <= self.spans[i][1]:
            return self.spans[i][2]
        return NO_UNIT

    def _read_to(self, entry: int, keep_from: int) -> None:
        """Read the commands starting up to `entry`, in log order, a page at a time, keeping only
        what names rows from `keep_from` on (every command before it still counts for the names)."""
        log = chained(self.recorder)
        while self.covered < entry:
            last = min(entry, self.covered + PAGE)  # no further: a command not yet written may start there
            for first, (end, command, stored, detail) in sorted(log.command_rows(self.covered + 1, last).items()):
                self._command(first, end, command, stored, json.loads(TOUCHES.sub('"touches": {}', detail or "{}")))
            self.covered = last
            self._let_go(keep_from)

    def _command(self, first: int, last: int, command: str, stored: str | None, detail: dict) -> None:
        """One command of the log, as `ledger.units.every_unit` takes it: the units it reverses
        are closed (their rows learn what reversed them), then it is a unit itself, or none."""
        closed = [pair for key in detail.get("reverses", []) for pair in self.known.close(key)]
        named = None
        if stored and command not in NOT_UNITS:
            named = _name(stored, first, detail, self.known)
            self.known.opened(named, stored, first)
            self.starts.append(first)
            self.spans.append((first, last, named))
        if closed:
            label = f"replay {named}" if named is not None else "undo " + ", ".join(
                key for key, _ in sorted(closed, key=lambda pair: pair[1][1], reverse=True))
            self.reversers[first] = (label, [(key, unit_first) for key, (_, unit_first) in closed])


class Known:
    """What naming needs of every command before: the open units, the names given and how many
    times each command was given. A private temporary SQLite file (spilling to disk beyond its
    page cache), so memory stays flat however long the campaign; independent of the read store."""

    def __init__(self) -> None:
        self.db = sqlite3.connect("", isolation_level=None)
        self.db.executescript(
            "CREATE TABLE open (name TEXT PRIMARY KEY, stored TEXT NOT NULL, first INTEGER NOT NULL);"
            "CREATE INDEX open_stored ON open (stored);"
            "CREATE TABLE taken (name TEXT PRIMARY KEY);"
            "CREATE TABLE seen (stored TEXT PRIMARY KEY, times INTEGER NOT NULL)")

    def opened(self, name: str, stored: str, first: int) -> None:
        """A unit now open (a name already open keeps its first coming, as `ledger.units` does)."""
        self.db.execute("INSERT OR IGNORE INTO open VALUES (?, ?, ?)", [name, stored, first])

    def close(self, key: str) -> list[tuple[str, tuple[str, int]]]:
        """`ledger.units._close` over the open units: a reversal names units as it saw them; older
        ledgers named every unit of a shared name at once (in the order they opened)."""
        found = self.db.execute("SELECT name, stored, first FROM open WHERE name = ?", [key]).fetchall() or \
            self.db.execute("SELECT name, stored, first FROM open WHERE stored = ? ORDER BY rowid", [key]).fetchall()
        self.db.executemany("DELETE FROM open WHERE name = ?", [(name,) for name, _, _ in found])
        return [(name, (stored, first)) for name, stored, first in found]

    def count(self, stored: str) -> int:
        """How many times `stored` has now been given, this one included."""
        self.db.execute("INSERT INTO seen VALUES (?, 1) ON CONFLICT (stored) DO UPDATE SET times = times + 1",
                        [stored])
        return self.db.execute("SELECT times FROM seen WHERE stored = ?", [stored]).fetchone()[0]

    def take(self, name: str) -> bool:
        """Give `name`; False when it was given before."""
        return self.db.execute("INSERT OR IGNORE INTO taken VALUES (?)", [name]).rowcount == 1


def _name(stored: str, first: int, detail: dict, known: Known) -> str:
    """The name `ledger.units` gives a unit (its `_name`, the same rules, kept here because this
    reads the log a page at a time): a round keeps its name; another command gets its
    per-campaign sequence number, counted in log order; a name that would repeat takes its
    first entry number too. tests/test_history_units.py holds the two to the same names."""
    if ROUND.match(stored) and not detail.get("single"):
        return stored
    times = known.count(stored)
    own = OWN_COUNT.search(stored) or ("#" in stored and "touches" not in detail)  # older names: own number
    name = stored if own and times == 1 else f"{stored} #{times}"
    if not known.take(name):
        name = f"{name} (entry {first})"
        known.take(name)
    return name
