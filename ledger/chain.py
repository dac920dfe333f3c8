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

import hashlib
import hmac
import json
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence
from uuid import UUID

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor

from ledger.errors import BadInput, LedgerError, RuleViolation

GENESIS = "0" * 64
CHAIN_TABLE = "CREATE TABLE IF NOT EXISTS ledger_chain (entry BIGINT PRIMARY KEY, hash TEXT NOT NULL)"
COMMANDS_TABLE = ("CREATE TABLE IF NOT EXISTS ledger_commands (first_entry BIGINT PRIMARY KEY, "
                  "last_entry BIGINT NOT NULL, command TEXT NOT NULL, unit TEXT, detail TEXT)")
META_TABLE = "CREATE TABLE IF NOT EXISTS ledger_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
SIGNATURES_TABLE = "CREATE TABLE IF NOT EXISTS ledger_signatures (entry BIGINT PRIMARY KEY, mac TEXT NOT NULL)"
V2_KEY = "chain_v2_from"
ANCHOR_RE = re.compile(r"campaign-ledger anchor #(\d+) sha256:([0-9a-f]{64})")
Command = tuple  # (last_entry, command, unit, detail dict): a command-log row as the chain hashes it


def entry_hash(previous: str, entry: int, originator_id: Any, version: int, topic: str, state: bytes,
               command: Any = False) -> str:
    """Version 1 hashes the entry alone; version 2 (any `command`, None included) adds its command row."""
    h = hashlib.sha256()
    oid = originator_id.hex if isinstance(originator_id, UUID) else str(originator_id).replace("-", "")
    for part in (previous, str(entry), oid, str(version), topic):
        h.update(part.encode())
        h.update(b"\x1f")
    h.update(bytes(state))
    if command is not False:
        h.update(b"\x1e" + command_bytes(command))
    return h.hexdigest()


def command_bytes(command: Command | None) -> bytes:
    """A command row in one canonical form, however the store or an export spells its detail."""
    if command is None:
        return b"-"
    last, name, unit, detail = command
    detail = json.loads(detail or "{}") if isinstance(detail, (str, type(None))) else detail
    return json.dumps([last, name, unit, detail], sort_keys=True, separators=(",", ":")).encode()


def link_hash(previous: str, entry: int, oid: Any, version: int, topic: str, state: bytes,
              command: Command | None, v2_from: int | None) -> str:
    """The hash an entry must carry: version 2 from the marker's entry on, version 1 before."""
    if v2_from is not None and entry >= v2_from:
        return entry_hash(previous, entry, oid, version, topic, state, command)
    return entry_hash(previous, entry, oid, version, topic, state)


def anchor_line(entry: int, hash_: str) -> str:
    """The head of the chain as one line to keep outside the file (chat, printout, export)."""
    return f"campaign-ledger anchor #{entry} sha256:{hash_}"


def parse_anchor(text: str) -> tuple[int, str]:
    """Find the anchor in a pasted line (any export's last line will do)."""
    found = ANCHOR_RE.search(text.strip().lower())
    if not found:
        raise BadInput("An anchor reads like `campaign-ledger anchor #42 sha256:` and 64 hex digits; "
                       "copy it whole from `campaign anchor` or the end of an export.")
    return int(found.group(1)), found.group(2)


def write_chain(select: Callable[[str, tuple], list], execute: Callable[[str, tuple], Any],
                ids: Sequence[int], stored_events: Sequence[StoredEvent], kwargs: dict[str, Any]) -> None:
    """Chain the new entries and file them under their command(s), inside the inserting transaction."""
    rows = select("SELECT hash FROM ledger_chain ORDER BY entry DESC LIMIT 1", ())
    previous = rows[0][0] if rows else GENESIS
    v2_from = _v2_from(select)
    if v2_from is None:  # the first write of chain version 2 (an import keeps its source's marker)
        v2_from = kwargs.get("chain_v2_from") or ids[0]
        execute("INSERT INTO ledger_meta (key, value) VALUES (?, ?)", (V2_KEY, str(v2_from)))
    # One command wrote these entries; an import writes many commands' entries at once.
    groups = kwargs.get("commands") or [(0, len(ids) - 1, kwargs.get("command", "?"), kwargs.get("unit"),
                                         kwargs.get("detail"))]
    starts = {}
    for start, end, name, unit, detail in groups:
        _check_key_unused(select, (detail or {}).get("key"))
        starts[ids[start]] = (ids[end], name, unit, json.dumps(detail or {}))
        execute("INSERT INTO ledger_commands VALUES (?, ?, ?, ?, ?)", (ids[start], *starts[ids[start]]))
    for entry, s in zip(ids, stored_events):
        previous = link_hash(previous, entry, s.originator_id, s.originator_version, s.topic, s.state,
                             starts.get(entry), v2_from)
        execute("INSERT INTO ledger_chain (entry, hash) VALUES (?, ?)", (entry, previous))
        if os.environ.get("CAMPAIGN_KEY"):
            execute("INSERT INTO ledger_signatures (entry, mac) VALUES (?, ?)", (entry, sign(previous)))


