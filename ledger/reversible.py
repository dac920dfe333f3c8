"""The base of every aggregate: one event that restores state, so undo is an entry, never a delete."""
from __future__ import annotations

import copy
from typing import Any, ClassVar

from eventsourcing.domain import Aggregate, event


class Reversible(Aggregate):
    """An aggregate whose changes a later entry can reverse exactly.

    The event stores the values to restore (not a recipe), so replaying it needs no
    knowledge of the round it reverses, and works for every ruleset's aggregates.
    """

    # Attributes added after ledgers were written: old events and snapshots lack them, so
    # they read as these values (never mutated in place: bodies assign new values).
    STATE_DEFAULTS: ClassVar[dict[str, Any]] = {}

    def __getattr__(self, name: str) -> Any:
        defaults = type(self).STATE_DEFAULTS
        if name in defaults:
            return copy.deepcopy(defaults[name])
        raise AttributeError(name)

    @event("Reversed")
    def reversed_by(self, unit: str, entries: list, changes: dict) -> None:
        for name, value in changes.items():
            setattr(self, name, copy.deepcopy(value))

    def state(self) -> dict[str, Any]:
        """The game state the aggregate holds (its bookkeeping attributes left out)."""
        state = copy.deepcopy(type(self).STATE_DEFAULTS)
        state.update({k: v for k, v in vars(self).items() if not k.startswith("_")})
        return state
