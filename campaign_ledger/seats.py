"""Player seats as calls (`campaign seat add|list|revoke|rotate`), what a server asks of them
(`seat_links`, `seat_by_token`) and `qr_text`, an invite link as a QR code for a terminal.

    camp.seat_add("Kira", "Ana")["link_path"]   # "/join/<token>": the invite link after the address
    camp.seat_by_token(token)                   # the seat that token opens now, or None

The seat key the tokens are derived from (ledger/seats.py) is never in the ledger: it is the file
`<campaign file>.seat-key` (mode 0600, made by the first `seat_add`) or $CAMPAIGN_SEAT_KEY, which a
campaign stored on PostgreSQL must set (its file holds only read tables, and every server process
must derive the same links).
"""
from __future__ import annotations

import hmac
import io
import os
import secrets
from typing import Any, TYPE_CHECKING

from campaign_ledger.errors import CampaignError
from campaign_ledger.handle import Core

if TYPE_CHECKING:
    from campaign_ledger.shapes import Report, SeatLink, SeatListed

KEY_ENV = "CAMPAIGN_SEAT_KEY"
NO_KEY = "no-seat-key"


class SeatCalls(Core):
    """The players' seats at the table, each opening the live page as its player through its link."""

    def seat_add(self, pc: str, player: str, *, key: str | None = None) -> Report:
        """Seat `player` at the character `pc` (`campaign seat add PC --player NAME`): the report adds
        "seat", "pc", "player", "token" and "link_path" ("/join/<token>"). Undoable like any entry."""
        from campaign_ledger.ledger import values

        self._valid(lambda: (values.name(pc, "A character's name"), values.name(player, "A player's name")))
        characters = self._read(lambda app, db: _character_names(db))  # a missing campaign is refused first
        secret = seat_key(self.path, create=True)
        return self._write("seat add", {"pc": pc, "player": player},
                           lambda app: app.seat_add(pc, player, secret, characters), key=key)

    def seat_list(self) -> list[SeatListed]:
        """Every seat, active or revoked (`campaign seat list --json`); no token is in it."""
        from campaign_ledger.projections import seats

        return self._read(lambda app, db: [_listed(r) for r in seats.rows(db)])

    def seat_revoke(self, seat: str, *, key: str | None = None) -> Report:
        """Close a seat (`campaign seat revoke PC`): its link opens nothing from now on."""
        return self._write("seat revoke", {"seat": seat}, lambda app: app.seat_revoke(seat), key=key)

    def seat_rotate(self, seat: str, *, key: str | None = None) -> Report:
        """A new link for a seat (`campaign seat rotate PC`): the report's "token" and "link_path";
        the old link opens nothing. Undoing it brings the old link back. A repeat of a keyed call
        (nothing appended) carries no token: `seat_links` gives the link as it stands."""
        secret = seat_key(self.path, create=True)
        return self._write("seat rotate", {"seat": seat}, lambda app: app.seat_rotate(seat, secret), key=key)

    def seat_links(self) -> list[SeatLink]:
        """Each active seat's invite link, made again from the seat key (what `serve` prints). A seat
        whose recorded hash the key does not give (the key replaced since) has no link listed."""
        from campaign_ledger.ledger import seats as ledger_seats
        from campaign_ledger.projections import seats

        active = [r for r in self._read(lambda app, db: seats.rows(db)) if r["state"] == "active"]
        if not active:
            return []
        secret = seat_key(self.path, create=False)
        if secret is None:
            raise CampaignError(f"No seat key beside {self.path} ({self.path}.seat-key) or in ${KEY_ENV}: "
                                "the seats' links cannot be made again; `campaign seat rotate` each seat "
                                "once a key is there.", 1, NO_KEY)
        links: list[SeatLink] = []
        for row in active:
            token = ledger_seats.token(secret, row["seed"], row["generation"])
            if hmac.compare_digest(ledger_seats.token_hash(token), row["token_hash"]):
                links.append({"seat": row["seat"], "pc": row["pc"], "player": row["player"],
                              "link_path": ledger_seats.link_path(token), "token": token})
        return links

    def seat_by_token(self, token: str) -> SeatListed | None:
        """The active seat `token` opens now, or None (unknown, revoked, or rotated out): compared in
        constant time with every active seat's hash, so how long it takes says nothing of the token."""
        from campaign_ledger.ledger import seats as ledger_seats
        from campaign_ledger.projections import seats

        if not isinstance(token, str):
            return None
        wanted = ledger_seats.token_hash(token)
        found = None
        for row in self._read(lambda app, db: seats.rows(db)):
            same = hmac.compare_digest(wanted, row["token_hash"])
            if same and row["state"] == "active":
                found = row
        return _listed(found) if found is not None else None


def qr_text(url: str) -> str:
    """`url` as a QR code drawn in a terminal's characters (segno's compact terminal output: two
    rows of modules a line), for a phone's camera to open."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def seat_key(path: str, create: bool) -> bytes | None:
    """The campaign's seat key: $CAMPAIGN_SEAT_KEY, else the file beside the campaign file (made,
    mode 0600, when `create`); None when there is none. A PostgreSQL campaign needs the variable."""
    given = os.environ.get(KEY_ENV, "").strip()
    if given:
        return given.encode()
    if os.environ.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
        raise CampaignError(f"A campaign stored on PostgreSQL keeps its seat key in ${KEY_ENV} (a long random "
                            "secret, the same for every process that serves it); set it and try again.", 1, NO_KEY)
    file = f"{path}.seat-key"
    try:
        with open(file, "rb") as kept:
            return kept.read().strip() or None
    except FileNotFoundError:
        if not create:
            return None
    secret = secrets.token_urlsafe(32).encode()
    try:
        made = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: its key is the campaign's
        return seat_key(path, create=False)
    except OSError as e:
        raise CampaignError(f"The seat key {file} could not be made ({e.strerror}).", 1, NO_KEY) from None
    with os.fdopen(made, "wb") as kept:
        kept.write(secret + b"\n")
    return secret


def _listed(row: dict[str, Any]) -> SeatListed:
    return {"seat": row["seat"], "pc": row["pc"], "player": row["player"], "state": row["state"],
            "generation": row["generation"], "actor": f"seat:{row['seat']}"}


def _character_names(db: Any) -> list[str]:
    """The characters a seat can be given to, for a refusal to name."""
    from campaign_ledger.projections import seats

    return sorted(seats.characters(db).values(), key=str.casefold)

