"""Campaign files that cannot be written (read-only media, a write-protected file): reads still answer.

SQLite keeps a campaign in write-ahead-log mode, and even a plain reader needs the log's index
(the `-shm` file) beside the database, writable or at least present. So:

- a file this process can write is opened as usual (None here: nothing changes);
- `mode=ro` reads it without writing when the index exists or can be made (a write-protected
  file in a writable folder, or media that still carry the `-shm` of the last writer);
- on read-only media with no log at all, `immutable=1` reads the database file alone: nothing
  can change it there, and there is no log whose entries it would miss;
- a log left with entries in it (`-wal`) but without its index cannot be read there without
  losing those entries: refused, saying to copy both files to a writable folder.

See https://sqlite.org/wal.html#readonly ("Read-Only Databases").
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from campaign_ledger.ledger.errors import Unusable


def uri(path: str) -> str | None:
    """None when `path` can be written (open it as usual); else an SQLite URI that reads it untouched."""
    if writable(path):
        return None
    base = f"file:{quote(str(Path(path).resolve()))}"
    if _readable(f"{base}?mode=ro"):
        return f"{base}?mode=ro"
    wal = path + "-wal"
    if os.path.exists(wal) and os.path.getsize(wal) > 0:
        raise Unusable(f"{path} is on read-only media with unsaved entries in its write-ahead log ({wal}) "
                       "that SQLite cannot read there without its -shm file; copy the campaign file and its "
                       "-wal file together to a writable folder to use it.")
    return f"{base}?immutable=1"


def writable(path: str) -> bool:
    """Can SQLite open `path` for writing: the file, and its log and index (made in the folder if absent)?

    `os.access` asks the kernel, so a read-only mount says no even to root (EROFS), while a
    write-protected file says yes to root (who may write it anyway)."""
    if not os.access(path, os.W_OK):
        return False
    folder = os.path.dirname(os.path.abspath(path))
    if os.access(folder, os.W_OK):
        return True
    beside = [path + "-wal", path + "-shm"]
    return all(os.path.exists(p) and os.access(p, os.W_OK) for p in beside)


def _readable(uri_: str) -> bool:
    try:
        conn = sqlite3.connect(uri_, uri=True)
    except sqlite3.Error:
        return False
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return True
    except sqlite3.Error:
        return False
    finally:
        conn.close()
