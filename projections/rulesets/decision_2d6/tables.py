"""Read tables of decision-2d6 campaigns: sheets, rolls, contests, supply dice and trackers.

Current state (`d2d6_sheets`, `d2d6_supplies`, `d2d6_trackers`) and a row after every change
(`d2d6_sheet_rows`, `d2d6_supply_rows`, `d2d6_tracker_rows`), so a statement can be read.
Everything shown comes from the events; nothing here works out a rule.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

from sqlite_utils import Database

from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.rulesets.decision_2d6.model import ATTRIBUTE, CORE, STAT, Contest, Hero, Item, Tracker
from campaign_ledger.projections import balances, reversal_map

TABLES: tuple[str, ...] = ("d2d6_sheets", "d2d6_sheet_rows", "d2d6_rolls", "d2d6_contests",
                           "d2d6_supplies", "d2d6_supply_rows", "d2d6_trackers", "d2d6_tracker_rows")
LOGS = ("d2d6_sheet_rows", "d2d6_supply_rows", "d2d6_tracker_rows")  # every change kept; undone ones marked
OWNED = {"d2d6_sheets": "id", "d2d6_supplies": "id", "d2d6_trackers": "id"}  # see runner.unmake
NAMED = (("d2d6_sheets", "name"), ("d2d6_supplies", "item"), ("d2d6_trackers", "tracker"))  # for the history
NAMED_CHARACTERS = ("d2d6_sheets",)  # of those, the tables of characters (`history --pc`; the rest: --challenge)


def apply(db: Database, entry: int, e: Any) -> None:
    """Update this ruleset's read tables for one ledger entry."""
    handler = _HANDLERS.get(type(e))
    if handler:
        handler(db, entry, e)
    elif isinstance(e, Reversible.Reversed):
        _reversed(db, entry, e)


def _reversed(db: Database, entry: int, e: Any) -> None:
    """Undo restored part of a sheet, an item's die or a tracker: each restored attribute written
    back by the map of its aggregate (RESTORERS), the one whose current row is the reversed one's."""
    who = e.originator_id.hex
    kind = next((k for t, k in _ROWS.items() if db.table(t).count_where("id = ?", [who])), Contest)
    reversal_map.restore(db, entry, e, RESTORERS[kind], who)
    reversal_map.mark_reversed(db, entry, e, LOGS)


_SCORES = ("level", "will", "fort", "stress", "vitality", "stats", "attributes")


def _restore_scores(db: Database, entry: int, e: Any, who: str, value: Any) -> None:
    """Every restored score back on the sheet at once (called for each, it writes them all the
    first time: the rest find the row already right), with a `d2d6_sheet_rows` row per score it
    changes, "undo UNIT" as the reason: the statement says the change was undone."""
    row = db.table("d2d6_sheets").get(who)
    restored = {k: e.changes[k] for k in _SCORES if k in e.changes}
    now = {k: _json(row[k]) if k in ("stats", "attributes") else row[k] for k in restored}
    if restored == now:
        return
    db.table("d2d6_sheets").update(who, {**restored, "entry": entry})
    stress, vitality = restored.get("stress", row["stress"]), restored.get("vitality", row["vitality"])
    changed = [(k, label, now[k], restored[k]) for k, label in CORE.items() if k in restored and restored[k] != now[k]]
    for kind, column in ((STAT, "stats"), (ATTRIBUTE, "attributes")):
        if column in restored:
            was, back = now[column], restored[column]
            changed += [(kind, n, was.get(n), back.get(n)) for n in [*was, *(n for n in back if n not in was)]
                        if was.get(n) != back.get(n)]
    db.table("d2d6_sheet_rows").insert_all(
        {"entry": entry, "character": row["name"], "score": label, "kind": kind, "before": before, "after": after,
         "stress": stress, "vitality": vitality, "reason": f"undo {e.unit}"}
        for kind, label, before, after in changed)


