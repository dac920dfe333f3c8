"""Each history entry's undo unit, by the name `campaign undo --list` gives it.

The names come from the command log on the ledger side (`ledger.undo.every_unit`), never
from SQL on the ledger's tables: the ledger may live on PostgreSQL while the read file is
SQLite. The log is append-only, so a name never changes once given: a history row is named
once, in the transaction that applies its entry, and an undo's entries, when applied, mark
the rows of every unit they reversed with what reversed them (`reversed_by`).

Reading the log costs time in proportion to its length, so it is read at most once per
catch-up (again only if the ledger grew meanwhile), and only when a row is still unnamed.
"""
from __future__ import annotations

import bisect
from typing import Any

from sqlite_utils import Database

from ledger.unit_log import WithoutTouches

NO_UNIT = ""  # stored for entries outside every unit (`new`, an undo's own entries); read back as null


class UnitNames:
    """The command log's units, read lazily, for naming the history rows of one catch-up."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self.covered = -1  # the newest entry the last reading of the log knew of (-1: not read yet)
        self.starts: list[int] = []  # first entries of the units' command ranges, sorted
        self.spans: list[tuple[int, int, str]] = []  # (first, last, unit name), same order
        self.reversers: dict[int, tuple[str, list[tuple[int, int]]]] = {}  # first entry -> (label, ranges)

    def fill(self, db: Database) -> None:
        """Name every history row not named yet; mark the rows a newly applied undo reversed."""
        unnamed = [r[0] for r in db.execute("SELECT entry FROM history WHERE unit IS NULL ORDER BY entry")]
        if not unnamed:
            return
        if unnamed[-1] > self.covered:
            self._read()
        db.conn.executemany("UPDATE history SET unit = ? WHERE entry = ?", [(self._unit_of(e), e) for e in unnamed])
        for entry in unnamed:
            if entry in self.reversers:
                label, ranges = self.reversers[entry]
                db.conn.executemany("UPDATE history SET reversed_by = ? WHERE entry BETWEEN ? AND ?",
                                    [(label, first, last) for first, last in ranges])

    def _unit_of(self, entry: int) -> str:
        i = bisect.bisect_right(self.starts, entry) - 1
        if i >= 0 and self.spans[i][0] <= entry <= self.spans[i][1]:
            return self.spans[i][2]
        return NO_UNIT

    def _read(self) -> None:
        from ledger.units import every_unit

        everything = every_unit(WithoutTouches(self.recorder))
        spans = sorted((first, last, unit.key) for unit, _ in everything for first, last in unit.ranges)
        self.spans, self.starts = spans, [s[0] for s in spans]
        closed: dict[tuple[int, int], list[Any]] = {}
        for unit, reversal in everything:
            if reversal is not None:
                closed.setdefault(tuple(reversal), []).append(unit)
        self.reversers = {first: (_label(first, units, self), [r for u in units for r in u.ranges])
                          for (first, _), units in closed.items()}
        self.covered = max([s[1] for s in spans] + [r[1] for r in closed] + [0])


def _label(first: int, units: list[Any], names: UnitNames) -> str:
    """What reversed a unit: `undo G:3, G:2` (newest first), or `replay G:2` for a committed correction."""
    playing = names._unit_of(first)
    if playing != NO_UNIT:  # the reversing command is itself a unit: a replay that plays the round again
        return f"replay {playing}"
    return "undo " + ", ".join(u.key for u in sorted(units, key=lambda u: u.first, reverse=True))
