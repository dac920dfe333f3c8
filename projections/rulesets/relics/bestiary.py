"""The bestiary's read table: Challenges a roster defined and not yet opened (`roster dump` reads it)."""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.rulesets.relics.bestiary import BESTIARY_ID, Bestiary

TABLES = ("bestiary",)
OWNED = {"bestiary": "owner_id"}  # undo unmaking the bestiary takes its rows: see runner.unmake
RESTORED = {Bestiary: ("entries",)}  # what an undo restores that these rows show
HANDLED = (Bestiary.Defined, Reversible.Reversed)  # the runner calls `apply` for these only


def apply(db: Database, entry: int, e: Any) -> None:
    if isinstance(e, Bestiary.Defined):
        _insert(db, entry, e.challenge)
    elif isinstance(e, Reversible.Reversed) and e.originator_id == BESTIARY_ID and "entries" in e.changes:
        kept = {r[0]: r[1] for r in db.execute("SELECT key, entry FROM bestiary")}
        db.execute("DELETE FROM bestiary")
        for key, challenge in e.changes["entries"].items():
            _insert(db, kept.get(key, entry), challenge)


def _insert(db: Database, entry: int, challenge: dict[str, Any]) -> None:
    db.table("bestiary").insert({"key": challenge["name"].casefold(), "owner_id": BESTIARY_ID.hex,
                                 "name": challenge["name"], "threat": challenge["threat"], "type": challenge["type"],
                                 "rating": challenge["rating"], "traits": json.dumps(challenge["traits"]),
                                 "entry": entry})


def rows(db: Database) -> list[dict[str, Any]]:
    return [{**r, "traits": json.loads(r["traits"])} for r in db.table("bestiary").rows_where(order_by="entry, key")]
