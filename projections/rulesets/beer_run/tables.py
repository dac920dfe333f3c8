"""Read tables of beer-run campaigns: sheets, ability dice, the Intensity statement, conflicts, comparisons.

`apply` keeps them current from the ledger's events; `LINES` gives each event one readable
history line; the query functions at the end are what the CLI prints.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from sqlite_utils import Database
from sqlite_utils.db import NotFoundError

from ledger.reversible import Reversible
from ledger.rulesets.beer_run.character import CHARACTER, BeerRunCharacter as Ch
from ledger.rulesets.beer_run.conflict import SITUATION, BeerRunConflict as Co
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


# --- history lines ------------------------------------------------------------------------------

def _d(size: int) -> str:
    return f"d{size}" if size > 0 else "gone"


def _dice(sizes: list[int]) -> str:
    return ", ".join(_d(s) for s in sizes) or "none"


def _faces(faces: list[int]) -> str:
    return "[" + ", ".join(str(f) for f in faces) + "]"


def _n(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


def _created_line(_: Any, e: Ch.Created) -> str:
    if e.kind != CHARACTER:
        return f"Difficulty pool {e.name}: " + ", ".join(f"{a['name']} {_d(a['size'])}" for a in e.abilities)
    cats: dict[str, list[str]] = {}
    for a in e.abilities:
        cats.setdefault(a["category"], []).append(f"{a['name']} {_d(a['size'])}")
    return f"{e.name} joins: " + "; ".join(f"{c} {', '.join(v)}" for c, v in cats.items()) \
        + f"; Intensity {e.intensity}"


def _spent(_: Any, e: Ch.IntensitySpent) -> str:
    short = f" of the {e.cost} it costs" if e.paid != e.cost else ""
    why = f" (GM override: {e.override})" if e.override else ""
    return f"pays {e.paid} Intensity{short} for a pool in {e.conflict} round {e.round}, {e.balance} left{why}"


def _pips_taken(_: Any, e: Ch.PipsTaken) -> str:
    how = f"cedes {e.conflict} before round" if e.ceded else \
        f"takes {_n(sum(e.pips.values()), 'pip')} from {e.by} in {e.conflict} round"
    changes = ", ".join(f"{k} {_d(e.sizes[k] + p)} -> {_d(e.sizes[k])}" for k, p in e.pips.items())
    return f"{how} {e.round}: {changes or 'nothing changes'}"


def _paired(e: Any, mine: list[int], theirs: list[int], a: str, b: str) -> str:
    """Faces high to low, each pair with its winner; a padded d1 is marked (seed "Compare Rolls")."""
    marks = []
    for i, (x, y) in enumerate(e.pairs):
        sx = f"{x}{' (d1)' if i >= len(mine) else ''}"
        sy = f"{y}{' (d1)' if i >= len(theirs) else ''}"
        marks.append(f"{sx}{'>' if x > y else '<' if x < y else '='}{sy}")
    upper = f"{e.upper_hand} has the upper hand" if e.upper_hand else "every pair ties"
    return (f"{a} {_faces(sorted(mine, reverse=True))} vs {b} {_faces(sorted(theirs, reverse=True))}: "
            f"{', '.join(marks)}; {upper}; {a} keeps {e.kept[0]} of {_n(e.scored[0], 'success')}, "
            f"{b} {e.kept[1]} of {e.scored[1]}")


def _penalties(n: int) -> str:
    return f"{n} penalty {'die' if n == 1 else 'dice'}"


def _help_line(_: Any, e: Co.HelpRolled) -> str:
    got = f"{e.ally} gets a d{e.die} for {_n(e.uses, 'roll')}" if e.uses else f"{e.ally} gets nothing"
    pen = f", {e.helper} {_penalties(e.penalties)}" if e.penalties else ""
    return (f"round {e.round}: {e.helper} helps {e.ally} ({e.text}), a d{e.die} against {_dice(e.difficulty)}: "
            + _paired(e, e.faces, e.difficulty_faces, e.helper, "the difficulty") + f": {got}{pen}")


def _rolled(_: Any, e: Co.PoolRolled) -> str:
    dice = ", ".join(f"{n} {_d(s)}" for n, s in zip(e.abilities, e.dice))
    extra = f" + situation {_dice(e.situation)}" if e.situation else ""
    penalty = f"; penalty {_dice(e.penalty)} against it show {_faces(e.penalty_faces)}" if e.penalty else ""
    diff = f"; its difficulty shows {_faces(e.difficulty_faces)}" if e.difficulty_faces else ""
    how = "entered from the table" if e.entered else "rolled by the program"
    why = f" (GM override: {e.override})" if e.override else ""
    return f"round {e.round}: {e.side} rolls {dice}{extra}: {_faces(e.faces)} ({how}){penalty}{diff}{why}"


def _goal(_: Any, e: Co.GoalDeclared) -> str:
    if e.kind == SITUATION:
        return f"round {e.round}: {e.side}'s situational goal: {e.text} (a d{e.die} against {_dice(e.difficulty)})"
    aim = f" ({e.ability} to zero)" if e.ability else ""
    return f"round {e.round}: {e.side}'s goal: {e.text}{aim}"


def _situation(_: Any, e: Co.SituationRolled) -> str:
    return (f"round {e.round}: {e.side}'s situational goal, a d{e.die} against {_dice(e.difficulty)}: "
            + _paired(e, e.faces, e.difficulty_faces, e.side, "the difficulty")
            + f": {e.side} gets a d{e.die} for {_n(e.uses, 'roll')}, {_penalties(e.penalties)}")


def _sides(e: Co.Opened) -> str:
    others = [s for s in e.sides if s != e.target]
    return f"{others[0]} against {e.target}" if len(others) == 1 else f"{', '.join(others)} each against {e.target}"


def _owner(names: Any, table: str, e: Any) -> str:
    """The character's or conflict's name, from this ruleset's tables (history passes its db)."""
    try:
        return names.db.table(table).get(e.originator_id.hex)["name"]
    except (AttributeError, TypeError, NotFoundError):
        return "?"


