"""Import: the whole file replayed, every entry through its aggregate and the read tables, in a
scratch file before it is kept (ledger/interchange.py calls this with the scratch campaign)."""
from __future__ import annotations

from typing import Any, Iterator
from uuid import UUID

from ledger.errors import BadInput
from projections import rulesets, runner, units
from projections.bulk import indexes_built_after
from projections.runner import BATCH, NAME, apply_entry, connect, frozen, immediate


def replay_check(app: Any, path: str) -> None:
    """Every entry through its aggregate and the read tables, in order, before the file is kept:
    a file whose hashes were recomputed over broken data is refused here, naming the entry."""
    from ledger import campaign_file

    db = connect(path)
    rulesets.load_all()  # an imported file's ruleset is known once its first entry is read
    aggregates: dict[UUID, Any] = {}
    try:
        with immediate(db), frozen(db), indexes_built_after(db, runner.READ_TABLES):
            last = 0
            for n in _notifications(app):
                _replay_one(app, db, aggregates, n)
                last = n.id
            db.table("position").upsert({"name": NAME, "entry": last}, pk="name")
            units.UnitNames(app.recorder).fill(db)  # as catching up names them, the index built once after
        campaign_file.stamp(db.conn)
    finally:
        db.conn.close()


def _notifications(app: Any) -> Iterator[Any]:
    start = 0
    while True:
        batch = app.recorder.select_notifications(start, BATCH, inclusive_of_start=False)
        yield from batch
        if len(batch) < BATCH:
            return
        start = batch[-1].id


def _replay_one(app: Any, db: Any, aggregates: dict[UUID, Any], n: Any) -> None:
    try:
        event = app.mapper.to_domain_event(n)
        aggregates[n.originator_id] = event.mutate(aggregates.get(n.originator_id))
        apply_entry(db, n.id, event)
    except Exception as e:
        why = f"{type(e).__name__}: {e}"[:160]
        raise BadInput(f"Entry #{n.id} (line {n.id + 1}) does not replay ({why}); nothing was imported.") from None
