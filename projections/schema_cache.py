"""A read file whose schema is read once per catch-up, not once per statement.

sqlite-utils asks SQLite for the table list on every `insert`, `update`, `get` and `rows_where`
(`Table.exists`), and for the columns on every `pks`: about ten schema reads per entry, half of
a rebuild's time. While the read tables catch up, only the migrations (run before) shape the
schema, so `frozen()` keeps what it read until the block ends; any DDL statement run through
the database meanwhile (a table sqlite-utils creates, a column it adds) forgets it at once.

The tables a catch-up appends one row an entry to (the history; Destiny and Doom after each
entry) take their rows through `append`: inside a batch they wait in the memo and go in with one
`executemany` a table when the batch ends (the runner's `flush`), or at once when anything is
about to read or update those tables (`flush` there too) or change the schema; a rolled-back
batch drops them with the memo. Outside a batch, or on a read store that keeps no memo, a row
goes in at once.
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

from sqlite_utils import Database
from sqlite_utils.db import NotFoundError, Table

_DDL = ("CREATE", "ALTER ", "DROP T", "DROP V", "DROP I")


class BatchMemo:
    """A read store that keeps a memo while the read tables catch up (see `memo`): the rows
    `append` and `update_later` hold for the batch, and what the projections read once."""

    _memo: dict[Any, Any] | None = None

    @contextlib.contextmanager
    def frozen(self) -> Iterator[Any]:
        outer = self._memo
        if outer is None:
            self._memo = {}
        try:
            yield self
            if outer is None:
                flush(self)  # rows still waiting: the block ends with them written
        finally:
            if outer is None:
                self._memo = None

    def forget(self) -> None:
        """Drop what the projections kept: rows were rolled back under them (a savepoint)."""
        if self._memo:
            self._memo.clear()


class ReadDatabase(BatchMemo, Database):
    """sqlite-utils' Database, with the schema kept while `frozen()`, and a memo the projections
    may keep rows in for the same span (see `memo`)."""

    _schema: dict[Any, Any] | None = None

    @contextlib.contextmanager
    def frozen(self) -> Iterator["ReadDatabase"]:
        outer = self._schema
        if outer is None:
            self._schema = {}
        try:
            with super().frozen():
                yield self
        finally:
            if outer is None:
                self._schema = None

    def watch_writes(self, columns: list[tuple[str, str]], changed: Any) -> None:
        """Call `changed` after any insert, delete, or change of the named column, on each (table,
        column) of `columns`, whichever code makes it: temporary triggers on this connection only,
        in its temp schema (projections/history.py keeps names while they hold)."""
        self.conn.create_function("campaign_watched_changed", 0, changed)
        for table, column in columns:
            for when, what in (("INSERT", "i"), (f"UPDATE OF [{column}]", "u"), ("DELETE", "d")):
                self.conn.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS [watched_{table}_{what}] AFTER {when} ON "
                                  f"main.[{table}] BEGIN SELECT campaign_watched_changed(); END")

    def _kept(self, key: Any, read: Any) -> Any:
        if self._schema is None:
            return read()
        if key not in self._schema:
            self._schema[key] = read()
        return self._schema[key]

    def table_names(self, fts4: bool = False, fts5: bool = False) -> list[str]:
        return self._kept(("tables", fts4, fts5), lambda: super(ReadDatabase, self).table_names(fts4, fts5))

    def view_names(self) -> list[str]:
        return self._kept(("views",), lambda: super(ReadDatabase, self).view_names())

    def table(self, table_name: str, **kwargs: Any) -> Table:
        if self._schema is None or kwargs:
            return super().table(table_name, **kwargs)
        return self._kept(("table", table_name), lambda: _KeptTable(self, table_name))

    def execute(self, sql: str, parameters: Any = None) -> Any:
        self._forget_on_ddl(sql)
        return super().execute(sql, parameters)

    def executescript(self, sql: str) -> Any:
        self._forget_on_ddl(sql, always=True)
        return super().executescript(sql)

    def _forget_on_ddl(self, sql: str, always: bool = False) -> None:
        if self._schema and (always or sql.lstrip()[:6].upper() in _DDL):
            flush(self)  # the rows waiting go in before the schema changes under them
            self._schema.clear()
            self.forget()


def memo(db: Any) -> dict[Any, Any] | None:
    """A dict the projections may keep what they read in while the read tables catch up (one
    batch: a rollback or any DDL empties it), so each entry need not read it again; None outside
    that, or for a read store that keeps none (they then read every time)."""
    return db._memo if isinstance(db, BatchMemo) else None


class _KeptTable(Table):
    """A table whose columns are read once while its database's schema is kept."""

    @property
    def columns(self) -> list[Any]:
        db = self.db
        if not isinstance(db, ReadDatabase):
            return super().columns
        return db._kept(("columns", self.name), lambda: Table.columns.fget(self))  # type: ignore[attr-defined]


