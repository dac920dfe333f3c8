"""One read table on PostgreSQL, with the part of sqlite-utils' Table the projections use.

The projections call `insert`, `upsert`, `update`, `get`, `rows_where`... as they do on SQLite;
each becomes one statement through the database's translation (projections/postgres_sql.py).
A table whose key is not one integer gets a `rowid` column, filled in insertion order, because
SQLite gives every such table one and reads order by it (`order_by="entry, rowid"`, and a
`rows_where` without order returns rows in rowid order): rows come back in the same order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from sqlite_utils.db import NotFoundError

from campaign_ledger.projections.postgres_sql import on_conflict

_TYPES = {str: 'text COLLATE "C"', int: "bigint", float: "double precision", bytes: "bytea", bool: "bigint",
          dict: 'text COLLATE "C"', list: 'text COLLATE "C"'}


@dataclass(frozen=True)
class Column:
    """What `Table.columns` gives in sqlite-utils (the name is all the callers read)."""
    name: str
    type: str


class PostgresTable:
    """sqlite-utils' Table subset over one PostgreSQL table of the read schema."""

    def __init__(self, db: Any, name: str) -> None:
        self.db, self.name = db, name

    # The shape: created by the migrations, read from the catalog once per connection.
    def exists(self) -> bool:
        return bool(self.db.shape(self.name))

    @property
    def columns(self) -> list[Column]:
        return [Column(n, t) for n, t in self.db.shape(self.name) if n != "rowid"]

    @property
    def pks(self) -> list[str]:
        return list(self.db.keys(self.name)) or ["rowid"]

    def create(self, columns: dict[str, Any], pk: str | Sequence[str] | None = None, **_: Any) -> "PostgresTable":
        keys = [pk] if isinstance(pk, str) else list(pk or ())
        parts = [f'"{name}" {_TYPES.get(kind, "text")}' for name, kind in columns.items()]
        if not (len(keys) == 1 and columns.get(keys[0]) is int):
            parts.append('"rowid" bigserial')  # see the module's docstring
        if keys:
            parts.append("PRIMARY KEY (" + ", ".join(f'"{k}"' for k in keys) + ")")
        self.db.execute(f'CREATE TABLE "{self.name}" ({", ".join(parts)})')
        return self

    def add_column(self, name: str, kind: Any = str) -> "PostgresTable":
        self.db.execute(f'ALTER TABLE "{self.name}" ADD COLUMN "{name}" {_TYPES.get(kind, "text")}')
        return self

    def enable_fts(self, columns: Sequence[str], **_: Any) -> "PostgresTable":
        """PostgreSQL's full-text index on the column (one: the history line), not an FTS5 table."""
        self.db.execute(f'CREATE INDEX "{self.name}_fts" ON "{self.name}" USING gin '
                        f"(to_tsvector('simple'::regconfig, \"{columns[0]}\"))")
        return self

    # Writes.
    def insert(self, record: dict[str, Any], pk: Any = None, replace: bool = False, ignore: bool = False,
               **_: Any) -> "PostgresTable":
        return self.insert_all([record], pk=pk, replace=replace, ignore=ignore)

    def insert_all(self, records: Iterable[dict[str, Any]], pk: Any = None, replace: bool = False,
                   ignore: bool = False, **_: Any) -> "PostgresTable":
        groups: dict[tuple[str, ...], list[list[Any]]] = {}
        for record in records:
            groups.setdefault(tuple(record), []).append(list(record.values()))
        for columns, rows in groups.items():
            sql = self._insert_sql(columns)
            if replace:
                sql += on_conflict(self.pks, columns)
            elif ignore:
                sql += " ON CONFLICT DO NOTHING"
            self.db.executemany(sql, rows)
        return self

    def upsert(self, record: dict[str, Any], pk: Any = None, **_: Any) -> "PostgresTable":
        """Insert the row, or update the columns given on the row of its key (sqlite-utils' upsert)."""
        keys = [pk] if isinstance(pk, str) else list(pk or self.pks)
        self.db.execute(self._insert_sql(tuple(record)) + on_conflict(keys, list(record)), list(record.values()))
        return self

    def update(self, pk_values: Any, updates: dict[str, Any] | None = None, **_: Any) -> "PostgresTable":
        where, args = self._key_where(pk_values)
        if not updates:
            self.get(pk_values)
            return self
        sets = ", ".join(f"[{c}] = ?" for c in updates)
        cursor = self.db.execute(f"UPDATE [{self.name}] SET {sets} WHERE {where}", [*updates.values(), *args])
        if cursor.rowcount == 0:
            raise NotFoundError
        return self

    def delete(self, pk_values: Any) -> "PostgresTable":
        where, args = self._key_where(pk_values)
        self.db.execute(f"DELETE FROM [{self.name}] WHERE {where}", args)
        return self

    def delete_where(self, where: str | None = None, where_args: Any = None, **_: Any) -> "PostgresTable":
        self.db.execute(f"DELETE FROM [{self.name}]" + (f" WHERE {where}" if where else ""), where_args or [])
        return self

    # Reads.
    def get(self, pk_values: Any) -> dict[str, Any]:
        where, args = self._key_where(pk_values)
        for row in self.rows_where(where, args, limit=1):
            return row
        raise NotFoundError

    @property
    def rows(self) -> Iterator[dict[str, Any]]:
        return self.rows_where()

    @property
    def count(self) -> int:
        return self.count_where()

    def count_where(self, where: str | None = None, where_args: Any = None, **_: Any) -> int:
        sql = f"SELECT count(*) FROM [{self.name}]" + (f" WHERE {where}" if where else "")
        return self.db.execute(sql, where_args or []).fetchone()[0]

    def rows_where(self, where: str | None = None, where_args: Any = None, order_by: str | None = None,
                   select: str = "*", limit: int | None = None, offset: int | None = None,
                   **_: Any) -> Iterator[dict[str, Any]]:
        if select == "*":
            select = ", ".join(f'"{c.name}"' for c in self.columns)
        sql = f"SELECT {select} FROM [{self.name}]" + (f" WHERE {where}" if where else "")
        sql += f" ORDER BY {order_by or self._rowid()}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        if offset is not None:
            sql += f" OFFSET {int(offset)}"
        cursor = self.db.execute(sql, where_args or [])
        names = [d[0] for d in cursor.description]
        for row in cursor.fetchall():
            yield dict(zip(names, row))

    def _rowid(self) -> str:
        """SQLite's order when none is asked: by rowid (the one integer key, or the added column)."""
        keys = self.db.keys(self.name)
        return f'"{keys[0]}"' if len(keys) == 1 and keys[0] != "rowid" and any(
            n == keys[0] and t == "bigint" for n, t in self.db.shape(self.name)) else '"rowid"'

    def _insert_sql(self, columns: Sequence[str]) -> str:
        return (f"INSERT INTO [{self.name}] ({', '.join(f'[{c}]' for c in columns)}) "
                f"VALUES ({', '.join('?' for _ in columns)})")

    def _key_where(self, pk_values: Any) -> tuple[str, list[Any]]:
        values = list(pk_values) if isinstance(pk_values, (list, tuple)) else [pk_values]
        return " AND ".join(f"[{k}] = ?" for k in self.pks), values
