"""A stretch of the history read round by round: the shape every session log export shares.

Consecutive history rows of the same round form a group; rows of no round form the
"between rounds" groups. Each group says what its entries did to the balances.
Rows are streamed from SQL, so a long campaign never sits in memory at once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from sqlite_utils import Database


@dataclass
class Group:
    round: str | None
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def title(self) -> str:
        if self.round is None:
            return "Between rounds"
        name, _, number = self.round.rpartition(":")
        return f"{name}, round {number}"

    @property
    def first(self) -> int:
        return self.rows[0]["entry"]

    @property
    def last(self) -> int:
        return self.rows[-1]["entry"]


def rows(db: Database, first: int, last: int) -> Iterator[dict[str, Any]]:
    cursor = db.execute("SELECT entry, time, type, round, line FROM history WHERE entry BETWEEN ? AND ? "
                        "ORDER BY entry", [first, last])
    names = [d[0] for d in cursor.description]
    for row in cursor:
        yield dict(zip(names, row))


def groups(db: Database, first: int, last: int) -> Iterator[Group]:
    current: Group | None = None
    for row in rows(db, first, last):
        if current is None or row["round"] != current.round:
            if current is not None:
                yield current
            current = Group(row["round"])
        current.rows.append(row)
    if current is not None:
        yield current


def value_at(db: Database, balance: str, entry: int) -> int:
    row = db.execute("SELECT value FROM balance_changes WHERE balance = ? AND entry <= ? ORDER BY entry DESC "
                     "LIMIT 1", [balance, entry]).fetchone()
    return row[0] if row else 0


def changes(db: Database, first: int, last: int) -> list[tuple[str, int, int]]:
    """Every balance a stretch of entries changed: (balance, before, after)."""
    names = [r[0] for r in db.execute("SELECT DISTINCT balance FROM balance_changes WHERE entry BETWEEN ? AND ? "
                                      "ORDER BY balance", [first, last])]
    result = [(n, value_at(db, n, first - 1), value_at(db, n, last)) for n in names]
    return [(n, before, after) for n, before, after in result if before != after]


def summary(db: Database, first: int, last: int) -> str:
    """'Destiny 3 -> 2, Doom 3 -> 4, Bo:stress 0 -> 5.' (Destiny and Doom first)."""
    found = changes(db, first, last)
    order = {"destiny": 0, "doom": 1}
    found.sort(key=lambda c: (order.get(c[0], 2), c[0]))
    parts = [f"{_label(n)} {before} -> {after}" for n, before, after in found]
    return (", ".join(parts) + ".") if parts else "No balance changed."


def _label(balance: str) -> str:
    if balance in ("destiny", "doom"):
        return balance.capitalize()
    owner, _, kind = balance.rpartition(":")
    return f"{owner} {kind.capitalize()}" if owner else balance
