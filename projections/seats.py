"""The players' seats as a table (`campaign seat list`, and what `seat_by_token` compares), and
their history lines. The table holds what the seat's events hold: the sha256 of each seat's
current token, never the token, which only the seat key outside the ledger can make again."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from sqlite_utils import Database

from campaign_ledger.ledger.ids import seat_id
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.seats import Seat

TABLES = ("seats",)
HANDLED = (Seat.Added, Seat.Renewed, Seat.Revoked, Seat.Rotated, Reversible.Reversed)
OWNED = {"seats": "id"}  # a seat undo unmade goes (its `seat add` never happened)
# The seat's attributes an undo writes back into its row (by the column that shows each).
RESTORED = {Seat: ("name", "player", "seat", "token_hash", "generation", "status")}
NAMED = (("seats", "seat"),)  # an undo's history line names the seat it reverses (projections/history.py)
WORDS = Seat.WORDS  # and the hashes short
COLUMNS = {"name": "seat", "player": "player", "seat": "seed", "token_hash": "token_hash",
           "generation": "generation", "status": "state"}


def apply(db: Database, entry: int, e: Any) -> None:
    if isinstance(e, Seat.Added):
        db.table("seats").insert({"id": e.originator_id.hex, "seat": e.name, "pc": e.name, "player": e.player,
                                  "seed": e.seat, "token_hash": e.token_hash, "generation": 1, "state": "active",
                                  "entry": entry})
    elif isinstance(e, Seat.Renewed):
        _update(db, e, {"seat": e.name, "pc": e.name, "player": e.player, "seed": e.seat,
                        "token_hash": e.token_hash, "generation": 1, "state": "active", "entry": entry})
    elif isinstance(e, Seat.Revoked):
        _update(db, e, {"state": "revoked"})
    elif isinstance(e, Seat.Rotated):
        _update(db, e, {"generation": e.generation, "token_hash": e.token_hash})
    elif isinstance(e, Reversible.Reversed) and not e.changes.get("unmade"):
        restored = {COLUMNS[k]: v for k, v in e.changes.items() if k in COLUMNS}
        if "seat" in restored and "name" in e.changes:
            restored["pc"] = e.changes["name"]
        if restored:
            _update(db, e, restored)


def _update(db: Database, e: Any, values: dict[str, Any]) -> None:
    marks = ", ".join(f"[{k}] = ?" for k in values)
    db.execute(f"UPDATE seats SET {marks} WHERE id = ?", [*values.values(), e.originator_id.hex])


def rows(db: Database) -> list[dict[str, Any]]:
    """Every seat, by its name, with its character's name as it stands in "pc": a renamed character
    keeps its seat (and its actor, `seat:<the name it was seated under>`), and the player's page
    must name the character as the rules now do."""
    found = [dict(r) for r in db.table("seats").rows_where(order_by="seat COLLATE NOCASE")]
    if found:
        now = characters(db)
        for row in found:
            row["pc"] = now.get(row["id"], row["pc"])
    return found


def characters(db: Database) -> dict[str, str]:
    """Every character a seat can be given to, by the id its seat would have: the rulesets' character
    tables (`NAMED_CHARACTERS`), whose rows are keyed by the character's own id."""
    from campaign_ledger.projections import rulesets

    names: dict[str, str] = {}
    for module in rulesets.modules():
        for table in getattr(module, "NAMED_CHARACTERS", ()):
            if db[table].exists():
                rows_ = db.execute(f"SELECT id, name FROM [{table}]")
                names.update((seat_id(UUID(id_)).hex, name) for id_, name in rows_)
    return names


LINES = {
    Seat.Added: lambda n, e: f"Seat for {e.name} given to {e.player}",
    Seat.Renewed: lambda n, e: f"Seat for {e.name} given to {e.player}",
    Seat.Revoked: lambda n, e: f"Seat {e.name} revoked",
    Seat.Rotated: lambda n, e: f"Seat {e.name}'s link rotated",
}
