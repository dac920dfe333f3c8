"""Catch the read model up with the ledger: rows and position in one SQLite transaction.

`BEGIN IMMEDIATE` takes the file's write lock before the position is read, so two
processes catching up at once queue instead of applying an entry twice; a crash
rolls back rows and position together, so no entry is ever skipped or doubled.
"""
from __future__ import annotations

import contextlib
import sqlite3
from typing import Any, Callable, Iterator
from uuid import UUID

from sqlite_utils import Database

from ledger.errors import BadInput
from migrations import migrations
from projections import (action_dice, balances, beer_run, campaign, challenges, decision_2d6, history, pools,
                         sessions, sheets, traits)

MODULES = (campaign, balances, sheets, challenges, traits, pools, sessions, beer_run, action_dice, decision_2d6,
           history)
PROJECTIONS = tuple(m.apply for m in MODULES)
READ_TABLES = tuple(t for m in MODULES for t in m.TABLES)
BATCH = 500
NAME = "read-model"


def connect(path: str) -> Database:
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    db = Database(conn)
    migrations.apply(db)
    return db


def position(db: Database) -> int:
    row = db.execute("SELECT entry FROM position WHERE name = ?", [NAME]).fetchone()
    return row[0] if row else 0


def catch_up(app: Any, db: Database, progress: Callable[[int], None] | None = None) -> int:
    """Apply every ledger entry after the stored position, a transaction per batch."""
    return _drain(app, db, progress, lambda: _immediate(db))


def rebuild(app: Any, db: Database, progress: Callable[[int], None] | None = None) -> int:
    """Throw the read model away and derive it again from the whole ledger, in one transaction."""
    with _immediate(db):
        for table in READ_TABLES:
            db.execute(f"DELETE FROM [{table}]")
        db.execute("DELETE FROM position WHERE name = ?", [NAME])
        return _drain(app, db, progress, contextlib.nullcontext)


def _drain(app: Any, db: Database, progress: Callable[[int], None] | None,
           transaction: Callable[[], Any]) -> int:
    applied = 0
    while True:
        with transaction():
            count = _next_batch(app, db)
        applied += count
        if progress and count:
            progress(count)
        if count < BATCH:
            return applied


def _next_batch(app: Any, db: Database) -> int:
    """Inside a write transaction: apply the next batch of entries and move the position."""
    notifications = app.recorder.select_notifications(position(db), BATCH, inclusive_of_start=False)
    for n in notifications:
        _apply(db, n.id, app.mapper.to_domain_event(n))
    if notifications:
        db.table("position").upsert({"name": NAME, "entry": notifications[-1].id}, pk="name")
    return len(notifications)


def _apply(db: Database, entry: int, event: Any) -> None:
    for project in PROJECTIONS:
        project(db, entry, event)


class _immediate:
    """A write transaction that holds the lock from its first statement."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def __enter__(self) -> Database:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type: Any, *_: Any) -> None:
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")


def tables(db: Database) -> Iterator[tuple[str, list[dict]]]:
    """Every read table's rows in a stable order: what `rebuild` must reproduce."""
    for table in READ_TABLES:
        pks = db.table(table).pks
        yield table, list(db.table(table).rows_where(order_by=", ".join(pks)))


def matches_rebuild(app: Any, db: Database) -> list[str]:
    """Rebuild into a scratch file and name every read table that differs from this one."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as scratch:
        fresh = connect(str(Path(scratch) / "rebuild.db"))
        rebuild(app, fresh)
        expected = dict(tables(fresh))
        fresh.conn.close()
    return [name for name, rows in tables(db) if rows != expected.get(name)]


@contextlib.contextmanager
def as_of(app: Any, last: int) -> Iterator[Database]:
    """The read model as it stood after entry `last`, rebuilt in a scratch file (time travel
    for read tables that keep no history of their own)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as scratch:
        db = connect(str(Path(scratch) / "as_of.db"))
        with _immediate(db):
            while True:
                start = position(db)
                batch = app.recorder.select_notifications(start, BATCH, stop=last, inclusive_of_start=False)
                for n in batch:
                    _apply(db, n.id, app.mapper.to_domain_event(n))
                if batch:
                    db.table("position").upsert({"name": NAME, "entry": batch[-1].id}, pk="name")
                if len(batch) < BATCH:
                    break
        try:
            yield db
        finally:
            db.conn.close()


# --- import: the whole file replayed before it is kept --------------------------------------

def replay_check(app: Any, path: str) -> None:
    """Every entry through its aggregate and the read tables, in order, before the file is kept:
    a file whose hashes were recomputed over broken data is refused here, naming the entry."""
    from ledger import campaign_file

    db = connect(path)
    aggregates: dict[UUID, Any] = {}
    try:
        with _immediate(db):
            last = 0
            for n in _notifications(app):
                _replay_one(app, db, aggregates, n)
                last = n.id
            db.table("position").upsert({"name": NAME, "entry": last}, pk="name")
        campaign_file.stamp(db.conn)
    finally:
        db.conn.close()


def _notifications(app: Any) -> Iterator[Any]:
    start = 0
    while True:
        batch = app.recorder.select_notifications(start, BATCH, inclusive_of_start=False)
        yield from batch
        if len(batch) < BATCH:
            return
        start = batch[-1].id


def _replay_one(app: Any, db: Any, aggregates: dict[UUID, Any], n: Any) -> None:
    try:
        event = app.mapper.to_domain_event(n)
        aggregates[n.originator_id] = event.mutate(aggregates.get(n.originator_id))
        _apply(db, n.id, event)
    except Exception as e:
        why = f"{type(e).__name__}: {e}"[:160]
        raise BadInput(f"Entry #{n.id} (line {n.id + 1}) does not replay ({why}); nothing was imported.") from None
