"""Failures no command foresaw, in the GM's words: a full disk, a damaged file, read-only media, a
missing folder, an unreachable server; each says what was recorded and how to go on, and has its own
rule id (the `rule` of a CampaignError, and of --json's refusal). ledger/storage_faults.py tells which
failure it is. What a call knows of itself (its file, its key, the entries it recorded) comes as
`facts`, a mapping with the keys "db", "key_used", "recorded" and "stopped" (each optional): the
library's call and the CLI's context both hold them."""
from __future__ import annotations

import os
from typing import Any, Iterator, Mapping, NamedTuple

from campaign_ledger.ledger import storage_faults

# Rule ids (--json's "rule") of the failures named here.
DISK_FULL = "disk-full"  # no room on the disk, or the file reached the process's file-size limit
DISK_ERROR = "disk-error"  # a disk I/O error that is neither (a failing disk?)
DAMAGED_FILE = "damaged-file"  # SQLite cannot read the file's pages (truncated, overwritten)
READ_ONLY_MEDIA = "read-only-media"  # the same id as the refusal's sentence (campaign_ledger/refusals.py)
NO_FOLDER = "no-such-folder"  # --db names a file in a folder that does not exist
SERVER_UNREACHABLE = "server-unreachable"  # the PostgreSQL ledger's server cannot be reached
FAILED = "failed"  # any other failure outside the rules (the PostgreSQL client not installed, the unforeseen)
RULES = (DISK_FULL, DISK_ERROR, DAMAGED_FILE, READ_ONLY_MEDIA, NO_FOLDER, SERVER_UNREACHABLE, FAILED)

ROOM = 1 << 20  # bytes: a disk I/O error with less free than this is a full disk (SQLite keeps no errno)


Facts = Mapping[str, Any]


class Refusal(NamedTuple):
    """A failure named: the GM's line, its code and its rule (errors.py raises it as a CampaignError)."""

    message: str
    code: int
    rule: str


def refusal(facts: Facts, e: BaseException) -> Refusal | None:
    """The failure behind `e` as one refusal line (with its rule id), or None when it is none of these."""
    server = _unreachable(e, facts)
    if server:
        return Refusal(server, 1, SERVER_UNREACHABLE)
    missing = _missing_client(e)
    if missing:
        return Refusal(missing, 1, FAILED)
    table = _missing_table(e)
    if table:
        from campaign_ledger.projections.schema_repair import missing_message

        return Refusal(missing_message([table]), 1, "unusable")
    unreadable = _unreadable_entry(facts, e)
    if unreadable:
        return Refusal(unreadable, 1, DAMAGED_FILE)
    found = _storage(facts, e)
    return Refusal(*found) if found else None


def _missing_table(e: BaseException) -> str | None:
    """A read table dropped from the file (by hand, a tool): the one every command then trips on."""
    import sqlite3

    for cause in _causes(e):
        text = str(cause)
        if isinstance(cause, sqlite3.OperationalError) and text.startswith("no such table: "):
            table = text.removeprefix("no such table: ").strip()
            return None if table.startswith(("stored_", "ledger_")) else table
    return None


def _unreadable_entry(obj: Facts, e: BaseException) -> str | None:
    """An entry whose stored state no longer decodes (edited outside the program, hashes recomputed
    or not, or a damaged page): named as such, not as a failure of the program."""
    cause = storage_faults.unreadable_entry(e)
    if cause is None:
        return None
    db = obj.get("db") or "the campaign file"
    return (f"{db} holds an entry that cannot be read ({cause}): the file was edited outside the program or "
            f"is damaged; {_recorded(obj, None, 'it is restored')}. `campaign audit` names the entry; restore the file from a backup copy, or import the campaign's latest JSON Lines export "
            "into a new file (`campaign --db copy.db import heist.jsonl`).")


def read_only_media(facts: Facts) -> Refusal:
    """The refusal of a write to a file that cannot be written, before anything is tried."""
    import errno

    found = _storage(facts, OSError(errno.EROFS, "read-only file system"))
    return Refusal(*found) if found else Refusal("read-only", 1, READ_ONLY_MEDIA)


def server_message(e: BaseException) -> str | None:
    """An unreachable PostgreSQL ledger, or no PostgreSQL client library in this installation."""
    return _unreachable(e, {}) or _missing_client(e)


def _storage(obj: Facts, e: BaseException) -> tuple[str, int, str] | None:
    """(line, exit code, rule) of a failure of the campaign file's storage, or None."""
    kind = storage_faults.kind_of(e)
    if kind is None or kind == storage_faults.SERVER:
        return None
    db = obj.get("db") or "the campaign file"
    folder = os.path.dirname(os.path.abspath(db))
    if kind == storage_faults.CANNOT_OPEN and not os.path.isdir(folder):
        return _no_folder(os.path.dirname(db) or "."), 1, NO_FOLDER
    if kind == storage_faults.READ_ONLY or (kind == storage_faults.CANNOT_OPEN and not os.access(folder, os.W_OK)):
        return (f"{db} is on read-only media (or is read-only) and cannot be opened for writing; "
                f"{_recorded(obj, 'copy it to a writable folder and run it there')}."), 1, READ_ONLY_MEDIA
    if kind == storage_faults.DAMAGED:
        return _damaged(db, obj, e), 1, DAMAGED_FILE
    if kind in (storage_faults.FULL, storage_faults.IO):
        full = _full(obj, db, folder, kind)
        if full:
            return full, 1, DISK_FULL
    if kind == storage_faults.IO:
        return (f"a disk I/O error on {db} (a failing disk or media removed?); "
                f"{_recorded(obj, 'check the disk and run it again')}."), 1, DISK_ERROR
    return None


