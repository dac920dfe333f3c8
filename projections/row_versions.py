"""Every version of the rows a ruleset's sheets and pools are read from, so `--at` reads them as
they stood after any entry without rebuilding the tables from entry 1 (issue 15).

Relics keeps its own sheet versions (projections/rulesets/relics/sheets.py); the other rulesets'
tables are many and their handlers many, so their versions are kept here, the same way for all:
triggers (made by each ruleset's migration) note in row_versions_dirty each row of the versioned
tables that was inserted, updated or deleted; once the ruleset has applied an entry, each noted
row is written to `row_versions` at that entry (its rowid and columns, or null once gone) when
it differs from its latest version there. What undo unmakes after the projections ran
(runner.unmake) is written as gone at its own entry.

`as_of` answers an in-memory copy of those tables as they stood after an entry, for the ruleset's
own view functions: its cost is that of the rows it holds, whatever the entry or the campaign's
length. Catching up and a rebuild write the same versions (a version equal to the latest is
never written), so an audit finds them equal.
"""
from __future__ import annotations

import contextlib
import json
import sqlite3
from typing import Any, Iterable, Iterator

from sqlite_utils import Database

TABLE = "row_versions"
DIRTY = "row_versions_dirty"  # the rows changed since the last versions were written


def kept(db: Any) -> bool:
    """Versions are kept in an SQLite read file (its triggers, rowids and JSON functions); read
    tables on PostgreSQL (CAMPAIGN_READ=postgres) keep none, and `--at` rebuilds up to the entry."""
    return isinstance(db.conn, sqlite3.Connection)


def triggers(db: Database, tables: Iterable[str]) -> None:
    """Triggers that note each inserted, updated or deleted row of `tables` in row_versions_dirty
    (a ruleset's migration makes them; in the file, so any connection's writes are noted, and a
    rolled-back write takes its note with it)."""
    if not kept(db):
        return
    for table in tables:
        pks = _pks(db, table)
        for when, rows in (("INSERT", ("NEW",)), ("UPDATE", ("OLD", "NEW")), ("DELETE", ("OLD",))):
            notes = " ".join(f"INSERT OR IGNORE INTO {DIRTY} VALUES ('{table}', "
                             f"json_array({', '.join(f'{r}.[{p}]' for p in pks)}));" for r in rows)
            db.execute(f"CREATE TRIGGER IF NOT EXISTS [{DIRTY}_{table}_{when.lower()}] AFTER {when} "
                       f"ON [{table}] BEGIN {notes} END")


def after(db: Database, entry: int, versioned: tuple[str, ...], owned: dict[str, str],
          aggregate_hex: str | None) -> None:
    """Once the ruleset applied `entry`: its changed rows, versioned at it (and, when undo unmakes
    the aggregate `aggregate_hex` next, its rows in `owned` tables as gone)."""
    if aggregate_hex is not None:
        for table, column in owned.items():
            db.execute(f"INSERT OR IGNORE INTO {DIRTY} SELECT ?, json_array("
                       f"{', '.join(f'[{p}]' for p in _pks(db, table))}) FROM [{table}] WHERE [{column}] = ?",
                       [table, aggregate_hex])
    marks = ", ".join("?" * len(versioned))
    noted = db.execute(f"SELECT tbl, key FROM {DIRTY} WHERE tbl IN ({marks}) ORDER BY tbl, key", versioned).fetchall()
    if not noted:
        return
    db.execute(f"DELETE FROM {DIRTY} WHERE tbl IN ({marks})", versioned)
    for table, key in noted:
        pks = _pks(db, table)
        found = db.execute(f"SELECT rowid, * FROM [{table}] WHERE {' AND '.join(f'[{p}] = ?' for p in pks)}",
                           json.loads(key))
        columns = [d[0] for d in found.description]
        row = found.fetchone()
        if row is not None and table in owned and row[columns.index(owned[table])] == aggregate_hex:
            row = None  # undo unmakes it right after this entry
        now = None if row is None else json.dumps(dict(zip(columns, row)))
        latest = db.execute(f"SELECT row FROM [{TABLE}] WHERE tbl = ? AND key = ? ORDER BY entry DESC LIMIT 1",
                            [table, key]).fetchone()
        if (latest[0] if latest else None) != now:
            db.execute(f"INSERT OR REPLACE INTO [{TABLE}] (tbl, key, entry, row) VALUES (?, ?, ?, ?)",
                       [table, key, entry, now])


def as_of(db: Database, tables: tuple[str, ...], entry: int) -> Database:
    """The `tables` as they stood after `entry`, in an in-memory file (same columns, same rowids)."""
    past = Database(sqlite3.connect(":memory:"))
    for table in tables:
        sql = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table]).fetchone()[0]
        past.execute(sql)
        rows = [json.loads(r[0]) for r in db.execute(
            f"SELECT v.row FROM [{TABLE}] v WHERE v.tbl = ? AND v.entry = (SELECT max(w.entry) FROM [{TABLE}] w "
            "WHERE w.tbl = v.tbl AND w.key = v.key AND w.entry <= ?) AND v.row IS NOT NULL", [table, entry])]
        for row in rows:
            names = list(row)
            past.execute(f"INSERT INTO [{table}] (rowid, {', '.join(f'[{n}]' for n in names[1:])}) "
                         f"VALUES ({', '.join('?' * len(names))})", [row[n] for n in names])
    return past


@contextlib.contextmanager
def standing(db: Database, tables: tuple[str, ...], entry: int) -> Iterator[Database]:
    """`as_of`, closed once read."""
    past = as_of(db, tables, entry)
    try:
        yield past
    finally:
        past.conn.close()


def _pks(db: Database, table: str) -> list[str]:
    cache: dict[str, list[str]] = db.__dict__.setdefault("_row_versions_pks", {})
    if table not in cache:
        cache[table] = [r[1] for r in sorted(db.execute(f"PRAGMA table_info([{table}])").fetchall(),
                                            key=lambda r: r[5]) if r[5]]
    return cache[table]


def keeper(versioned: tuple[str, ...], owned: dict[str, str]) -> Any:
    """A ruleset's projection step after its tables' own (last in its MODULES): the versions."""
    from types import SimpleNamespace

    def write(db: Database, entry: int, e: Any) -> None:
        from campaign_ledger.ledger.reversible import unmaking
        if kept(db):
            after(db, entry, versioned, owned, e.originator_id.hex if unmaking(e) else None)
    return SimpleNamespace(__name__=f"{__name__}.keeper", TABLES=(TABLE, DIRTY), apply=write)
