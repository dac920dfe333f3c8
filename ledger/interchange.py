"""JSON Lines: the ledger's interchange format, written and read one entry at a time.

A header line names the campaign and where the range starts; each entry line carries
its number, time, type, data and hash (and, on the first entry of each command, the
command that wrote it); a closing line counts the entries and repeats the last hash.
Import checks every line against the hash chain as it writes into a scratch file, kept only
once every line held, so a file that was truncated, reordered or edited is refused by the
line that gives it away and leaves nothing behind.
"""
from __future__ import annotations

import json
import os
from typing import Any, Callable, Iterator
from uuid import UUID

from campaign_ledger.ledger.chain import GENESIS, ChainQueries, chained
from campaign_ledger.ledger.errors import Unusable
from campaign_ledger.ledger.interchange_check import DATA, FORMAT, check, encode, known_topics, state_of  # noqa: F401  (names callers know)

_encode = encode  # the name tests and older callers know
BATCH = 1000  # entries per read of an export, per write of an import to PostgreSQL


def _state_fields(state: bytes) -> dict[str, Any]:
    """Readable data when the stored state is JSON (it is, unless a cipher or compressor is on)."""
    try:
        data = json.loads(bytes(state).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        import base64
        return {"state_base64": base64.b64encode(bytes(state)).decode()}
    if encode(data) != bytes(state):
        import base64
        return {"state_base64": base64.b64encode(bytes(state)).decode()}
    return {"data": data}


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
        line.update({k: v for k, v in fields.items() if k != "data"})
        line["hash"] = hash_
        end, name, unit, detail = command
        if name is not None:
            line["command"] = {"name": name, "unit": unit, "detail": json.loads(detail or "{}"), "last": end}
        count, last_hash = count + 1, hash_
        text = json.dumps(line, ensure_ascii=False)
        # the data last, as its stored bytes (the canonical JSON `_state_fields` found them to be):
        # import hashes the bytes it reads there, without encoding the data again (interchange_check)
        yield f"{text[:-1]}{DATA}{bytes(state).decode('utf-8')}}}" if "data" in fields else text
        if progress and count % BATCH == 0:
            progress(BATCH)
    if progress:
        progress(count % BATCH)
    yield json.dumps({"end": True, "entries": count, "last_hash": last_hash, **({"anchor": anchor} if anchor else {})})


def _chained(app: Any) -> ChainQueries:
    return chained(app.recorder)


# --- import (one pass: ledger/import_load.py) -------------------------------------------------

def import_file(open_ledger: Callable[[str], Any], path: str, target: str,
                progress: Callable[[int], None] | None, replay: Callable[..., None]) -> dict[str, Any]:
    """Check the whole file while writing it into a scratch file, kept only if every line holds.

    One pass (ledger/import_load.py) decodes each line once, checks it against the chain and
    writes it; `replay` then builds the read tables from the scratch ledger
    (projections.import_replay.replay_check), each event it maps played through its aggregate. SQLite: the scratch file is moved into place
    at the end. PostgreSQL (from the environment): then written to its ledger, which must be
    empty, in one transaction (import_postgres.py); the read tables go to `target`.
    """
    from campaign_ledger.ledger import import_load

    if os.path.lexists(target):
        raise Unusable(f"{target} already exists; import writes a new campaign file.")
    scratch = target + ".importing"
    _remove(scratch)
    app = None
    try:
        app = open_ledger(scratch, store="eventsourcing.sqlite")
        count, versions = import_load.load(app, _lines(path), progress)
        written = count
        # the read tables, by the rebuild path, and the aggregates with them (their snapshots written as it
        # goes): an entry either cannot take is refused by its number
        played = import_load.Played(app, versions)
        replay(app, scratch, progress, played.see, played.write)
        played.snapshots()
        if os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") != "eventsourcing.sqlite":
            from campaign_ledger.ledger import import_postgres  # checked; now the scratch ledger's rows go to the server's
            written = import_postgres.write_all(open_ledger(target), app, count, BATCH)  # BATCH read now: tests make it small
            app.close()
            _remove(scratch)
        else:
            app.close()
            _durable(scratch)
            os.replace(scratch, target)
    except BaseException:
        if app is not None:
            app.close()
        _remove(scratch)
        raise
    return {"entries": written, "entry_count": written, "checked": count}  # `entries` (a count) kept for old scripts


def _durable(scratch: str) -> None:
    """The whole scratch file on the disk before it takes the campaign's name: none of its commits
    waited for the disk (import_load.unsynced), and closing it moved its write-ahead log into it."""
    fd = os.open(scratch, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(scratch: str) -> None:
    for leftover in (scratch, scratch + "-wal", scratch + "-shm"):
        if os.path.exists(leftover):
            os.remove(leftover)


LINE_MAX = 16 * 2**20  # bytes: no entry the program writes comes near (every text in it is capped: ledger/values.py)


def _lines(path: str) -> Iterator[str]:
    """The file's lines as text, each read only up to LINE_MAX (a file with no line breaks, such as
    /dev/zero, is never read whole into memory), refusing the first one too long or not UTF-8 by
    its number."""
    try:
        f = open(path, "rb")
    except OSError as e:
        raise Unusable(f"Cannot read {path}: {e.strerror}.") from None
    with f:
        number = 0
        while raw := f.readline(LINE_MAX + 1):
            number += 1
            if len(raw) > LINE_MAX and not raw.endswith(b"\n"):
                raise Unusable(f"Line {number} is longer than {LINE_MAX // 2**20} MiB, more than any entry the "
                               "program writes; the file is damaged.")
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                raise Unusable(f"Line {number} is not UTF-8 text; the file is damaged.") from None
