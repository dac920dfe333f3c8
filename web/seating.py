"""What the player server (web/players.py) and the GM's panel (web/gm_panel.py) share: the
library's side of a seat (`Seating`), the server's settings for players (`Players`), and how one
library call runs and answers.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.responses import PlainTextResponse, Response

from campaign_ledger.errors import CampaignError, refused
from campaign_ledger.web.pending import Pending
from campaign_ledger.web.seat_auth import RateLimit

MODES = ("off", "on", "confirm")
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "X-Frame-Options": "DENY", "Content-Security-Policy": "frame-ancestors 'none'"}


class Seating:
    """What the server asks of the library: the seat of a token (campaign_ledger/seats.py) and what
    a seat may do (campaign_ledger/players/). Each acting handle is kept, so each worker thread
    keeps the campaign open between requests as the HTTP API's handle does."""

    def __init__(self) -> None:
        self.acting_handles: dict[tuple[str, str | None], Any] = {}

    def acting(self, handle: Any, seat: dict[str, Any], confirmed_by: str | None = None) -> Any:
        key = (seat["actor"], confirmed_by)
        if key not in self.acting_handles:
            self.acting_handles[key] = handle.acting(seat["actor"], "page", confirmed_by=confirmed_by)
        return self.acting_handles[key]

    def seat(self, handle: Any, token: str) -> dict[str, Any] | None:
        return handle.seat_by_token(token)

    def actions(self, handle: Any, seat: dict[str, Any]) -> list[dict[str, Any]]:
        from campaign_ledger import players

        return players.actions(self.acting(handle, seat), seat)

    def check(self, handle: Any, seat: dict[str, Any], action: str, fields: dict[str, Any]) -> None:
        from campaign_ledger import players

        players.check(self.acting(handle, seat), seat, action, fields)

    def perform(self, handle: Any, seat: dict[str, Any], action: str, fields: dict[str, Any], key: str,
                confirmed_by: str | None = None) -> dict[str, Any]:
        from campaign_ledger import players

        return players.perform(self.acting(handle, seat, confirmed_by), seat, action, fields, key)


@dataclass
class Players:
    """How this server takes players' actions: `mode` off, on or confirm; `check_every`: seconds
    between two looks at an open stream's seat when nothing else happens."""

    mode: str = "off"
    seating: Seating = field(default_factory=Seating)
    limit: RateLimit = field(default_factory=RateLimit)
    check_every: float = 2.0
    pending: Pending = field(default_factory=Pending)
    writing: threading.Lock = field(default_factory=threading.Lock)  # one player's action at a time


async def call(function: Callable[..., Any], *args: Any) -> Any:
    """A library call in a worker thread, any failure as the one refusal the library would make."""
    try:
        return await run_in_threadpool(function, *args)
    except CampaignError:
        raise
    except Exception as e:
        raise refused(e, {}) from None


def performed(players: Players, handle: Any, seat: dict[str, Any], action: str, fields: dict[str, Any],
              key: str, confirmed_by: str | None) -> dict[str, Any]:
    """Perform one player's action (in a worker thread): one at a time in this server, so two
    players acting at once are recorded one after the other, never lost to each other."""
    with players.writing:
        return players.seating.perform(handle, seat, action, fields, key, confirmed_by)


def said(report: dict[str, Any]) -> str:
    """A write's report in the GM's words, as the CLI prints it: its history lines, one a line."""
    if report.get("repeated"):
        return "Already recorded (the same submission again)."
    return "\n".join(line["line"] for line in report.get("history", [])) or "Recorded."


def text(status: int, line: str) -> Response:
    """A refusal of a page's route (a browser's navigation, not a script's call): one plain line."""
    return PlainTextResponse(line + "\n", status_code=status, headers=HEADERS)
