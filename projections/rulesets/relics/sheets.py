"""Character sheets and traits, kept current from the ledger's events."""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.ids import pc_id
from campaign_ledger.ledger.rulesets.relics.character import Character
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.projections import balances
from campaign_ledger.projections.reversal_map import mark_reversed
from campaign_ledger.projections.rulesets.relics.traits import uses_named

ACTIVE, STRESSED_OUT, OUT = "active", "Stressed Out", "out of the game"
TYPES = ("Scav", "Venger", "Phantom", "Stallion", "Sparrow")


TABLES = ("sheets", "sheet_versions", "pc_names")
# Rows of things undo can unmake, by the column holding the aggregate id (see runner.unmake).
OWNED = {"sheets": "id"}
# What an undo restores that these rows show (`_reversed`; the campaign's renames: `_names`).
RESTORED = {Character: ("name", "expertise", "primary", "stress", "agony", "stressed_out", "out", "retired"),
            Campaign: ("aliases",)}


def apply(db: Database, entry: int, e: Any) -> None:
    if isinstance(e, Reversible.Reversed):  # a sheet's versions are a log: those the undone entries made say so
        mark_reversed(db, entry, e, ("sheet_versions",))
    if isinstance(e, Campaign.PCRenamed) or (isinstance(e, Reversible.Reversed) and "aliases" in e.changes):
        _names(db, {e.new.strip().casefold(): e.key} if isinstance(e, Campaign.PCRenamed) else e.changes["aliases"],
               again=isinstance(e, Reversible.Reversed))
        return
    handler = HANDLERS.get(type(e))
    if handler is None and isinstance(e, Reversible.Reversed) and \
            db.table("sheets").count_where("id = ?", [e.originator_id.hex]):
        handler = _reversed
    if handler:
        handler(db, entry, e)
        _version(db, entry, e.originator_id.hex)


def _version(db: Database, entry: int, id_: str) -> None:
    """Keep the sheet as it stands after this entry, for `sheet --at` and statements."""
    rows = list(db.table("sheets").rows_where("id = ?", [id_]))
    if not rows:
        return
    row = rows[0]
    db.table("sheet_versions").upsert({"entry": entry, "id": id_, "sheet": json.dumps(row)}, pk=("id", "entry"))
    balances.record(db, entry, f"{row['name']}:stress", row["stress"])
    balances.record(db, entry, f"{row['name']}:agony", row["agony"])


def _names(db: Database, aliases: dict[str, str], again: bool) -> None:
    """Every name a renamed PC answers to: the campaign's map of renames, and each PC's first name
    (`again`: an undo restored the whole map)."""
    if again:
        db.execute("DELETE FROM pc_names")
    for alias, key in aliases.items():
        for name in (alias, key.casefold()):
            db.execute("INSERT OR REPLACE INTO pc_names (name, id) VALUES (?, ?)", [name, pc_id(key).hex])


def _joined(db: Database, entry: int, e: Character.Joined) -> None:
    ranks = _ranks(e.expertise)
    db.table("sheets").insert({"id": e.originator_id.hex, "name": e.name, "primary_type": e.primary, **ranks,
                         "stress": 0, "agony": 0, "status": ACTIVE, "joined": entry})


def _update(**columns: Any):
    def handler(db: Database, entry: int, e: Any) -> None:
        db.table("sheets").update(e.originator_id.hex, {k: (getattr(e, v) if isinstance(v, str) and hasattr(e, v) else v)
                                                 for k, v in columns.items()})
    return handler


def _ranks(expertise: dict[str, int]) -> dict[str, int]:
    return {t.lower(): expertise.get(t, 0) for t in TYPES}


def _reversed(db: Database, entry: int, e: Any) -> None:
    """Undo restored some of the sheet: write back what it restored (a name, ranks, Stress...)."""
    row = db.table("sheets").get(e.originator_id.hex)
    changes = {k: e.changes[k] for k in ("stress", "agony", "name") if k in e.changes}
    changes.update(_ranks(e.changes["expertise"]) if "expertise" in e.changes else {})
    changes.update({"primary_type": e.changes["primary"]} if "primary" in e.changes else {})
    out = e.changes.get("out", row["status"] == OUT)
    stressed = e.changes.get("stressed_out", row["status"] == STRESSED_OUT)
    changes["status"] = OUT if out else STRESSED_OUT if stressed else ACTIVE
    if "retired" in e.changes:
        changes["retired"] = e.changes["retired"]
    db.table("sheets").update(e.originator_id.hex, changes)
    if "name" in e.changes:
        _renamed_traits(db, e.originator_id.hex, e.changes["name"])


def _renamed(db: Database, entry: int, e: Character.Renamed) -> None:
    db.table("sheets").update(e.originator_id.hex, {"name": e.new})
    _renamed_traits(db, e.originator_id.hex, e.new)


def _renamed_traits(db: Database, id_: str, name: str) -> None:
    """The traits table names each owner: the PC's own rows follow the rename (and the uses of
    its traits, which the campaign keys by the PC's name, are spelled as it is)."""
    db.execute("UPDATE traits SET owner = ? WHERE owner_id = ?", [name, id_])
    uses_named(db, name)


HANDLERS = {
    Character.Joined: _joined,
    Character.TraitGained: lambda db, entry, e: None,  # the trait itself: projections/traits.py
    Character.StressApplied: _update(stress="stress"),
    Character.StressedOut: _update(status=STRESSED_OUT),
    Character.PushedTheLimit: _update(stress="stress", status=ACTIVE),
    Character.AgonyGained: _update(agony="agony"),
    Character.TakenOut: _update(status=OUT),
    Character.StressRecovered: lambda db, entry, e: db.table("sheets").update(e.originator_id.hex, {
        "stress": e.stress, "status": STRESSED_OUT if e.stressed_out else ACTIVE}),
    Character.AgonyRecovered: _update(agony="agony"),
    Character.GrowthTested: lambda db, entry, e: None,
    Character.Renamed: _renamed,
    Character.Retired: _update(retired="reason"),
    Character.Returned: _update(retired=None),
    Character.ExpertiseChanged: lambda db, entry, e: db.table("sheets").update(e.originator_id.hex, {
        **_ranks(e.expertise), "primary_type": e.primary}),
    Character.TraitRemoved: lambda db, entry, e: None,  # the trait itself: projections/traits.py
    Character.TraitReplaced: lambda db, entry, e: None,
}
HANDLED = (Campaign.PCRenamed, Reversible.Reversed, *HANDLERS)  # the runner calls `apply` for these only
