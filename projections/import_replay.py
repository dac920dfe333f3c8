"""Import: the read tables of the scratch campaign, built by the rebuild path before it is kept
(ledger/interchange.py calls this once ledger/import_load.py has written, checked and replayed
every entry through its aggregate), so whatever makes rebuild faster makes import faster too."""
from __future__ import annotations

from typing import Any, Callable

from campaign_ledger.ledger.errors import BadInput, ReadModelStuck
from campaign_ledger.projections import runner


def replay_check(app: Any, path: str, progress: Callable[[int], None] | None = None,
                 observe: Callable[[int, Any], None] | None = None,
                 written: Callable[[Any], None] | None = None) -> None:
    """Every entry through the read tables, in order, before the file is kept: an entry they
    cannot take is refused by its number (a file whose hashes were recomputed over broken data);
    `observe(entry, event)` sees each event as it is mapped (the import plays its aggregates);
    `written(conn)` is called after each batch with the rebuild's connection, inside its one
    transaction (the import writes the snapshots it took there: the file allows one writer)."""
    from campaign_ledger.ledger import campaign_file

    db = runner.connect(path)
    db.conn.execute("PRAGMA synchronous = OFF")  # the scratch file: made durable once whole (ledger/interchange.py)

    def step(count: int) -> None:
        if written is not None:
            written(db.conn)
        if progress is not None:
            progress(count)
    try:
        checked = app.recorder.max_notification_id() or 0  # the whole chain, verified while it was written
        try:
            runner.rebuild(app, db, step, check=True, trusted=checked, observe=observe)
        except ReadModelStuck as e:
            why = str(e).split(" (", 1)[-1].rsplit("); they show", 1)[0][:160]
            raise BadInput(f"Entry #{e.entry} (line {e.entry + 1}) does not replay ({why}); "
                           "nothing was imported.") from None
        campaign_file.stamp(db.conn)
    finally:
        db.conn.close()
