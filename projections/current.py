"""A read that needs no ledger: the read tables of a campaign file that already show every entry.

Catching up opens the ledger (eventsourcing, the rulesets' aggregates: most of a read's start-up)
only to find nothing new. When the file's newest entry is the one the read tables applied last, with
the hash they verified then, and no audit found a break since, the tables are current and a read can
answer from them alone; anything else (entries to apply, a stuck read side, a broken or rewritten
chain, a migration pending, history rows not yet named by their undo unit, a file not yet stamped
as a campaign file) goes the usual way, which catches up, names, stamps, warns or refuses.
"""
from __future__ import annotations

import sqlite3

from sqlite_utils import Database

from campaign_ledger.ledger import campaign_file
from campaign_ledger.migrations import migrations

NAME = "read-model"  # the read tables' position (projections/runner.py keeps it)


def read_tables_if_current(path: str) -> Database | None:
    """The read tables of the campaign file at `path` when they show its whole ledger; else None."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    db = Database(conn, execute_plugins=False)
    migrations.apply(db)  # a pending migration clears the position: not current
    db.execute("BEGIN")  # one snapshot for every comparison
    try:
        current = _current(conn)
    finally:
        db.execute("COMMIT")
    if not current:
        conn.close()
        return None
    return db


def _current(conn: sqlite3.Connection) -> bool:
    if conn.execute("PRAGMA application_id").fetchone()[0] != campaign_file.APPLICATION_ID:
        return False  # a file from before the stamp: the usual way stamps it
    head = campaign_file.ledger_head(conn)
    position = conn.execute("SELECT entry FROM position WHERE name = ?", [NAME]).fetchone()
    checked = conn.execute("SELECT entry, hash, broken_entry FROM chain_checked WHERE name = ?", [NAME]).fetchone()
    unnamed = conn.execute("SELECT 1 FROM history WHERE unit IS NULL LIMIT 1").fetchone()  # catching up names them
    return (head is not None and position is not None and checked is not None and checked[2] is None
            and position[0] == head[0] == checked[0] and checked[1] == head[1] and unnamed is None)
