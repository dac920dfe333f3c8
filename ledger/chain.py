"""The hash chain: every ledger entry carries a hash over its own bytes and the previous hash.

The recorder writes the chain in the same transaction as the entries, and with it the
command each group of entries came from, so undo and replay can find a round's entries.
Anyone holding the campaign file can recompute the chain (`verify`) and find the first
entry that was edited, dropped or moved.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor

from ledger.errors import LedgerError

GENESIS = "0" * 64


def entry_hash(previous: str, entry: int, originator_id: Any, version: int, topic: str, state: bytes) -> str:
    h = hashlib.sha256()
    oid = originator_id.hex if isinstance(originator_id, UUID) else str(originator_id).replace("-", "")
    for part in (previous, str(entry), oid, str(version), topic):
        h.update(part.encode())
        h.update(b"\x1f")
    h.update(bytes(state))
    return h.hexdigest()


class ChainedSQLiteRecorder(SQLiteApplicationRecorder):
    """eventsourcing's SQLite recorder, plus the chain and the command log in the same transaction."""

    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + [
            "CREATE TABLE IF NOT EXISTS ledger_chain (entry INTEGER PRIMARY KEY, hash TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS ledger_commands (first_entry INTEGER PRIMARY KEY, "
            "last_entry INTEGER NOT NULL, command TEXT NOT NULL, unit TEXT, detail TEXT)",
        ]

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any):
        ids = super()._insert_events(c, stored_events, **kwargs)
        if not ids:
            return ids
        c.execute("SELECT hash FROM ledger_chain ORDER BY entry DESC LIMIT 1")
        row = c.fetchone()
        previous = row[0] if row else GENESIS
        for entry, s in zip(ids, stored_events):
            previous = entry_hash(previous, entry, s.originator_id, s.originator_version, s.topic, s.state)
            c.execute("INSERT INTO ledger_chain (entry, hash) VALUES (?, ?)", (entry, previous))
        # One command wrote these entries; an import writes many commands' entries at once.
        groups = kwargs.get("commands") or [(0, len(ids) - 1, kwargs.get("command", "?"), kwargs.get("unit"),
                                             kwargs.get("detail"))]
        for start, end, name, unit, detail in groups:
            c.execute("INSERT INTO ledger_commands VALUES (?, ?, ?, ?, ?)",
                      (ids[start], ids[end], name, unit, json.dumps(detail or {})))
        return ids

    def commands(self) -> list[tuple[int, int, str, str | None, dict]]:
        """Every command's entries, in order: (first, last, command, unit, detail)."""
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands ORDER BY first_entry")
            return [(r[0], r[1], r[2], r[3], json.loads(r[4] or "{}")) for r in c.fetchall()]

    def hash_of(self, entry: int) -> str:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT hash FROM ledger_chain WHERE entry = ?", (entry,))
            row = c.fetchone()
        return row[0] if row else GENESIS

    def stored_entries_with_hashes(self, first: int, last: int, batch: int = 1000) -> Iterator[tuple]:
        """Entries first..last with their chain hashes and, on a command's first entry, the command."""
        start = first - 1
        while start < last:
            with self.datastore.transaction(commit=False) as c:
                c.execute(f"SELECT e.rowid, e.originator_id, e.originator_version, e.topic, e.state, h.hash, "
                          "m.last_entry, m.command, m.unit, m.detail "
                          f"FROM {self.events_table_name} e LEFT JOIN ledger_chain h ON h.entry = e.rowid "
                          "LEFT JOIN ledger_commands m ON m.first_entry = e.rowid "
                          "WHERE e.rowid > ? AND e.rowid <= ? ORDER BY e.rowid LIMIT ?", (start, last, batch))
                rows = [tuple(r) for r in c.fetchall()]
            yield from rows
            if len(rows) < batch:
                return
            start = rows[-1][0]

    def long_aggregates(self, at_least: int) -> list[tuple[UUID, int]]:
        """Aggregates with at least this many events, and their last version (worth a snapshot)."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT originator_id, max(originator_version) FROM {self.events_table_name} "
                      "GROUP BY originator_id HAVING max(originator_version) >= ?", (at_least,))
            return [(UUID(r[0]), r[1]) for r in c.fetchall()]

    def chain(self) -> dict[int, str]:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT entry, hash FROM ledger_chain")
            return {r[0]: r[1] for r in c.fetchall()}

    def stored_entries(self, batch: int = 1000) -> Iterator[tuple[int, Any, int, str, bytes]]:
        """Every stored entry as it lies on disk, streamed in order (memory stays flat)."""
        last = 0
        while True:
            with self.datastore.transaction(commit=False) as c:
                c.execute(f"SELECT rowid, originator_id, originator_version, topic, state "
                          f"FROM {self.events_table_name} WHERE rowid > ? ORDER BY rowid LIMIT ?", (last, batch))
                rows = [tuple(r) for r in c.fetchall()]
            yield from rows
            if len(rows) < batch:
                return
            last = rows[-1][0]


def chained(recorder: Any) -> ChainedSQLiteRecorder:
    """The recorder, if it keeps the hash chain and the command log (the SQLite ledger does)."""
    if not isinstance(recorder, ChainedSQLiteRecorder):
        raise LedgerError("This ledger's store keeps no hash chain or command log yet; undo, replay, audit, "
                          "export and import need the SQLite ledger.")
    return recorder


@dataclass(frozen=True)
class Break:
    entry: int
    reason: str


def verify(rows: Iterable[tuple[int, Any, int, str, bytes]], chain: dict[int, str]) -> Break | None:
    """Recompute the chain over stored entries (entry, originator, version, topic, state)."""
    previous, expected = GENESIS, 1
    for entry, oid, version, topic, state in rows:
        if entry != expected:
            return Break(expected, f"entry #{expected} is missing")
        recorded = chain.get(entry)
        if recorded is None:
            return Break(entry, f"entry #{entry} has no hash in the chain")
        if entry_hash(previous, entry, oid, version, topic, state) != recorded:
            return Break(entry, f"entry #{entry} does not match its hash (edited or moved)")
        previous, expected = recorded, entry + 1
    beyond = [e for e in chain if e >= expected]
    if beyond:
        return Break(min(beyond), f"entry #{min(beyond)} is missing")
    return None
