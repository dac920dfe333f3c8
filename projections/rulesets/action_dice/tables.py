"""Read tables of action-dice campaigns: sheets (assets, features, conditions) and every roll."""
from __future__ import annotations

import json
from typing import Any, Callable

from sqlite_utils import Database

from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.rulesets.action_dice.character import ActionCharacter as C
from campaign_ledger.projections import reversal_map

CHARACTERS, ASSETS, FEATURES = "action_dice_characters", "action_dice_assets", "action_dice_features"
CONDITIONS, ROLLS = "action_dice_conditions", "action_dice_rolls"
TABLES: tuple[str, ...] = (CHARACTERS, ASSETS, FEATURES, CONDITIONS, ROLLS)
OWNED = {CHARACTERS: "id", ASSETS: "character_id", FEATURES: "character_id", CONDITIONS: "character_id"}
NAMED = ((CHARACTERS, "name"),)  # the history names a character by its id
NAMED_CHARACTERS = (CHARACTERS,)  # of those, the tables of characters (`history --pc`; the rest: --challenge)


def apply(db: Database, entry: int, e: Any) -> None:
    """Update this ruleset's read tables for one ledger entry."""
    handler = HANDLERS.get(type(e))
    if handler is None and isinstance(e, Reversible.Reversed) and db.table(CHARACTERS).count_where(
            "id = ?", [e.originator_id.hex]):
        handler = _reversed
    if handler:
        handler(db, entry, e, e.originator_id.hex)


def _reversed(db: Database, entry: int, e: Any, who: str) -> None:
    """Undo restored part of a sheet: each restored attribute's rows written back (RESTORERS)."""
    reversal_map.restore(db, entry, e, RESTORERS[C], who)


def _restore_assets(db: Database, entry: int, e: Any, who: str, assets: dict) -> None:
    """Dice back to their restored sizes; an asset the undone play added goes. Play never removes
    an asset, so every restored one still has its row, which keeps its entry (the sheet's order)."""
    restored = {a["name"]: a["die"] for a in assets.values()}
    for row in list(db.table(ASSETS).rows_where("character_id = ?", [who])):
        if row["name"] not in restored:
            db.table(ASSETS).delete((who, row["name"]))
        elif row["die"] != restored[row["name"]]:
            db.table(ASSETS).update((who, row["name"]), {"die": restored[row["name"]]})
    _add_missing(db, entry, ASSETS, who, {n: {"die": d} for n, d in restored.items()})


def _restore_features(db: Database, entry: int, e: Any, who: str, features: dict) -> None:
    """A feature the undone play gained goes (play never loses one: the others keep their rows)."""
    restored = set(features.values())
    for row in list(db.table(FEATURES).rows_where("character_id = ?", [who])):
        if row["name"] not in restored:
            db.table(FEATURES).delete((who, row["name"]))
    _add_missing(db, entry, FEATURES, who, {n: {} for n in features.values()})


def _add_missing(db: Database, entry: int, table: str, who: str, restored: dict[str, dict]) -> None:
    """Rows the restored value holds and the table lacks (no play removes an asset or a feature:
    none today), added last so nothing is silently missing from the sheet."""
    have = {r["name"] for r in db.table(table).rows_where("character_id = ?", [who], select="name")}
    name = db.table(CHARACTERS).get(who)["name"]
    db.table(table).insert_all([{"character_id": who, "character": name, "name": n, **extra, "entry": entry}
                                for n, extra in restored.items() if n not in have])


def _restore_conditions(db: Database, entry: int, e: Any, who: str, conditions: dict) -> None:
    """Rewrite a sheet's conditions from the restored ones, in the restored order (the sheet reads
    them in rowid order, which is the character's own order: a condition treated and brought back
    by undo stands where it stood). A row still there keeps the entry that added it; one brought
    back has the undo's entry (the entry that first added it is not in the reversal)."""
    name = db.table(CHARACTERS).get(who)["name"]
    first_seen = {r["name"]: r["entry"] for r in db.table(CONDITIONS).rows_where("character_id = ?", [who])}
    db.table(CONDITIONS).delete_where("character_id = ?", [who])
    db.table(CONDITIONS).insert_all([{"character_id": who, "character": name, "name": c["name"], "level": c["level"],
                                      "impacts": json.dumps(c["impacts"]),
                                      "incapacitates": json.dumps(c.get("incapacitates", [])),
                                      "entry": first_seen.get(c["name"], entry)}
                                     for c in conditions.values()])


