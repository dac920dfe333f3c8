"""The read tables of a campaign file that cannot be written (see ledger/read_only.py).

They are read as they stand: catching up would write, so it is skipped, and when they are
behind the ledger one warning line says which entry they show. Tables made by an older
program (a migration pending, which would write) are rebuilt from the ledger into a scratch
file instead, so a read still answers in full.
"""
from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any, Callable

from sqlite_utils import Database

from campaign_ledger.ledger import scratch_folders
from campaign_ledger.migrations import migrations
from campaign_ledger.projections import runner, verifying


def connect(app: Any, uri: str) -> tuple[Database, Callable[[], None]]:
    """The read tables at `uri`, read-only; or, if they need a migration, rebuilt in a scratch
    file. Returns them and what to call when done (closing, removing the scratch file)."""
    db = Database(sqlite3.connect(uri, uri=True, isolation_level=None), execute_plugins=False)
    if not migrations.pending(db):
        return db, db.conn.close
    db.conn.close()
    kept = contextlib.ExitStack()
    scratch = kept.enter_context(scratch_folders.folder("read"))
    try:
        fresh = runner.connect(str(Path(scratch) / "read.db"))
        runner.catch_up(app, fresh)
    except BaseException:
        kept.close()
        raise

    def done() -> None:
        fresh.conn.close()
        kept.close()
    return fresh, done


def warning(app: Any, db: Database, path: str) -> str | None:
    """One line when the read tables show less than the ledger holds (or a known chain break), else None."""
    broken = verifying.recorded_break(app, db)
    if broken is not None:
        return (f"the hash chain is broken at entry #{broken.entry}: {broken.reason}; what follows may not "
                "match the record; run `campaign audit`.")
    shown, newest = runner.position(db), app.recorder.max_notification_id() or 0
    if shown >= newest:
        return None
    return (f"{path} is read-only, so its read tables could not catch up: they show the campaign as of "
            f"entry #{shown} of #{newest}; copy the file to a writable folder to see the rest.")
