"""Every change of every balance (Destiny, Doom, a PC's Stress...), with the running value.

A statement is read straight off this table; any projection that keeps a balance
records its changes here with `record`.
"""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.projections.reversal_map import mark_reversed

TABLES = ("balance_changes",)
HANDLED = (Reversible.Reversed,)  # the runner calls `apply` for these only


def apply(db: Database, entry: int, e: Any) -> None:
    """Balances are recorded by the projections that keep them; the changes an undo reversed stay,
    marked with the undo's entry (a statement is a log: the undo adds the value it restored)."""
    mark_reversed(db, entry, e, TABLES)


def record(db: Database, entry: int, balance: str, value: int) -> None:
    row = db.execute("SELECT value FROM balance_changes WHERE balance = ? ORDER BY entry DESC LIMIT 1",
                     [balance]).fetchone()
    previous = row[0] if row else 0
    if row is None or value != previous:
        db.execute("INSERT OR REPLACE INTO balance_changes (entry, balance, value, delta) VALUES (?, ?, ?, ?)",
                   [entry, balance, value, value - previous])
