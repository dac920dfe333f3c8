"""The hash chain: every ledger entry carries a hash over its own bytes and the previous hash.

The recorder writes the chain in the same transaction as the entries, and with it the
command each group of entries came from, so undo and replay can find a round's entries.
Anyone holding the campaign file can recompute the chain (`verify`) and find the first
entry that was edited, dropped or moved. The SQLite recorder is here; the PostgreSQL one
(in chain_postgres.py) shares the same queries.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence
from uuid import UUID

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor

from ledger.errors import LedgerError

GENESIS = "0" * 64
CHAIN_TABLE = "CREATE TABLE IF NOT EXISTS ledger_chain (entry BIGINT PRIMARY KEY, hash TEXT NOT NULL)"
COMMANDS_TABLE = ("CREATE TABLE IF NOT EXISTS ledger_commands (first_entry BIGINT PRIMARY KEY, "
                  "last_entry BIGINT NOT NULL, command TEXT NOT NULL, unit TEXT, detail TEXT)")


def entry_hash(previous: str, entry: int, originator_id: Any, version: int, topic: str, state: bytes) -> str:
    h = hashlib.sha256()
    oid = originator_id.hex if isinstance(originator_id, UUID) else str(originator_id).replace("-", "")
    for part in (previous, str(entry), oid, str(version), topic):
        h.update(part.encode())
        h.update(b"\x1f")
    h.update(bytes(state))
    return h.hexdigest()


def write_chain(execute: Callable[[str, tuple], Any], last_hash: str, ids: Sequence[int],
                stored_events: Sequence[StoredEvent], kwargs: dict[str, Any]) -> None:
    """Chain the new entries and file them under their command(s), inside the inserting transaction."""
    previous = last_hash
    for entry, s in zip(ids, stored_events):
        previous = entry_hash(previous, entry, s.originator_id, s.originator_version, s.topic, s.state)
        execute("INSERT INTO ledger_chain (entry, hash) VALUES (?, ?)", (entry, previous))
    # One command wrote these entries; an import writes many commands' entries at once.
    groups = kwargs.get("commands") or [(0, len(ids) - 1, kwargs.get("command", "?"), kwargs.get("unit"),
                                         kwargs.get("detail"))]
    for start, end, name, unit, detail in groups:
        _check_key_unused(execute, (detail or {}).get("key"))
        execute("INSERT INTO ledger_commands VALUES (?, ?, ?, ?, ?)",
                (ids[start], ids[end], name, unit, json.dumps(detail or {})))


def _check_key_unused(execute: Callable[[str, tuple], Any], key: str | None) -> None:
    """Two processes running one command with one key: the second to write sees the first's
    key inside its own (locked) insert and rolls back; `CampaignLedger.run` then reports the first."""
    if not key:
        return
    escaped = key.replace("!", "!!").replace("%", "!%").replace("_", "!_")
    if execute("SELECT 1 FROM ledger_commands WHERE detail LIKE ? ESCAPE '!'",
               (f'%"key": "{escaped}"%',)).fetchone():
        raise IntegrityError(f"The command key {key} is already in the command log.")


class ChainQueries:
    """What undo, replay, audit and export read: the same questions for every store."""

    events_table_name: str
    id_column = "rowid"

    def _select(self, sql: str, params: tuple = ()) -> list[tuple]:
        raise NotImplementedError

    def commands(self) -> list[tuple[int, int, str, str | None, dict]]:
        """Every command's entries, in order: (first, last, command, unit, detail)."""
        rows = self._select("SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                            "ORDER BY first_entry")
        return [(r[0], r[1], r[2], r[3], json.loads(r[4] or "{}")) for r in rows]

    def command_with_key(self, key: str) -> tuple[int, int, str] | None:
        """(first, last, command) of the logged command run under this idempotency key, if any."""
        rows = self._select("SELECT first_entry, last_entry, command, detail FROM ledger_commands "
                            "WHERE detail LIKE ? ORDER BY first_entry", (f'%"key": "{key}"%',))
        for first, last, command, detail in rows:  # LIKE's '_' matches any character: read it back
            if json.loads(detail or "{}").get("key") == key:
                return first, last, command
        return None

    def hash_of(self, entry: int) -> str:
        rows = self._select("SELECT hash FROM ledger_chain WHERE entry = ?", (entry,))
        return rows[0][0] if rows else GENESIS

    def chain(self) -> dict[int, str]:
        return {r[0]: r[1] for r in self._select("SELECT entry, hash FROM ledger_chain")}

    def long_aggregates(self, at_least: int) -> list[tuple[UUID, int]]:
        """Aggregates with at least this many events, and their last version (worth a snapshot)."""
        rows = self._select(f"SELECT originator_id, max(originator_version) FROM {self.events_table_name} "
                            "GROUP BY originator_id HAVING max(originator_version) >= ?", (at_least,))
        return [(r[0] if isinstance(r[0], UUID) else UUID(r[0]), r[1]) for r in rows]

    def stored_entries(self, batch: int = 1000) -> Iterator[tuple[int, Any, int, str, bytes]]:
        """Every stored entry as it lies in the store, streamed in order (memory stays flat)."""
        i = self.id_column
        yield from self._batches(f"SELECT {i}, originator_id, originator_version, topic, state "
                                 f"FROM {self.events_table_name} WHERE {i} > ? AND {i} <= ? ORDER BY {i} LIMIT ?",
                                 0, 2**62, batch)

    def stored_entries_with_hashes(self, first: int, last: int, batch: int = 1000) -> Iterator[tuple]:
        """Entries first..last with their chain hashes and, on a command's first entry, the command."""
        i = f"e.{self.id_column}"
        yield from self._batches(
            f"SELECT {i}, e.originator_id, e.originator_version, e.topic, e.state, h.hash, "
            "m.last_entry, m.command, m.unit, m.detail "
            f"FROM {self.events_table_name} e LEFT JOIN ledger_chain h ON h.entry = {i} "
            f"LEFT JOIN ledger_commands m ON m.first_entry = {i} "
            f"WHERE {i} > ? AND {i} <= ? ORDER BY {i} LIMIT ?", first - 1, last, batch)

    def _batches(self, sql: str, after: int, last: int, batch: int) -> Iterator[tuple]:
        while after < last:
            rows = self._select(sql, (after, last, batch))
            yield from rows
            if len(rows) < batch:
                return
            after = rows[-1][0]


class ChainedSQLiteRecorder(ChainQueries, SQLiteApplicationRecorder):
    """eventsourcing's SQLite recorder, plus the chain and the command log in the same transaction."""

    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + [CHAIN_TABLE, COMMANDS_TABLE]

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any):
        ids = super()._insert_events(c, stored_events, **kwargs)
        if ids:
            c.execute("SELECT hash FROM ledger_chain ORDER BY entry DESC LIMIT 1")
            row = c.fetchone()
            run = lambda sql, params: (c.execute(sql, params), c)[1]  # noqa: E731 (the cursor, as psycopg's)
            write_chain(run, row[0] if row else GENESIS, ids, stored_events, kwargs)
        return ids

    def _select(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql, params)
            return [tuple(r) for r in c.fetchall()]


