"""Players' actions waiting on the GM (`serve --players confirm`): kept in the server's memory only,
never in the ledger, until the GM accepts one (then it is performed, and recorded with the GM as
its confirmer) or turns it down (then it is dropped, and was never anywhere but here).

Everything here runs on the server's event loop, so a state moves once: a second accept of the
same action finds it no longer pending. A submission's own key names it too, so a double tap
queues one action.
"""
from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any

PENDING, ACCEPTING, ACCEPTED, DECLINED, REFUSED = "pending", "accepting", "accepted", "declined", "refused"
KEPT = 20  # settled actions remembered per seat, for its page


@dataclass
class Waiting:
    """One player's action waiting on the GM. `token` is the seat's token when it was sent: at
    accept time it must still be the seat's (a revoked or rotated seat's action is not performed)."""

    id: str
    seat: dict[str, Any]
    token: str
    action: str
    label: str
    fields: dict[str, Any]
    key: str
    state: str = PENDING
    said: str = ""  # the result's or the refusal's line, once settled

    def shown(self) -> dict[str, Any]:
        """What the GM's panel and `GET /gm/pending` show (never the token)."""
        return {"id": self.id, "seat": self.seat["seat"], "player": self.seat.get("player"),
                "actor": self.seat["actor"], "action": self.action, "label": self.label,
                "fields": self.fields, "key": self.key, "state": self.state, "said": self.said}


@dataclass
class Pending:
    items: dict[str, Waiting] = field(default_factory=dict)
    numbers: Any = field(default_factory=lambda: itertools.count(1))
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def add(self, seat: dict[str, Any], token: str, action: str, label: str, fields: dict[str, Any],
            key: str) -> Waiting:
        """Queue an action; the same seat's same key again is the same action (a double tap), unless
        that one was turned down (then the player sends it again on purpose)."""
        for item in self.items.values():
            if item.seat["seat"] == seat["seat"] and item.key == key and item.state not in (DECLINED, REFUSED):
                return item
        item = Waiting(str(next(self.numbers)), seat, token, action, label, dict(fields), key)
        self.items[item.id] = item
        self._forget(seat["seat"])
        self._wake()
        return item

    def take(self, id_: str) -> Waiting | None:
        """The pending action to accept, now marked as being accepted; None if there is none."""
        item = self.items.get(id_)
        if item is None or item.state != PENDING:
            return None
        item.state = ACCEPTING
        return item

    def settle(self, item: Waiting, state: str, said: str = "") -> None:
        item.state, item.said = state, said
        self._wake()

    def waiting(self) -> list[Waiting]:
        return [i for i in self.items.values() if i.state == PENDING]

    def of_seat(self, seat: str) -> list[Waiting]:
        return [i for i in self.items.values() if i.seat["seat"] == seat]

    def _forget(self, seat: str) -> None:
        """Keep the settled actions of a seat to the last KEPT (the pending ones all stay)."""
        settled = [i for i in self.of_seat(seat) if i.state in (ACCEPTED, DECLINED, REFUSED)]
        for item in settled[:-KEPT]:
            del self.items[item.id]

    def _wake(self) -> None:
        woken, self.changed = self.changed, asyncio.Event()
        woken.set()
