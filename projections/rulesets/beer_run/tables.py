"""Read tables of beer-run campaigns: sheets, ability dice, the Intensity statement, conflicts, comparisons.

`apply` keeps them current from the ledger's events (lines.py gives each event its history
line); the query functions at the end are what the CLI prints.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from sqlite_utils import Database

from ledger.reversible import Reversible
from ledger.rulesets.beer_run.character import CHARACTER, BeerRunCharacter as Ch
from ledger.rulesets.beer_run.conflict import BeerRunConflict as Co
from projections import balances

TABLES: tuple[str, ...] = ("beer_run_sheets", "beer_run_abilities", "beer_run_intensity",
                           "beer_run_conflicts", "beer_run_comparisons")
OWNED = {"beer_run_sheets": "id", "beer_run_abilities": "character_id", "beer_run_conflicts": "id"}
NAMED = (("beer_run_sheets", "name"), ("beer_run_conflicts", "name"))  # for the history
NAMED_CHARACTERS = ("beer_run_sheets",)  # of those, the tables of characters (`history --pc`; the rest: --challenge)


def apply(db: Database, entry: int, e: Any) -> None:
    """Update this ruleset's read tables for one ledger entry."""
    handler = HANDLERS.get(type(e))
    if handler:
        handler(db, entry, e)
    elif isinstance(e, Reversible.Reversed):
        _reversed(db, entry, e)


def _reversed(db: Database, entry: int, e: Any) -> None:
    """Undo restored part of a sheet or a conflict: write the restored parts back."""
    who, c = e.originator_id.hex, e.changes
    if db.table("beer_run_sheets").count_where("id = ?", [who]):
        if "intensity" in c:
            row = db.table("beer_run_sheets").get(who)
            _statement(db, entry, e, c["intensity"] - row["intensity"], c["intensity"], f"undo {e.unit}")
        columns = {k: _dump(c[k]) for k in ("situation", "penalties") if k in c}
        if "dead" in c:
            columns["status"] = "dead" if c["dead"] else "alive"
        if columns:
            db.table("beer_run_sheets").update(who, columns)
        for ability in c.get("abilities", []):
            db.table("beer_run_abilities").update((who, ability["name"]), {"size": ability["size"], "entry": entry})
    elif db.table("beer_run_conflicts").count_where("id = ?", [who]):
        columns = {k: v for k, v in (("round", c.get("round")), ("out", c.get("out"))) if v is not None}
        columns = {k: _dump(v) if k == "out" else v for k, v in columns.items()}
        if "ended" in c:
            columns.update(status="ended" if c["ended"] else "open", result=None)
        if columns:
            db.table("beer_run_conflicts").update(who, columns)
        db.table("beer_run_comparisons").delete_where(f"entry IN ({','.join('?' * len(e.entries))})", e.entries)


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _name(db: Database, e: Any) -> str:
    return db.table("beer_run_sheets").get(e.originator_id.hex)["name"]


def _statement(db: Database, entry: int, e: Any, change: int, balance: int, reason: str) -> None:
    db.table("beer_run_sheets").update(e.originator_id.hex, {"intensity": balance})
    db.table("beer_run_intensity").insert({"entry": entry, "character": _name(db, e), "change": change,
                                     "balance": balance, "reason": reason})
    balances.record(db, entry, f"{_name(db, e)}:intensity", balance)


def _created(db: Database, entry: int, e: Ch.Created) -> None:
    db.table("beer_run_sheets").insert({"id": e.originator_id.hex, "name": e.name, "kind": e.kind,
                                  "intensity": e.intensity, "status": "alive" if e.kind == CHARACTER else "static",
                                  "situation": "[]", "penalties": "[]", "joined": entry})
    db.table("beer_run_abilities").insert_all(
        {"character_id": e.originator_id.hex, "character": e.name, "name": a["name"], "category": a["category"],
         "size": a["size"], "start": a["size"], "position": i, "entry": entry} for i, a in enumerate(e.abilities))
    if e.kind == CHARACTER:
        _statement(db, entry, e, e.intensity, e.intensity, "starting Intensity")


def _pips_taken(db: Database, entry: int, e: Ch.PipsTaken) -> None:
    for name in e.pips:
        db.table("beer_run_abilities").update((e.originator_id.hex, name), {"size": e.sizes[name], "entry": entry})


def _outcome(db: Database, entry: int, e: Ch.OutcomeDieGained) -> None:
    rows = db.table("beer_run_abilities")
    existing = list(rows.rows_where("character_id = ? AND name = ?", [e.originator_id.hex, e.ability]))
    position = existing[0]["position"] if existing else rows.count_where("character_id = ?", [e.originator_id.hex])
    rows.upsert({"character_id": e.originator_id.hex, "character": _name(db, e), "name": e.ability,
                 "category": e.category, "size": e.size, "start": e.size, "position": position, "entry": entry},
                pk=("character_id", "name"))


def _held(column: str, field: str) -> Callable[[Database, int, Any], None]:
    def handler(db: Database, entry: int, e: Any) -> None:
        db.table("beer_run_sheets").update(e.originator_id.hex, {column: _dump(getattr(e, field))})
    return handler


def _opened(db: Database, entry: int, e: Co.Opened) -> None:
    db.table("beer_run_conflicts").insert({"id": e.originator_id.hex, "name": e.name, "sides": _dump(e.sides),
                                     "target": e.target, "round": 1, "out": "{}", "status": "open",
                                     "result": None, "opened": entry})


