"""The hash chain: every ledger entry carries a hash over its own bytes and the previous hash.

The recorder writes the chain in the same transaction as the entries, and with it the
command each group of entries came from, so undo and replay can find a round's entries.
Anyone holding the campaign file can recompute the chain (`verify`) and find the first
entry that was edited, dropped or moved. The SQLite recorder is here; the PostgreSQL one
(in chain_postgres.py) shares the same queries.

Chain version 2 (`ledger_meta.chain_v2_from`, set by the first write of this code): from
that entry on, each hash also covers the command-log row that starts at its entry (or the
absence of one), so a command row deleted, edited or added breaks the chain at that entry.
Entries written before it keep their version-1 hashes: an old file's command log is
protected only by the structural check (every entry belongs to exactly one command).
The marker is itself covered: removing or moving it makes the version-2 hashes fail.
"""
from __future__ import annotations

import json
import os
from typing import Any, Callable, Sequence

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor

from campaign_ledger.ledger.chain_hash import (ANCHOR_RE, GENESIS, Command, anchor_line, command_bytes, entry_hash,  # noqa: F401
                               link_hash, parse_anchor, sign)
from campaign_ledger.ledger.chain_queries import V2_KEY, ChainQueries, v2_marker
from campaign_ledger.ledger.chain_verify import Break, ChainBroken, Walk, verify  # noqa: F401
from campaign_ledger.ledger.errors import LedgerError

CHAIN_TABLE = "CREATE TABLE IF NOT EXISTS ledger_chain (entry BIGINT PRIMARY KEY, hash TEXT NOT NULL)"
COMMANDS_TABLE = ("CREATE TABLE IF NOT EXISTS ledger_commands (first_entry BIGINT PRIMARY KEY, "
                  "last_entry BIGINT NOT NULL, command TEXT NOT NULL, unit TEXT, detail TEXT)")
META_TABLE = "CREATE TABLE IF NOT EXISTS ledger_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
SIGNATURES_TABLE = "CREATE TABLE IF NOT EXISTS ledger_signatures (entry BIGINT PRIMARY KEY, mac TEXT NOT NULL)"
# SQLite: each command's idempotency key, indexed, so a write (the CLI gives every write a key) finds
# a retry without reading the whole command log (at a million entries that was 0.27 s, twice a write).
KEY_BY_INDEX = "json_extract(detail, '$.key') = ?"
KEYS_INDEX = ("CREATE INDEX IF NOT EXISTS ledger_commands_key ON ledger_commands (json_extract(detail, '$.key')) "
              "WHERE json_extract(detail, '$.key') IS NOT NULL")


def write_chain(select: Callable[[str, tuple], list], execute: Callable[[str, tuple], Any],
                ids: Sequence[int], stored_events: Sequence[StoredEvent], kwargs: dict[str, Any],
                key_where: str | None, execute_many: Callable[[str, list], Any]) -> None:
    """Chain the new entries and file them under their command(s), inside the inserting transaction
    (`key_where`: the store's indexed test of a command's key, see KEY_BY_INDEX; `execute_many`:
    the rows of a table in one call, a round trip saved per row on a server; `keys_checked` in
    kwargs: the caller already knows no key is taken, an import into a ledger found empty)."""
    rows = select("SELECT hash FROM ledger_chain ORDER BY entry DESC LIMIT 1", ())
    previous = rows[0][0] if rows else GENESIS
    v2_from = v2_marker(select)
    if v2_from is None:  # the first write of chain version 2 (an import keeps its source's marker)
        v2_from = kwargs.get("chain_v2_from") or ids[0]
        execute("INSERT INTO ledger_meta (key, value) VALUES (?, ?)", (V2_KEY, str(v2_from)))
    # One command wrote these entries; an import writes many commands' entries at once.
    groups = kwargs.get("commands") or [(0, len(ids) - 1, kwargs.get("command", "?"), kwargs.get("unit"),
                                         kwargs.get("detail"))]
    starts, keys = {}, set()
    for start, end, name, unit, detail in groups:
        key = (detail or {}).get("key")
        if key and not kwargs.get("keys_checked"):
            _check_key_unused(select, key, key_where)
            if key in keys:
                raise IntegrityError(f"The command key {key} is already in the command log.")
            keys.add(key)
        starts[ids[start]] = (ids[end], name, unit, json.dumps(detail or {}))
    execute_many("INSERT INTO ledger_commands VALUES (?, ?, ?, ?, ?)", [(first, *row) for first, row in starts.items()])
    chain = []
    for entry, s in zip(ids, stored_events):
        previous = link_hash(previous, entry, s.originator_id, s.originator_version, s.topic, s.state,
                             starts.get(entry), v2_from)
        chain.append((entry, previous))
    execute_many("INSERT INTO ledger_chain (entry, hash) VALUES (?, ?)", chain)
    if os.environ.get("CAMPAIGN_KEY"):
        execute_many("INSERT INTO ledger_signatures (entry, mac) VALUES (?, ?)", [(entry, sign(hash_)) for entry, hash_ in chain])


def _check_key_unused(select: Callable[[str, tuple], list], key: str | None, key_where: str | None = None) -> None:
    """Two processes running one command with one key: the second to write sees the first's
    key inside its own (locked) insert and rolls back; `CampaignLedger.run` then reports the first."""
    if not key:
        return
    if key_where:
        if select(f"SELECT 1 FROM ledger_commands WHERE {key_where} LIMIT 1", (key,)):
            raise IntegrityError(f"The command key {key} is already in the command log.")
        return
    escaped = key.replace("!", "!!").replace("%", "!%").replace("_", "!_")
    if select("SELECT 1 FROM ledger_commands WHERE detail LIKE ? ESCAPE '!'",
              (f'%"key": "{escaped}"%',)):
        raise IntegrityError(f"The command key {key} is already in the command log.")


class ChainedSQLiteRecorder(ChainQueries, SQLiteApplicationRecorder):
    """eventsourcing's SQLite recorder, plus the chain and the command log in the same transaction."""

    KEY_WHERE = KEY_BY_INDEX

    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + [CHAIN_TABLE, COMMANDS_TABLE, KEYS_INDEX, META_TABLE,
                                                                   SIGNATURES_TABLE]

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any):
        ids = super()._insert_events(c, stored_events, **kwargs)
        if ids:
            def select(sql: str, params: tuple) -> list:
                c.execute(sql, params)
                return [tuple(r) for r in c.fetchall()]
            write_chain(select, c.execute, ids, stored_events, kwargs, self.KEY_WHERE, c.executemany)
        return ids

    def _select(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self.datastore.transaction(commit=False) as c:
            raw = getattr(c, "sqlite_cursor", None)
            if raw is not None:  # plain tuples (eventsourcing's connections make a Row of each, which was
                raw.row_factory = None  # then copied to a tuple: a tenth of reading the chain whole)
                raw.execute(sql, params)
                return raw.fetchall()
            c.execute(sql, params)
            return [tuple(r) for r in c.fetchall()]


def chained(recorder: Any) -> ChainQueries:
    """The recorder, if it keeps the hash chain and the command log."""
    if not isinstance(recorder, ChainQueries):
        raise LedgerError("This ledger's store keeps no hash chain or command log; undo, replay, audit, "
                          "export and import need the campaign ledger's own recorder.")
    return recorder
