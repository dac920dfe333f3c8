"""Failures no command foresaw, in the GM's words: a full disk, read-only media, an unreachable server."""
from __future__ import annotations

import os
from typing import Iterator

import click


def storage_message(ctx: click.Context, e: BaseException) -> str | None:
    """Disk full and read-only media in the GM's words, with what was and wasn't recorded."""
    import errno

    text = f"{e} {e.__cause__ or ''} {e.__context__ or ''}".lower()
    codes = {getattr(x, "errno", None) for x in (e, e.__cause__, e.__context__)}
    obj = ctx.find_root().obj or {}
    db = obj.get("db", "the campaign file")
    folder = os.path.dirname(os.path.abspath(db))
    entries = obj.get("recorded") or []
    recorded = (f"the command was recorded (entries #{entries[0]}-#{entries[-1]}) but the read tables are behind; "
                "once there is room, any command catches them up" if entries else
                "nothing of this command was recorded")
    if errno.ENOSPC in codes or "disk is full" in text or (
            "disk i/o error" in text and os.path.isdir(folder) and _free_bytes(folder) == 0):
        return f"the disk holding {db} is full: {recorded}; free some space and run it again."
    if errno.EROFS in codes or "readonly database" in text or "read-only file system" in text or (
            "unable to open database file" in text and not os.access(folder, os.W_OK)):
        return (f"{db} is on read-only media (or is read-only) and cannot be opened for writing; {recorded}; "
                "copy it to a writable folder to use it.")
    return None


def server_message(e: BaseException) -> str | None:
    """An unreachable PostgreSQL ledger, named by host and port (the GM can check the server or the
    settings); or no PostgreSQL client library in this installation (the README's first command installs
    the program without it)."""
    if os.environ.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        return None
    if any(isinstance(x, ImportError) and (x.name or "").split(".")[0] in ("psycopg", "psycopg_pool")
           for x in _causes(e)):  # eventsourcing wraps it twice when it resolves its persistence module
        return ("PERSISTENCE_MODULE asks for a PostgreSQL ledger, but this installation has no PostgreSQL "
                "client: install it with `pip install -e '.[postgres]'` in the project. Nothing was recorded.")
    text = f"{e} {e.__cause__ or ''}".lower()
    if not any(s in text for s in ("couldn't get a connection", "connection refused", "could not connect",
                                   "timeout expired", "connection failed", "could not translate host")):
        return None
    host, port = os.environ.get("POSTGRES_HOST", "localhost"), os.environ.get("POSTGRES_PORT", "5432")
    seconds = os.environ.get("POSTGRES_CONNECT_TIMEOUT", "5")
    return (f"cannot reach the PostgreSQL ledger at {host}:{port} (database "
            f"{os.environ.get('POSTGRES_DBNAME', '?')}) within {seconds} s; is the server running? "
            "Nothing was recorded.")


def _causes(e: BaseException | None) -> Iterator[BaseException]:
    """The error and each one it was raised from or during, innermost last (a few levels)."""
    for _ in range(8):
        if e is None:
            return
        yield e
        e = e.__cause__ or e.__context__


def _free_bytes(folder: str) -> int:
    import shutil
    return shutil.disk_usage(folder).free
