"""The read tables in PostgreSQL, beside a PostgreSQL ledger (CAMPAIGN_READ=postgres).

A hosted deployment serving many campaigns from several machines then needs no local file: each
campaign's read tables live in a schema of the ledger's own database (POSTGRES_DBNAME...), named
from the --db name (`read_<name>_<hash of the name>`), so `campaign --db heist ...` reaches the
same tables from any machine, and campaigns sharing one database never meet. The projections
are unchanged: `PostgresRead` answers the part of sqlite-utils' Database they use, translating
each statement (projections/postgres_sql.py), and catching up takes the same path as on SQLite.
`BEGIN IMMEDIATE` becomes BEGIN plus a transaction-scoped advisory lock on the schema, so two
processes catching up queue, and rows and position still commit together.
"""
from __future__ import annotations

import hashlib
import os
import re
import weakref
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, Sequence

import psycopg

from campaign_ledger.projections.postgres_sql import HELPERS, copy_of, result, translate, written_table
from campaign_ledger.projections.postgres_table import PostgresTable
from campaign_ledger.projections.schema_cache import BatchMemo, flush

_DDL = ("CREATE", "ALTER ", "DROP ")
# The helpers' version, recorded beside the migrations: a schema made before they changed (fts_query
# learning FTS5's operators) has them made again, as a pending migration would be.
HELPERS_MARK = "helpers " + hashlib.sha256("\n".join(HELPERS).encode()).hexdigest()[:12]
STREAMED = 1000  # rows a chunk, where the client library can (libpq 17 and later); one at a time before


def wanted() -> bool:
    """CAMPAIGN_READ=postgres asks for it (unset, empty or `sqlite`: the read tables stay in --db)."""
    return os.environ.get("CAMPAIGN_READ", "").strip().lower() == "postgres"


def refusal() -> str | None:
    """Why the environment cannot have it (one line for the GM), or None when it can."""
    read = os.environ.get("CAMPAIGN_READ", "").strip().lower()
    if read not in ("", "sqlite", "postgres"):
        return f"CAMPAIGN_READ takes sqlite or postgres, not '{os.environ['CAMPAIGN_READ']}'."
    if read == "postgres" and os.environ.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        return ("CAMPAIGN_READ=postgres keeps the read tables beside a PostgreSQL ledger; set "
                "PERSISTENCE_MODULE=eventsourcing.postgres and POSTGRES_DBNAME (or unset CAMPAIGN_READ).")
    return None


def schema_name(path: str) -> str:
    """The campaign's schema: readable from the --db name, unique by its hash (63 bytes at most)."""
    name = os.path.normpath(path)
    slug = re.sub(r"[^a-z0-9]+", "_", os.path.basename(name).lower()).strip("_")[:32]
    return f"read_{slug}_{hashlib.sha1(name.encode()).hexdigest()[:12]}"


def server() -> dict[str, Any]:
    """The ledger's server and database, as eventsourcing reads them from the environment."""
    env = os.environ
    return {"dbname": env.get("POSTGRES_DBNAME", ""), "host": env.get("POSTGRES_HOST", "127.0.0.1"),
            "port": int(env.get("POSTGRES_PORT") or 5432), "user": env.get("POSTGRES_USER", ""),
            "password": env.get("POSTGRES_PASSWORD", ""),
            "connect_timeout": int(float(env.get("POSTGRES_CONNECT_TIMEOUT") or 5))}


def connect(path: str) -> "PostgresRead":
    """The campaign's read tables, their schema made or brought up to date by the migrations."""
    db = PostgresRead(psycopg.connect(autocommit=True, **server()), schema_name(path))
    _migrate(db)
    return db


def drop(path: str) -> None:
    """Remove a campaign's read tables (tests; a GM retiring a hosted campaign)."""
    with psycopg.connect(autocommit=True, **server()) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema_name(path)}" CASCADE')