def _delete_made(table: str) -> reversal_map.Restorer:
    """The rows the reversed entries made in `table` go: it holds what stands, as a campaign that
    never played them would (the history keeps them, marked undone)."""
    def restorer(db: Database, entry: int, e: Any, who: str, value: Any) -> None:
        where, args = reversal_map.entries_in(e)
        db.table(table).delete_where(where, args)
    return restorer


def _restore_pool(pool: tuple[str, str, str, str]) -> reversal_map.Restorer:
    """An item's die or a tracker's value back, with an "undone" row in its statement."""
    def restorer(db: Database, entry: int, e: Any, who: str, restored: Any) -> None:
        current, rows, key, value = pool
        row = db.table(current).get(who)
        about = SimpleNamespace(name=row[key], holder=row.get("holder"), originator_id=e.originator_id)
        _pool_row(db, entry, about, pool, "undone", row[value], None, restored, f"undo {e.unit}")
    return restorer


# --- sheets ---------------------------------------------------------------------------------

def _created(db: Database, entry: int, e: Hero.Created) -> None:
    db.table("d2d6_sheets").insert({"id": e.originator_id.hex, "name": e.name, "level": e.level,
                              "will": e.will, "fort": e.fort, "stress": e.stress, "vitality": e.vitality,
                              "stats": e.stats, "attributes": e.attributes, "joined": entry, "entry": entry})
    scores = [(k, label, getattr(e, k)) for k, label in CORE.items()]
    scores += [(STAT, n, v) for n, v in e.stats.items()] + [(ATTRIBUTE, n, v) for n, v in e.attributes.items()]
    db.table("d2d6_sheet_rows").insert_all(
        {"entry": entry, "character": e.name, "score": label, "kind": kind, "before": None, "after": value,
         "stress": e.stress, "vitality": e.vitality, "reason": "created"} for kind, label, value in scores)


def _score(db: Database, entry: int, e: Hero.ScoreChanged) -> None:
    row = db.table("d2d6_sheets").get(e.originator_id.hex)
    changes: dict[str, Any] = {"stress": e.stress, "vitality": e.vitality, "entry": entry}
    if e.kind in (STAT, ATTRIBUTE):
        column = "stats" if e.kind == STAT else "attributes"
        changes[column] = {**_json(row[column]), e.score: e.after}
    else:
        changes[e.kind] = e.after
    db.table("d2d6_sheets").update(e.originator_id.hex, changes)
    db.table("d2d6_sheet_rows").insert({"entry": entry, "character": e.name, "score": e.score, "kind": e.kind,
                                  "before": e.before, "after": e.after, "stress": e.stress,
                                  "vitality": e.vitality, "reason": e.reason})


def _json(value: Any) -> dict:
    import json
    return json.loads(value) if isinstance(value, str) else dict(value or {})


# --- rolls ----------------------------------------------------------------------------------

def _rolled(db: Database, entry: int, e: Hero.DecisionRolled) -> None:
    db.table("d2d6_rolls").insert({"entry": entry, "character": e.name, "stat": e.stat, "stat_value": e.stat_value,
                             "advantage": e.rolled_with, "chains": e.chains, "modifiers": e.modifiers,
                             "total": e.total, "target": e.target, "difficulty": e.difficulty,
                             "success": e.success, "entered": e.entered, "purpose": e.purpose})


def _contest(db: Database, entry: int, e: Contest.Decided) -> None:
    first, second = e.sides
    db.table("d2d6_contests").insert_all(
        {"entry": entry, "round": i, "first": first["name"], "first_chains": r["first"]["chains"],
         "first_total": r["first"]["total"], "second": second["name"], "second_chains": r["second"]["chains"],
         "second_total": r["second"]["total"],
         "result": "tie" if r["first"]["total"] == r["second"]["total"] else f"{e.winner} wins"}
        for i, r in enumerate(e.rounds, 1))


# --- pools: supply dice and trackers ------------------------------------------------------------

SUPPLIES, TRACKERS = ("d2d6_supplies", "d2d6_supply_rows", "item", "die"), \
    ("d2d6_trackers", "d2d6_tracker_rows", "tracker", "value")


