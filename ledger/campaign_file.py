"""Which files are campaign files: the program opens only those, and never touches the rest.

A campaign file is an SQLite database stamped with the campaign's application id and the
schema version of the program that made it (SQLite's own header fields, see
https://sqlite.org/fileformat.html#application_id). Files made before the stamp existed are
recognised by their tables (the ledger's, nothing foreign) and stamped on first open.
Everything else (another application's database, a text file, a folder, an empty file)
is refused before SQLite opens it, so it stays byte-identical.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import Callable, Iterable, Iterator
from urllib.parse import quote

from campaign_ledger.ledger.errors import NotFound, Unusable

APPLICATION_ID = 0x43414D50  # "CAMP"
SCHEMA_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"
LEDGER_TABLES = frozenset({"stored_events", "ledger_chain", "ledger_commands"})
SQLITE_INTERNAL = frozenset({"sqlite_sequence", "sqlite_stat1", "sqlite_stat4"})
OTHER_TABLES = frozenset({"stored_snapshots", "position", "_sqlite_migrations", "chain_checked",
                          "ledger_meta", "ledger_signatures", "ledger_binding"})
# The history's full-text index (migrations m011): sqlite-utils' FTS5 table and its shadow tables.
# The history's undo-unit namer (migrations m014, m015, projections/units.py): bookkeeping, as `position` is.
OTHER_TABLES |= frozenset({"unit_open", "unit_taken", "unit_seen", "unit_namer", "unit_closed"})
OTHER_TABLES |= frozenset({"history_fts", *(f"history_fts_{s}" for s in ("data", "idx", "docsize", "config"))})


# Files this process found to be campaign files. Reading a database file's header with a plain
# open() and close() drops every POSIX lock the process holds on it, SQLite's included (SQLite's
# "How To Corrupt" page, section 2.2), so a process that keeps connections open (a test driving
# many commands, a shell) must never read it again: the first check, before SQLite opens it, holds.
_PASSED: set[str] = set()


def check(path: str, read_tables: Callable[[], Iterable[str]], creating: bool = False,
          ledger_in_file: bool = True) -> None:
    """Refuse `path` unless it is a campaign file (or, when `creating`, no file yet).

    `read_tables` gives every ruleset's read tables (passed in: the write side never imports the read
    side; called only for an unstamped file, since naming them all imports every ruleset);
    `ledger_in_file` is False when the ledger lives in PostgreSQL and the file holds only read tables.
    """
    if os.path.realpath(path) in _PASSED:  # see _PASSED: never read the file again once SQLite holds it
        return
    if not os.path.lexists(path):
        if creating:
            return
        if os.path.lexists(path + ".importing"):  # the scratch copy of an import that was stopped (killed, power cut)
            raise NotFound(f"No campaign file at {path}: an import into it stopped before it finished "
                           f"({path}.importing is its unfinished copy); run the import again, which replaces it.")
        raise NotFound(f"No campaign file at {path}; create one with `campaign --db {path} new NAME`.")
    if os.path.isdir(path):
        raise Unusable(f"{path} is a folder, not a campaign file.")
    header = _header(path)
    if not header:
        raise Unusable(f"{path} is an empty file, not a campaign file; choose a new file name with --db.")
    if not header.startswith(SQLITE_MAGIC):
        raise Unusable(f"{path} is not a campaign file (it is not a database; a text or other file?).")
    application_id, version = _stamp_of(path, header)
    if application_id == APPLICATION_ID:
        _check_version(path, version)
    elif application_id:
        raise Unusable(f"{path} belongs to another application (SQLite application id {application_id:#x}), "
                       "not a campaign file.")
    else:
        _check_tables(path, LEDGER_TABLES if ledger_in_file else frozenset(), frozenset(read_tables()))
    _PASSED.add(os.path.realpath(path))


def create(path: str) -> None:
    """A new, empty campaign file stamped before the ledger turns on its write-ahead log, so the stamp
    sits in the file header at once and later opens read it there, without a connection."""
    conn = sqlite3.connect(path)
    try:
        stamp(conn)
    finally:
        conn.close()


def stamp(conn: sqlite3.Connection) -> None:
    """Mark a campaign file as ours (new files, and old ones on first open); already-stamped files are left alone."""
    if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _header(path: str) -> bytes:
    import stat

    try:
        kind = os.stat(path).st_mode
        if stat.S_ISFIFO(kind) or stat.S_ISSOCK(kind):  # reading one waits for a writer: the command hung
            raise Unusable(f"{path} is a {'named pipe' if stat.S_ISFIFO(kind) else 'socket'}, not a campaign file.")
        with open(path, "rb") as f:
            return f.read(100)
    except OSError as e:
        raise Unusable(f"Cannot read {path}: {e.strerror}.") from None


def _stamp_of(path: str, header: bytes) -> tuple[int, int]:
    """(application id, user version): from the file header (no connection, no lock, no change), or,
    while a write-ahead log may hold newer values than the header, from a read-only connection."""
    stamped = _header_stamp(header)
    if stamped[0] != APPLICATION_ID and os.path.exists(path + "-wal"):
        with contextlib.suppress(Unusable):  # an unreadable log: the header's word, and opening will say more
            with _read_only(path) as conn:
                return (conn.execute("PRAGMA application_id").fetchone()[0],
                        conn.execute("PRAGMA user_version").fetchone()[0])
    return stamped


def _header_stamp(header: bytes) -> tuple[int, int]:
    if len(header) < 72:
        return 0, 0
    return int.from_bytes(header[68:72], "big"), int.from_bytes(header[60:64], "big")


def _check_version(path: str, version: int) -> None:
    if version > SCHEMA_VERSION:
        raise Unusable(f"{path} was written by a newer campaign program (file version {version}; "
                       f"this program reads up to version {SCHEMA_VERSION}); upgrade campaign to open it.")


def _check_tables(path: str, required: frozenset[str], read_tables: frozenset[str]) -> None:
    """An unstamped database is ours only if it holds the ledger's tables and nothing foreign."""
    tables = _tables(path)
    foreign = tables - LEDGER_TABLES - read_tables - OTHER_TABLES - SQLITE_INTERNAL
    if not required <= tables or foreign or not tables:
        shown = ", ".join(sorted(foreign or tables)[:5]) or "no tables"
        raise Unusable(f"{path} is another application's database ({shown}), not a campaign file.")


