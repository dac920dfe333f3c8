"""Queries the CLI prints: the read side's answers, straight from the read-model tables."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

EXPERTISE = ("scav", "venger", "phantom", "stallion", "sparrow")


def campaign(db: Database) -> dict[str, str]:
    return {r["key"]: r["value"] for r in db["campaign"].rows}


def sheets(db: Database, name: str | None = None) -> list[dict[str, Any]]:
    where, args = ("name = ? COLLATE NOCASE", [name]) if name else (None, [])
    rows = []
    for row in db["sheets"].rows_where(where, args, order_by="joined"):
        traits = list(db["traits"].rows_where("owner_id = ?", [row["id"]], order_by="entry"))
        rows.append({"name": row["name"], "primary": row["primary_type"],
                     "expertise": {t.capitalize(): row[t] for t in EXPERTISE if row[t]},
                     "stress": row["stress"], "agony": row["agony"], "status": row["status"],
                     "traits": [{k: t[k] for k in ("name", "modifier", "polarity", "cost", "target")}
                                for t in traits]})
    return rows


def pools(db: Database) -> dict[str, Any]:
    row = db["pools"].get(1) if db["pools"].count else {"scenario": None, "destiny": 0, "doom": 0}
    return {"scenario": row["scenario"], "destiny": row["destiny"], "doom": row["doom"]}


def balances(db: Database) -> list[dict[str, int]]:
    return list(db["balances"].rows_where(order_by="entry"))


def history(db: Database, first: int | None = None, last: int | None = None,
            limit: int | None = None) -> list[dict[str, Any]]:
    where = "entry >= ? AND entry <= ?"
    args = [first or 0, last if last is not None else 2**62]
    if limit:
        rows = list(db["history"].rows_where(where, args, order_by="entry desc", limit=limit))
        return rows[::-1]
    return list(db["history"].rows_where(where, args, order_by="entry"))


def entries(db: Database, numbers: list[int]) -> list[dict[str, Any]]:
    if not numbers:
        return []
    return history(db, min(numbers), max(numbers))


def challenges(db: Database, open_only: bool = False) -> list[dict[str, Any]]:
    where = "phase != 'resolved'" if open_only else None
    return [{k: r[k] for k in ("name", "threat", "type", "rating", "resolved", "leader", "round", "phase")}
            for r in db["challenges"].rows_where(where, order_by="opened")]
