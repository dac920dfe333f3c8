"""Catch the read model up with the ledger: rows and position in one SQLite transaction.

`BEGIN IMMEDIATE` takes the file's write lock before the position is read, so two
processes catching up at once queue instead of applying an entry twice; a crash
rolls back rows and position together, so no entry is ever skipped or doubled.

Catching up also verifies the hash chain of the entries it applies, continuing from the
hash it verified last (kept in `chain_checked` beside the position): an entry that does not
match stops it there, and so does a verified entry whose hash has since changed (hashes
recomputed over an edit). It raises the ledger's ChainBroken after keeping what verified.
"""
from __future__ import annotations

import contextlib
import sqlite3
from typing import Any, Callable, Iterator
from uuid import UUID

from sqlite_utils import Database

from campaign_ledger.ledger.errors import BadInput, ReadModelStuck
from campaign_ledger.ledger.reversible import Reversible, creation_event, unmaking
from campaign_ledger.migrations import migrations
from campaign_ledger.projections import balances, campaign, campaign_notes, history, notes, rulesets, schema_repair, seats, sessions, units
from campaign_ledger.projections.bulk import indexes_built_after, rows_rewritten
from campaign_ledger.projections.schema_cache import BatchMemo, ReadDatabase, flush, memo
from campaign_ledger.projections.verifying import Stored, Verifying, check_position, verified, whole_chain

MODULES: tuple = ()
PROJECTIONS: tuple = ()
_PLAN: dict[Any, tuple] = {}  # per event type: the projections that handle it (see `_plan`)
OWNED: tuple = ()  # the rows of what undo can unmake, by the column that holds the aggregate id
READ_TABLES: tuple = ()


def refresh() -> None:
    """The projections of the core and of every ruleset imported now (a ruleset imported or
    registered later calls this again; see rulesets.use_campaign); the history comes last, so its lines
    can name what the others made."""
    global MODULES, PROJECTIONS, OWNED, READ_TABLES
    MODULES = (campaign, balances, sessions, seats, *rulesets.loaded(), notes, campaign_notes, history)
    history.forget_modules()
    PROJECTIONS = tuple(m.apply for m in MODULES)
    OWNED = tuple((table, column) for m in MODULES for table, column in getattr(m, "OWNED", {}).items())
    READ_TABLES = tuple(dict.fromkeys(t for m in MODULES for t in m.TABLES))  # row_versions: one per ruleset


refresh()
BATCH = 2000  # entries a transaction step: each batch re-reads position, verdict and namer state (500: 5% more CPU)
NAME = "read-model"


