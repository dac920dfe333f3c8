"""What a read table does with each state attribute an undo restores (`Reversible.Reversed.changes`).

A ruleset declares, per aggregate class, one entry per state attribute: a function that writes the
restored value back into its rows, or a reason why no row needs it. A projection that forgot an
attribute left its rows as the undone play had made them, a state no play could reach (issue 33:
an asset's die stayed at the undone size); tests/test_undo_*_tables.py enumerate every attribute
each aggregate can hold and fail on one the map does not name.
"""
from __future__ import annotations

from typing import Any, Callable, Union

from sqlite_utils import Database

# (db, entry of the reversal, the Reversed event, the aggregate's id as hex, the restored value)
Restorer = Callable[[Database, int, Any, str, Any], None]


class Kept(str):
    """An attribute no read table needs restored, and why (a reason, never a silent gap)."""


FIXED = Kept("set when made and never changed after: only `unmade` takes it away")
UNMADE = Kept("undo unmade the thing: runner.unmake deletes its rows in the ruleset's OWNED tables")

Restorers = dict[str, Union[Restorer, Kept]]


def restore(db: Database, entry: int, e: Any, restorers: Restorers, who: str) -> None:
    """Write back every attribute the reversal restored, in the order the map declares them."""
    for name, restorer in restorers.items():
        if name in e.changes and not isinstance(restorer, Kept):
            restorer(db, entry, e, who, e.changes[name])


def entries_in(e: Any) -> tuple[str, list[int]]:
    """`entry IN (...)` over the reversed entries, and its arguments: the rows those entries made."""
    if not e.entries:
        return "0 = 1", []
    return f"entry IN ({','.join('?' * len(e.entries))})", list(e.entries)


def mark_reversed(db: Database, entry: int, e: Any, logs: tuple[str, ...]) -> None:
    """A log keeps every row: those the reversed entries wrote say so, with the entry of the undo
    that reversed them (as the history's rows do: projections/history.py)."""
    where, args = entries_in(e)
    for log in logs:
        db.execute(f"UPDATE [{log}] SET reversed_at = ? WHERE reversed_at IS NULL AND {where}", [entry, *args])