def _pool_row(db: Database, entry: int, e: Any, pool: tuple[str, str, str, str], change: str,
              before: Any, face: int | None, after: Any, note: str | None) -> None:
    """Keep the pool's current value and add its row for this change."""
    current, rows, key, value = pool
    if change == "added":
        extra = {"step": e.step} if key == "tracker" else {}
        db.table(current).insert({"id": e.originator_id.hex, key: e.name, "holder": e.holder, value: after,
                            **extra, "entry": entry})
    elif after != before:
        db.table(current).update(e.originator_id.hex, {value: after, "entry": entry})
    db.table(rows).insert({"entry": entry, key: e.name, "change": change, "before": before, "face": face,
                     "after": after, "note": note})
    numeric = after if isinstance(after, int) else int(str(after).lstrip("D") or 0) if after != "Empty" else 0
    balances.record(db, entry, f"{e.name} {'supply' if key == 'item' else '%'}", numeric)


def _pool(pool: tuple[str, str, str, str], what: Callable[[Any], tuple]):
    def handler(db: Database, entry: int, e: Any) -> None:
        _pool_row(db, entry, e, pool, *what(e))
    return handler


def _holder(e: Any) -> str | None:
    return f"held by {e.holder}" if e.holder else None


_HANDLERS: dict[type, Callable[[Database, int, Any], None]] = {
    Hero.Created: _created, Hero.ScoreChanged: _score, Hero.DecisionRolled: _rolled,
    Contest.Decided: _contest,
    Item.Stocked: _pool(SUPPLIES, lambda e: ("added", None, None, e.die, _holder(e))),
    Item.SupplyRolled: _pool(SUPPLIES, lambda e: ("rolled", e.before, e.face, e.after, e.purpose)),
    Item.UsedWhileEmpty: _pool(SUPPLIES, lambda e: ("used by GM override", "Empty", None, "Empty", e.override)),
    Item.Restocked: _pool(SUPPLIES, lambda e: ("restocked", e.before, None, e.after, e.reason)),
    Tracker.Started: _pool(TRACKERS, lambda e: ("added", None, None, e.value, _holder(e))),
    Tracker.Rolled: _pool(TRACKERS, lambda e: ("rolled", e.before, e.face, e.after, e.purpose)),
    Tracker.UsedAtZero: _pool(TRACKERS, lambda e: ("used by GM override", 0, None, 0, e.override)),
    Tracker.Set: _pool(TRACKERS, lambda e: ("set", e.before, None, e.after, e.reason)),
}


# Every state attribute of each aggregate, and what undo's restoring it does to the rows.
RESTORERS: dict[type, reversal_map.Restorers] = {
    Hero: {
        "name": reversal_map.FIXED,
        **{k: _restore_scores for k in _SCORES},
        "rolls": _delete_made("d2d6_rolls"),
        "unmade": reversal_map.UNMADE,
    },
    Item: {
        "name": reversal_map.FIXED, "holder": reversal_map.FIXED,
        "die": _restore_pool(SUPPLIES),
        "unmade": reversal_map.UNMADE,
    },
    Tracker: {
        "name": reversal_map.FIXED, "holder": reversal_map.FIXED, "step": reversal_map.FIXED,
        "value": _restore_pool(TRACKERS),
        "rolls": reversal_map.Kept("the faces rolled: no current-state row shows them; the tracker's "
                                   "statement keeps each roll, an undone one marked reversed_at"),
        "unmade": reversal_map.UNMADE,
    },
    Contest: {  # made whole by one command, so undo only ever unmakes it
        "sides": reversal_map.FIXED, "rounds": reversal_map.FIXED, "winner": reversal_map.FIXED,
        "unmade": _delete_made("d2d6_contests"),
    },
}
_ROWS = {"d2d6_sheets": Hero, "d2d6_supplies": Item, "d2d6_trackers": Tracker}  # the current-state row of each


# --- history lines ---------------------------------------------------------------------------

def chain_text(chain: list[int]) -> str:
    """One decision die and its explosions: '6 -> 6 -> 2'."""
    return " -> ".join(str(f) for f in chain)


def dice_text(chains: list[list[int]]) -> str:
    """Each die's chain, the dice apart: '3 | 6 -> 6 -> 2'."""
    return " | ".join(chain_text(c) for c in chains)


