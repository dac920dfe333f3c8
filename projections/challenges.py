"""Challenges at a glance: rating, dice resolved, leader, round."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from ledger.challenge import Challenge


TABLES = ("challenges",)

def apply(db: Database, entry: int, e: Any) -> None:
    if isinstance(e, Challenge.Opened):
        db["challenges"].insert({"id": e.originator_id.hex, "name": e.name, "threat": e.threat,
                                 "type": e.type, "rating": e.rating, "resolved": 0, "leader": None,
                                 "round": 1, "phase": "open", "opened": entry})
        return
    if not isinstance(e, Challenge.Event):
        return
    changes: dict[str, Any] = {}
    if isinstance(e, Challenge.LeaderChosen):
        changes["leader"] = e.leader
    if isinstance(e, Challenge.DiceResolved):
        changes["resolved"] = e.resolved
    if isinstance(e, Challenge.Resolved):
        changes["phase"] = "resolved"
    if hasattr(e, "round"):
        changes["round"] = e.round
    if changes:
        db["challenges"].update(e.originator_id.hex, changes)
