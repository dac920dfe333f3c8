"""Filling read tables from scratch: full-text indexes built once at the end, not row by row.

A rebuild deletes every row and inserts them again. With the full-text triggers in place each
row is indexed as it is inserted, again each time a later entry updates any of its columns
(the history learns its unit and reversal after its line), and un-indexed when deleted. Inside
the rebuild's one transaction, `indexes_built_after(db)` drops those triggers, and at the end
rebuilds each external-content FTS index from its table in one pass and puts the triggers back:
the same index, built once. A failure rolls the whole transaction back, triggers included.
"""
from __future__ import annotations

import contextlib
import re
from typing import Any, Iterator

HASH_SIZE = 8 * 1024 * 1024  # bytes: a fixed cap, so memory stays flat however long the campaign
_CONTENT = re.compile(r"""content\s*=\s*['"\[]?(\w+)""", re.IGNORECASE)


def fts_indexes(db: Any, tables: tuple[str, ...]) -> list[str]:
    """The FTS5 tables indexing any of `tables` (external content)."""
    found = []
    for name, sql in db.conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE "
                                     "'%VIRTUAL TABLE%USING FTS5%'"):
        content = _CONTENT.search(sql or "")
        if content and content.group(1) in tables:
            found.append(name)
    return found


@contextlib.contextmanager
def indexes_built_after(db: Any, tables: tuple[str, ...]) -> Iterator[None]:
    """Inside a write transaction: the triggers that index `tables` are off for the block, and
    each full-text index is rebuilt from its table when it ends."""
    indexes = fts_indexes(db, tables)
    if not indexes:
        yield
        return
    triggers = [(name, sql) for name, sql in db.conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN "
        f"({','.join('?' * len(tables))})", list(tables)) if any(index in sql for index in indexes)]
    for name, _ in triggers:
        db.conn.execute(f"DROP TRIGGER [{name}]")
    yield
    for index in indexes:
        # the terms gathered in memory before a segment is written (FTS5's own default 1 MiB): a
        # million history rows made hundreds of segments to merge, 2.6 s CPU; 8 MiB takes 1.7 s
        db.conn.execute(f"INSERT INTO [{index}] ([{index}], rank) VALUES ('hashsize', ?)", [HASH_SIZE])
        db.conn.execute(f"INSERT INTO [{index}] ([{index}]) VALUES ('rebuild')")
    for _, sql in triggers:
        db.conn.execute(sql)
