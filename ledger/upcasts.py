"""Event-version changes: how an event written by an older version of the program reads today.

Each function takes the stored state of an old event and brings it to the next version
(eventsourcing calls `upcast_vN_vN+1` on the event class). Old ledgers must always load:
tests/fixtures holds one written before these changes.
"""
from typing import Any


def trait_v1_v2(state: dict[str, Any]) -> None:
    """Traits written before frequency limits and Challenge types existed: always, any type."""
    state["frequency"] = "always"
    state["types"] = []
