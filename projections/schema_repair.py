"""A read table dropped from a campaign file is named, and made again by `rebuild`.

The migrations make the read tables once and record that they did (`_sqlite_migrations`), so a
table dropped afterwards (by hand, a tool, a damaged copy) is never made again: every command
that touched it failed "unexpectedly (OperationalError: no such table: ...)", `rebuild` too. The
schema the migrations make is known (they run on an empty database in memory, once per process,
and only for the audit or a rebuild): what a file lacks of it is named by the audit and made
again, empty, by the rebuild, which then fills it from the ledger like every other table.
"""
from __future__ import annotations

import functools
import sqlite3

from sqlite_utils import Database

from campaign_ledger.ledger.errors import Unusable


@functools.lru_cache(maxsize=1)
def _expected() -> tuple[tuple[str, str, str, str], ...]:
    """Every table, index and trigger the migrations make: (type, name, table, sql), tables first."""
    from campaign_ledger.migrations import migrations  # every ruleset's migrations with the core's (migrations/__init__.py)

    fresh = Database(sqlite3.connect(":memory:"), execute_plugins=False)
    migrations.apply(fresh)
    rows = fresh.execute("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL "
                         "AND name NOT LIKE 'sqlite_%' ORDER BY type = 'table' DESC, rowid").fetchall()
    fresh.conn.close()
    return tuple(rows)


def missing(db: Database) -> list[str]:
    """The read tables the migrations made that this file no longer holds, in the order they were made
    (read tables on PostgreSQL are the server's schema, made by its own migrations: none is missing here)."""
    if not isinstance(db.conn, sqlite3.Connection):
        return []
    present = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}
    return [name for kind, name, _, _ in _expected() if kind == "table" and name not in present]


def refuse_missing(db: Database) -> None:
    """Name the missing read tables in one line, and what restores them (the ledger is untouched)."""
    gone = missing(db)
    if gone:
        raise Unusable(missing_message(gone))


def missing_message(gone: list[str]) -> str:
    """The one line that names missing read tables and what makes them again."""
    names = ", ".join(gone[:5]) + (f" and {len(gone) - 5} more" if len(gone) > 5 else "")
    one = len(gone) == 1
    return (f"The read {'table' if one else 'tables'} {names} {'is' if one else 'are'} missing from "
            "this file (the ledger itself is untouched); `campaign rebuild` makes "
            f"{'it' if one else 'them'} again from the ledger.")


def restore(db: Database) -> list[str]:
    """Make the missing read tables again, empty, with their indexes and triggers (the caller's
    rebuild fills them); the names of the tables made."""
    gone = set(missing(db))
    if not gone:
        return []
    for _, name, table, sql in _expected():  # tables first, then what hangs on them
        if table in gone and name not in _present(db):  # a full-text table makes its shadow tables itself
            db.execute(sql)
    return sorted(gone)


def _present(db: Database) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master").fetchall()}