def chained(recorder: Any) -> ChainQueries:
    """The recorder, if it keeps the hash chain and the command log."""
    if not isinstance(recorder, ChainQueries):
        raise LedgerError("This ledger's store keeps no hash chain or command log; undo, replay, audit, "
                          "export and import need the campaign ledger's own recorder.")
    return recorder


@dataclass(frozen=True)
class Break:
    entry: int
    reason: str


def verify(rows: Iterable[tuple[int, Any, int, str, bytes]], chain: dict[int, str]) -> Break | None:
    """Recompute the chain over stored entries (entry, originator, version, topic, state).

    Entry numbers may skip (PostgreSQL's sequence does after a failed insert); the chain
    says which entries there are, so a number the chain has and the store lacks is missing.
    """
    expected = iter(sorted(chain))
    previous = GENESIS
    for entry, oid, version, topic, state in rows:
        listed = next(expected, None)
        if listed is None:
            return Break(entry, f"entry #{entry} has no hash in the chain")
        if listed < entry:
            return Break(listed, f"entry #{listed} is missing")
        if listed > entry:
            return Break(entry, f"entry #{entry} has no hash in the chain")
        if entry_hash(previous, entry, oid, version, topic, state) != chain[entry]:
            return Break(entry, f"entry #{entry} does not match its hash (edited or moved)")
        previous = chain[entry]
    missing = next(expected, None)
    if missing is not None:
        return Break(missing, f"entry #{missing} is missing")
    return None
