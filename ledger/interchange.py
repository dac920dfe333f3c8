"""JSON Lines: the ledger's interchange format, written and read one entry at a time.

A header line names the campaign and where the range starts; each entry line carries
its number, time, type, data and hash (and, on the first entry of each command, the
command that wrote it); a closing line counts the entries and repeats the last hash.
Import checks every line against the hash chain before it writes anything, so a file
that was truncated, reordered or edited is refused by the line that gives it away.
"""
from __future__ import annotations

import functools
import json
import os
from typing import Any, Callable, Iterator
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from ledger.chain import GENESIS, ChainQueries, chained, link_hash
from ledger.errors import Unusable

FORMAT = "campaign-ledger/1"
BATCH = 1000


def _state_fields(state: bytes) -> dict[str, Any]:
    """Readable data when the stored state is JSON (it is, unless a cipher or compressor is on)."""
    try:
        data = json.loads(bytes(state).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        import base64
        return {"state_base64": base64.b64encode(bytes(state)).decode()}
    if _encode(data) != bytes(state):
        import base64
        return {"state_base64": base64.b64encode(bytes(state)).decode()}
    return {"data": data}


def _encode(data: Any) -> bytes:
    """Exactly as eventsourcing's JSON transcoder writes state, so hashes survive the trip."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def export_lines(app: Any, first: int = 1, last: int | None = None,
                 progress: Callable[[int], None] | None = None, anchor: str | None = None) -> Iterator[str]:
    recorder = _chained(app)
    last = last or recorder.max_notification_id() or 0
    chain_before = recorder.hash_of(first - 1) if first > 1 else GENESIS
    campaign = app.campaign()
    yield json.dumps({"format": FORMAT, "campaign": campaign.name, "ruleset": campaign.ruleset,
                      "rules_version": campaign.rules_version, "first": first, "previous_hash": chain_before,
                      "chain_v2_from": recorder.v2_from()})
    count, last_hash = 0, chain_before
    for entry, oid, version, topic, state, hash_, *command in recorder.stored_entries_with_hashes(first, last, BATCH):
        line: dict[str, Any] = {"entry": entry}
        fields = _state_fields(state)
        stamp = fields.get("data", {}).get("timestamp", {})
        line.update(time=stamp.get("_data_") if isinstance(stamp, dict) else None, type=topic,
                    aggregate=str(oid if isinstance(oid, UUID) else UUID(str(oid))), version=version)
        line.update(fields)
        line["hash"] = hash_
        end, name, unit, detail = command
        if name is not None:
            line["command"] = {"name": name, "unit": unit, "detail": json.loads(detail or "{}"), "last": end}
        count, last_hash = count + 1, hash_
        yield json.dumps(line, ensure_ascii=False)
        if progress and count % BATCH == 0:
            progress(BATCH)
    if progress:
        progress(count % BATCH)
    yield json.dumps({"end": True, "entries": count, "last_hash": last_hash, **({"anchor": anchor} if anchor else {})})


def _chained(app: Any) -> ChainQueries:
    return chained(app.recorder)


# --- import -------------------------------------------------------------------------------------

def check(lines: Iterator[str]) -> int:
    """Walk a whole file against the chain; return its entry count or refuse at the first bad line."""
    header: dict[str, Any] | None = None
    previous, expected, number, end = GENESIS, 1, 0, None
    versions: dict[str, int] = {}  # each aggregate's last version: its entries must follow on one by one
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        if end is not None:
            raise Unusable(f"Line {number} comes after the closing line; the file was edited.")
        row = _json(raw, number)
        if header is None:
            header = _header(row, number)
            continue
        if row.get("end") is True:
            end = row
            continue
        entry = row.get("entry")
        _check_shape(row, number)
        if entry != expected:
            raise Unusable(f"Line {number} holds entry #{entry} where #{expected} was expected: "
                           "entries are missing or out of order.")
        _check_version(row, number, versions)
        if link_hash(previous, entry, row.get("aggregate", ""), row.get("version", 0), row.get("type", ""),
                     _state_of(row, number), _command_of(row), header.get("chain_v2_from")) != row.get("hash"):
            raise Unusable(f"Line {number} (entry #{entry}) does not match its hash: it was edited.")
        previous, expected = row["hash"], expected + 1
    if header is None:
        raise Unusable("The file is empty.")
    if end is None:
        raise Unusable(f"The file stops at line {number} without its closing line: it is truncated.")
    if end.get("entries") != expected - 1 or end.get("last_hash") != previous:
        raise Unusable(f"The closing line (line {number}) does not match the entries before it.")
    return expected - 1


def _command_of(row: dict[str, Any]) -> tuple | None:
    """The command-log row an entry line carries, as chain version 2 hashes it."""
    c = row.get("command")
    return None if not isinstance(c, dict) else (c.get("last"), c.get("name"), c.get("unit"), c.get("detail"))


def _check_shape(row: dict[str, Any], number: int) -> None:
    """Only the program's own event types, a real aggregate id and version: nothing in the file picks code to run."""
    if row.get("type") not in known_topics():
        raise Unusable(f"Line {number} holds an event type this program does not know ({str(row.get('type'))[:80]}); "
                       "nothing was imported.")
    try:
        UUID(str(row.get("aggregate")))
    except ValueError:
        raise Unusable(f"Line {number} has no valid aggregate id; the file is damaged.") from None
    if type(row.get("version")) is not int or row["version"] < 1:
        raise Unusable(f"Line {number} has no valid aggregate version; the file is damaged.")


def _check_version(row: dict[str, Any], number: int, versions: dict[str, int]) -> None:
    aggregate = str(UUID(str(row["aggregate"])))
    wanted = versions.get(aggregate, 0) + 1
    if row["version"] != wanted:
        raise Unusable(f"Line {number} holds version {row['version']} of its record where {wanted} was expected; "
                       "nothing was imported.")
    versions[aggregate] = wanted


@functools.lru_cache(maxsize=1)
def known_topics() -> frozenset[str]:
    """The allow-list: the topic of every event class the ledger's aggregates define (and inherit)."""
    from eventsourcing.domain import DomainEvent
    from eventsourcing.utils import get_topic

    import ledger.application  # noqa: F401  (defines every aggregate)
    from ledger import rulesets
    from ledger.reversible import Reversible

    homes = ("ledger.", *(f"{r.package}." for r in rulesets.all_rulesets()))  # the core's and each ruleset's
    topics = set()
    for aggregate in [Reversible, *_subclasses(Reversible)]:
        for name in dir(aggregate):
            value = getattr(aggregate, name)
            if isinstance(value, type) and issubclass(value, DomainEvent) and value.__module__.startswith(homes):
                topics.add(get_topic(value))  # snapshots (eventsourcing's own class) never travel in an export
    return frozenset(topics | set(rulesets.moved_topics()))  # and the names older ledgers gave them


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _json(raw: str, number: int) -> dict[str, Any]:
    try:
        row = json.loads(raw)
    except RecursionError:
        raise Unusable(f"Line {number} is nested too deeply to be an entry; the file is damaged.") from None
    except ValueError:
        raise Unusable(f"Line {number} is not JSON; the file is damaged.") from None
    if not isinstance(row, dict):
        raise Unusable(f"Line {number} is not an entry; the file is damaged.")
    return row


def _header(row: dict[str, Any], number: int) -> dict[str, Any]:
    if row.get("format") != FORMAT:
        raise Unusable(f"Line {number} is not a campaign ledger export header.")
    if row.get("first") != 1 or row.get("previous_hash") != GENESIS:
        raise Unusable(f"This file starts at entry #{row.get('first')}; only a whole-campaign export "
                       "can be imported.")
    return row


def _state_of(row: dict[str, Any], number: int) -> bytes:
    if "data" in row:
        return _encode(row["data"])
    if "state_base64" in row:
        import base64
        return base64.b64decode(row["state_base64"])
    raise Unusable(f"Line {number} has no data.")


def write(app: Any, lines: Iterator[str], progress: Callable[[int], None] | None = None, total: int = 0,
          recorder: Any = None) -> int:
    """Append a checked file's entries to an empty ledger, a thousand at a time, commands kept
    (to `recorder` when given: PostgreSQL's import transaction, see import_postgres.py).

    The copy keeps the source's chain version marker (a file exported before chain version 2
    stays version 1 throughout, entry `total` included), so its hashes and anchors still hold.
    """
    recorder = recorder or _chained(app)
    v2_from = total + 1
    if recorder.max_notification_id():
        raise Unusable("Import writes into a new, empty campaign file.")
    batch: list[StoredEvent] = []
    commands: list[list[Any]] = []  # [start offset, end offset, name, unit, detail] within the batch
    written = 0

    def flush() -> None:
        nonlocal written
        if batch:
            recorder.insert_events(batch, commands=[tuple(c) for c in commands], chain_v2_from=v2_from)
            written += len(batch)
            if progress:
                progress(len(batch))
            batch.clear()
            commands.clear()
    for number, raw in enumerate(lines, 1):
        row = json.loads(raw) if raw.strip() else {}
        if row.get("format") == FORMAT:
            v2_from = row.get("chain_v2_from") or v2_from
        if "entry" not in row:
            continue
        if "command" in row:
            if len(batch) >= BATCH:
                flush()
            c = row["command"]
            commands.append([len(batch), len(batch), c.get("name", "import"), c.get("unit"), c.get("detail")])
        elif not commands:  # entries before any command (a file from elsewhere): one group
            commands.append([len(batch), len(batch), "import", None, None])
        commands[-1][1] = len(batch)
        batch.append(StoredEvent(UUID(row["aggregate"]), row["version"], row["type"], _state_of(row, number)))
    flush()
    return written


def import_file(open_ledger: Callable[[str], Any], path: str, target: str,
                progress: Callable[[int], None] | None = None,
                replay: Callable[[Any, str], None] | None = None) -> dict[str, Any]:
    """Check the whole file before writing anything; then write a new campaign.

    SQLite: into a scratch file moved into place at the end. PostgreSQL (from the
    environment): checked in the scratch file, then written to its ledger, which must be empty,
    in one transaction (import_postgres.py); the read tables go to `target`.
    """
    if os.path.lexists(target):
        raise Unusable(f"{target} already exists; import writes a new campaign file.")
    count = check(_lines(path))
    scratch = target + ".importing"
    _remove(scratch)
    app = None
    try:
        app = open_ledger(scratch, store="eventsourcing.sqlite")
        written = write(app, _lines(path), progress, count)
        if replay:  # every entry through its aggregate and the read tables (projections.runner.replay_check)
            replay(app, scratch)
        _snapshot_long_aggregates(app)
        if os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") != "eventsourcing.sqlite":
            from ledger import import_postgres  # checked; now the same lines go to the server's ledger
            written = import_postgres.write_all(open_ledger(target), app, _lines(path), count)
            app.close()
            _remove(scratch)
        else:
            app.close()
            os.replace(scratch, target)
    except BaseException:
        if app is not None:
            app.close()
        _remove(scratch)
        raise
    return {"entries": written, "entry_count": written, "checked": count}  # `entries` (a count) kept for old scripts


def _remove(scratch: str) -> None:
    for leftover in (scratch, scratch + "-wal", scratch + "-shm"):
        if os.path.exists(leftover):
            os.remove(leftover)


def _lines(path: str) -> Iterator[str]:
    """The file's lines as text, refusing the first one that is not UTF-8 by its number."""
    try:
        f = open(path, "rb")
    except OSError as e:
        raise Unusable(f"Cannot read {path}: {e.strerror}.") from None
    with f:
        for number, raw in enumerate(f, 1):
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                raise Unusable(f"Line {number} is not UTF-8 text; the file is damaged.") from None


SNAPSHOT_STEP = 1000  # each snapshot starts from the one before, so memory stays flat


def _snapshot_long_aggregates(app: Any) -> None:
    """Snapshot what a cold process would otherwise replay from the start, a step at a time."""
    from ledger.application import SNAPSHOT_EVERY
    for aggregate_id, last in app.recorder.long_aggregates(SNAPSHOT_EVERY):
        for version in [*range(SNAPSHOT_STEP, last, SNAPSHOT_STEP), last]:
            app.take_snapshot(aggregate_id, version=version)
