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


def disaster_v1_v2(state: dict[str, Any]) -> None:
    """A Challenge-turn Disaster was recorded after its round had ended, so it named the next
    round (a Disaster is -1 successes or fewer, which always ends the Challenge turn)."""
    if state.get("side") == "challenge":
        state["round"] = state["round"] - 1


def condition_treated_v1_v2(state: dict[str, Any]) -> None:
    """An action-dice condition gone before `eased` was kept: read as treated, as its line said."""
    state["eased"] = False
