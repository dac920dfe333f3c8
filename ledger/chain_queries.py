"""What undo, replay, audit and export ask of the chain and the command log: the same questions
for every store (SQLite here, PostgreSQL in chain_postgres.py), written once in portable SQL."""
from __future__ import annotations

import json
from typing import Any, Callable, Iterator, Sequence
from uuid import UUID

from campaign_ledger.ledger.chain_hash import GENESIS, Command
from campaign_ledger.ledger.chain_verify import Break, Walk, verified_rows, verify_stored

V2_KEY = "chain_v2_from"


def v2_marker(select: Callable[[str, tuple], list]) -> int | None:
    rows = select("SELECT value FROM ledger_meta WHERE key = ?", (V2_KEY,))
    return int(rows[0][0]) if rows else None



class ChainQueries:
    """What undo, replay, audit and export read: the same questions for every store."""

    KEY_WHERE: str | None = None  # how this store finds a command's key by an index, if it can
    UNIT_NAMED = "unit = ? COLLATE NOCASE"  # a unit filed under a name, case aside (ASCII: the caller checks)

    events_table_name: str
    id_column = "rowid"

    def _select(self, sql: str, params: tuple = ()) -> list[tuple]:
        raise NotImplementedError

    def commands(self) -> list[tuple[int, int, str, str | None, dict]]:
        """Every command's entries, in order: (first, last, command, unit, detail)."""
        rows = self._select("SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                            "ORDER BY first_entry")
        return [(r[0], r[1], r[2], r[3], json.loads(r[4] or "{}")) for r in rows]

    def commands_after(self, entry: int) -> Iterator[tuple[int, int, str]]:
        """The commands starting after `entry`, in order, a page at a time: (first, last, command)."""
        yield from self._batches("SELECT first_entry, last_entry, command FROM ledger_commands "
                                 "WHERE first_entry > ? AND first_entry <= ? ORDER BY first_entry LIMIT ?",
                                 entry, 2**62, 1000)

    def commands_saying(self, field: str) -> list[tuple[int, int, str, str | None, dict]]:
        """The commands whose detail holds `field` (the log's other rows are not read into memory)."""
        rows = self._select("SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                            "WHERE detail LIKE ? ORDER BY first_entry", (f'%"{field}"%',))
        return [(r[0], r[1], r[2], r[3], d) for r in rows if field in (d := json.loads(r[4] or "{}"))]

    def command_with_key(self, key: str) -> tuple[int, int, str, str | None, dict] | None:
        """(first, last, command, unit, detail) of the logged command run under this idempotency key, if any."""
        if self.KEY_WHERE:  # an indexed store (SQLite: ledger/chain.py KEY_BY_INDEX)
            rows = self._select("SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                                f"WHERE {self.KEY_WHERE} ORDER BY first_entry", (key,))
        else:
            rows = self._select("SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                                "WHERE detail LIKE ? ORDER BY first_entry", (f'%"key": "{key}"%',))
        for first, last, command, unit, detail in rows:  # LIKE's '_' matches any character: read it back
            if (found := json.loads(detail or "{}")).get("key") == key:
                return first, last, command, unit, found
        return None

    reads: Any = None  # while undo plans: what it reads, kept for ledger/undo_reads.py to verify

    def select_notifications(self, start: Any, limit: int, stop: Any = None, topics: Any = (), *,
                             inclusive_of_start: bool = True) -> Any:
        found = super().select_notifications(start, limit, stop, topics,  # type: ignore[misc]
                                             inclusive_of_start=inclusive_of_start)
        if self.reads is not None:
            self.reads.notifications(found)
        return found

    def select_events(self, originator_id: Any, *, gt: Any = None, lte: Any = None, desc: bool = False,
                      limit: Any = None) -> Any:
        found = super().select_events(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)  # type: ignore[misc]
        if self.reads is not None:
            self.reads.aggregate(originator_id, gt, lte, not desc and limit is None, found)
        return found

    def entries_of(self, aggregate_id: Any, low: int, high: int | None, before: int) -> list[int]:
        """The entries holding an aggregate's versions low..high (None: its newest), before entry `before`."""
        oid = self._stored_id(aggregate_id)
        rows = self._select(f"SELECT {self.id_column} FROM {self.events_table_name} WHERE originator_id = ? "
                            f"AND originator_version >= ? AND originator_version <= ? AND {self.id_column} < ?",
                            (oid, low, 2**62 if high is None else high, before))
        return [r[0] for r in rows]

    def entries_checked(self, entries: Sequence[int], chunk: int = 500) -> dict[int, tuple]:
        """Each of these entries as its own hash check needs it: (originator, version, topic, state, its
        hash, the chain's hash before it, and the command row starting there: last, command, unit,
        detail, or four None), by entry; an entry the store lacks is absent. (Every column named
        apart: PostgreSQL's rows come as dicts by name.)"""
        i = f"e.{self.id_column}"
        found: dict[int, tuple] = {}
        for at in range(0, len(entries), chunk):
            part = list(entries[at:at + chunk])
            marks = ", ".join("?" * len(part))
            rows = self._select(f"SELECT {i}, e.originator_id, e.originator_version, e.topic, e.state, h.hash AS own, "
                                f"(SELECT p.hash FROM ledger_chain p WHERE p.entry < {i} ORDER BY p.entry DESC "
                                "LIMIT 1) AS before, m.last_entry, m.command, m.unit, m.detail "
                                f"FROM {self.events_table_name} e LEFT JOIN ledger_chain h ON h.entry = {i} "
                                f"LEFT JOIN ledger_commands m ON m.first_entry = {i} WHERE {i} IN ({marks})",
                                tuple(part))
            found.update((r[0], tuple(r[1:])) for r in rows)
        return found

    def _stored_id(self, aggregate_id: Any) -> Any:
        """An aggregate id as this store keeps it (SQLite: the hex text; PostgreSQL: the UUID)."""
        if not isinstance(aggregate_id, UUID):
            aggregate_id = UUID(str(aggregate_id))
        return aggregate_id if self.id_column != "rowid" else aggregate_id.hex

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
        return v2_marker(self._select)

    def command_rows(self, first: int = 0, last: int = 2**62) -> dict[int, Command]:
        """Command-log rows starting in first..last, by first entry, as the chain hashes them."""
        return {r[0]: (r[1], r[2], r[3], r[4]) for r in self.command_rows_in_order(first, last)}

    def command_rows_in_order(self, first: int, last: int) -> list[tuple[int, int, str, str | None, str | None]]:
        """Command-log rows starting in first..last, in log order: (first, last, command, unit, detail as stored)."""
        return self._select("SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                            "WHERE first_entry >= ? AND first_entry <= ? ORDER BY first_entry", (first, last))

    def command_rows_from(self, entry: int, page: int = 100) -> Iterator[tuple[int, int, str, str | None, str | None]]:
        """Command-log rows starting at `entry` or after, in log order, a page at a time (the fields of
        `command_rows_in_order`)."""
        yield from self._batches("SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                                 "WHERE first_entry > ? AND first_entry <= ? ORDER BY first_entry LIMIT ?",
                                 entry - 1, 2**62, page)

    def command_rows_newest_first(self, page: int = 100) -> Iterator[tuple[int, int, str, str | None, str | None]]:
        """Command-log rows from the newest back, a page at a time (the same fields as `command_rows_in_order`)."""
        before = 2**62
        while rows := self._select("SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                                   "WHERE first_entry < ? ORDER BY first_entry DESC LIMIT ?", (before, page)):
            yield from rows
            before = rows[-1][0]

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

    def version_at(self, aggregate_id: UUID, entry: int) -> int | None:
        """The aggregate's version as the ledger stood after `entry` (None: not made by then)."""
        oid = aggregate_id if self.id_column != "rowid" else aggregate_id.hex
        rows = self._select(f"SELECT max(originator_version) FROM {self.events_table_name} "
                            f"WHERE originator_id = ? AND {self.id_column} <= ?", (oid, entry))
        return rows[0][0] if rows and rows[0][0] is not None else None

    def broken(self, entry: int, reason: str) -> "Break":
        return Break(entry, reason)

    def verify_all(self) -> "Break | None":
        """Recompute the whole chain, command log included (audit, rebuild), streamed: entries,
        hashes and command rows read together in batches, never held whole."""
        return self.verify_span(1, None)

    def verified_entries(self, verdict: list) -> Iterator[tuple[int, Any, int, str, bytes]]:
        """`verify_all` as a stream of the entries it verified, in order (see chain_verify.verified_rows):
        the first break, if any, lands in `verdict` and ends the stream."""
        end = self.stored_end()
        chained_between, stray_after = self._bounded(end)
        return verified_rows(self.stored_entries_with_hashes(1, end), chained_between, self.v2_from(),
                             stray_after, verdict)

    def verify_span(self, first: int, last: int | None) -> "Break | None":
        """`verify_all` over entries first..last only (None: to the end, with the checks of the
        chain's end), from the stored hash before `first` and the command open there: the whole
        chain checked as two spans at once gives the verdict checking it whole gives, since a fault
        in what the second span starts from is the first span's to find (ledger/chain_halves.py).
        To the end means to the end as it stood when the check began (`stored_end`): what another
        process commits meanwhile is not half read and called a break."""
        previous, open_until = (self.hash_of(first - 1), self.command_end(first - 1)) if first > 1 else (GENESIS, None)
        end = self.stored_end() if last is None else last
        chained_between, stray_after = self._bounded(end)
        return verify_stored(self.stored_entries_with_hashes(first, end), chained_between, self.v2_from(),
                             stray_after, after=first - 1, previous=previous, open_until=open_until, upto=last)

    def stored_end(self) -> int:
        """The newest entry the ledger, its chain or its command log names, read in one statement, so
        from one snapshot of all three (a command's entries, hashes and row are committed together).
        A check to the end reads up to here and no further: a writer committing while it reads adds
        only entries past it (stores number entries in commit order: SQLite has one writer at a
        time, eventsourcing's PostgreSQL recorder locks the table to insert), and a row that a
        forger added past the last entry still counts, being within it."""
        rows = self._select(f"SELECT max(n) FROM (SELECT max({self.id_column}) AS n FROM {self.events_table_name} "
                            "UNION ALL SELECT max(entry) AS n FROM ledger_chain "
                            "UNION ALL SELECT max(first_entry) AS n FROM ledger_commands) AS ends")
        return rows[0][0] if rows and rows[0][0] is not None else 0

    def _bounded(self, end: int) -> tuple[Callable[[int, int | None], int | None], Callable[[int], int | None]]:
        """The chain's end checks (`_chained_between`, `_stray_command`) within entries up to `end`."""
        def chained_between(after: int, before: int | None) -> int | None:
            return self._chained_between(after, end + 1 if before is None else min(before, end + 1))

        def stray_after(last: int) -> int | None:
            return self._stray_command(last, end)
        return chained_between, stray_after

    def _chained_between(self, after: int, before: int | None) -> int | None:
        """The first entry the chain lists after `after` and before `before` (None: at all)."""
        rows = self._select("SELECT min(entry) FROM ledger_chain WHERE entry > ? AND entry < ?",
                            (after, 2**62 if before is None else before))
        return rows[0][0] if rows and rows[0][0] is not None else None

    def _stray_command(self, last: int, end: int = 2**62) -> int | None:
        """The first command-log row (up to `end`) past the last entry, or at an entry the chain lacks."""
        rows = self._select("SELECT min(first_entry) FROM ledger_commands WHERE first_entry <= ? AND (first_entry > ? "
                            "OR first_entry NOT IN (SELECT entry FROM ledger_chain))", (end, last))
        return rows[0][0] if rows and rows[0][0] is not None else None

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

    def stored_entries(self, batch: int = 1000, last: int = 2**62) -> Iterator[tuple[int, Any, int, str, bytes]]:
        """Every stored entry up to `last` as it lies in the store, streamed in order (memory stays flat)."""
        i = self.id_column
        yield from self._batches(f"SELECT {i}, originator_id, originator_version, topic, state "
                                 f"FROM {self.events_table_name} WHERE {i} > ? AND {i} <= ? ORDER BY {i} LIMIT ?",
                                 0, last, batch)

    def stored_entries_with_hashes(self, first: int, last: int, batch: int = 1000) -> Iterator[tuple]:
        """Entries first..last with their chain hashes and, on a command's first entry, the command.

        Read a span of `batch` entry numbers at a time, each table bounded to it, not `LIMIT batch`
        rows: PostgreSQL planned the joined LIMIT query as hash joins over every later row of all three
        tables, then a sort, so each page cost more than the one before (100,000 entries: `audit
        --chain` 15.5 s, 1.2 s of it this process's); bounded, it merges three index scans (a page:
        175 ms -> 1.4 ms). Entries written meanwhile are read too, as with a LIMIT: the newest entry is
        asked again when the span reaches it."""
        i = f"e.{self.id_column}"
        sql = (f"SELECT {i}, e.originator_id, e.originator_version, e.topic, e.state, h.hash, "
               "m.last_entry, m.command, m.unit, m.detail "
               f"FROM {self.events_table_name} e "
               f"LEFT JOIN ledger_chain h ON h.entry = {i} AND h.entry > ? AND h.entry <= ? "
               f"LEFT JOIN ledger_commands m ON m.first_entry = {i} AND m.first_entry > ? AND m.first_entry <= ? "
               f"WHERE {i} > ? AND {i} <= ? ORDER BY {i}")
        after = first - 1
        while after < (newest := min(last, self.max_notification_id() or 0)):
            while after < newest:
                upto = min(after + batch, newest)
                yield from self._select(sql, (after, upto) * 3)
                after = upto

    def _batches(self, sql: str, after: int, last: int, batch: int) -> Iterator[tuple]:
        while after < last:
            rows = self._select(sql, (after, last, batch))
            yield from rows
            if len(rows) < batch:
                return
            after = rows[-1][0]


