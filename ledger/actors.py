"""Who wrote an entry: its actor (the GM, or a player's seat) and the channel it came by (issue 38).

Each command's row in the command log keeps both in its detail ("actor", "channel", and
"confirmed_by" when the GM accepted a player's pending action). That row is inside the hash chain
(chain version 2), so an edit to an actor is caught by `audit` as any other edit. Rows written
before this keep neither: they read as the GM's, by an unrecorded channel.
"""
from __future__ import annotations

from typing import Any, Mapping

from campaign_ledger.ledger.errors import BadInput

GM = "gm"
SEAT = "seat:"  # a player's seat: "seat:Kira" (a seat is named by its character)
CHANNELS = ("cli", "shell", "page", "api", "import")
UNRECORDED = "unrecorded"  # the channel of an entry written before actors were kept


def actor(value: Any, what: str = "An actor") -> str:
    """An actor string as stored: "gm", or "seat:<name>" with a name; anything else is refused."""
    if not isinstance(value, str):
        raise BadInput(f"{what} is 'gm' or 'seat:NAME', not {value!r}.")
    if value == GM:
        return value
    name = value[len(SEAT):] if value.startswith(SEAT) else ""
    if not name.strip() or name != name.strip() or any(ch in name for ch in "\n\r\t"):
        raise BadInput(f"{what} is 'gm' or 'seat:NAME', not {value!r}.")
    return value


def channel(value: Any) -> str:
    """A channel as stored: one of CHANNELS."""
    if value not in CHANNELS:
        raise BadInput(f"A channel is one of {', '.join(CHANNELS)}, not {value!r}.")
    return value


def recorded(actor_: str, channel_: str, confirmed_by: str | None = None) -> dict[str, str]:
    """What a command's detail keeps of who wrote it."""
    who = {"actor": actor_, "channel": channel_}
    if confirmed_by:
        who["confirmed_by"] = confirmed_by
    return who


def of(detail: Mapping[str, Any] | None) -> tuple[str, str, str | None]:
    """(actor, channel, confirmed_by) of a stored command detail; an older row's: the GM's, unrecorded."""
    detail = detail or {}
    return (detail.get("actor") or GM, detail.get("channel") or UNRECORDED, detail.get("confirmed_by") or None)


def is_seat(actor_: str | None) -> bool:
    return bool(actor_) and actor_ != GM