def _of_character(line: Callable[[Any, Any], str]) -> Callable[[Any, Any], str]:
    return lambda names, e: f"{_owner(names, 'beer_run_sheets', e)} {line(names, e)}"


def _of_conflict(line: Callable[[Any, Any], str]) -> Callable[[Any, Any], str]:
    return lambda names, e: f"{_owner(names, 'beer_run_conflicts', e)} {line(names, e)}"


def _held_dice(dice: list[dict]) -> str:
    return ", ".join(f"d{d['size']} x{d['uses']}" for d in dice) or "none"


LINES: dict[type, Callable[[Any, Any], str]] = {
    Ch.Created: _created_line,
    Ch.IntensityAdjusted: _of_character(lambda n, e: f"{'gains' if e.change > 0 else 'loses'} {abs(e.change)} "
                                        f"Intensity, {e.balance} now" + (f": {e.reason}" if e.reason else "")),
    Ch.IntensitySpent: _of_character(_spent),
    Ch.SituationDiceUsed: _of_character(lambda n, e: f"rolls situation {_dice(e.used)} in {e.conflict} round "
                                        f"{e.round} (left: {_held_dice(e.left)})"),
    Ch.PenaltyDiceUsed: _of_character(lambda n, e: f"has penalty {_dice(e.used)} join the pool against it in "
                                      f"{e.conflict} round {e.round}"),
    Ch.SituationDieGained: _of_character(lambda n, e: f"gains a situation d{e.size} for {_n(e.uses, 'roll')} "
                                         f"({e.source})"),
    Ch.PenaltyDiceGained: _of_character(lambda n, e: f"suffers a lasting penalty {_dice(e.sizes)}: {e.source}"
                                        if e.lasting else f"takes penalty {_dice(e.sizes)} against the next roll "
                                        f"({e.source})"),
    Ch.PenaltyLifted: _of_character(lambda n, e: f"is freed of the lasting penalty d{e.size}"
                                    + (f": {e.reason}" if e.reason else "")),
    Ch.PipsTaken: _of_character(_pips_taken),
    Ch.Died: _of_character(lambda n, e: f"dies in {e.conflict} round {e.round}"),
    Ch.OutcomeDieGained: _of_character(lambda n, e: f"gains the outcome die {e.ability} d{e.size} ({e.category})"
                                       + (f": {e.reason}" if e.reason else "")),
    Co.Opened: lambda n, e: f"Conflict {e.name} opened: {_sides(e)}",
    Co.GoalDeclared: _of_conflict(_goal),
    Co.HelpRolled: _of_conflict(_help_line),
    Co.PoolRolled: _of_conflict(_rolled),
    Co.Compared: _of_conflict(lambda n, e: f"round {e.round}: "
                              + _paired(e, e.faces, e.opponent_faces, e.side, e.opponent)),
    Co.SituationRolled: _of_conflict(_situation),
    Co.PipsLanded: _of_conflict(lambda n, e: f"round {e.round}: {e.by} lands {_n(e.kept, 'pip')} on {e.on}: "
                                + (", ".join(f"{k} {v}" for k, v in e.pips.items()) or "none")
                                + (f" ({e.lost} lost)" if e.lost else "")),
    Co.PipsLost: _of_conflict(lambda n, e: f"round {e.round}: {e.by}'s {_n(e.kept, 'pip')} on {e.on} are lost: "
                              f"{e.why}"),
    Co.GoalGained: _of_conflict(lambda n, e: f"round {e.round}: {e.side} gains "
                                + (f"the goal '{e.goal}'" if e.goal else "its goal") + f" ({e.how})"),
    Co.SideLeft: _of_conflict(lambda n, e: f"round {e.round}: {e.side} leaves the conflict ({e.why})"),
    Co.Ceded: _of_conflict(lambda n, e: f"before round {e.round}: {e.side} cedes to {', '.join(e.to) or 'no one'}"),
    Co.RoundEnded: _of_conflict(lambda n, e: f"round {e.round} ends"),
    Co.Ended: _of_conflict(lambda n, e: (f"ends after round {e.round}" if e.round else "ends before any roll")
                           + f": {e.reason}"),
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
