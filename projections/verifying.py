"""The read tables verify the hash chain as they apply it: each batch of entries continues from
the hash verified last (kept in `chain_checked` beside the position); a rebuild verifies the
whole chain as it reads its rows (`Verifying`); and a break known without reading the ledger
(an audit's verdict, a rewritten entry already applied) stops it before it starts."""
from __future__ import annotations

import itertools
import sqlite3
from typing import Any, NamedTuple

from sqlite_utils import Database

from campaign_ledger.ledger.errors import LedgerError, ReadModelStuck
from campaign_ledger.projections.current import NAME  # the read tables' position and verdict row (runner.NAME)


class Entry(NamedTuple):
    """A stored entry as the mapper reads it (what a Notification holds, made for a fraction of its cost)."""
    id: int
    originator_id: Any
    originator_version: int
    topic: str
    state: bytes


IDS_KEPT = 4096


class Stored:
    """Every stored entry in order, a batch at a time, as the notifications the store would give
    (read as plain rows: the store's own notifications cost three times as much to read)."""

    def __init__(self, app: Any) -> None:
        from campaign_ledger.ledger.chain import chained

        self.rows = self._rows(chained(app.recorder))
        self.convert = getattr(app.recorder, "convert_originator_id", None)
        self.ids: dict[str, Any] = {}

    def _rows(self, chain: Any) -> Any:
        return chain.stored_entries()

    def take(self, count: int) -> list:
        """The next entries, each aggregate's id converted once while it recurs (a campaign's entries
        name the same few aggregates turn after turn: UUID() per entry was a tenth of a rebuild)."""
        ids, convert = self.ids, self.convert
        if len(ids) > IDS_KEPT:  # a few thousand kept at most: memory stays flat
            ids.clear()
        taken = []
        for entry, oid, version, topic, state in itertools.islice(self.rows, count):
            if convert is not None and isinstance(oid, str):
                known = ids.get(oid)
                if known is None:
                    known = ids[oid] = convert(oid)
                oid = known
            taken.append(Entry(entry, oid, version, topic, state))
        return taken

    def finish(self) -> None:
        """Nothing verified, nothing to report."""

    def close(self) -> None:
        """Nothing held beyond its rows."""


class Verifying(Stored):
    """The whole chain's entries as they verify (ChainQueries.verified_entries). `watch(app)`, if
    given, is to see every entry the rebuild applies, in this process (`observe`: its `see`, which
    the rebuild calls with the event it mapped); `watched()`, once all were seen: its `result()`."""

    def __init__(self, app: Any, watch: Any = None) -> None:
        self.verdict: list = []
        self.watcher = watch(app) if watch is not None else None
        super().__init__(app)

    def observe(self) -> Any:
        """What the rebuild calls with each entry it applied and its event; None: nothing watches here."""
        return self.watcher.see if self.watcher is not None else None

    def watched(self) -> Any:
        """What the watcher made of every entry (call it only once every entry was applied)."""
        return self.watcher.result() if self.watcher is not None else None

    def _rows(self, chain: Any) -> Any:
        return chain.verified_entries(self.verdict)

    def finish(self) -> None:
        """The rest of the chain checked (after a stuck entry); its break, if any, raised."""
        for _ in self.rows:
            pass
        if self.verdict:
            raise self.verdict[0].error()


class Beside(Verifying):
    """The whole chain verified by a second process (ledger/side_process.py) while this one reads
    the same entries plainly and applies them: on two cores a rebuild takes about as long as the
    longer of the two, not their sum. The entries read are those stored when it began (the chain
    check reads at least as far); `finish` waits for the verdict and raises its break, so the
    caller's transaction rolls back as it does when `Verifying` meets the break.

    `watch` (an audit's lists and snapshot check) is fed there too while a core stands idle for it
    (side_process.core_idle), each entry the second process verified mapped again for it: this
    process maps every entry for the tables, and watching here too made it the longer half by a
    third (100,000 entries: 3.7 s CPU here against 0.5 s there; watched there, 2.7 s against
    2.3 s), so the audit waits for less though it decodes twice. On a busy machine the second
    decoding only takes CPU from this process's share: the watch stays here, each entry decoded once."""

    def __init__(self, app: Any, watch: Any = None) -> None:
        from campaign_ledger.ledger.side_process import SideProcess, core_idle

        self.last = app.recorder.max_notification_id() or 0
        self.seen: Any = None
        there = watch if watch is not None and core_idle() else None
        self.side: Any = SideProcess(_verified_whole, type(app), dict(app.env), self.last, there)
        super().__init__(app, None if there is not None else watch)

    def _rows(self, chain: Any) -> Any:
        return chain.stored_entries(last=self.last)

    def finish(self) -> None:
        side, self.side = self.side, None
        if side is not None:
            broken, self.seen = side.finish()
            if broken is not None:
                raise broken.error()

    def watched(self) -> Any:
        return self.seen if self.watcher is None else super().watched()

    def close(self) -> None:
        """The check stopped, if it still runs (the rebuild failed for another reason)."""
        if self.side is not None:
            self.side.stop()
            self.side = None


def _verified_whole(kind: type, env: dict, last: int, watch: Any = None) -> tuple[Any, Any]:
    """The second process, on its own connection to the same ledger: the whole chain recomputed;
    the first break or None, and what `watch` made of the entries up to `last` (None: no watch, or
    an entry it could not see, which the tables cannot take either: the caller watches itself)."""
    from campaign_ledger.ledger.chain import chained

    app = kind(env=env)
    try:
        if watch is None:
            return chained(app.recorder).verify_all(), None
        return _watched_whole(app, last, watch)
    finally:
        app.close()