def _signed(n: int) -> str:
    return f"{n:+d}"


def _mods(mods: list[dict]) -> str:
    """', bonus +2, penalty +1 counts 0': each stated modifier and, if it differs, what counts."""
    parts = []
    for m in mods:
        note = "" if m["counted"] == m["value"] else f" counts {m['counted']}"
        parts.append(f", {m['kind']} {_signed(m['value'])}{note}")
    return "".join(parts)


_ADV = {"MAJOR_ADVANTAGE": "Major Advantage (3d6)", "MINOR_ADVANTAGE": "Minor Advantage +3",
        "NEUTRAL": "", "MINOR_DISADVANTAGE": "Minor Disadvantage -3",
        "MAJOR_DISADVANTAGE": "Major Disadvantage (1d6)"}


def _roll_line(n: Any, e: Hero.DecisionRolled) -> str:
    why = f" to {e.purpose}" if e.purpose else ""
    adv = _ADV[e.rolled_with]
    if e.grants:  # where it started and what moved it: `Neutral from Minor Disadvantage with 1 grant ...`
        start = e.advantage.replace("_", " ").title()
        adv = f"{adv or 'Neutral'} from {start} with {e.grants} grant{'s' if e.grants != 1 else ''} of advantage"
    adv_text = f", {adv}" if adv else ""
    goal = ""
    if e.target is not None:
        label = f" ({e.difficulty})" if e.difficulty else ""
        goal = f" vs {e.target}{label}: {'success' if e.success else 'failure'}"
    how = "entered" if e.entered else "rolled by the program"
    return (f"{e.name} rolls {e.stat} {_signed(e.stat_value)}{why}: dice {dice_text(e.chains)}"
            f"{_mods(e.modifiers)}{adv_text} = {e.total}{goal} ({how})")


def _contest_line(n: Any, e: Contest.Decided) -> str:
    a, b = e.sides
    rounds = "; ".join(f"{a['name']} {dice_text(r['first']['chains'])} = {r['first']['total']}, "
                       f"{b['name']} {dice_text(r['second']['chains'])} = {r['second']['total']}"
                       + (" tie, reroll" if r["first"]["total"] == r["second"]["total"] else "")
                       for r in e.rounds)
    why = f" to {e.purpose}" if e.purpose else ""
    favoured = [f"{s['name']} {_ADV[s['advantage']]}" for s in e.sides if s["advantage"] != "NEUTRAL"]
    adv = f", {', '.join(favoured)}" if favoured else ""  # `, Billy Major Advantage (3d6)`: no parentheses in parentheses
    return (f"Contest{why}: {a['name']} {a['stat']} {_signed(a['stat_value'])}{_mods(a['modifiers'])} vs "
            f"{b['name']} {b['stat']} {_signed(b['stat_value'])}{_mods(b['modifiers'])}{adv}: {rounds}; "
            f"{e.winner} wins ({'entered' if e.entered else 'rolled by the program'})")


def _created_line(n: Any, e: Hero.Created) -> str:
    scores = ", ".join(f"{k} {_signed(v)}" for k, v in {**e.stats, **e.attributes}.items())
    return (f"{e.name} joins: Level {e.level}, Will {e.will}, Fort {e.fort} (Stress {e.stress}, "
            f"Vitality {e.vitality})" + (f"; {scores}" if scores else ""))


def _score_line(n: Any, e: Hero.ScoreChanged) -> str:
    why = f" ({e.reason})" if e.reason else ""
    change = f"{e.name}'s {e.score} set to {e.after}" if e.before is None else f"{e.name}: {e.score} {e.before} -> {e.after}"
    return f"{change}{why}; Stress {e.stress}, Vitality {e.vitality}"


def _supply_line(n: Any, e: Item.SupplyRolled) -> str:
    why = f" to {e.purpose}" if e.purpose else ""
    result = f"lowered to {e.after}" if e.after != e.before else f"stays {e.after}"
    how = "entered" if e.entered else "rolled by the program"
    return f"{e.name} used{why}: supply roll {e.before} shows {e.face} ({how}), {e.threshold} or lower lowers it: {result}"