class PostgresRead(BatchMemo):
    """sqlite-utils' Database, the part the projections use, over one schema of PostgreSQL; while
    the read tables catch up, the rows appended to them wait for the batch's end as in a SQLite
    read file (schema_cache.BatchMemo), so they go in by one COPY (or pipelined executemany), not
    one round trip each."""

    def __init__(self, connection: psycopg.Connection, schema: str) -> None:
        self.connection, self.schema = connection, schema
        self.conn = _Conn(self)  # what code written for sqlite3 calls `db.conn`
        self._shape: dict[str, list[tuple[str, str]]] | None = None
        self._keys: dict[str, tuple[str, ...]] = {}
        self._tables: dict[str, PostgresTable] = {}
        self._schema_kept: dict[Any, Any] = {}  # what the projections worked out from the schema (see _kept)
        self._watching: tuple[frozenset[str], Callable[[], None]] | None = None
        connection.execute(f'SET search_path TO "{schema}"')

    def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> "_Cursor":
        word = sql.lstrip()[:16].upper()
        if word.startswith("BEGIN"):  # IMMEDIATE: hold the schema's lock from the first statement
            self.connection.execute("BEGIN")
            self.connection.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [self.schema])
            return _Cursor(None, False)
        if word.startswith(_DDL):
            flush(self)  # the rows waiting go in before the schema changes under them
            self.forget()
            self._shape, self._watching = None, None
            self._schema_kept.clear()
        self._seen(sql)
        statement = translate(sql, self.keys)
        params = statement.params(parameters)
        cursor = self.connection.execute(statement.sql, params) if params is not None else \
            self.connection.execute(statement.sql)
        return _Cursor(cursor, not statement.mentions_rowid)

    def streamed(self, sql: str, parameters: Sequence[Any] | None = None) -> "_Cursor":
        """`execute` for a long read (projections/long_reads.py), as a cursor whose rows arrive a
        chunk at a time as they are iterated (`execute` holds the whole result: an audit comparing
        a million history rows held them all), on a connection of its own, closed with the cursor,
        so the reader may run other statements meanwhile and read two streams side by side (an
        export names its notes as it goes). It sees what is committed, as another process would:
        the read commands read after catching up."""
        statement = translate(sql, self.keys)
        reader = psycopg.connect(autocommit=True, **server())
        try:
            reader.execute(f'SET search_path TO "{self.schema}"')
            cursor = reader.cursor()
            rows = cursor.stream(statement.sql, statement.params(parameters),
                                 size=STREAMED if psycopg.pq.version() >= 170000 else 1)
            first = next(rows, None)  # the columns are known once the first chunk is in
        except BaseException:
            reader.close()
            raise
        if first is None:  # no rows, and a stream that ended names no columns: the empty result as `execute` gives it
            reader.close()
            return self.execute(sql, parameters)
        streamed = _Cursor(cursor, not statement.mentions_rowid, rows, first)
        weakref.finalize(streamed, reader.close)
        return streamed

    def executemany(self, sql: str, rows: list[Sequence[Any]]) -> "_Cursor":
        """Every row in one pipeline (psycopg sends them without waiting for each answer); the
        cursor's rowcount is the rows they changed, all statements together, as sqlite3's."""
        self._seen(sql)
        statement = translate(sql, self.keys)
        copy = copy_of(statement.sql)
        with self.connection.cursor() as cursor:
            if copy is None:
                cursor.executemany(statement.sql, [statement.params(r) for r in rows])
            else:
                with cursor.copy(copy) as rows_in:  # a batch's appended rows (100,000 history rows: 2.20 s, 3.77 s by executemany)
                    for r in rows:
                        rows_in.write_row(statement.params(r))
            return _Cursor(cursor, True)

    def watch_writes(self, columns: list[tuple[str, str]], changed: Callable[[], None]) -> None:
        """Call `changed` before any statement that may write to a table of `columns` ((table,
        column) pairs: any write, whichever column), as a read file's triggers do (ReadDatabase)."""
        self._watching = (frozenset(table for table, _ in columns), changed)

    def _seen(self, sql: str) -> None:
        if self._watching is not None and (table := written_table(sql)) is not None:
            if table == "" or table in self._watching[0]:  # a write it cannot place: told too
                self._watching[1]()

    def _kept(self, key: Any, read: Callable[[], Any]) -> Any:
        """`read()` once until the schema changes (ReadDatabase._kept, always on here: only this
        store's own DDL, the migrations, changes its schema)."""
        if key not in self._schema_kept:
            self._schema_kept[key] = read()
        return self._schema_kept[key]

    def table(self, name: str, **_: Any) -> PostgresTable:
        if name not in self._tables:
            self._tables[name] = PostgresTable(self, name)
        return self._tables[name]

    __getitem__ = table

    def table_names(self) -> list[str]:
        return sorted(self._shapes())

    def shape(self, table: str) -> list[tuple[str, str]]:
        """A table's (column, type) pairs, read from the catalog once until the next DDL."""
        return self._shapes().get(table, [])

    def keys(self, table: str) -> tuple[str, ...]:
        self._shapes()
        return self._keys.get(table, ())

    def _shapes(self) -> dict[str, list[tuple[str, str]]]:
        if self._shape is None:
            shape: dict[str, list[tuple[str, str]]] = {}
            for table, column, kind in self.connection.execute(
                    "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE "
                    "table_schema = %s ORDER BY table_name, ordinal_position", [self.schema]):
                shape.setdefault(table, []).append((column, kind))
            keys: dict[str, list[str]] = {}
            for table, column in self.connection.execute(
                    "SELECT c.relname, a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid "
                    "AND a.attnum = ANY(i.indkey) WHERE i.indisprimary AND n.nspname = %s "
                    "ORDER BY c.relname, array_position(i.indkey::int2[], a.attnum)", [self.schema]):
                keys.setdefault(table, []).append(column)
            self._shape, self._keys = shape, {t: tuple(k) for t, k in keys.items()}
        return self._shape

    def close(self) -> None:
        self.connection.close()