def _restore_rolls(db: Database, entry: int, e: Any, who: str, rolls: int) -> None:
    """The count back, and the undone rolls leave the list: `action_dice_rolls` holds the rolls
    standing (as a campaign that never made them would), the history keeps them marked undone."""
    db.table(CHARACTERS).update(who, {"rolls": rolls})
    where, args = reversal_map.entries_in(e)
    db.table(ROLLS).delete_where(f"character_id = ? AND {where}", [who, *args])


# Every state attribute of each aggregate, and what undo's restoring it does to the rows.
RESTORERS: dict[type, reversal_map.Restorers] = {C: {
    "name": reversal_map.FIXED,
    "assets": _restore_assets,
    "features": _restore_features,
    "conditions": _restore_conditions,
    "rolls": _restore_rolls,
    "unmade": reversal_map.UNMADE,
}}


def _joined(db: Database, entry: int, e: C.Joined, who: str) -> None:
    db.table(CHARACTERS).insert({"id": who, "name": e.name, "rolls": 0, "joined": entry})
    db.table(ASSETS).insert_all([{"character_id": who, "character": e.name, "name": a, "die": d, "entry": entry}
                           for a, d in e.assets.items()])
    db.table(FEATURES).insert_all([{"character_id": who, "character": e.name, "name": f, "entry": entry}
                             for f in e.features])


def _asset(db: Database, entry: int, e: C.AssetSet, who: str) -> None:
    if e.was is None:  # rows keep the entry that added them, so a sheet keeps its order
        db.table(ASSETS).insert({"character_id": who, "character": e.character, "name": e.asset, "die": e.die,
                           "entry": entry})
    else:
        db.table(ASSETS).update((who, e.asset), {"die": e.die})


def _feature(db: Database, entry: int, e: C.FeatureGained, who: str) -> None:
    db.table(FEATURES).insert({"character_id": who, "character": e.character, "name": e.feature, "entry": entry})


def _condition(db: Database, entry: int, e: C.ConditionSet, who: str) -> None:
    state = {"level": e.level, "impacts": json.dumps(list(e.impacts)),
             "incapacitates": json.dumps(list(e.incapacitates))}
    if e.was is None:
        db.table(CONDITIONS).insert({"character_id": who, "character": e.character, "name": e.condition, **state,
                               "entry": entry})
    else:
        db.table(CONDITIONS).update((who, e.condition), state)


def _treated(db: Database, entry: int, e: C.ConditionTreated, who: str) -> None:
    db.table(CONDITIONS).delete((who, e.condition))


def _rolled(db: Database, entry: int, e: C.ActionRolled, who: str) -> None:
    row = {k: getattr(e, k) for k in ("character", "action", "rating", "base", "advantages", "disadvantages",
                                      "difficulty", "entered", "successes", "outcome", "succeeded", "test",
                                      "features_limit", "gm_override")}
    row.update({k: json.dumps(list(getattr(e, k))) for k in ("assets", "dice", "faces", "features", "overridden")})
    db.table(ROLLS).insert({"entry": entry, "character_id": who, **row})
    db.execute(f"UPDATE [{CHARACTERS}] SET rolls = rolls + 1 WHERE id = ?", [who])


HANDLERS: dict[type, Callable[[Database, int, Any, str], None]] = {
    C.Joined: _joined, C.AssetSet: _asset, C.FeatureGained: _feature,
    C.ConditionSet: _condition, C.ConditionTreated: _treated, C.ActionRolled: _rolled,
}


# --- history lines ------------------------------------------------------------------------------

def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


def _joined_line(n: Any, e: C.Joined) -> str:
    assets = ", ".join(f"{a} d{d}" for a, d in e.assets.items()) or "no assets"
    features = f"; features {', '.join(e.features)}" if e.features else ""
    return f"{e.name} joined: {assets}{features}"


def _asset_line(n: Any, e: C.AssetSet) -> str:
    if e.was is None:
        return f"{e.character} gained the asset {e.asset} d{e.die}"
    return f"{e.character}'s {e.asset} is now a d{e.die} (was d{e.was})"