def _watched_whole(app: Any, last: int, watch: Any) -> tuple[Any, Any]:
    """One read of the ledger for both: each entry as it verifies, mapped for the watcher."""
    watcher, feed, to_event = watch(app), Verifying(app), app.mapper.to_domain_event
    while batch := feed.take(1000):
        if watcher is None:
            continue
        for n in batch:
            if n.id > last:  # written since the rebuild began: it does not apply them
                break
            try:
                watcher.see(n.id, to_event(n))
            except Exception:  # noqa: BLE001 (the rebuild stops there too, and its caller watches itself)
                watcher = None
                break
    return (feed.verdict[0] if feed.verdict else None), (watcher.result() if watcher is not None else None)


def whole_chain(app: Any, watch: Any = None) -> Verifying:
    """The feed of a rebuild that verifies the whole chain: beside it, in a second process, when
    that is worth it (ledger.side_process.worth_it: a long ledger in a file, two cores); else as it
    is read. `watch`: see `Verifying` (and `Beside`: watched in the second process)."""
    from campaign_ledger.ledger.side_process import worth_it

    return Beside(app, watch) if worth_it(app) else Verifying(app, watch)


def recorded_break(app: Any, db: Database) -> Any:
    """A break known without reading the ledger: the last audit's verdict, or the newest applied
    entry's hash changed since (hashes recomputed over an edit: `rebuild` would copy the forgery)."""
    row = _kept(db, "SELECT broken_entry, reason FROM chain_checked WHERE name = ?")
    if row and row[0] is not None:
        return app.recorder.broken(row[0], f"audit or rebuild found {row[1]}")
    checked = chain_checked(db)
    if checked and checked[0] and app.recorder.hash_of(checked[0]) != checked[1]:
        return app.recorder.broken(checked[0], f"entry #{checked[0]} no longer has the hash it had when the "
                                               "read tables applied it (the ledger was rewritten at or before it)")
    return None


def chain_checked(db: Database) -> tuple | None:
    """Where the read tables last verified the chain: (entry, its hash, the end of its command), or None."""
    row = _kept(db, "SELECT entry, hash, command_end FROM chain_checked WHERE name = ?")
    return tuple(row) if row and row[0] is not None else None


def _kept(db: Database, sql: str) -> Any:
    """The read tables' row of `chain_checked`; none when the table was dropped from the file (the
    audit names it, and `rebuild`, which verifies the whole chain again, makes it again)."""
    try:
        return db.execute(sql, [NAME]).fetchone()
    except sqlite3.OperationalError as e:
        if "no such table: chain_checked" not in str(e):
            raise
        return None


def verified(app: Any, db: Database, notifications: list, at: int, trusted: int = 0) -> tuple[list, Any]:
    """The notifications (following the read tables' position `at`) that extend the chain verified
    so far, and the first break if any."""
    broken = recorded_break(app, db)
    if broken is not None:
        return [], broken
    recorder = app.recorder
    if notifications and notifications[-1].id <= trusted:  # verified whole a moment ago: keep where it ends
        last = notifications[-1].id
        db.execute("INSERT INTO chain_checked (name, entry, hash, command_end) VALUES (?, ?, ?, ?) "
                   "ON CONFLICT(name) DO UPDATE SET entry = excluded.entry, hash = excluded.hash, "
                   "command_end = excluded.command_end", [NAME, last, recorder.hash_of(last), recorder.command_end(last)])
        return notifications, None
    row = chain_checked(db)
    if row is None or row[0] != at:  # read tables older than the check: trust what they applied
        row = (at, recorder.hash_of(at) if at else None, recorder.command_end(at) if at else None)
    good, last_hash, command_end, broken = recorder.check_batch(row[1], row[2], notifications)
    if good:
        db.execute("INSERT INTO chain_checked (name, entry, hash, command_end) VALUES (?, ?, ?, ?) "
                   "ON CONFLICT(name) DO UPDATE SET entry = excluded.entry, hash = excluded.hash, "
                   "command_end = excluded.command_end", [NAME, notifications[good - 1].id, last_hash, command_end])
    return notifications[:good], broken


class PositionPastEnd(ReadModelStuck):
    """The read tables' position names an entry the ledger does not hold: moved by hand (or the
    tables are another ledger's). Catching up would skip every entry up to it: the next write's
    entries would never show. `campaign rebuild` derives the tables and their position again."""

    def __init__(self, position: int, end: int) -> None:
        LedgerError.__init__(self, f"the read tables' position says entries up to #{position} were applied, "
                                   f"while the ledger ends at entry #{end} (their position was moved past it); "
                                   "`campaign rebuild` derives them again.")
        self.entry, self.end = position, end


def check_position(app: Any, db: Database) -> None:
    """Refuse to catch up from a position past the ledger's end. The position is read first, the
    ledger's end after: entries are only ever added, so a position the program set is never past it."""
    at = db.execute("SELECT entry FROM position WHERE name = ?", [NAME]).fetchone()
    if at and at[0]:
        end = app.recorder.max_notification_id() or 0
        if at[0] > end:
            raise PositionPastEnd(at[0], end)
