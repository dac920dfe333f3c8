"""What-if ledgers: a scratch copy of the ledger as it stood before a round or roll, to play it
again on without touching the real one (replay; a committed correction plays on the real one).

Three ways to fill it, cheapest first. `lazily` (replay's): each aggregate is copied from the
ledger (an SQLite file, or PostgreSQL: `FromServer`) the first time the what-if reads it, as loading
it reads it, so a replay reads a handful of aggregates, not every entry before the round. That holds
while the what-if only plays commands (the round, later rounds and setup commands), which read
aggregates; it never plays an undo again (replay notes those), which would read the entries it
reverses. Otherwise an SQLite ledger's first entries are copied in bulk (INSERT ... SELECT over the
attached file); any other (in memory) entry by entry.
"""
from __future__ import annotations

import sqlite3
import weakref
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote
from uuid import UUID


COPY_EVENTS = ("INSERT OR IGNORE INTO stored_events (rowid, originator_id, originator_version, topic, state) "
               "SELECT rowid, originator_id, originator_version, topic, state FROM source.stored_events WHERE ")
"""The ledger's entries into the what-if, each keeping its entry number (the rows' condition follows)."""


def scratch(app: Any, upto: int, directory: str, lazily: bool = False) -> Any:
    """A copy of the ledger's first `upto` entries, to play on without touching the real one
    (`lazily`: only what the what-if reads of them, see the module's doc)."""
    path = str(Path(directory) / "scratch.db")
    copy = app.scratch_ledger(path)
    if lazily and _lazily(app, copy, path, upto):
        return copy
    if _copied_whole(app, path, upto):
        return copy
    batch: list[Any] = []
    for n in notifications(app, upto):
        batch.append(n)
        if len(batch) == 500:
            copy.recorder.insert_events(batch)
            batch = []
    if batch:
        copy.recorder.insert_events(batch)
    return copy


def notifications(app: Any, upto: int) -> Iterator[Any]:
    """The ledger's first `upto` entries, in batches (memory stays flat)."""
    start = 0
    while start < upto:
        batch = app.recorder.select_notifications(start, min(500, upto - start), inclusive_of_start=False, stop=upto)
        if not batch:
            break
        yield from batch
        start = batch[-1].id


def _source(app: Any) -> str | None:
    """The SQLite ledger's file as a read-only URI to attach, or None (PostgreSQL, memory)."""
    from campaign_ledger.ledger.chain import ChainedSQLiteRecorder
    source = getattr(getattr(app.recorder.datastore, "pool", None), "db_name", None)
    if not isinstance(app.recorder, ChainedSQLiteRecorder) or not source or ":memory:" in source \
            or "mode=memory" in source:
        return None
    return source if source.startswith("file:") else f"file:{quote(str(Path(source).resolve()))}?mode=ro"


def _copied_whole(app: Any, path: str, upto: int) -> bool:
    """Copy an SQLite ledger's first `upto` entries into the scratch file at `path` as they lie in
    the store (events, chain, command log, and the snapshots of versions made by then: INSERT ...
    SELECT over an attached file), not one by one through the recorder, which hashes each again and
    leaves every aggregate to load from its first event (what a late round's replay spent its time on).
    False when the ledger is elsewhere (PostgreSQL, memory): the caller copies entries then."""
    source = _source(app)
    if source is None:
        return False
    conn = sqlite3.connect(f"file:{quote(path)}", uri=True)
    try:
        conn.execute("ATTACH DATABASE ? AS source", (source,))
        with conn:
            conn.execute(COPY_EVENTS + "rowid <= ? ORDER BY rowid", (upto,))
            conn.execute("INSERT INTO ledger_chain SELECT entry, hash FROM source.ledger_chain WHERE entry <= ?", (upto,))
            conn.execute("INSERT INTO ledger_commands SELECT first_entry, last_entry, command, unit, detail "
                         "FROM source.ledger_commands WHERE last_entry <= ?", (upto,))
            cut = conn.execute("SELECT first_entry FROM source.ledger_commands WHERE first_entry <= ? "
                               "AND last_entry > ?", (upto, upto)).fetchone()
            if cut:  # a command the copy ends inside: its entries so far, as one unnamed command
                conn.execute("INSERT INTO ledger_commands VALUES (?, ?, '?', NULL, '{}')", (cut[0], upto))
            conn.execute("INSERT INTO ledger_meta SELECT key, value FROM source.ledger_meta")
            conn.execute("INSERT INTO stored_snapshots SELECT s.originator_id, s.originator_version, s.topic, s.state "
                         "FROM source.stored_events e CROSS JOIN source.stored_snapshots s ON s.originator_id = "
                         "e.originator_id AND s.originator_version = e.originator_version WHERE e.rowid <= ?",
                         (upto,))  # those of versions made by then: an aggregate loads from its latest
        conn.execute("DETACH DATABASE source")
    finally:
        conn.close()
    return True


