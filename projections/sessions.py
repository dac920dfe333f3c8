"""Play sessions: the real-world sittings a table plays, and the entries each one holds."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from ledger.campaign import Campaign

TABLES = ("sessions",)
HANDLED = (Campaign.SessionStarted, Campaign.SessionEnded)  # the runner calls `apply` for these only


def apply(db: Database, entry: int, e: Any) -> None:
    if isinstance(e, Campaign.SessionStarted):
        db.table("sessions").insert({"number": e.number, "title": e.title, "first_entry": entry, "last_entry": None,
                               "started": e.timestamp.isoformat(timespec="seconds"), "ended": None})
    elif isinstance(e, Campaign.SessionEnded):
        db.table("sessions").update(e.number, {"last_entry": entry, "ended": e.timestamp.isoformat(timespec="seconds")})


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
