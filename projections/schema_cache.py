"""A read file whose schema is read once per catch-up, not once per statement.

sqlite-utils asks SQLite for the table list on every `insert`, `update`, `get` and `rows_where`
(`Table.exists`), and for the columns on every `pks`: about ten schema reads per entry, half of
a rebuild's time. While the read tables catch up, only the migrations (run before) shape the
schema, so `frozen()` keeps what it read until the block ends; any DDL statement run through
the database meanwhile (a table sqlite-utils creates, a column it adds) forgets it at once.
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

from sqlite_utils import Database
from sqlite_utils.db import Table

_DDL = ("CREATE", "ALTER ", "DROP T", "DROP V", "DROP I")


class ReadDatabase(Database):
    """sqlite-utils' Database, with the schema kept while `frozen()`, and a memo the projections
    may keep rows in for the same span (see `memo`)."""

    _schema: dict[Any, Any] | None = None
    _memo: dict[Any, Any] | None = None

    @contextlib.contextmanager
    def frozen(self) -> Iterator["ReadDatabase"]:
        outer = self._schema
        if outer is None:
            self._schema, self._memo = {}, {}
        try:
            yield self
        finally:
            if outer is None:
                self._schema = self._memo = None

    def forget(self) -> None:
        """Drop what the projections kept: rows were rolled back under them (a savepoint)."""
        if self._memo:
            self._memo.clear()

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
            self._schema.clear()
            self.forget()


def memo(db: Any) -> dict[Any, Any] | None:
    """A dict the projections may keep what they read in while the read tables catch up (one
    batch: a rollback or any DDL empties it), so each entry need not read it again; None outside
    that, or for a read store that is not this SQLite one (they then read every time)."""
    return getattr(db, "_memo", None) if isinstance(db, ReadDatabase) else None


class _KeptTable(Table):
    """A table whose columns are read once while its database's schema is kept."""

    @property
    def columns(self) -> list[Any]:
        db = self.db
        if not isinstance(db, ReadDatabase):
            return super().columns
        return db._kept(("columns", self.name), lambda: Table.columns.fget(self))  # type: ignore[attr-defined]
