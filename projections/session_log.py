"""A stretch of the history read round by round: the shape every session log export shares.

Each round is one group, headed once, however its entries interleave with another
Challenge's: its entries, and the entries of no round made while it was being played
(a trait added mid-turn), stand under its heading, groups in the order they began.
Rows of no round outside every round form the "between rounds" groups. An undone
round stays, marked with the entry that reversed it. Rows are streamed from SQL; only
the rounds still being played sit in memory.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from sqlite_utils import Database

from campaign_ledger.projections import long_reads
from campaign_ledger.projections.campaign_notes import hidden_sql


@dataclass
class Group:
    round: str | None
    rows: list[dict[str, Any]] = field(default_factory=list)
    ends: int | None = None  # a round's last entry in the range: complete once the log reaches it

    @property
    def title(self) -> str:
        if self.round is None:
            return "Between rounds"
        name, _, number = self.round.rpartition(":")
        return f"{name}, round {number}" if name and number.isdigit() else self.round

    @property
    def first(self) -> int:
        return self.rows[0]["entry"]

    @property
    def last(self) -> int:
        return self.rows[-1]["entry"]

    @property
    def entries(self) -> list[int]:
        return [r["entry"] for r in self.rows]

    @property
    def reversed_at(self) -> int | None:
        """The entry that undid this round, when every entry of the round itself was undone."""
        own = [r.get("reversed_at") for r in self.rows if r["round"] == self.round]
        return min(own) if self.round and own and all(own) else None


def rows(db: Database, first: int, last: int, gm_notes: bool = False) -> Iterator[dict[str, Any]]:
    """The history rows of a stretch, GM-only notes left out unless the GM asks for them."""
    cursor = long_reads.cursor(db, "SELECT entry, time, type, round, line, reversed_at, actor, channel, confirmed_by "
                               "FROM history "
                               f"WHERE entry BETWEEN ? AND ? AND {hidden_sql(gm_notes)} ORDER BY entry", [first, last])
    names = [d[0] for d in cursor.description]
    for row in cursor:
        yield dict(zip(names, row))


def groups(db: Database, first: int, last: int, gm_notes: bool = False) -> Iterator[Group]:
    grouper = Grouper(spans(db, first, last))
    for row in rows(db, first, last, gm_notes):
        yield from grouper.add(row)
    yield from grouper.finish()


def spans(db: Database, first: int, last: int) -> dict[str, tuple[int, int]]:
    """Each round's first and last entry in the range."""
    return {r[0]: (r[1], r[2]) for r in db.execute(
        "SELECT round, min(entry), max(entry) FROM history WHERE entry BETWEEN ? AND ? AND round IS NOT NULL "
        "GROUP BY round", [first, last])}


class Grouper:
    """Rows in entry order in, whole groups out, in the order they began."""

    def __init__(self, spans: dict[str, tuple[int, int]]) -> None:
        self.spans = spans
        self.pending: list[Group] = []
        self.open: dict[str, Group] = {}

    def add(self, row: dict[str, Any]) -> Iterator[Group]:
        key = row["round"] or self._enclosing(row["entry"])
        if key is None:
            if not self.pending or self.pending[-1].round is not None:
                self.pending.append(Group(None))
            group = self.pending[-1]
        else:
            group = self.open.get(key)
            if group is None:
                group = self.open[key] = Group(key, ends=self.spans[key][1])
                self.pending.append(group)
        group.rows.append(row)
        return self._complete(row["entry"], group)

    def _enclosing(self, entry: int) -> str | None:
        """The round being played at this entry (the latest begun, if two are)."""
        inside = [g for g in self.open.values() if g.ends is not None and g.first < entry < g.ends]
        return max(inside, key=lambda g: g.first).round if inside else None

    def _complete(self, entry: int, current: Group) -> Iterator[Group]:
        while self.pending:
            head = self.pending[0]
            done = head.ends <= entry if head.round else head is not current
            if not done:
                return
            self.pending.pop(0)
            self.open.pop(head.round or "", None)
            yield head

    def finish(self) -> Iterator[Group]:
        yield from self.pending
        self.pending, self.open = [], {}


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
    parts = [f"{_label(n)} {_valued(n, before)} -> {_valued(n, after)}" for n, before, after in found]
    return (", ".join(parts) + ".") if parts else "No balance changed."


def _label(balance: str) -> str:
    if balance in ("destiny", "doom"):
        return balance.capitalize()
    owner, _, kind = balance.rpartition(":")
    return f"{owner} {kind.capitalize()}" if owner else balance.removesuffix(" %")


def _valued(balance: str, value: int) -> str:
    """A decision-2d6 pool's value as its line says it: `60%`, a supply die `D8` (0 is `Empty`)."""
    if balance.endswith(" %"):
        return f"{value}%"
    if balance.endswith(" supply"):
        return f"D{value}" if value else "Empty"
    return str(value)


def summary_of(db: Database, group: Group) -> str:
    """What a group's own entries did to the balances (an interleaved round's are not its own)."""
    if group.rows and group.last - group.first + 1 == len(group.rows):
        return summary(db, group.first, group.last)
    totals: dict[str, int] = {}
    for entry in group.entries:
        for balance, delta in db.execute("SELECT balance, delta FROM balance_changes WHERE entry = ?", [entry]):
            totals[balance] = totals.get(balance, 0) + delta
    found = [(n, value_at(db, n, group.first - 1), value_at(db, n, group.first - 1) + d)
             for n, d in totals.items() if d]
    order = {"destiny": 0, "doom": 1}
    found.sort(key=lambda c: (order.get(c[0], 2), c[0]))
    parts = [f"{_label(n)} {_valued(n, before)} -> {_valued(n, after)}" for n, before, after in found]
    return (", ".join(parts) + ".") if parts else "No balance changed."
