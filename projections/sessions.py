"""Play sessions: the real-world sittings a table plays, and the entries each one holds."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.ids import CAMPAIGN_ID
from campaign_ledger.ledger.reversible import Reversible

TABLES = ("sessions",)
HANDLED = (Campaign.SessionStarted, Campaign.SessionEnded, Reversible.Reversed)  # the runner calls `apply` for these
RESTORED = {Campaign: ("sessions", "session_open")}  # the campaign's attributes these rows follow through an undo


def apply(db: Database, entry: int, e: Any) -> None:
    if isinstance(e, Campaign.SessionStarted):
        db.table("sessions").insert({"number": e.number, "title": e.title, "first_entry": entry, "last_entry": None,
                               "started": e.timestamp.isoformat(timespec="seconds"), "ended": None})
    elif isinstance(e, Campaign.SessionEnded):
        db.table("sessions").update(e.number, {"last_entry": entry, "ended": e.timestamp.isoformat(timespec="seconds")})
    elif isinstance(e, Reversible.Reversed) and e.originator_id == CAMPAIGN_ID and \
            not e.changes.keys().isdisjoint(RESTORED[Campaign]):
        _reversed(db, e.changes)


def _reversed(db: Database, changes: dict[str, Any]) -> None:
    """An undo of `session start` or `session end`: the rows match the sessions the campaign holds
    again, as a campaign that never played the undone commands lists them (a session it never
    started has no row, so starting the next one takes its number; one it never ended is open)."""
    count = changes.get("sessions", db.execute("SELECT max(number) FROM sessions").fetchone()[0] or 0)
    db.execute("DELETE FROM sessions WHERE number > ?", [count])
    if "session_open" in changes and changes["session_open"] is not None:
        db.execute("UPDATE sessions SET last_entry = NULL, ended = NULL WHERE number = ?", [count])


def entries_of(db: Database, number: int) -> tuple[int, int] | None:
    """First and last entry of a session (an open one runs to the newest entry)."""
    rows = list(db.table("sessions").rows_where("number = ?", [number]))
    if not rows:
        return None
    last = rows[0]["last_entry"]
    if last is None:
        last = db.execute("SELECT max(entry) FROM history").fetchone()[0] or rows[0]["first_entry"]
    return rows[0]["first_entry"], last


def all_sessions(db: Database) -> list[dict[str, Any]]:
    return list(db.table("sessions").rows_where(order_by="number"))
