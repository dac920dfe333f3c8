"""Import's pass over a JSON Lines file into an empty scratch SQLite ledger.

Each line is decoded once, checked against the hash chain (interchange_check.Checker) and written
with the hash it was checked against (not hashed a second time). Then the read tables are built
by the rebuild path, and each event it maps is played through its aggregate on the way (`Played`,
the rebuild's `observe`: one mapping an entry for both), so a file whose hashes were recomputed
over broken data is refused by the entry that does not replay. Snapshots of long aggregates are
taken on the way, from the aggregates in memory, and written after each batch on the rebuild's
own connection, in its transaction (`Played.write`); an aggregate is let go after its last entry.
The scratch file is thrown away by the caller when any line is refused, so a refusal leaves
nothing behind; it is committed every COMMIT_EVERY batches only so that its write-ahead log
stays small on a million entries.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Iterable
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from campaign_ledger.ledger.chain_hash import sign
from campaign_ledger.ledger.chain_queries import V2_KEY
from campaign_ledger.ledger.errors import BadInput, Unusable
from campaign_ledger.ledger.interchange_check import IDS_KEPT, Checker
from campaign_ledger.ledger.interchange_head import stored
from campaign_ledger.ledger.topic_guard import check_data

BATCH = 1000          # rows per executemany (and per progress report)
COMMIT_EVERY = 20     # batches per commit: the write-ahead log stays small (the scratch file is the atomic unit)
SNAPSHOT_STEP = 1000  # long aggregates are snapshotted at every 1000th version and at their last
CHANGED = ("Line {} holds a command that does not match the entries it covers (its last entry, name or "
           "detail); the file was edited.")


def load(app: Any, lines: Iterable[str],
         progress: Callable[[int], None] | None = None) -> tuple[int, dict[UUID, int]]:
    """Check and write every line of a whole-campaign export: the entry count, and each aggregate's last version."""
    checker = Checker()
    recorder = app.recorder
    with recorder.datastore.transaction(commit=True) as c:
        c.execute(f"SELECT 1 FROM {recorder.events_table_name} LIMIT 1")
        if c.fetchone():
            raise Unusable("Import writes into a new, empty campaign file.")
        unsynced(c)
        rows = Rows(c, recorder.insert_events_statement, progress)
        group: list[Any] | None = None  # the open command: [first entry, row as hashed, name, unit, detail, line]
        for number, raw in enumerate(lines, 1):
            checked = checker.line(raw, number)
            if checked is None:
                continue
            row, aggregate_id, state, command = checked
            entry = row["entry"]
            if command is not None or group is None:
                if group is not None:
                    rows.command(group, entry - 1, checker.v2_from())
                c_ = row.get("command") if isinstance(row.get("command"), dict) else {}
                # entries the source filed under no command (a version-1 file's first): the import's own row, by its channel
                made = {} if c_ else {"detail": {"channel": "import"}}
                group = [entry, command, c_.get("name", "import"), c_.get("unit"), {**c_, **made}.get("detail"), number]
            rows.entry(entry, aggregate_id, row["version"], row["type"], state, row["hash"])
        count = checker.finish()
        if group is not None:
            rows.command(group, count, checker.v2_from())
        rows.flush()
        if count:  # the source's chain version marker: a version-1 file stays version 1 throughout
            c.execute("INSERT INTO ledger_meta (key, value) VALUES (?, ?)", (V2_KEY, str(checker.v2_from() or count + 1)))
    return count, checker.versions


def unsynced(c: Any) -> None:
    """No commit of the scratch file waits for the disk: it is thrown away unless whole, and made
    durable once, when it is (interchange.import_file). The safety level changes only between
    transactions: the one just begun (nothing written yet) is ended and begun again around it."""
    c.execute("COMMIT")
    c.execute("PRAGMA synchronous = OFF")
    c.execute("BEGIN")