def sign(hash_: str) -> str:
    """An entry's hash signed with CAMPAIGN_KEY: recomputing hashes without the key cannot re-sign."""
    return hmac.new(os.environ["CAMPAIGN_KEY"].encode(), hash_.encode(), hashlib.sha256).hexdigest()


def _v2_from(select: Callable[[str, tuple], list]) -> int | None:
    rows = select("SELECT value FROM ledger_meta WHERE key = ?", (V2_KEY,))
    return int(rows[0][0]) if rows else None


def _check_key_unused(select: Callable[[str, tuple], list], key: str | None) -> None:
    """Two processes running one command with one key: the second to write sees the first's
    key inside its own (locked) insert and rolls back; `CampaignLedger.run` then reports the first."""
    if not key:
        return
    escaped = key.replace("!", "!!").replace("%", "!%").replace("_", "!_")
    if select("SELECT 1 FROM ledger_commands WHERE detail LIKE ? ESCAPE '!'",
              (f'%"key": "{escaped}"%',)):
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

    def command_with_key(self, key: str) -> tuple[int, int, str, str | None, dict] | None:
        """(first, last, command, unit, detail) of the logged command run under this idempotency key, if any."""
        rows = self._select("SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                            "WHERE detail LIKE ? ORDER BY first_entry", (f'%"key": "{key}"%',))
        for first, last, command, unit, detail in rows:  # LIKE's '_' matches any character: read it back
            if (found := json.loads(detail or "{}")).get("key") == key:
                return first, last, command, unit, found
        return None

    def hash_of(self, entry: int) -> str:
        rows = self._select("SELECT hash FROM ledger_chain WHERE entry = ?", (entry,))
        return rows[0][0] if rows else GENESIS

    def chain(self) -> dict[int, str]:
        return {r[0]: r[1] for r in self._select("SELECT entry, hash FROM ledger_chain")}

    def head(self) -> tuple[int, str]:
        """The chain's newest entry and hash (0 and the genesis hash for an empty ledger)."""
        rows = self._select("SELECT entry, hash FROM ledger_chain ORDER BY entry DESC LIMIT 1")
        return (rows[0][0], rows[0][1]) if rows else (0, GENESIS)

    def v2_from(self) -> int | None:
        return _v2_from(self._select)

    def command_rows(self, first: int = 0, last: int = 2**62) -> dict[int, Command]:
        """Command-log rows starting in first..last, by first entry, as the chain hashes them."""
        rows = self._select("SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                            "WHERE first_entry >= ? AND first_entry <= ?", (first, last))
        return {r[0]: (r[1], r[2], r[3], r[4]) for r in rows}

    def hashes(self, first: int, last: int) -> dict[int, str]:
        rows = self._select("SELECT entry, hash FROM ledger_chain WHERE entry >= ? AND entry <= ?", (first, last))
        return dict(rows)

    def command_end(self, entry: int) -> int | None:
        """The last entry of the command that holds `entry` (where a verifier resumes)."""
        rows = self._select("SELECT last_entry FROM ledger_commands WHERE first_entry <= ? "
                            "ORDER BY first_entry DESC LIMIT 1", (entry,))
        return rows[0][0] if rows else None

    def signatures(self) -> dict[int, str]:
        return dict(self._select("SELECT entry, mac FROM ledger_signatures"))

    def entry_of(self, aggregate_id: UUID, version: int) -> int:
        """The entry holding an aggregate's version (or its newest, for a version it never had)."""
        oid = aggregate_id if self.id_column != "rowid" else aggregate_id.hex
        rows = self._select(f"SELECT max({self.id_column}) FROM {self.events_table_name} "
                            "WHERE originator_id = ? AND originator_version <= ?", (oid, version))
        return rows[0][0] if rows and rows[0][0] is not None else 0

    def broken(self, entry: int, reason: str) -> "Break":
        return Break(entry, reason)

    def verify_all(self) -> "Break | None":
        """Recompute the whole chain, command log included (audit, rebuild)."""
        return verify(self.stored_entries(), self.chain(), self.command_rows(), self.v2_from())

    def check_batch(self, previous: str | None, open_until: int | None,
                    notifications: Sequence[Any]) -> tuple[int, str, int | None, "Break | None"]:
        """Verify notifications that follow a verified entry; how many are good, the state after them,
        and the first break (catching up checks as it goes, from the last verified hash)."""
        previous = previous or GENESIS
        if not notifications:
            return 0, previous, open_until, None
        first, last = notifications[0].id, notifications[-1].id
        walk = Walk(self.hashes(first, last), self.command_rows(first, last), self.v2_from(), previous, open_until)
        for good, n in enumerate(notifications):
            broken = walk.step(n.id, n.originator_id, n.originator_version, n.topic, n.state)
            if broken:
                return good, walk.previous, walk.open_until, broken
        return len(notifications), walk.previous, walk.open_until, None

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
        return super().construct_create_table_statements() + [CHAIN_TABLE, COMMANDS_TABLE, META_TABLE,
                                                                   SIGNATURES_TABLE]

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any):
        ids = super()._insert_events(c, stored_events, **kwargs)
        if ids:
            def select(sql: str, params: tuple) -> list:
                c.execute(sql, params)
                return [tuple(r) for r in c.fetchall()]
            write_chain(select, c.execute, ids, stored_events, kwargs)
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

    def error(self) -> "ChainBroken":
        return ChainBroken(self.entry, self.reason)


class ChainBroken(RuleViolation):
    """The ledger no longer matches its hash chain: nothing may be appended to a record that lies."""

    def __init__(self, entry: int, reason: str) -> None:
        super().__init__(f"The ledger's hash chain is broken at entry #{entry}: {reason}. Nothing was recorded; "
                         "run `campaign audit` and restore the file from a copy you trust.")
        self.entry, self.reason = entry, reason

    def refusing(self, command: str, instead: str) -> LedgerError:
        """The same break, worded for a command that refuses to read a broken chain."""
        return RuleViolation(f"The ledger's hash chain is broken at entry #{self.entry}: {self.reason}. "
                             f"{command} refused; {instead}.")


class Walk:
    """The chain recomputed one entry at a time, with the command log's structure: every entry
    belongs to exactly one command, and (from chain version 2) each hash covers its command row."""

    def __init__(self, chain: dict[int, str], commands: dict[int, Command], v2_from: int | None,
                 previous: str = GENESIS, open_until: int | None = None) -> None:
        self.chain, self.commands, self.v2_from = chain, commands, v2_from
        self.previous, self.open_until = previous, open_until

    def step(self, entry: int, oid: Any, version: int, topic: str, state: bytes) -> Break | None:
        if entry not in self.chain:
            return Break(entry, f"entry #{entry} has no hash in the chain")
        command = self.commands.get(entry)
        if link_hash(self.previous, entry, oid, version, topic, state, command, self.v2_from) != self.chain[entry]:
            what = "it or its command-log row" if self.v2_from is not None and entry >= self.v2_from else "it"
            return Break(entry, f"entry #{entry} does not match its hash ({what} was edited, moved, "
                                "added or removed)")
        broken = self._command_structure(entry, command)
        if broken:
            return broken
        self.previous = self.chain[entry]
        return None

    def _command_structure(self, entry: int, command: Command | None) -> Break | None:
        if command is not None:
            if self.open_until is not None and self.open_until >= entry:
                return Break(entry, f"the command log has a command starting at entry #{entry} inside another")
            if command[0] < entry:
                return Break(entry, f"the command log's row for entry #{entry} ends before it starts")
            self.open_until = command[0]
        elif self.open_until is None or entry > self.open_until:
            return Break(entry, f"entry #{entry} belongs to no command in the command log")
        return None


def verify(rows: Iterable[tuple[int, Any, int, str, bytes]], chain: dict[int, str],
           commands: dict[int, Command] | None = None, v2_from: int | None = None) -> Break | None:
    """Recompute the chain over stored entries (entry, originator, version, topic, state).

    Entry numbers may skip (PostgreSQL's sequence does after a failed insert); the chain
    says which entries there are, so a number the chain has and the store lacks is missing.
    Without `commands` only the hashes are checked (a store older than the command log).
    """
    walk = Walk(chain, commands or {}, v2_from) if commands is not None else None
    expected = iter(sorted(chain))
    previous, last = GENESIS, 0
    for entry, oid, version, topic, state in rows:
        listed = next(expected, None)
        if listed is None or listed > entry:
            return Break(entry, f"entry #{entry} has no hash in the chain")
        if listed < entry:
            return Break(listed, f"entry #{listed} is missing")
        if walk is not None:
            broken = walk.step(entry, oid, version, topic, state)
            if broken:
                return broken
        elif entry_hash(previous, entry, oid, version, topic, state) != chain[entry]:
            return Break(entry, f"entry #{entry} does not match its hash (edited or moved)")
        previous, last = chain[entry], entry
    missing = next(expected, None)
    if missing is not None:
        return Break(missing, f"entry #{missing} is missing")
    stray = sorted(first for first in (commands or {}) if first > last or first not in chain)
    if stray:
        return Break(stray[0], f"the command log has a row for entry #{stray[0]}, which is not in the ledger")
    if walk is not None and walk.open_until is not None and walk.open_until > last:
        return Break(last, f"the command log says the last command runs past entry #{last}")
    return None