def connect(path: str, scratch: bool = False) -> Database:
    """The read tables of the file at `path`, migrated; `scratch`: a file made to be thrown away (an
    audit's rebuild, a past rebuilt for time travel), written without waiting for the disk: its
    twenty-odd migrations each waited on fsync, 0.2 s of an audit, for a file no crash can leave
    half-made for anyone (it is removed with its folder)."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    if scratch:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA journal_mode = MEMORY")
    db = ReadDatabase(conn, execute_plugins=False)  # no plug-in scan per file opened (36-50 ms)
    migrations.apply(db)
    return db


def position(db: Database) -> int:
    row = db.execute("SELECT entry FROM position WHERE name = ?", [NAME]).fetchone()
    return row[0] if row else 0


def catch_up(app: Any, db: Database, progress: Callable[[int], None] | None = None) -> int:
    """Apply every ledger entry after the stored position, a transaction per batch (all of them
    again when a migration cleared the position of tables holding rows: see migrations.rederive)."""
    rulesets.use_campaign(db, app)
    if position(db) == 0 and db.execute("SELECT 1 FROM campaign LIMIT 1").fetchone():
        return rebuild(app, db, progress)
    check_position(app, db)  # a position past the ledger's end would skip the next entries for good
    return _drain(app, db, progress, lambda: immediate(db))


def rebuild(app: Any, db: Database, progress: Callable[[int], None] | None = None, check: bool = True,
            trusted: int = 0, observe: Callable[[int, Any], None] | None = None, whole: bool = False,
            feed: Stored | None = None) -> int:
    """Throw the read model away and derive it again from the whole ledger, in one transaction
    (`check=False`: on a chain known to be broken, when the GM forces it; `trusted`: the entries up
    to it were verified whole just before, so they are not hashed again, only those after;
    `observe(entry, event)`: each event applied, once, as it is mapped: the audit's lists;
    `whole`: the whole chain, command log included, is verified as its rows are read for the
    tables, one read for both, or beside them by a second process on a long ledger (verifying.
    whole_chain): a break anywhere rolls it all back and raises ChainBroken; `feed`: the
    whole-chain feed the caller made, whole_chain's, so it can read what the second process saw).

    An entry the tables cannot apply stops it there: what came before is kept, and the
    ReadModelStuck error that names the entry is raised once that is committed.
    """
    if feed is None:
        feed = whole_chain(app) if whole and check else Stored(app)
    try:
        schema_repair.restore(db)  # a read table dropped from the file is made again, then filled below
        rulesets.use_campaign(db, app)
        with rows_rewritten(db), immediate(db), indexes_built_after(db, READ_TABLES):
            for table in READ_TABLES:
                db.execute(f"DELETE FROM [{table}]")
            db.execute("DELETE FROM position WHERE name = ?", [NAME])
            db.execute("DELETE FROM chain_checked WHERE name = ?", [NAME])
            try:
                applied = _drain(app, db, progress, contextlib.nullcontext, check,
                                 2**62 if isinstance(feed, Verifying) else trusted, observe, feed)
            except ReadModelStuck as e:
                stuck = e
            else:
                feed.finish()
                return applied
            feed.finish()  # a break after the stuck entry is the graver news: nothing is kept
        raise stuck
    finally:
        feed.close()


def record_verdict(db: Database, entry: int | None, reason: str | None) -> None:
    """Keep the whole-chain verdict of an audit or rebuild: while it names an entry, catching up
    refuses (so writes are refused and reads warn) until a clean audit or a rebuild."""
    with immediate(db):
        db.execute("INSERT INTO chain_checked (name, broken_entry, reason) VALUES (?, ?, ?) ON CONFLICT(name) "
                   "DO UPDATE SET broken_entry = excluded.broken_entry, reason = excluded.reason",
                   [NAME, entry, reason])


def _drain(app: Any, db: Database, progress: Callable[[int], None] | None,
           transaction: Callable[[], Any], check: bool = True, trusted: int = 0, observe: Any = None,
           feed: Stored | None = None) -> int:
    applied, names = 0, units.UnitNames(app.recorder)  # history rows learn their undo unit with their entry
    while True:
        with transaction(), frozen(db):
            _name_units(db, names)
            count, error = _next_batch(app, db, check, trusted=trusted, observe=observe, feed=feed)
            names.fill(db)
        applied += count
        if progress and count:
            progress(count)
        if error is not None:
            raise error
        if count < BATCH:
            return applied


def _next_batch(app: Any, db: Database, check: bool = True, stop: int | None = None,
                trusted: int = 0, observe: Any = None, feed: Stored | None = None) -> tuple[int, Exception | None]:
    """Inside a write transaction: apply the next batch of entries (those that verify) and move the position.

    An entry that cannot be applied leaves no row behind (its savepoint is rolled back);
    the position stops at the entry before it, so every later read says where it stands.
    """
    notifications = feed.take(BATCH) if feed is not None else \
        app.recorder.select_notifications(position(db), BATCH, stop=stop, inclusive_of_start=False)
    broken = None
    if check:
        notifications, broken = verified(app, db, notifications, position(db), trusted)
    applied, stuck = _apply_batch(app, db, notifications, observe)
    if applied:
        db.execute("INSERT INTO position (name, entry) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET "
                   "entry = excluded.entry", [NAME, notifications[applied - 1].id])
    return applied, stuck or (broken.error() if broken is not None else None)


def _apply_batch(app: Any, db: Database, notifications: list,
                 observe: Any = None) -> tuple[int, ReadModelStuck | None]:
    """The batch under one savepoint (two statements of bookkeeping a batch, not two an entry), its
    appended rows written together at its end (schema_cache.append). An entry that fails rolls the
    batch back; the entries before it are applied again and the failed one is named, so no row of
    it stays behind."""
    db.execute("SAVEPOINT batch")
    done = 0
    try:
        for n in notifications:
            event = app.mapper.to_domain_event(n)
            apply_entry(db, n.id, event)
            if observe is not None:  # after it applied: the entries applied again below were seen
                observe(n.id, event)
            done += 1
        flush(db)
    except sqlite3.OperationalError:  # a locked or full file is no fault of the entries: roll it all back
        raise
    except Exception as e:  # the ledger holds an entry these tables cannot take
        db.execute("ROLLBACK TO batch")  # the rows written together may be an earlier entry's: whose were they?
        forget(db)
        failed, error = _one_by_one(app, db, notifications[:done + 1])
        if error is None:
            failed, error = min(done, len(notifications) - 1), e
        db.execute("ROLLBACK TO batch")
        forget(db)  # what the projections kept in memory was rolled back with the rows
        _one_by_one(app, db, notifications[:failed])
        db.execute("RELEASE batch")
        return failed, ReadModelStuck(notifications[failed].id, f"{type(error).__name__}: {error}")
    db.execute("RELEASE batch")
    return done, None


def _one_by_one(app: Any, db: Database, notifications: list) -> tuple[int, Exception | None]:
    """Apply entries with each one's rows written before the next: how many applied before one
    failed, and its error."""
    for done, n in enumerate(notifications):
        try:
            apply_entry(db, n.id, app.mapper.to_domain_event(n))
            flush(db)
        except sqlite3.OperationalError:
            raise
        except Exception as e:
            return done, e
    return len(notifications), None


def apply_entry(db: Database, entry: int, event: Any) -> None:
    plan = _PLAN.get(type(event)) if _PLAN.get(None) is PROJECTIONS else None
    projections, undoing = plan if plan is not None else _plan(type(event))
    if undoing and isinstance(event, Reversible.Remade):  # made again after an undo: the tables see it made anew
        event = creation_event(event.originator_id, event.created, event.timestamp, event.originator_version)
        projections, _ = _plan(type(event))
    for project in projections:
        project(db, entry, event)
    if undoing and unmaking(event):
        unmake(db, event.originator_id)


def _plan(kind: type) -> tuple:
    """The projections an event type reaches, in their order (a module naming the event types it
    handles, `HANDLED`, is not called for the others: a rebuild would call a dozen projections an
    entry, most of them only to return), and whether it is an undo's (made again, or unmaking)."""
    if _PLAN.get(None) is not PROJECTIONS:  # refreshed (or a test put a projection in): plan again
        _PLAN.clear()
        _PLAN[None] = PROJECTIONS
    handled = [getattr(m, "HANDLED", None) for m in MODULES]
    _PLAN[kind] = (tuple(p for p, h in zip(PROJECTIONS, handled) if h is None or issubclass(kind, h)),
                   issubclass(kind, (Reversible.Remade, Reversible.Reversed)))  # an undo's: see apply_entry
    return _PLAN[kind]


def unmake(db: Database, aggregate_id: UUID) -> None:
    """Undo unmade a PC, Challenge, item...: its current rows go, as if never made (the logs keep
    their rows: the history shows it made, then undone)."""
    flush(db)  # changes waiting for those rows go in first (nothing may wait for a row that is gone)
    for table, column in OWNED:
        db.execute(f"DELETE FROM [{table}] WHERE [{column}] = ?", [aggregate_id.hex])


def frozen(db: Database) -> Any:
    """The read file's schema read once for a catch-up, and the batch's memo (see
    projections/schema_cache.py)."""
    return db.frozen() if isinstance(db, BatchMemo) else contextlib.nullcontext(db)


def _name_units(db: Database, names: units.UnitNames) -> None:
    """History rows take their unit as they are inserted (`fill` then finds none left to name)."""
    kept = memo(db)
    if kept is not None:
        kept[history.UNITS] = names


def forget(db: Database) -> None:
    if isinstance(db, BatchMemo):
        db.forget()


class immediate:
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


@contextlib.contextmanager
def as_of(app: Any, last: int) -> Iterator[Database]:
    """The read model as it stood after entry `last`, rebuilt in a scratch file (time travel
    for read tables that keep no history of their own)."""
    from pathlib import Path

    from campaign_ledger.ledger import scratch_folders

    with scratch_folders.folder("as-of") as scratch:
        db = connect(str(Path(scratch) / "as_of.db"), scratch=True)
        rulesets.use_campaign(db, app)
        names = units.UnitNames(app.recorder)
        with immediate(db), frozen(db), indexes_built_after(db, READ_TABLES):
            _name_units(db, names)
            while True:
                count, stuck = _next_batch(app, db, stop=last)
                names.fill(db)  # as catching up names them (see _drain)
                if stuck is not None or count < BATCH:
                    break  # a stuck entry: the past shown stops before it, as the present does
        try:
            yield db
        finally:
            db.conn.close()
