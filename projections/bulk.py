"""Filling read tables from scratch: full-text indexes built once at the end, not row by row.

A rebuild deletes every row and inserts them again. With the full-text triggers in place each
row is indexed as it is inserted, again each time a later entry updates any of its columns
(the history learns its unit and reversal after its line), and un-indexed when deleted. Inside
the rebuild's one transaction, `indexes_built_after(db)` drops those triggers, and at the end
rebuilds each external-content FTS index from its table in one pass and puts the triggers back:
the same index, built once. A failure rolls the whole transaction back, triggers included.
`rows_rewritten(db)` deletes the old rows without zeroing their pages (see there).
"""
from __future__ import annotations

import contextlib
import re
import sqlite3
from typing import Any, Iterator

HASH_SIZE = 2 * 1024 * 1024  # bytes: a fixed cap, so memory stays flat however long the campaign (8 MiB
# held 8 MiB more at a million history rows than at 100,000, for no rebuild time measurable there)
_CONTENT = re.compile(r"""content\s*=\s*['"\[]?(\w+)""", re.IGNORECASE)


def fts_indexes(db: Any, tables: tuple[str, ...] | None = None) -> list[str]:
    """The FTS5 tables indexing any of `tables` (external content; None: any table)."""
    found = []
    for name, sql in db.conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE "
                                     "'%VIRTUAL TABLE%USING FTS5%'"):
        content = _CONTENT.search(sql or "")
        if content and (tables is None or content.group(1) in tables):
            found.append(name)
    return found


def _filling(db: Any, indexes: list[str]) -> list[tuple[str, str]]:
    """The triggers (name, sql) that fill any of the full-text `indexes`."""
    return [(name, sql) for name, sql in db.conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
            if any(index in sql for index in indexes)]


def unsearchable(db: Any) -> None:
    """A scratch read file's full-text indexes dropped, with the triggers that fill them: nothing
    searches a file made only to be compared (audit), and indexing a million history rows
    was 1.7 s of its rebuild. Never on a campaign's own read file. Each index and its shadow
    tables stay as empty plain tables of their names: a rebuild makes a read table missing from
    its file again (schema_repair.restore), and so filled the index made again at its end all the
    same (100,000 entries: 0.12 s CPU of an audit)."""
    indexes = fts_indexes(db)
    names = [name for (name,) in db.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
             if any(name in (index, *(f"{index}_{part}" for part in _SHADOWS)) for index in indexes)]
    for name, _ in _filling(db, indexes):
        db.conn.execute(f"DROP TRIGGER [{name}]")
    for index in indexes:
        db.conn.execute(f"DROP TABLE [{index}]")
    for name in names:
        db.conn.execute(f"CREATE TABLE [{name}] (unused)")


_SHADOWS = ("data", "idx", "docsize", "config", "content")  # the tables FTS5 keeps beside an index


@contextlib.contextmanager
def indexes_built_after(db: Any, tables: tuple[str, ...]) -> Iterator[None]:
    """Inside a write transaction: the triggers that index `tables` are off for the block, and
    each full-text index is rebuilt from its table when it ends."""
    indexes = fts_indexes(db, tables)
    if not indexes:
        yield
        return
    triggers = _filling(db, indexes)
    for name, _ in triggers:
        db.conn.execute(f"DROP TRIGGER [{name}]")
    yield
    for index in indexes:
        # the terms gathered in memory before a segment is written (FTS5's own default 1 MiB): a
        # million history rows made hundreds of segments to merge, 2.6 s CPU; 2 MiB about 1.8 s
        db.conn.execute(f"INSERT INTO [{index}] ([{index}], rank) VALUES ('hashsize', ?)", [HASH_SIZE])
        db.conn.execute(f"INSERT INTO [{index}] ([{index}]) VALUES ('rebuild')")
    for _, sql in triggers:
        db.conn.execute(sql)


@contextlib.contextmanager
def rows_rewritten(db: Any) -> Iterator[None]:
    """The read tables' rows deleted without zeroing their pages first (SQLite builds such as
    Debian's set `secure_delete` by default): they are written again in the same transaction from
    the ledger, which holds every word of them, so zeroing only cost (a million entries: 0.46 s
    of deletes against 0.08 s, and the zeroed pages written to the log)."""
    conn = getattr(db, "conn", None)
    if not isinstance(conn, sqlite3.Connection):  # read tables on PostgreSQL
        yield
        return
    was = conn.execute("PRAGMA secure_delete").fetchone()[0]
    conn.execute("PRAGMA secure_delete = 0")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA secure_delete = {int(was)}")
