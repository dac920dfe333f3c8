"""What the players' live page (`campaign serve`) shows of an action-dice campaign: no pools, no
Challenge; each character in short, with assets, features and conditions (and what they stop)."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from campaign_ledger.projections.rulesets.action_dice import tables


def view(app: Any, db: Database, show_gm: bool) -> dict[str, Any]:
    return {"stage": [], "pools": [], "challenges": [], "sheets": [_sheet(s) for s in tables.sheets(db)]}


def _sheet(s: dict[str, Any]) -> dict[str, Any]:
    facts = [f"{s['rolls']} rolls"]
    if s["assets"]:
        facts.append("Assets: " + ", ".join(f"{name} d{die}" for name, die in s["assets"].items()))
    if s["features"]:
        facts.append("Features: " + ", ".join(s["features"]))
    for c in s["conditions"]:
        stops = f"; cannot {', '.join(c['incapacitates'])}" if c["incapacitates"] else ""
        facts.append(f"{c['name']} (level {c['level']}){stops}")
    return {"name": s["name"], "facts": facts, "bars": []}
