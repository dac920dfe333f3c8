"""The hash chain and command log on PostgreSQL, for campaigns that outgrow one file.

eventsourcing's PostgreSQL recorder locks the events table for each insert, so writers
take turns and the chain is written in the same transaction, in notification order.
"""
from __future__ import annotations

from typing import Any, Sequence

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg.sql import SQL

from campaign_ledger.ledger.chain import CHAIN_TABLE, COMMANDS_TABLE, META_TABLE, SIGNATURES_TABLE, ChainQueries, write_chain

# Each command's idempotency key, indexed as SQLite's KEYS_INDEX does: every write looks its key up,
# twice (a retry, then inside the locked insert), and a LIKE over the whole command log grew with the campaign.
KEY_BY_INDEX = "(detail::jsonb ->> 'key') = ?"
KEYS_INDEX = ("CREATE INDEX IF NOT EXISTS ledger_commands_key ON ledger_commands ((detail::jsonb ->> 'key')) "
              "WHERE (detail::jsonb ->> 'key') IS NOT NULL")


class ChainedPostgresRecorder(ChainQueries, PostgresApplicationRecorder):
    id_column = "notification_id"
    UNIT_NAMED = "lower(unit) = lower(?)"  # (no NOCASE collation in PostgreSQL)
    KEY_WHERE = KEY_BY_INDEX

    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.sql_create_statements += [SQL(CHAIN_TABLE), SQL(COMMANDS_TABLE), SQL(META_TABLE),
                                       SQL(SIGNATURES_TABLE), *map(SQL, UNIT_INDEXES), SQL(KEYS_INDEX)]

    def _fetch_ids_after_insert_events(self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any):
        ids = super()._fetch_ids_after_insert_events(curs, stored_events, **kwargs)
        if ids:
            def select(sql: str, params: tuple) -> list:
                curs.execute(_pg(sql), params)
                return [tuple(r.values()) for r in curs.fetchall()]
            write_chain(select, lambda sql, params: curs.execute(_pg(sql), params), ids, stored_events, kwargs,
                        self.KEY_WHERE, lambda sql, rows: curs.executemany(_pg(sql), rows))
        return ids

    def _select(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(_pg(sql), params)
            return [tuple(r.values()) for r in curs.fetchall()]


# Replay finds a round by its rows of the command log (ledger/unit_log.py), as SQLite's m013 indexes do.
UNIT_INDEXES = ("CREATE INDEX IF NOT EXISTS ledger_commands_unit ON ledger_commands (lower(unit))",
                "CREATE INDEX IF NOT EXISTS ledger_commands_reversing ON ledger_commands (first_entry) "
                "WHERE (command IN ('undo', 'replay') OR detail LIKE '%\"reverses\"%')")


def _pg(sql: str) -> str:
    """The shared queries are written with SQLite's `?`; psycopg takes `%s`, and a `%` of the text
    (a LIKE pattern written in the query, as unit_log.REVERSING is) doubled."""
    return sql.replace("%", "%%").replace("?", "%s")