class Rows:
    """The ledger's rows of one import, written a batch at a time on the import's cursor."""

    def __init__(self, c: Any, insert_events: str, progress: Callable[[int], None] | None) -> None:
        self.c, self.insert_events, self.progress = c, insert_events, progress
        self.events: list[tuple] = []
        self.chain: list[tuple] = []
        self.commands: list[tuple] = []
        self.keys: set[str] = set()
        self.signing = bool(os.environ.get("CAMPAIGN_KEY"))
        self.flushed = 0
        self.hexes: dict[int, str] = {}  # each aggregate id as stored, by its number (UUID.hex formats it each time)

    def entry(self, entry: int, aggregate_id: UUID, version: int, topic: str, state: bytes, hash_: str) -> None:
        hex_ = self.hexes.get(aggregate_id.int)
        if hex_ is None:
            if len(self.hexes) >= IDS_KEPT:
                self.hexes.clear()
            hex_ = self.hexes[aggregate_id.int] = aggregate_id.hex
        self.events.append((hex_, version, topic, state))
        self.chain.append((entry, hash_))
        if len(self.events) >= BATCH:
            self.flush()

    def command(self, group: list[Any], last: int, v2_from: int | None) -> None:
        """The command-log row of entries group[0]..last. From chain version 2 on, an entry's hash covers
        the row that starts there: the row kept must be the row hashed, or the chain would not hold."""
        first, hashed, name, unit, detail, number = group
        if not isinstance(name, str) or not isinstance(unit, (str, type(None))) \
                or not isinstance(detail, (dict, type(None))):
            raise Unusable(f"Line {number} holds a command this program never writes (its name, unit or "
                           "detail); the file is damaged.")
        if v2_from is not None and first >= v2_from:
            if hashed is None or hashed != (last, name, unit, detail):
                raise Unusable(CHANGED.format(number))
        key = detail.get("key") if isinstance(detail, dict) else None
        if key:
            if key in self.keys:
                raise Unusable(f"Line {number} repeats the command key {key}; the file was edited.")
            self.keys.add(key)
        self.commands.append((first, last, name, unit, stored(detail)))

    def flush(self) -> None:
        c = self.c
        c.executemany(self.insert_events, self.events)
        c.executemany("INSERT INTO ledger_chain (entry, hash) VALUES (?, ?)", self.chain)
        c.executemany("INSERT INTO ledger_commands VALUES (?, ?, ?, ?, ?)", self.commands)
        if self.signing:
            c.executemany("INSERT INTO ledger_signatures (entry, mac) VALUES (?, ?)",
                          [(entry, sign(hash_)) for entry, hash_ in self.chain])
        if self.progress and self.events:
            self.progress(len(self.events))
        self.flushed += 1
        if self.flushed % COMMIT_EVERY == 0:  # a refusal later still discards the whole scratch file
            c.execute("COMMIT")
            c.execute("BEGIN")
        self.events.clear()
        self.chain.clear()
        self.commands.clear()


class Played:
    """Every aggregate, each entry played through it in order (what a cold load would do), as the
    rebuild that builds the read tables maps them (`see` is its `observe`). An aggregate is let go
    once its last entry (`versions`, from the load) is played, its last snapshot taken then: a
    campaign's resolved Challenges are not held to the end (memory stays flat however long it is)."""

    def __init__(self, app: Any, versions: dict[UUID, int]) -> None:
        self.app = app
        # by each id's number: a UUID hashes in Python, three times an entry here (with the check in `see`,
        # 0.47 -> 0.41 s of playing the 100,000-entry campaign)
        self.versions = {aggregate_id.int: version for aggregate_id, version in versions.items()}
        self.live: dict[int, Any] = {}
        self.taken: list[StoredEvent] = []
        self.written = 0

    def see(self, entry: int, event: Any) -> None:
        """The entry's event through its aggregate (an error names the entry: the rebuild refuses it)."""
        key, version, data = event.originator_id.int, event.originator_version, event.__dict__
        # its data named no foreign code when the line was read, unless it came as bytes (state_base64): checked
        # again as decoded, before playing it resolves the aggregate it names (only such data are checked)
        if "originator_topic" in data or "created" in data:
            check_data(None, data, f"Entry #{entry}")
        aggregate = event.mutate(self.live.get(key))
        self.live[key] = aggregate
        if aggregate is None:
            return
        if version % SNAPSHOT_STEP == 0:
            self.take(aggregate)
        if version == self.versions.get(key):  # its last entry: nothing more will change it
            self._last(aggregate, version)
            del self.live[key]

    def _last(self, aggregate: Any, version: int) -> None:
        """A long aggregate's snapshot at its last version (at a 1000th it was taken already)."""
        from campaign_ledger.ledger.application import SNAPSHOT_EVERY

        if version >= SNAPSHOT_EVERY and version % SNAPSHOT_STEP:
            self.take(aggregate)

    def take(self, aggregate: Any) -> None:
        """A snapshot as Application.take_snapshot makes one, stored at once (later events change the aggregate)."""
        snapshot_class = getattr(type(aggregate), "Snapshot", type(self.app).snapshot_class)
        self.taken.append(self.app.snapshots.mapper.to_stored_event(snapshot_class.take(aggregate)))

    def write(self, conn: Any) -> None:
        """The snapshots taken so far, written on `conn` (the rebuild's own connection to the scratch
        file, inside its transaction, after each batch: one per long aggregate held to the end was
        6,000 at a million entries) and let go."""
        if self.taken:
            conn.executemany(self.app.snapshots.recorder.insert_events_statement, self._rows())
            self.written += len(self.taken)
            self.taken.clear()

    def snapshots(self) -> int:
        """Every aggregate of at least SNAPSHOT_EVERY events, at every 1000th version and its last,
        written to the scratch ledger (those `write` has not written yet); how many in all."""
        with self.app.recorder.datastore.transaction(commit=True) as c:
            c.executemany(self.app.snapshots.recorder.insert_events_statement, self._rows())
        self.written += len(self.taken)
        self.taken.clear()
        return self.written

    def _rows(self) -> list[tuple]:
        return [(s.originator_id.hex, s.originator_version, s.topic, s.state) for s in self.taken]

