"""Player seats (issue 38): a seat gives one player their own character at the table, through an
invite link whose secret token the ledger never holds.

A seat is an aggregate of its own, one per character (its id from the character's: ledger/ids.py),
so each seat's add, revoke and rotate is a unit undo reverses alone. The token is derived, never
stored: HMAC-SHA256 of the campaign's seat key (kept outside the ledger: beside the file or in the
environment) over the seat's own random id and its generation. Only sha256(token) is in the seat's
events, so the ledger can tell a token that is the seat's from one that is not, and `serve` can
print every link again; a rotate bumps the generation (a new link), and undoing it brings the
old generation, and so the old link, back exactly as the ledger says.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import uuid
from typing import Any

from eventsourcing.domain import event

from campaign_ledger.ledger import rulesets, values
from campaign_ledger.ledger.errors import NotFound, RuleViolation
from campaign_ledger.ledger.ids import seat_id
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.table import Table

ACTIVE, REVOKED = "active", "revoked"


class Seat(Reversible):
    """One character's seat: who plays it, whether it is open, and which link opens it now."""

    WORDS = {"token_hash": lambda held: f"{held[:8]}..."}  # an undo's lines: the hash's start is enough to tell two

    @staticmethod
    def create_id(character: str, name: str, player: str, seat: str, token_hash: str) -> Any:
        return seat_id(uuid.UUID(character))

    @event("Added")
    def __init__(self, character: str, name: str, player: str, seat: str, token_hash: str) -> None:
        self.character = character  # the character's aggregate id (hex)
        self.name = name  # the character's name as recorded when the seat was given
        self.player = player
        self.seat = seat  # the seat's own random id, which its token is derived from (never secret alone)
        self.token_hash = token_hash
        self.generation = 1
        self.status = ACTIVE

    @event("Renewed")
    def renewed(self, name: str, player: str, seat: str, token_hash: str) -> None:
        """A character whose seat was revoked is seated again: a new seat id, so no old link opens it."""
        self.name, self.player, self.seat, self.token_hash = name, player, seat, token_hash
        self.generation = 1
        self.status = ACTIVE

    @event("Revoked")
    def revoked(self, name: str, player: str) -> None:
        self.status = REVOKED

    @event("Rotated")
    def rotated(self, name: str, generation: int, token_hash: str) -> None:
        self.generation = generation
        self.token_hash = token_hash


def token(key: bytes, seat: str, generation: int) -> str:
    """The seat's token at this generation: 43 url-safe characters, from the seat key."""
    digest = hmac.new(key, f"{seat}:{generation}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def token_hash(token_: str) -> str:
    """What the ledger keeps of a token: its sha256, hex."""
    return hashlib.sha256(token_.encode()).hexdigest()


def link_path(token_: str) -> str:
    return f"/join/{token_}"


def add(app: Any, pc: str, player: str, key: bytes, characters: list[str]) -> dict[str, Any]:
    """Seat `player` at `pc`: refused for a character the campaign does not have (naming those it
    has: `characters`, from the read tables) or one already seated."""
    pc = values.name(pc, "A character's name")
    player = values.name(player, "A player's name")

    def command(t: Table) -> dict[str, Any]:
        character = _character(t, pc, characters)
        name = character.name
        fresh = uuid.uuid4().hex
        hashed = token_hash(token(key, fresh, 1))
        id_ = seat_id(character.id)
        if t.exists(id_):
            seat = t.load(id_, "")
            if seat.status == ACTIVE:
                raise RuleViolation(f"{seat.name} already has a seat, played by {seat.player}; "
                                    f"`campaign seat revoke {seat.name}` first, or `seat rotate` for a new link.", rule="seat-taken")
            seat.renewed(name, player, fresh, hashed)
        else:
            t.add(Seat(character.id.hex, name, player, fresh, hashed))
        shown = token(key, fresh, 1)
        return {"seat": name, "pc": name, "player": player, "token": shown, "link_path": link_path(shown),
                "actor": f"seat:{name}"}
    return app.run(command, "seat_add")


def revoke(app: Any, name: str) -> dict[str, Any]:
    """Close a seat: its link opens nothing from now on (undo opens it again)."""
    name = values.name(name, "A seat")

    def command(t: Table) -> dict[str, Any]:
        seat = open_seat(t, name)
        seat.revoked(seat.name, seat.player)
        return {"seat": seat.name, "pc": seat.name, "player": seat.player}
    return app.run(command, "seat_revoke")


def rotate(app: Any, name: str, key: bytes) -> dict[str, Any]:
    """A new link for a seat (a phone lost, a link shared too widely): the old one opens nothing."""
    name = values.name(name, "A seat")

    def command(t: Table) -> dict[str, Any]:
        seat = open_seat(t, name)
        generation = seat.generation + 1
        shown = token(key, seat.seat, generation)
        seat.rotated(seat.name, generation, token_hash(shown))
        return {"seat": seat.name, "pc": seat.name, "player": seat.player, "generation": generation,
                "token": shown, "link_path": link_path(shown)}
    return app.run(command, "seat_rotate")


def open_seat(t: Table, name: str) -> Seat:
    """The active seat of the character `name` names; refused for one never seated or revoked."""
    found = _seated(t, name)
    if found is None:
        raise NotFound(f"There is no seat for '{name}'; `campaign seat list` shows the seats.", rule="unknown-seat")
    if found.status != ACTIVE:
        raise RuleViolation(f"The seat for {found.name} is revoked; `campaign seat add {found.name} --player NAME` "
                            "seats a player again.", rule="seat-revoked")
    return found


def _seated(t: Table, name: str) -> Seat | None:
    ruleset = rulesets.find(t.campaign.ruleset)
    if not ruleset.seated:
        return None
    character_id = ruleset.attribute(ruleset.seated)(t.pc_key(name))
    id_ = seat_id(character_id)
    return t.load(id_, "") if t.exists(id_) else None


def _character(t: Table, name: str, characters: list[str]) -> Any:
    """The character a seat is given to, as its ruleset records it."""
    ruleset = rulesets.find(t.campaign.ruleset)
    id_ = ruleset.attribute(ruleset.seated)(t.pc_key(name)) if ruleset.seated else None
    if id_ is None or not t.exists(id_):
        known = ", ".join(characters) or "none yet"
        raise NotFound(f"There is no character named '{name}' in this campaign; its characters: {known}.")
    return t.load(id_, "")
