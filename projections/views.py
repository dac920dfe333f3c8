"""Queries the CLI prints: the read side's answers, straight from the read-model tables."""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from campaign_ledger.projections import actors

EXPERTISE = ("scav", "venger", "phantom", "stallion", "sparrow")
# A trait row held at entry `at`: seen by then and not yet ended (an ended temporary trait keeps its row).
_HELD = "{} AND entry <= ? AND (ended IS NULL OR ended > ?)"


def campaign(db: Database) -> dict[str, str]:
    return {r["key"]: r["value"] for r in db.table("campaign").rows}


def sheets(db: Database, name: str | None = None, at: int | None = None) -> list[dict[str, Any]]:
    where, args = ("name = ? COLLATE NOCASE OR id = (SELECT id FROM pc_names WHERE name = lower(?))",
                   [name, name.strip()]) if name else (None, [])
    rows = []
    for row in db.table("sheets").rows_where(where, args, order_by="joined"):
        if at is not None:
            version = db.execute("SELECT sheet FROM sheet_versions WHERE id = ? AND entry <= ? "
                                 "ORDER BY entry DESC LIMIT 1", [row["id"], at]).fetchone()
            if version is None:
                continue
            row = json.loads(version[0])
        traits = list(db.table("traits").rows_where(_HELD.format("owner_id = ?"), [row["id"], at or 2**62, at or 2**62],
                                              order_by="entry"))
        rows.append({"name": row["name"], "primary": row["primary_type"],
                     "expertise": {t.capitalize(): row[t] for t in EXPERTISE if row[t]},
                     "stress": row["stress"], "agony": row["agony"], "status": _status(row),
                     "retired": row.get("retired"), "traits": [_trait(t) for t in traits]})
    return rows


def _status(row: dict[str, Any]) -> str:
    """What the sheet says the PC is: a retired PC is `retired` (not `active`: it neither leads,
    assists nor takes Stress) until it returns; out of the game (5 Agony) is for good and stays."""
    return "retired" if row.get("retired") and row["status"] != "out of the game" else row["status"]


def _trait(t: dict[str, Any]) -> dict[str, Any]:
    shown = {k: t[k] for k in ("name", "modifier", "polarity", "cost", "target")}
    shown.update(frequency=t.get("frequency") or "always", types=json.loads(t.get("types") or "[]"))
    if t.get("duration"):
        shown.update(duration=t["duration"], source=t.get("source"))
    if t.get("words"):
        shown.update(words=t["words"])  # a Motto's
    return shown


def cohort_traits(db: Database, at: int | None = None) -> list[dict[str, Any]]:
    """The Cohort's own traits and the temporary ones it holds (Rallying Cry is always there)."""
    rows = db.table("traits").rows_where(_HELD.format("owner_id = 'cohort'"), [at or 2**62, at or 2**62],
                                        order_by="entry")
    return [_trait(t) for t in rows]


def pools(db: Database, at: int | None = None) -> dict[str, Any]:
    row = db.table("pools").get(1) if db.table("pools").count else {"scenario": None, "destiny": 0, "doom": 0}
    result = {"scenario": row["scenario"], "destiny": row["destiny"], "doom": row["doom"],
              "cohort_traits": cohort_traits(db)}
    if at is not None:
        past = db.execute("SELECT destiny, doom FROM balances WHERE entry <= ? ORDER BY entry DESC LIMIT 1",
                          [at]).fetchone() or (0, 0)
        result.update(destiny=past[0], doom=past[1], at=at)
    return result


def statement(db: Database, balance: str) -> list[dict[str, Any]]:
    """Every entry that changed a balance, with the running value: why is Doom 7? A renamed PC's
    `NAME:stress` is one statement by any name it had (the rows kept under each name, in entry
    order; the rename's own row, its value carried to the new name, changes nothing and is left out)."""
    names = _every_balance_name(db, balance)
    marks = ", ".join("?" for _ in names)
    rows = db.execute("SELECT b.entry, h.time, b.delta, b.value, h.line FROM balance_changes b LEFT JOIN history h "
                      f"ON h.entry = b.entry WHERE b.balance IN ({marks}) COLLATE NOCASE ORDER BY b.entry",
                      names).fetchall()
    if len(names) == 1:
        return [dict(zip(("entry", "time", "change", "balance", "line"), r)) for r in rows]
    found: list[dict[str, Any]] = []
    for entry, time, _, value, line in rows:
        change = value - found[-1]["balance"] if found else value
        if found and not change:
            continue
        found.append({"entry": entry, "time": time, "change": change, "balance": value, "line": line})
    return found