def _condition_line(n: Any, e: C.ConditionSet) -> str:
    impacts = f" (impacts {', '.join(e.impacts)})" if e.impacts else " (impacts no action)"
    if e.was is None:
        text = f"{e.character} gains {e.condition} at level {e.level}{impacts}"
    else:
        verb = "worsens" if e.level > e.was else "eases" if e.level < e.was else ""
        moved = f"{verb} from level {e.was} to {e.level}" if verb else f"stays at level {e.level}"
        text = f"{e.character}'s {e.condition} {moved}{impacts}"
    out = f": incapacitated for {', '.join(e.incapacitates)} until treated" if e.incapacitates else ""
    return text + out


def _gone_line(n: Any, e: C.ConditionTreated) -> str:
    """Treated, or eased below level 1 (the lowest level a condition has): gone either way."""
    if e.eased:
        return f"{e.character}'s {e.condition} eases away from level {e.was} and is gone"
    return f"{e.character}'s {e.condition} (level {e.was}) is treated"


def _rolled_line(n: Any, e: C.ActionRolled) -> str:
    position = [_plural(k, w) for k, w in ((e.advantages, "advantage"), (e.disadvantages, "disadvantage")) if k]
    steps = ([f"base {e.base}"] if e.rating or position else []) + position
    against = f"{e.rating} " if e.rating else ""
    against += f"({', '.join(steps)} -> difficulty {e.difficulty})" if steps else f"difficulty {e.difficulty}"
    labels = list(e.assets) + [""] * (len(e.dice) - len(e.assets))
    dice = ", ".join(f"{label + ' ' if label else ''}d{d}={f}" for label, d, f in zip(labels, e.dice, e.faces))
    how = "entered from the table" if e.entered else "rolled by the program"
    line = f"{e.character} rolls {e.action} against {against}: {dice} ({how}) -> " \
           f"{_plural(e.successes, 'success')}: {e.outcome}"
    if e.test:
        line += f", the test {'passes' if e.succeeded else 'fails'}"
    if e.features:
        line += f"; features {', '.join(e.features)}"
    if e.gm_override is not None:
        aside = f" (set aside: {' '.join(e.overridden)})" if e.overridden else ""
        line += f"; GM override: {e.gm_override}{aside}"
    return line


LINES: dict[type, Callable[[Any, Any], str]] = {
    C.Joined: _joined_line,
    C.AssetSet: _asset_line,
    C.FeatureGained: lambda n, e: f"{e.character} gained the feature {e.feature}",
    C.ConditionSet: _condition_line,
    C.ConditionTreated: _gone_line,
    C.ActionRolled: _rolled_line,
}


# --- queries the CLI prints ---------------------------------------------------------------------

def sheets(db: Database, name: str | None = None) -> list[dict[str, Any]]:
    """Each character's sheet: assets, features, conditions (and what they incapacitate)."""
    where, args = ("name = ? COLLATE NOCASE", [name]) if name else (None, [])
    result = []
    for row in db.table(CHARACTERS).rows_where(where, args, order_by="joined"):
        of = ("character_id = ?", [row["id"]])
        conditions = [{"name": c["name"], "level": c["level"], "impacts": json.loads(c["impacts"]),
                       "incapacitates": json.loads(c["incapacitates"])}
                      for c in db.table(CONDITIONS).rows_where(*of, order_by="rowid")]
        result.append({"name": row["name"], "rolls": row["rolls"],
                       "assets": {a["name"]: a["die"] for a in db.table(ASSETS).rows_where(*of, order_by="entry, rowid")},
                       "features": [f["name"] for f in db.table(FEATURES).rows_where(*of, order_by="entry, rowid")],
                       "conditions": conditions,
                       "incapacitated_for": sorted({a for c in conditions for a in c["incapacitates"]})})
    return result


def rolls(db: Database, name: str | None = None, limit: int | None = None) -> list[dict[str, Any]]:
    """Action rolls, oldest first (the last `limit` of them)."""
    where, args = ("character = ? COLLATE NOCASE", [name]) if name else (None, [])
    rows = list(db.table(ROLLS).rows_where(where, args, order_by="entry desc", limit=limit))[::-1]
    for r in rows:
        r.pop("character_id")
        r.update({k: json.loads(r[k]) for k in ("assets", "dice", "faces", "features", "overridden")})
        r.update({k: bool(r[k]) for k in ("entered", "succeeded", "test")})
    return rows