def _tracker_line(n: Any, e: Tracker.Rolled) -> str:
    why = f" to {e.purpose}" if e.purpose else ""
    how = "entered" if e.entered else "rolled by the program"
    if e.supplied:
        return f"{e.name} used{why}: d100 shows {e.face} ({how}), at or under {e.before}%: {e.before}% -> {e.after}%"
    return f"{e.name} used{why}: d100 shows {e.face} ({how}), over {e.before}%: it runs out, now {e.after}%"


def _held(e: Any) -> str:
    return f", held by {e.holder}" if e.holder else ""


def _because(text: str) -> str:
    return f" ({text})" if text else ""


LINES: dict[type, Callable[[Any, Any], str]] = {
    Hero.Created: _created_line,
    Hero.ScoreChanged: _score_line,
    Hero.DecisionRolled: _roll_line,
    Contest.Decided: _contest_line,
    Item.Stocked: lambda n, e: f"{e.name} stocked with a supply die of {e.die}{_held(e)}",
    Item.SupplyRolled: _supply_line,
    Item.UsedWhileEmpty: lambda n, e: f"{e.name} used while Empty{' to ' + e.purpose if e.purpose else ''}"
    f", by GM override: {e.override}",
    Item.Restocked: lambda n, e: f"{e.name} restocked: {e.before} -> {e.after}{_because(e.reason)}",
    Tracker.Started: lambda n, e: f"Tracker {e.name} starts at {e.value}% (a use costs {e.step}){_held(e)}",
    Tracker.Rolled: _tracker_line,
    Tracker.UsedAtZero: lambda n, e: f"{e.name} used at 0%{' to ' + e.purpose if e.purpose else ''}"
    f", by GM override: {e.override}",
    Tracker.Set: lambda n, e: f"{e.name} set: {e.before}% -> {e.after}%{_because(e.reason)}",
}


# --- queries for the CLI -----------------------------------------------------------------------

def sheets(db: Database, name: str | None = None) -> list[dict[str, Any]]:
    where, args = ("name = ? COLLATE NOCASE", [name]) if name else (None, [])
    return [{"name": r["name"], "level": r["level"], "will": r["will"], "fort": r["fort"],
             "stress": r["stress"], "vitality": r["vitality"], "stats": _json(r["stats"]),
             "attributes": _json(r["attributes"])}
            for r in db.table("d2d6_sheets").rows_where(where, args, order_by="joined")]


def rolls(db: Database, name: str | None = None, limit: int | None = None) -> list[dict[str, Any]]:
    """The decision rolls standing (an undone roll's row goes), oldest first; the last `limit`."""
    where, args = ("character = ? COLLATE NOCASE", [name]) if name else (None, [])
    rows = list(db.table("d2d6_rolls").rows_where(where, args, order_by="entry desc", limit=limit))[::-1]
    return [{**r, "chains": _list(r["chains"]), "modifiers": _list(r["modifiers"]), "success": _flag(r["success"]),
             "entered": bool(r["entered"])} for r in rows]


def _list(value: Any) -> list:
    import json
    return json.loads(value) if isinstance(value, str) else list(value or [])


def _flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


def pools(db: Database) -> dict[str, list[dict[str, Any]]]:
    return {"supplies": [{k: r[k] for k in ("item", "holder", "die")}
                         for r in db.table("d2d6_supplies").rows_where(order_by="item")],
            "trackers": [{k: r[k] for k in ("tracker", "holder", "value", "step")}
                         for r in db.table("d2d6_trackers").rows_where(order_by="tracker")]}


def statement(db: Database, name: str) -> list[dict[str, Any]]:
    """Every change of one item's supply die or one tracker, in ledger order."""
    rows = list(db.table("d2d6_supply_rows").rows_where("item = ? COLLATE NOCASE", [name], order_by="entry"))
    rows += list(db.table("d2d6_tracker_rows").rows_where("tracker = ? COLLATE NOCASE", [name], order_by="entry"))
    return rows
