"""Every version of the rows a ruleset's sheets and pools are read from, so `--at` reads them as
they stood after any entry without rebuilding the tables from entry 1 (issue 15).

Relics keeps its own sheet versions (projections/rulesets/relics/sheets.py); the other rulesets'
tables are many and their handlers many, so their versions are kept here, the same way for all:
while an entry is applied, temporary triggers (this connection's only: nothing in the file
changes) note each row of the `versioned` tables that was inserted, updated or deleted; once the
ruleset has applied the entry, each noted row is written to `row_versions` at that entry (its
rowid and columns, or null once gone) when it differs from its latest version there. What undo
unmakes after the projections ran (runner.unmake) is written as gone at its own entry.

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


def arm(db: Database, tables: Iterable[str]) -> None:
    """This connection notes the changed rows of `tables` (its temporary triggers are made once,
    and again after a rollback took them away with the transaction they were made in)."""
    armed: set[str] = db.__dict__.setdefault("_row_versions_armed", set())
    present = {r[0] for r in db.execute("SELECT name FROM temp.sqlite_master WHERE type = 'trigger'")}
    armed &= {t for t in armed if f"row_versions_{t}_delete" in present}
    missing = [t for t in tables if t not in armed]
    if not missing:
        return
    db.execute("CREATE TEMP TABLE IF NOT EXISTS row_versions_dirty (tbl TEXT, key TEXT, PRIMARY KEY (tbl, key))")
    for table in missing:
        pks = _pks(db, table)
        for when, rows in (("INSERT", ("NEW",)), ("UPDATE", ("OLD", "NEW")), ("DELETE", ("OLD",))):
            notes = " ".join(f"INSERT OR IGNORE INTO row_versions_dirty VALUES ('{table}', "
                             f"json_array({', '.join(f'{r}.[{p}]' for p in pks)}));" for r in rows)
            db.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS [row_versions_{table}_{when.lower()}] AFTER {when} "
                       f"ON main.[{table}] BEGIN {notes} END")
        armed.add(table)


def before(db: Database, tables: tuple[str, ...]) -> None:
    """Before an entry is applied: what changed since the last one (undo's unmaking, after the
    projections) belongs to that last entry."""
    arm(db, tables)
    last = db.__dict__.get("_row_versions_last")
    if last is not None:
        flush(db, last)
    else:
        db.execute("DELETE FROM temp.row_versions_dirty")  # a rebuild's emptying of the tables: no version


def after(db: Database, entry: int, owned: dict[str, str], aggregate_hex: str | None) -> None:
    """Once the ruleset applied `entry`: its changed rows, versioned at it (and, when undo unmakes
    the aggregate `aggregate_hex` next, that aggregate's rows as gone)."""
    if aggregate_hex is not None:
        for table in db.__dict__.get("_row_versions_armed", ()):
            if table in owned:
                db.execute(f"INSERT OR IGNORE INTO temp.row_versions_dirty SELECT ?, json_array("
                           f"{', '.join(f'[{p}]' for p in _pks(db, table))}) FROM [{table}] WHERE [{owned[table]}] = ?",
                           [table, aggregate_hex])
        flush(db, entry, gone=aggregate_hex, owned=owned)
    else:
        flush(db, entry)
    db.__dict__["_row_versions_last"] = entry


def flush(db: Database, entry: int, gone: str | None = None, owned: dict[str, str] | None = None) -> None:
    """Write each noted row's version at `entry`, if it differs from its latest; forget the notes."""
    noted = db.execute("SELECT tbl, key FROM temp.row_versions_dirty ORDER BY tbl, key").fetchall()
    if not noted:
        return
    db.execute("DELETE FROM temp.row_versions_dirty")
    for table, key in noted:
        pks = _pks(db, table)
        found = db.execute(f"SELECT rowid, * FROM [{table}] WHERE {' AND '.join(f'[{p}] = ?' for p in pks)}",
                           json.loads(key))
        columns = [d[0] for d in found.description]
        row = found.fetchone()
        if row is not None and gone is not None and table in (owned or {}) and row[columns.index(owned[table])] == gone:
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


def keeper(versioned: tuple[str, ...], owned: dict[str, str]) -> tuple[Any, Any]:
    """A ruleset's two projection steps around its tables' own (its MODULES: ahead, tables, ..., after):
    `ahead` notes changes from the entry on, `after` writes their versions."""
    from types import SimpleNamespace

    def note(db: Database, entry: int, e: Any) -> None:
        before(db, versioned)

    def write(db: Database, entry: int, e: Any) -> None:
        from ledger.reversible import unmaking
        after(db, entry, owned, e.originator_id.hex if unmaking(e) else None)
    return (SimpleNamespace(__name__=f"{__name__}.ahead", TABLES=(), apply=note),
            SimpleNamespace(__name__=f"{__name__}.after", TABLES=(TABLE,), apply=write))
