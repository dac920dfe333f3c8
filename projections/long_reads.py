"""Reads that may return a whole campaign's rows: a history listing, an export, an audit's
comparison. Read tables on PostgreSQL stream them (postgres_read.PostgresRead.streamed), since the
client otherwise holds a whole result (a history listing of 100,000 entries: 155 MiB); an SQLite
cursor already reads as it is iterated."""
from __future__ import annotations

from typing import Any, Sequence


def cursor(db: Any, sql: str, parameters: Sequence[Any] | None = None) -> Any:
    """The query's cursor, its rows read as they are iterated wherever the read tables are."""
    streamed = getattr(db, "streamed", None)
    return streamed(sql, parameters) if streamed is not None else db.execute(sql, list(parameters or []))