def _full(obj: Facts, db: str, folder: str, kind: str) -> str | None:
    """A full disk, named as one: the campaign file's, or the scratch folder's (an audit's copy); or
    the file-size limit this process may write (`ulimit -f`); None when a disk I/O error is neither."""
    import tempfile

    limit = _size_limit()
    if limit is not None and _largest(db) + ROOM >= limit:
        return (f"there is no room for {db}: it reached this process's file-size limit (`ulimit -f`, "
                f"{limit // 1024} KiB); {_recorded(obj, 'raise the limit (`ulimit -f unlimited`) and run it again')}.")
    scratch = tempfile.gettempdir()
    if _free(folder) >= ROOM and _free(scratch) < ROOM:
        return (f"the disk holding the temporary folder {scratch} (this command's scratch copies) is full; "
                f"{_recorded(obj, 'free some space there (or set TMPDIR to another folder) and run it again')}.")
    if kind == storage_faults.FULL or _free(folder) < ROOM:
        return f"the disk holding {db} is full: {_recorded(obj, 'free some space and run it again')}."
    return None


def _damaged(db: str, obj: Facts, e: BaseException) -> str:
    """A file SQLite cannot read: it says so, and how to get the campaign back."""
    why = next((str(x) for x in storage_faults.causes(e) if type(x).__module__ == "sqlite3"), "") or str(e)
    return (f"{db} is damaged ({why}): part of the file cannot be read, so no command can use it; "
            f"{_recorded(obj, None, 'it is restored')}. Restore it from a backup copy of the file, or import the campaign's "
            "latest JSON Lines export into a new file (`campaign --db copy.db import heist.jsonl`).")


def _no_folder(folder: str) -> str:
    """--db in a folder that does not exist (named as the GM wrote it), or under a file."""
    parent = folder
    while parent and not os.path.lexists(parent) and os.path.dirname(parent) != parent:
        parent = os.path.dirname(parent)
    if parent and os.path.lexists(parent) and not os.path.isdir(parent):
        return f"{parent} is a file, not a folder, so no campaign file can be made under it; choose another --db."
    return (f"the folder {folder} does not exist; create it first (`mkdir -p {folder}`) or choose another --db. "
            "Nothing was recorded.")


def _recorded(obj: Facts, then: str | None, until: str = "there is room") -> str:
    """What of the command is in the ledger, and how to go on (`then`) without recording it twice."""
    entries = obj.get("recorded") or []
    key = obj.get("key_used")
    if obj.get("stopped"):  # a command of many writes (the demo) says itself what it leaves
        return obj["stopped"]
    if entries:
        return (f"the command was recorded (entries #{entries[0]}-#{entries[-1]}) but the read tables are behind; "
                f"once {until}, any command catches them up, and a retry with --key {key} appends nothing")
    if then is None:
        return "nothing was recorded"
    retry = f" with --key {key} (it is then never recorded twice)" if key else ""
    return f"nothing of this command was recorded; {then}{retry}"


def _size_limit() -> int | None:
    """The most bytes this process may write to a file (`ulimit -f`), or None when unlimited."""
    try:
        import resource
    except ImportError:  # not on this platform
        return None
    soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def _largest(db: str) -> int:
    """The size of the campaign file or its log, whichever is larger (what reached a size limit)."""
    sizes = [os.path.getsize(p) for p in (db, db + "-wal", db + "-journal") if os.path.isfile(p)]
    return max(sizes, default=0)


def _free(folder: str) -> int:
    import shutil
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return ROOM  # cannot tell: not called full


def _unreachable(e: BaseException, obj: Facts) -> str | None:
    """An unreachable PostgreSQL ledger, named by host and port (the GM can check the server or the settings)."""
    if os.environ.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        return None
    text = f"{e} {e.__cause__ or ''}".lower()
    if storage_faults.kind_of(e) != storage_faults.SERVER and not any(
            s in text for s in ("couldn't get a connection", "connection refused", "could not connect",
                                "timeout expired", "connection failed", "could not translate host")):
        return None
    host, port = os.environ.get("POSTGRES_HOST", "localhost"), os.environ.get("POSTGRES_PORT", "5432")
    seconds = os.environ.get("POSTGRES_CONNECT_TIMEOUT", "5")
    return (f"cannot reach the PostgreSQL ledger at {host}:{port} (database "
            f"{os.environ.get('POSTGRES_DBNAME', '?')}) within {seconds} s; is the server running? "
            f"{_recorded_on_server(obj)}")


def _recorded_on_server(obj: Facts) -> str:
    """After an unreachable server: what was recorded, and the key to run the command again with."""
    if obj.get("recorded") or obj.get("stopped"):
        said = _recorded(obj, None, "it answers")
        return said[0].upper() + said[1:] + "."
    key = obj.get("key_used")
    return "Nothing was recorded" + (f"; once it answers, run it again with --key {key} (it is then never "
                                     "recorded twice)." if key else ".")


def _missing_client(e: BaseException) -> str | None:
    """No PostgreSQL client library in this installation (the README's first command installs the
    program without it)."""
    if os.environ.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        return None
    if any(isinstance(x, ImportError) and (x.name or "").split(".")[0] in ("psycopg", "psycopg_pool")
           for x in _causes(e)):  # eventsourcing wraps it twice when it resolves its persistence module
        return ("PERSISTENCE_MODULE asks for a PostgreSQL ledger, but this installation has no PostgreSQL "
                "client: install it with `pip install -e '.[postgres]'` in the project. Nothing was recorded.")
    return None


def _causes(e: BaseException | None) -> Iterator[BaseException]:
    return storage_faults.causes(e)