def _lazily(app: Any, copy: Any, path: str, upto: int) -> bool:
    """Fill the what-if `copy` as it reads (see `Lazily`, and `FromServer` for a ledger on PostgreSQL);
    False when the ledger is neither (in memory)."""
    source = _source(app)
    if source is not None:
        lazy: Lazily = Lazily(path, source, upto)
    elif getattr(app.recorder, "id_column", None) == "notification_id":
        lazy = FromServer(path, app, upto)
    else:
        return False
    weakref.finalize(copy, lazy.conn.close)
    for recorder in (copy.recorder, getattr(copy.snapshots, "recorder", None)):
        if recorder is not None:
            recorder.select_events = lazy.reading(recorder.select_events)
    return True


class Lazily:
    """A what-if's aggregates copied from the ledger the first time it reads each, as loading reads
    them: the first event (the campaign's names its ruleset, by which the application finds its
    commands), the latest snapshot made by entry `upto` and the events after that snapshot up to
    `upto`, each with its entry number. The chain's hash at `upto`, its version marker and the entry
    at `upto` itself are copied at once, so the what-if's own entries follow on from `upto` and are
    numbered and hashed as the ledger's were. No command log: an undo played on it would find
    nothing to reverse (see the module's doc)."""

    def __init__(self, path: str, source: str, upto: int) -> None:
        self.conn = sqlite3.connect(f"file:{quote(path)}", uri=True, isolation_level=None, check_same_thread=False)
        self.conn.execute("ATTACH DATABASE ? AS source", (source,))
        self.upto, self.done = upto, set()
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute(COPY_EVENTS + "rowid = ?", (upto,))
            self.conn.execute("INSERT INTO ledger_chain SELECT entry, hash FROM source.ledger_chain WHERE entry = ?",
                              (upto,))
            self.conn.execute("INSERT INTO ledger_meta SELECT key, value FROM source.ledger_meta")

    def reading(self, select_events: Any) -> Any:
        """The recorder's `select_events`, the aggregate copied in first."""
        def select(originator_id: Any, *args: Any, **kwargs: Any) -> Any:
            self.copy(originator_id)
            return select_events(originator_id, *args, **kwargs)
        return select

    def copy(self, originator_id: UUID | str) -> None:
        """The aggregate's first event, latest snapshot made by `upto` and the events after it, once."""
        key = originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id))
        if key.hex in self.done:
            return
        self.done.add(key.hex)
        newest = self._newest(key)
        if newest is None:  # not made by then: the what-if finds it missing, as the ledger then would
            return
        with self.conn:
            self.conn.execute("BEGIN")
            self._copy(key, self._taken(key, newest), newest)

    def _newest(self, key: UUID) -> int | None:
        """The aggregate's version at entry `upto` (None: not made by then)."""
        row = self.conn.execute("SELECT max(originator_version) FROM source.stored_events WHERE originator_id = ? "
                                "AND rowid <= ?", (key.hex, self.upto)).fetchone()
        return row[0]

    def _taken(self, key: UUID, newest: int) -> int:
        """The version of its latest snapshot by then (0: none)."""
        return self.conn.execute("SELECT max(originator_version) FROM source.stored_snapshots WHERE originator_id = ? "
                                 "AND originator_version <= ?", (key.hex, newest)).fetchone()[0] or 0

    def _copy(self, key: UUID, taken: int, newest: int) -> None:
        """That snapshot and the events after it (and the first), inside the copy's transaction."""
        self.conn.execute("INSERT OR IGNORE INTO stored_snapshots SELECT originator_id, originator_version, topic, "
                          "state FROM source.stored_snapshots WHERE originator_id = ? AND originator_version = ?",
                          (key.hex, taken))
        self.conn.execute(COPY_EVENTS + "originator_id = ? AND (originator_version = 1 OR originator_version > ?) "
                          "AND originator_version <= ?", (key.hex, taken, newest))

