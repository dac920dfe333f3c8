"""The GM's notes as a table: what each is about, its tags, and whether undo reversed it.

The notes' text is also in the history (one line per note), which the full-text index
covers; this table answers `history --tag` and keeps GM-only notes out of exports.
"""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.reversible import Reversible

TABLES = ("notes",)
HANDLED = (Campaign.NoteTaken, Reversible.Reversed)  # the runner calls `apply` for these only


def apply(db: Database, entry: int, e: Any) -> None:
    if isinstance(e, Campaign.NoteTaken):
        db.execute("INSERT INTO notes (entry, time, text, tags, about, round, target_entry, gm_only) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   [entry, e.timestamp.isoformat(timespec="seconds"), e.text, json.dumps(list(e.tags)),
                    e.about, e.round, e.entry, int(bool(e.gm_only))])
    elif isinstance(e, Reversible.Reversed) and e.entries:
        db.execute("UPDATE notes SET reversed_at = ? WHERE reversed_at IS NULL AND entry BETWEEN ? AND ? "
                   "AND entry IN (SELECT value FROM json_each(?))",
                   [entry, min(e.entries), max(e.entries), json.dumps(list(e.entries))])


def line(e: Any) -> str:
    """The history line of a note: what it is about first, then the text, tags and who may read it."""
    where = (f" about {e.about}" if e.about else f" on round {e.round}" if e.round
             else f" on entry #{e.entry}" if e.entry is not None else "")
    tags = " (" + " ".join(f"#{t}" for t in e.tags) + ")" if e.tags else ""
    return f"Note{where}: {e.text}{tags}" + (" (GM only)" if e.gm_only else "")


def hidden_sql(gm_notes: bool, column: str = "entry") -> str:
    """A condition leaving GM-only notes out of an export (none when the GM asks for them)."""
    return "1" if gm_notes else f"{column} NOT IN (SELECT entry FROM notes WHERE gm_only = 1)"
