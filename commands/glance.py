"""The read tables opened for a glance: the shell's bottom line and a Tab's names.

Read-only and quick, with the standard library on SQLite (no ledger, no sqlite-utils); with
CAMPAIGN_READ=postgres, the campaign's schema on the server, so a hosted campaign's shell shows
its pools and completes its names as a local file's does. Nothing here migrates or writes: a
glance at tables not made yet finds nothing, and the caller offers nothing rather than an error.
"""
from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator


def on_server() -> bool:
    """The read tables live on PostgreSQL (CAMPAIGN_READ=postgres beside a PostgreSQL ledger)."""
    if os.environ.get("CAMPAIGN_READ", "").strip().lower() != "postgres":
        return False
    from campaign_ledger.projections import postgres_read

    return postgres_read.refusal() is None


def errors() -> tuple[type[BaseException], ...]:
    """What a glance may raise, for either store: the caller's cue to show nothing."""
    import sqlite3

    if on_server():
        import psycopg

        return sqlite3.Error, psycopg.Error
    return (sqlite3.Error,)


@contextlib.contextmanager
def opened(path: str) -> Iterator[Any]:
    """A connection answering `execute(sql)` with rows, as sqlite3's does, closed after; None when
    there is nothing to glance at (no such file, no such schema on the server)."""
    if on_server():
        import psycopg

        from campaign_ledger.projections import postgres_read

        schema = postgres_read.schema_name(path)
        server = dict(postgres_read.server(), connect_timeout=2)  # a Tab does not wait 5 s for a server
        db = postgres_read.PostgresRead(psycopg.connect(autocommit=True, **server), schema)
        conn: Any = db.conn
        if not db.connection.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", [schema]).fetchone():
            conn.close()
            conn = None
    elif path and os.path.isfile(path):
        import sqlite3

        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.5)
    else:
        conn = None
    try:
        yield conn
    finally:
        if conn is not None:
            conn.close()


def ruleset(path: str) -> str | None:
    """The campaign's ruleset id, as its read tables say: what a read view's text is written by
    (`sheet`, `pools`), found after the view itself was read. None when there is none to glance at."""
    try:
        with opened(path) as conn:
            row = conn.execute("SELECT value FROM campaign WHERE key = 'ruleset'").fetchone() if conn else None
    except errors():
        return None
    return row[0] if row else None
