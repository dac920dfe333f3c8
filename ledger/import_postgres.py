"""Import into a PostgreSQL ledger: all of it in one transaction, or nothing.

By the time this runs, the whole file was checked and replayed in a scratch SQLite ledger
(ledger/interchange.py). Here the scratch ledger's entries, and the snapshots it took, go to
the server on one connection inside one transaction: a failure part way, a lost connection or
a killed process rolls everything back, so the ledger stays empty and the import can simply be
run again. eventsourcing's own insert (one transaction per call, retried on a lost connection)
would commit batch by batch, and a retry would number the entries anew.

The entry numbers must be the source's (the chain's hashes cover them, and an anchor names one):
the table is locked, found empty, and its number sequence set back to 1, which a rolled-back
attempt had used up.
"""
from __future__ import annotations

import contextlib
import json
from typing import Any, Iterator, Sequence
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from psycopg.sql import SQL, Identifier, Literal

from campaign_ledger.ledger.chain import chained
from campaign_ledger.ledger.errors import Unusable, LedgerError

NOT_EMPTY = "Import writes into a new, empty campaign ledger; this PostgreSQL ledger already holds entries."
LEDGER_TABLES = ("ledger_chain", "ledger_commands", "ledger_meta")


class Importing:
    """The PostgreSQL recorder as seen from inside the import's transaction (for write_all)."""

    def __init__(self, recorder: Any, curs: Any) -> None:
        self.recorder, self.curs = recorder, curs

    def max_notification_id(self) -> int | None:
        return None  # found empty when the transaction began, and locked since

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """eventsourcing's insert and the chain's rows (ChainedPostgresRecorder), on this transaction's cursor
        (`keys_checked`: each command's key is once in the file, import_load.Rows, and the ledger was found empty)."""
        self.recorder._insert_stored_events(self.curs, stored_events, **kwargs)
        return self.recorder._fetch_ids_after_insert_events(self.curs, stored_events, **kwargs)


@contextlib.contextmanager
def one_transaction(server: Any) -> Iterator[Importing]:
    """Lock the server's ledger, check it is empty, number from 1; commit only if the body finishes."""
    recorder = server.recorder
    with recorder.datastore.transaction(commit=True) as curs:
        recorder._lock_table(curs)
        table = SQL("{}.{}").format(Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name))
        if any(_holds(curs, t) for t in (table, *(Identifier(t) for t in LEDGER_TABLES))):
            raise Unusable(NOT_EMPTY)
        name = f"{recorder.datastore.schema}.{recorder.events_table_name}"
        curs.execute(SQL("SELECT setval(pg_get_serial_sequence({}, 'notification_id'), 1, false)")
                     .format(Literal(name)))
        yield Importing(recorder, curs)


def copy_snapshots(scratch: Any, server: Any, importing: Importing, every: int) -> int:
    """The snapshots the scratch ledger took, into the same transaction (a cold process loads fast)."""
    snapshots: list[StoredEvent] = []
    for aggregate_id, _ in scratch.recorder.long_aggregates(every):
        snapshots.extend(scratch.snapshots.recorder.select_events(aggregate_id))
    if snapshots:
        server.snapshots.recorder._insert_stored_events(importing.curs, snapshots)
    return len(snapshots)


def _holds(curs: Any, table: Any) -> bool:
    curs.execute(SQL("SELECT EXISTS (SELECT 1 FROM {}) AS held").format(table))
    return bool(curs.fetchone()["held"])


def write_all(server: Any, scratch: Any, total: int, batch: int) -> int:
    """Write the scratch ledger's entries (checked, replayed) and snapshots to the server in one transaction.

    The rows come from the scratch ledger, not from the file again: what reaches the server is what
    was checked, even if the file changed on disk in between. The server's recorder hashes them anew
    (the same hashes: the same rows, entry numbers and chain version marker).
    """
    from campaign_ledger.ledger.application import SNAPSHOT_EVERY

    try:
        with one_transaction(server) as importing:
            written, v2_from = 0, chained(scratch.recorder).v2_from() or total + 1
            for events, commands in _batches(scratch, batch):
                importing.insert_events(events, commands=commands, chain_v2_from=v2_from, keys_checked=True)
                written += len(events)
            copy_snapshots(scratch, server, importing, SNAPSHOT_EVERY)
    except LedgerError:
        raise
    except Exception as e:  # whatever the server said, its transaction is rolled back: say so
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
        raise LedgerError(f"The PostgreSQL ledger refused the import part way ({reason}); nothing was imported: "
                          "the ledger is still empty and no file was made. Run the import again once the server "
                          "is fixed.") from None
    return written


def _batches(scratch: Any, size: int) -> Iterator[tuple[list[StoredEvent], list[tuple]]]:
    """The scratch ledger's entries about `size` (interchange.BATCH) at a time, never splitting a
    command (the chain's writer files each batch's commands by their offsets in it)."""
    events: list[StoredEvent] = []
    commands: list[tuple] = []  # (start offset, end offset, name, unit, detail) within the batch
    for entry, oid, version, topic, state, _, last, name, unit, detail in \
            chained(scratch.recorder).stored_entries_with_hashes(1, 2**62, size):
        if name is not None:
            if len(events) >= size:
                yield events, commands
                events, commands = [], []
            commands.append((len(events), len(events) + last - entry, name, unit, json.loads(detail or "{}")))
        events.append(StoredEvent(oid if isinstance(oid, UUID) else UUID(oid), version, topic, bytes(state)))
    if events:
        yield events, commands
