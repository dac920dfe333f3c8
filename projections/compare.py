"""Do the read tables say what the ledger says? Each table compared, row by row in key order,
with a rebuild in a scratch file: both streamed, so memory stays flat however long the campaign."""
from __future__ import annotations

import itertools
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from sqlite_utils import Database

from campaign_ledger.ledger import scratch_folders
from campaign_ledger.ledger.chain_verify import Break, ChainBroken
from campaign_ledger.ledger.errors import ReadModelStuck

from campaign_ledger.projections import bulk, long_reads, rulesets, runner
from campaign_ledger.projections.runner import as_of, connect, rebuild


def matches_rebuild(app: Any, db: Database, last: int | None = None) -> list[str]:
    """Rebuild into a scratch file and name every read table that differs from this one (up to
    entry `last` only, for read tables that could not catch up: a read-only file)."""
    if last is not None:
        with as_of(app, last) as fresh:
            return differing(db, fresh)
    with scratch_rebuild(app) as scratch:
        if scratch.broken is not None:
            raise scratch.broken.error()
        if scratch.stuck is not None:
            raise scratch.stuck
        return differing(db, scratch.fresh)


@dataclass
class Scratch:
    """A rebuild into a scratch file, and what stopped it: the chain's first break, or the entry
    the tables could not take (then `broken` is a break later in the chain, if any); `watched`:
    what the caller's watcher made of every entry (None when it did not see them all)."""
    fresh: Database
    broken: Break | None = None
    stuck: ReadModelStuck | None = None
    watched: Any = None


@contextmanager
def scratch_rebuild(app: Any, watch: Any = None) -> Iterator[Scratch]:
    """The whole ledger rebuilt into a scratch file, the hash chain and command log verified as
    the rows are read (an audit's one read of the ledger: the chain, the tables, the lists and the
    snapshots); kept until the caller has compared it with the read tables (`differing`).
    `watch(app)`, if given, sees every entry the rebuild applies (`see(entry, event)`, then
    `result()`), the event the rebuild mapped: each stored entry is decoded once. (A second process
    that verifies a long ledger's chain, verifying.Beside, only hashes: it once mapped every entry
    again for the watcher, a second decoding of the whole ledger, about a second of CPU at 100,000.)"""
    with scratch_folders.folder("audit") as scratch:
        found = Scratch(connect(str(Path(scratch) / "rebuild.db")))
        try:
            bulk.unsearchable(found.fresh)
            watcher = watch(app) if watch is not None else None
            try:
                rebuild(app, found.fresh, observe=watcher.see if watcher else None, whole=True)
            except ChainBroken as e:
                found.broken = Break(e.entry, e.reason)
            except ReadModelStuck as e:
                found.stuck = e
            if watcher is not None and found.broken is None and found.stuck is None:
                found.watched = watcher.result()
            yield found
        finally:
            found.fresh.conn.close()


def differing(db: Database, expected: Database) -> list[str]:
    """The read tables whose rows differ between two read files, each read in key order: every
    ruleset's, so rows in another ruleset's tables (which should be empty) are found too. Loaded
    only now: the rebuild before applied the campaign's own ruleset, as catching up does, not
    every ruleset's projections to every entry (which tripled an audit's rebuild)."""
    from campaign_ledger.projections import row_versions

    rulesets.load_all()
    kept = row_versions.kept(db)  # read tables on PostgreSQL keep no row versions: nothing to compare
    tables = [t for t in runner.READ_TABLES if kept or t not in (row_versions.TABLE, row_versions.DIRTY)]
    return [table for table in tables if _differ(_rows(db, table), _rows(expected, table))]


def _differ(rows: Iterator[tuple], expected: Iterator[tuple], page: int = 2000) -> bool:
    """Whether two streams of rows differ, row by row in order: compared a page of rows at a time,
    as lists (the comparison of each row pair in C, not a Python step a row: 100,000 history rows
    were a third of comparing)."""
    while True:
        mine, theirs = list(itertools.islice(rows, page)), list(itertools.islice(expected, page))
        if mine != theirs:
            return True
        if len(mine) < page:
            return False


def _rows(db: Database, table: str) -> Iterator[tuple]:
    """A table's rows in key order (columns by name, so column order does not count), streamed."""
    t = db.table(table)
    columns = sorted(c.name for c in t.columns)
    if not columns:
        return iter(())
    order = ", ".join(f"[{k}]" for k in t.pks)
    return iter(long_reads.cursor(db, f"SELECT {', '.join(f'[{c}]' for c in columns)} FROM [{table}] ORDER BY {order}"))