def _left(db: Database, entry: int, e: Any) -> None:
    row = db.table("beer_run_conflicts").get(e.originator_id.hex)
    out = {**json.loads(row["out"]), e.side: getattr(e, "why", "ceded")}
    db.table("beer_run_conflicts").update(e.originator_id.hex, {"out": _dump(out)})


def _comparison(kind: str, side: str, opponent: Callable[[Any], str], faces: str, theirs: str):
    def handler(db: Database, entry: int, e: Any) -> None:
        conflict = db.table("beer_run_conflicts").get(e.originator_id.hex)["name"]
        db.table("beer_run_comparisons").insert({
            "entry": entry, "conflict": conflict, "round": e.round, "kind": kind, "side": getattr(e, side),
            "opponent": opponent(e), "faces": _dump(getattr(e, faces)), "opponent_faces": _dump(getattr(e, theirs)),
            "pairs": _dump(e.pairs), "scored": _dump(e.scored), "kept": _dump(e.kept), "upper_hand": e.upper_hand})
    return handler


HANDLERS: dict[type, Callable[[Database, int, Any], None]] = {
    Ch.Created: _created,
    Ch.IntensityAdjusted: lambda db, n, e: _statement(db, n, e, e.change, e.balance, e.reason or "the GM's word"),
    Ch.IntensitySpent: lambda db, n, e: _statement(
        db, n, e, -e.paid, e.balance, f"pool in {e.conflict} round {e.round}"
        + (f" (GM override: {e.override})" if e.override else "")),
    Ch.SituationDiceUsed: _held("situation", "left"),
    Ch.SituationDieGained: _held("situation", "held"),
    Ch.PenaltyDiceUsed: _held("penalties", "left"),
    Ch.PenaltyDiceGained: _held("penalties", "held"),
    Ch.PenaltyLifted: _held("penalties", "held"),
    Ch.PipsTaken: _pips_taken,
    Ch.Died: lambda db, n, e: db.table("beer_run_sheets").update(e.originator_id.hex, {"status": "dead"}),
    Ch.OutcomeDieGained: _outcome,
    Co.Opened: _opened,
    Co.Ceded: _left,
    Co.SideLeft: _left,
    Co.RoundEnded: lambda db, n, e: db.table("beer_run_conflicts").update(e.originator_id.hex, {"round": e.round + 1}),
    Co.Ended: lambda db, n, e: db.table("beer_run_conflicts").update(e.originator_id.hex,
                                                                {"status": "ended", "result": e.reason}),
    Co.Compared: _comparison("opposed", "side", lambda e: e.opponent, "faces", "opponent_faces"),
    Co.HelpRolled: _comparison("helping", "helper", lambda e: "difficulty", "faces", "difficulty_faces"),
    Co.SituationRolled: _comparison("situational", "side", lambda e: "difficulty", "faces", "difficulty_faces"),
}


# --- what the CLI prints -------------------------------------------------------------------------

def sheets(db: Database, name: str | None = None) -> list[dict[str, Any]]:
    where, args = ("name = ? COLLATE NOCASE", [name]) if name else (None, [])
    rows = []
    for row in db.table("beer_run_sheets").rows_where(where, args, order_by="joined"):
        abilities: dict[str, list[dict[str, Any]]] = {}
        for a in db.table("beer_run_abilities").rows_where("character_id = ?", [row["id"]], order_by="position"):
            abilities.setdefault(a["category"], []).append({"name": a["name"], "size": a["size"],
                                                            "start": a["start"]})
        rows.append({"name": row["name"], "kind": row["kind"], "status": row["status"],
                     "intensity": row["intensity"] if row["kind"] == CHARACTER else None,
                     "abilities": abilities, "situation": json.loads(row["situation"]),
                     "penalties": json.loads(row["penalties"])})
    return rows


def pools(db: Database) -> list[dict[str, Any]]:
    """Intensity and the situation and penalty dice each character holds now."""
    return [{"name": r["name"], "status": r["status"], "intensity": r["intensity"],
             "situation": json.loads(r["situation"]), "penalties": json.loads(r["penalties"])}
            for r in db.table("beer_run_sheets").rows_where("kind = ?", [CHARACTER], order_by="joined")]


def statement(db: Database, name: str | None = None) -> list[dict[str, Any]]:
    """Every change of Intensity with the balance after it."""
    where, args = ("character = ? COLLATE NOCASE", [name]) if name else (None, [])
    return list(db.table("beer_run_intensity").rows_where(where, args, order_by="entry"))


def conflicts(db: Database, open_only: bool = False) -> list[dict[str, Any]]:
    where = "status = 'open'" if open_only else None
    return [{**r, "sides": json.loads(r["sides"]), "out": json.loads(r["out"])}
            for r in db.table("beer_run_conflicts").rows_where(where, order_by="opened")]


def comparisons(db: Database, conflict: str | None = None) -> list[dict[str, Any]]:
    where, args = ("conflict = ? COLLATE NOCASE", [conflict]) if conflict else (None, [])
    return [{**r, **{k: json.loads(r[k]) for k in ("faces", "opponent_faces", "pairs", "scored", "kept")}}
            for r in db.table("beer_run_comparisons").rows_where(where, args, order_by="entry")]