PENDING = "pending rows"  # in the memo: insert statement -> rows waiting for it (see `append`)


def append(db: Any, sql: str, row: Any, kept: Any = False) -> None:
    """Insert `row` with `sql` now, or with the rest of the batch's rows (see the module's doc);
    `kept`: the memo, when the caller has just asked for it (a row an entry: the second ask costs)."""
    if kept is False:
        kept = memo(db)
    if kept is None:
        db.conn.execute(sql, row)
        return
    pending = kept.get(PENDING)
    if pending is None:
        pending = kept[PENDING] = {}
    rows = pending.get(sql)
    if rows is None:
        pending[sql] = [row]
    else:
        rows.append(row)


UPDATES = "pending updates"  # in the memo: (table, key column) -> key -> the row's changes (see `update_later`)


def update_later(db: Any, table: str, column: str, key: Any, changes: dict[str, Any]) -> bool:
    """Keep a row's changes to write with the batch's others, the last value of each column
    winning (a Challenge's row changed at each of its rounds: one UPDATE a row a batch, not one a
    round); False outside a batch, where the caller writes at once. A row not there is an error
    when they are written (the runner then applies the batch entry by entry to name the entry)."""
    kept = memo(db)
    if kept is None:
        return False
    tables = kept.get(UPDATES)
    if tables is None:
        tables = kept[UPDATES] = {}
    rows = tables.get((table, column))
    if rows is None:
        rows = tables[(table, column)] = {}
    row = rows.get(key)
    if row is None:
        rows[key] = dict(changes)
    else:
        row.update(changes)
    return True


def flush(db: Any) -> None:
    """Every waiting row in its table, in the order appended, then every waiting change (before a
    statement reads or updates those tables, and when a batch ends)."""
    kept = memo(db)
    pending = kept.pop(PENDING, None) if kept else None
    if pending:
        for sql, rows in pending.items():
            db.conn.executemany(sql, rows)
    updates = kept.pop(UPDATES, None) if kept else None
    if updates:
        for (table, column), rows in updates.items():
            update_rows(db, table, column, rows)


def update_rows(db: Any, table: str, column: str, rows: dict[Any, dict[str, Any]]) -> None:
    """Each keyed row's changes now, one executemany per set of columns changed; a row not there
    is an error (an entry that changes a row never made)."""
    shaped: dict[tuple[str, ...], list[list[Any]]] = {}
    for key, changes in rows.items():
        shaped.setdefault(tuple(changes), []).append([*changes.values(), key])
    for columns, params in shaped.items():
        sql = f"UPDATE [{table}] SET {', '.join(f'[{c}] = ?' for c in columns)} WHERE [{column}] = ?"
        # one row: execute, whose count every read store gives (PostgreSQL's executemany returns none;
        # rows wait to be written together only in a SQLite read file, see `memo`)
        done = db.conn.execute(sql, params[0]) if len(params) == 1 else db.conn.executemany(sql, params)
        if done.rowcount != len(params):
            raise NotFoundError(f"no {table} row {', '.join(str(p[-1]) for p in params)}")