class FromServer(Lazily):
    """`Lazily` for a ledger on PostgreSQL: the same rows, read through the ledger's own connection
    and written into the what-if file (entries keep their numbers, which the server's sequence may
    skip: the what-if's own entries follow the last one copied at or before `upto`)."""

    def __init__(self, path: str, app: Any, upto: int) -> None:
        self.conn = sqlite3.connect(f"file:{quote(path)}", uri=True, isolation_level=None, check_same_thread=False)
        self.recorder, self.upto, self.done = app.recorder, upto, set()
        self.events = app.recorder.events_table_name
        self.snapshots = app.snapshots.recorder.events_table_name if app.snapshots is not None else None
        at = self._select(f"SELECT max(notification_id) FROM {self.events} WHERE notification_id <= ?", (upto,))[0][0]
        with self.conn:
            self.conn.execute("BEGIN")
            if at is not None:
                self._insert(self._select(self._rows("notification_id = ?"), (at,)))
                self.conn.executemany("INSERT INTO ledger_chain (entry, hash) VALUES (?, ?)",
                                      self._select("SELECT entry, hash FROM ledger_chain WHERE entry = ?", (at,)))
            self.conn.executemany("INSERT INTO ledger_meta (key, value) VALUES (?, ?)",
                                  self._select("SELECT key, value FROM ledger_meta"))

    def _select(self, sql: str, params: tuple = ()) -> list[tuple]:
        return self.recorder._select(sql, params)

    def _rows(self, where: str) -> str:
        return (f"SELECT notification_id, originator_id, originator_version, topic, state FROM {self.events} "
                f"WHERE {where}")

    def _insert(self, rows: list[tuple]) -> None:
        self.conn.executemany("INSERT OR IGNORE INTO stored_events (rowid, originator_id, originator_version, topic, "
                              "state) VALUES (?, ?, ?, ?, ?)",
                              [(n, UUID(str(oid)).hex, v, topic, bytes(state)) for n, oid, v, topic, state in rows])

    def _newest(self, key: UUID) -> int | None:
        return self._select(f"SELECT max(originator_version) FROM {self.events} WHERE originator_id = ? "
                            "AND notification_id <= ?", (key, self.upto))[0][0]

    def _taken(self, key: UUID, newest: int) -> int:
        if self.snapshots is None:
            return 0
        return self._select(f"SELECT max(originator_version) FROM {self.snapshots} WHERE originator_id = ? "
                            "AND originator_version <= ?", (key, newest))[0][0] or 0

    def _copy(self, key: UUID, taken: int, newest: int) -> None:
        if taken:
            self.conn.executemany("INSERT OR IGNORE INTO stored_snapshots (originator_id, originator_version, topic, "
                                  "state) VALUES (?, ?, ?, ?)",
                                  [(UUID(str(o)).hex, v, t, bytes(st)) for o, v, t, st in self._select(
                                      f"SELECT originator_id, originator_version, topic, state FROM {self.snapshots} "
                                      "WHERE originator_id = ? AND originator_version = ?", (key, taken))])
        self._insert(self._select(self._rows("originator_id = ? AND (originator_version = 1 OR "
                                             "originator_version > ?) AND originator_version <= ?"),
                                  (key, taken, newest)))