class _Conn:
    """`db.conn`: the calls code written for sqlite3 makes on the connection itself."""

    def __init__(self, db: PostgresRead) -> None:
        self._db = db

    def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> "_Cursor":
        return self._db.execute(sql, parameters)

    def executemany(self, sql: str, rows: Any) -> "_Cursor":
        return self._db.executemany(sql, list(rows))

    def commit(self) -> None:
        """Statements outside BEGIN commit as they run (autocommit), as sqlite3's isolation_level=None."""

    def close(self) -> None:
        self._db.close()


class _Cursor:
    """A result as sqlite3 gives it: tuples of SQLite's values, without the added `rowid` column
    (see postgres_table.py) unless the statement named it."""

    def __init__(self, cursor: psycopg.Cursor | None, hide_rowid: bool, streamed: Iterator[Any] | None = None,
                 first: Any = None) -> None:
        self._cursor, self._streamed, self._first = cursor, streamed, first
        self.rowcount = cursor.rowcount if cursor is not None else -1
        names = [d.name for d in cursor.description] if cursor is not None and cursor.description else []
        self._keep = [i for i, n in enumerate(names) if n != "rowid"] if hide_rowid and "rowid" in names else None
        self.description = [(n, None, None, None, None, None, None) for i, n in enumerate(names)
                            if self._keep is None or i in self._keep] or None

    def _row(self, row: Sequence[Any]) -> tuple:
        if self._keep is not None:
            row = [row[i] for i in self._keep]
        return tuple(result(v) for v in row)

    def fetchone(self) -> tuple | None:
        if self._streamed is not None:
            return next(iter(self), None)
        row = self._cursor.fetchone() if self._cursor is not None and self.description else None
        return None if row is None else self._row(row)

    def fetchall(self) -> list[tuple]:
        if self._streamed is not None:
            return list(self)
        return [self._row(r) for r in self._cursor.fetchall()] if self._cursor is not None and self.description else []

    def __iter__(self) -> Iterator[tuple]:
        if self._streamed is None:
            return iter(self.fetchall())
        return self._stream()

    def _stream(self) -> Iterator[tuple]:
        """A streamed result's rows, the first (read to learn the columns) included, each once."""
        if self._first is not None:
            first, self._first = self._first, None
            yield self._row(first)
        for row in self._streamed:
            yield self._row(row)


def _migrate(db: PostgresRead) -> None:
    """The migrations (migrations/) run once per schema, under the schema's lock; the DDL statements
    the tables take go through the same translation as every other statement."""
    from campaign_ledger.migrations import migrations

    applied = _applied(db, migrations.name)
    pending = [m for m in migrations._migrations if m.name not in applied]
    if not pending and HELPERS_MARK in applied:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        db.connection.execute(f'CREATE SCHEMA IF NOT EXISTS "{db.schema}"')
        for statement in HELPERS:
            db.connection.execute(statement)
        db.connection.execute("CREATE TABLE IF NOT EXISTS _migrations (migration_set text, name text, "
                              "applied_at text, PRIMARY KEY (migration_set, name))")
        done = _applied(db, migrations.name)  # another process may have run them while this one waited
        for migration in (m for m in pending if m.name not in done):
            migration.fn(db)
            db.connection.execute("INSERT INTO _migrations VALUES (%s, %s, %s)",
                                  [migrations.name, migration.name, str(datetime.now(timezone.utc))])
        if HELPERS_MARK not in done:  # helpers changed since the schema was made: made again above
            db.connection.execute("INSERT INTO _migrations VALUES (%s, %s, %s)",
                                  [migrations.name, HELPERS_MARK, str(datetime.now(timezone.utc))])
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    finally:
        db._shape = None


def _applied(db: PostgresRead, migration_set: str) -> set[str]:
    if db.connection.execute("SELECT to_regclass(%s)", [f'"{db.schema}"._migrations']).fetchone()[0] is None:
        return set()
    return {r[0] for r in db.connection.execute("SELECT name FROM _migrations WHERE migration_set = %s",
                                                [migration_set])}
