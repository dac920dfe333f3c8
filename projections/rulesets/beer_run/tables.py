"""Read tables of beer-run campaigns: sheets, ability dice, the Intensity statement, conflicts, comparisons.

`apply` keeps them current from the ledger's events (lines.py gives each event its history
line); the query functions at the end are what the CLI prints.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from sqlite_utils import Database

from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.rulesets.beer_run.character import CHARACTER, BeerRunCharacter as Ch
from campaign_ledger.ledger.rulesets.beer_run.conflict import BeerRunConflict as Co
from campaign_ledger.projections import balances, reversal_map

TABLES: tuple[str, ...] = ("beer_run_sheets", "beer_run_abilities", "beer_run_intensity",
                           "beer_run_conflicts", "beer_run_comparisons")
LOGS = ("beer_run_intensity",)  # every change kept; undone ones marked
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
    """Undo restored part of a sheet or a conflict: each restored attribute written back by the
    map of its aggregate (RESTORERS)."""
    who = e.originator_id.hex
    for table, kind in (("beer_run_sheets", Ch), ("beer_run_conflicts", Co)):
        if db.table(table).count_where("id = ?", [who]):
            reversal_map.restore(db, entry, e, RESTORERS[kind], who)
            reversal_map.mark_reversed(db, entry, e, LOGS)
            if kind is Co:  # the comparisons the reversed entries made go
                where, args = reversal_map.entries_in(e)
                db.table("beer_run_comparisons").delete_where(where, args)
            return


def _restore_intensity(db: Database, entry: int, e: Any, who: str, intensity: int) -> None:
    """The balance back, with a statement row that says which undo moved it."""
    row = db.table("beer_run_sheets").get(who)
    _statement(db, entry, e, intensity - row["intensity"], intensity, f"undo {e.unit}")


def _restore_held(column: str) -> reversal_map.Restorer:
    """Situation or penalty dice held back as restored."""
    def restorer(db: Database, entry: int, e: Any, who: str, held: Any) -> None:
        db.table("beer_run_sheets").update(who, {column: _dump(held)})
    return restorer


def _restore_abilities(db: Database, entry: int, e: Any, who: str, abilities: list) -> None:
    """Each ability die back at its restored size (and category); an outcome die the undone play
    gained goes. A row keeps its place on the sheet. A gone die an outcome die brought back (pips
    only ever lower a die: a restored d0 that stands higher now was brought back) starts again at
    the size it had started at, kept in `earlier_starts` (the aggregate holds no start)."""
    restored = {a["name"]: a for a in abilities}
    for row in list(db.table("beer_run_abilities").rows_where("character_id = ?", [who])):
        a = restored.get(row["name"])
        if a is None:
            db.table("beer_run_abilities").delete((who, row["name"]))
        elif (row["size"], row["category"]) != (a["size"], a["category"]):
            changes = {"size": a["size"], "category": a["category"], "entry": entry}
            earlier = json.loads(row["earlier_starts"] or "[]")
            if a["size"] == 0 and row["size"] > 0 and earlier:
                changes.update(start=earlier[-1], earlier_starts=_dump(earlier[:-1]) if earlier[:-1] else None)
            db.table("beer_run_abilities").update((who, row["name"]), changes)


def _restore_conflict(shown: Callable[[Any], dict[str, Any]]) -> reversal_map.Restorer:
    """The conflict's row from the restored value (`shown`: its columns)."""
    def restorer(db: Database, entry: int, e: Any, who: str, value: Any) -> None:
        db.table("beer_run_conflicts").update(who, shown(value))
    return restorer


_NOT_SHOWN = reversal_map.Kept("the round in progress: `beer-run status` reads it from the conflict "
                               "itself, no read table shows it")

# Every state attribute of each aggregate, and what undo's restoring it does to the rows.
RESTORERS: dict[type, reversal_map.Restorers] = {
    Ch: {
        "name": reversal_map.FIXED, "kind": reversal_map.FIXED,
        "abilities": _restore_abilities,
        "intensity": _restore_intensity,
        "situation": _restore_held("situation"),
        "penalties": _restore_held("penalties"),
        "dead": lambda db, n, e, who, dead: db.table("beer_run_sheets").update(
            who, {"status": "dead" if dead else "alive"}),
        "unmade": reversal_map.UNMADE,
    },
    Co: {
        "name": reversal_map.FIXED, "sides": reversal_map.FIXED, "static": reversal_map.FIXED,
        "target": reversal_map.FIXED,
        "round": _restore_conflict(lambda r: {"round": r}),
        "out": _restore_conflict(lambda out: {"out": _dump(out)}),
        "ended": _restore_conflict(lambda ended: {"status": "ended"} if ended else {"status": "open", "result": None}),
        "goals": _NOT_SHOWN, "rolls": _NOT_SHOWN, "helpers": _NOT_SHOWN, "due": _NOT_SHOWN,
        "unmade": reversal_map.UNMADE,
    },
}


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
    """A new ability die, or a gone one back at the new size (its row and place kept, and the size
    it had started at kept in `earlier_starts` for an undo to give back). An update, not an upsert:
    SQLite's upsert turned the row-versions trigger's INSERT OR IGNORE into a failing insert, which
    stopped the read tables at that entry."""
    rows, who = db.table("beer_run_abilities"), e.originator_id.hex
    existing = list(rows.rows_where("character_id = ? AND name = ?", [who, e.ability]))
    if existing:
        earlier = json.loads(existing[0]["earlier_starts"] or "[]") + [existing[0]["start"]]
        rows.update((who, e.ability), {"category": e.category, "size": e.size, "start": e.size,
                                       "earlier_starts": _dump(earlier), "entry": entry})
    else:
        rows.insert({"character_id": who, "character": _name(db, e), "name": e.ability, "category": e.category,
                     "size": e.size, "start": e.size, "position": rows.count_where("character_id = ?", [who]),
                     "entry": entry})


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
