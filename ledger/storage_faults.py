"""Failures of the storage itself, told apart from a race with another writer.

A command that lost a race (another process saved first, the file was locked a moment) is run
again on fresh state (ledger/application.py `run`). A failure of the storage is not cured by
running again: a full disk, a file-size limit, a damaged file, read-only media, a PostgreSQL
server that cannot be reached. Retried, a full disk was reported as "Another process kept
changing this campaign" after eight tries (and a lost server after eight connect timeouts), so
these are raised at once, for the library to name (campaign_ledger/failures.py).
"""
from __future__ import annotations

import errno
from typing import Iterator

FULL = "full"  # no room: SQLITE_FULL, ENOSPC, EFBIG, PostgreSQL's disk_full
IO = "io"  # SQLite's "disk I/O error": a full disk or a file-size limit too (SQLite keeps the errno)
DAMAGED = "damaged"  # SQLITE_CORRUPT, SQLITE_NOTADB: the file's pages cannot be read
READ_ONLY = "read-only"  # SQLITE_READONLY, EROFS
CANNOT_OPEN = "cannot-open"  # SQLITE_CANTOPEN: a missing folder, a path that is not one
SERVER = "server"  # the PostgreSQL server cannot be reached, or dropped the connection

_SQLITE = {13: FULL, 10: IO, 11: DAMAGED, 26: DAMAGED, 8: READ_ONLY, 14: CANNOT_OPEN}  # primary result codes
_ERRNO = {errno.ENOSPC: FULL, errno.EDQUOT: FULL, errno.EFBIG: FULL, errno.EROFS: READ_ONLY}
_TEXT = (("database or disk is full", FULL), ("disk i/o error", IO), ("database disk image is malformed", DAMAGED),
         ("file is not a database", DAMAGED), ("readonly database", READ_ONLY), ("read-only file system", READ_ONLY),
         ("unable to open database file", CANNOT_OPEN))
# PostgreSQL states a retry can cure: serialization failure, deadlock, lock not available.
_PG_RACES = frozenset({"40001", "40P01", "55P03"})


class ServerLost(ConnectionError):
    """The PostgreSQL server stopped answering under a command, and did not come back in time (see
    ledger/server_waits.py `bound`); not an OperationalError, so nothing retries it."""


def kind_of(error: BaseException | None) -> str | None:
    """The storage failure behind `error` (one of the kinds above), or None: a race, or no storage failure."""
    for e in causes(error):
        if isinstance(e, ServerLost):
            return SERVER
        code = getattr(e, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in _SQLITE:
            return _SQLITE[code & 0xFF]
        if isinstance(e, OSError) and e.errno in _ERRNO:
            return _ERRNO[e.errno]
        pg = _postgres_kind(e)
        if pg is not None:
            return pg or None
    text = " ".join(str(e) for e in causes(error)).lower()
    return next((kind for words, kind in _TEXT if words in text), None)


def not_a_race(error: BaseException) -> bool:
    """True when running the command again cannot help: the storage failed (see kind_of)."""
    return kind_of(error) is not None


def causes(e: BaseException | None) -> Iterator[BaseException]:
    """The error and each one it was raised from or during (a few levels: eventsourcing wraps twice)."""
    for _ in range(8):
        if e is None:
            return
        yield e
        e = e.__cause__ or e.__context__


def unreadable_entry(e: BaseException) -> BaseException | None:
    """The error that says a stored entry's state no longer decodes (edited outside the program,
    hashes recomputed or not, or a damaged page), if `e` came from one."""
    from eventsourcing.persistence import MapperDeserialisationError

    return next((x for x in causes(e) if isinstance(x, MapperDeserialisationError)), None)


def _postgres_kind(e: BaseException) -> str | None:
    """For a psycopg error: FULL, SERVER, or "" (a race, or a refusal of the statement itself); None
    for any other error. Told by the class's module, so no PostgreSQL client is imported for it."""
    if not type(e).__module__.startswith(("psycopg", "psycopg_pool")):
        return None
    state = getattr(e, "sqlstate", None) or ""
    if state == "53100":  # disk_full
        return FULL
    if state in _PG_RACES:
        return ""
    names = {cls.__name__ for cls in type(e).__mro__}
    if "OperationalError" in names and (not state or state[:2] in ("08", "57", "53", "58")):
        return SERVER  # no answer, a lost connection, the server shutting down or out of resources
    return ""
