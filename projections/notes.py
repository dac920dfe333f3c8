"""What the read tables did with an entry they could only apply by working around it.

Ledgers written before the commands validated everything may hold such entries (a second
trait of one name for one owner). Refusing them would stop the read tables there for good;
instead the projection applies the entry as the aggregates do (the later trait wins) and
notes it here, so catching up and `rebuild` warn once, naming the entry, and `audit` lists it.
"""
from __future__ import annotations

from sqlite_utils import Database

TABLES = ("read_notes",)
HANDLED = ()  # no event of its own (runner: never called)


def apply(db: Database, entry: int, e: object) -> None:
    """Notes are written by the projections that need them (see note), not from events."""


def note(db: Database, entry: int, text: str) -> None:
    db.execute("INSERT INTO read_notes (entry, note) VALUES (?, ?) ON CONFLICT(entry) DO UPDATE SET "
               "note = note || ' ' || excluded.note", [entry, text])


def since(db: Database, after: int = 0) -> list[dict]:
    """The notes on entries after `after`, in order."""
    rows = db.execute("SELECT entry, note FROM read_notes WHERE entry > ? ORDER BY entry", [after]).fetchall()
    return [{"entry": r[0], "note": r[1]} for r in rows]