def _every_balance_name(db: Database, balance: str) -> list[str]:
    """The balances a PC's `NAME:KIND` was kept under, one per name it has had (`balance` alone
    when it names no renamed PC)."""
    owner, colon, kind = balance.rpartition(":")
    aliases = current_names(db)
    now = aliases.get(owner.strip().casefold()) if colon else None
    if now is None:
        return [balance]
    mine = {alias for alias, name in aliases.items() if name == now} | {now.casefold()}
    kept = [r[0] for r in db.execute("SELECT DISTINCT balance FROM balance_changes WHERE balance LIKE ?",
                                     ["%:" + kind.strip()])]
    return [b for b in kept if b.rpartition(":")[0].casefold() in mine and
            b.rpartition(":")[2].casefold() == kind.strip().casefold()] or [balance]


def current_names(db: Database) -> dict[str, str]:
    """Every name a PC has had (case folded) to its name now: a renamed PC is one line, under that name."""
    if not (db["pc_names"].exists() and db["sheets"].exists()):
        return {}
    return {alias.casefold(): name for alias, name in
            db.execute("SELECT p.name, s.name FROM pc_names p JOIN sheets s ON s.id = p.id")}


def balance_names(db: Database) -> list[str]:
    return [r[0] for r in db.execute("SELECT DISTINCT balance FROM balance_changes ORDER BY balance")]


def last_entry_by(db: Database, stamp: str) -> int:
    """The last entry made at or before a UTC time stamp (ISO, seconds)."""
    row = db.execute("SELECT max(entry) FROM history WHERE time <= ?", [stamp]).fetchone()
    return row[0] or 0
def history(db: Database, first: int | None = None, last: int | None = None,
            limit: int | None = None) -> list[dict[str, Any]]:
    where = "entry >= ? AND entry <= ?"
    args = [first or 0, last if last is not None else 2**62]
    if limit:
        rows = list(db.table("history").rows_where(where, args, order_by="entry desc", limit=limit))[::-1]
    else:
        rows = list(db.table("history").rows_where(where, args, order_by="entry"))
    for row in rows:  # an entry outside every unit (`new`, an undo's own) is stored "" so it is named once
        actors.shaped(row)
    return rows


def entries(db: Database, numbers: list[int]) -> list[dict[str, Any]]:
    if not numbers:
        return []
    return history(db, min(numbers), max(numbers))


def challenges(db: Database, open_only: bool = False, finished: bool = False) -> list[dict[str, Any]]:
    where = "phase NOT IN ('resolved', 'ended')" if open_only else "phase IN ('resolved', 'ended')" if finished \
        else None
    return [{k: r[k] for k in ("name", "threat", "type", "rating", "resolved", "leader", "round", "phase")}
            for r in db.table("challenges").rows_where(where, order_by="opened")]


def named_thing(db: Database, name: str) -> str | None:
    """What a name that is no character's names instead, in the GM's words ("a Challenge (campaign
    status shows it)"), from the rulesets' naming tables (`NAMED`, less `NAMED_CHARACTERS`; a module's
    `NAMED_THINGS` words a table); None when nothing in the campaign has that name."""
    from campaign_ledger.projections import rulesets

    for module in rulesets.modules():
        characters = getattr(module, "NAMED_CHARACTERS", ())
        for table, column in getattr(module, "NAMED", ()):
            if table in characters or not db[table].exists():
                continue
            if db.execute(f"SELECT 1 FROM [{table}] WHERE [{column}] = ? COLLATE NOCASE", [name.strip()]).fetchone():
                return getattr(module, "NAMED_THINGS", {}).get(
                    table, f"something else (campaign history --challenge \"{name.strip()}\" shows its entries)")
    return None