def _tables(path: str) -> set[str]:
    with _read_only(path) as conn:
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


@contextlib.contextmanager
def _read_only(path: str) -> Iterator[sqlite3.Connection]:
    """A look that leaves no trace: a read-only connection to a WAL file would create its -wal and
    -shm and, unable to checkpoint, leave them behind; with no -wal the file alone is the truth."""
    unlogged = "&immutable=1" if not os.path.exists(path + "-wal") else ""
    uri = f"file:{quote(str(Path(path).resolve()))}?mode=ro{unlogged}"
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            yield conn
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise Unusable(f"{path} is not a readable campaign file ({e}).") from None


def bind(conn: sqlite3.Connection, path: str, first_hash: str | None) -> None:
    """With the ledger on PostgreSQL the file holds only read tables: it keeps which ledger they
    belong to (the hash of its first entry, unique to that campaign) and refuses any other, so one
    campaign's sheets are never shown as another's."""
    conn.execute("CREATE TABLE IF NOT EXISTS ledger_binding (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    row = conn.execute("SELECT value FROM ledger_binding WHERE key = 'ledger'").fetchone()
    if row is None:
        if first_hash is not None:
            conn.execute("INSERT INTO ledger_binding (key, value) VALUES ('ledger', ?)", (first_hash,))
        return
    if row[0] != first_hash:
        raise _other_ledger(path)


def check_binding(conn: sqlite3.Connection, path: str, first_hash: str | None) -> None:
    """`bind`'s refusal without its write, for a read file that cannot be written."""
    table = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ledger_binding'").fetchone()
    row = table and conn.execute("SELECT value FROM ledger_binding WHERE key = 'ledger'").fetchone()
    if row and row[0] != first_hash:
        raise _other_ledger(path)


def _other_ledger(path: str) -> Unusable:
    return Unusable(f"{path} holds the read tables of another campaign's ledger, not of the PostgreSQL "
                    "ledger these settings reach; use that campaign's --db file, or a new file name.")


def checked_and_stamped(path: str) -> bool:
    """For a reader that needs no list of read tables (see projections/current.py): True when the
    file passed `check` earlier in this process, or carries the stamp in its header and passes
    `check` now; False for any other file, which the usual way checks. The header is read only
    before SQLite holds the file: closing another descriptor of it would drop SQLite's locks."""
    if os.path.realpath(path) in _PASSED:
        return True
    header = _header(path)
    if not header.startswith(SQLITE_MAGIC) or _header_stamp(header)[0] != APPLICATION_ID:
        return False
    check(path, (), ledger_in_file=True)
    return True


def ledger_head(conn: sqlite3.Connection) -> tuple[int, str] | None:
    """The newest entry of the ledger in this file and its chained hash (None when it holds none, or
    when an entry lacks its hash): what a reader compares with what its read tables last verified."""
    last = conn.execute("SELECT max(rowid) FROM stored_events").fetchone()[0]
    head = conn.execute("SELECT entry, hash FROM ledger_chain ORDER BY entry DESC LIMIT 1").fetchone()
    return (head[0], head[1]) if last is not None and head is not None and head[0] == last else None
