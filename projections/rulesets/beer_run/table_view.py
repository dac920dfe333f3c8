"""What the players' live page (`campaign serve`) shows of a Beer Run campaign: each character's
Intensity (the pool they spend), the conflicts still going on with their round and who has left,
and each character in short: abilities by category (the die it has now, and the one it began at
when worn down), situation and penalty dice."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from projections.rulesets.beer_run import tables


def view(app: Any, db: Database, show_gm: bool) -> dict[str, Any]:
    conflicts = tables.conflicts(db, open_only=True)
    return {
        "stage": [f"Conflict: {c['name']}" for c in conflicts],
        "pools": [{"label": f"{p['name']} Intensity", "value": p["intensity"], "kind": "intensity"}
                  for p in tables.pools(db)],
        "challenges": [_conflict(c) for c in conflicts],
        "sheets": [_sheet(s) for s in tables.sheets(db)],
    }


def _conflict(c: dict[str, Any]) -> dict[str, Any]:
    facts = [" vs ".join(c["sides"]), f"round {c['round']}"]
    if c.get("target"):
        facts.append(f"goal: {c['target']}")
    facts += [f"{who} out: {why}" for who, why in c["out"].items()]
    return {"name": c["name"], "facts": facts, "progress": None, "waiting": None, "odds": None, "gm": []}


def _sheet(s: dict[str, Any]) -> dict[str, Any]:
    facts = []
    for category, abilities in s["abilities"].items():
        dice = ", ".join(f"{a['name']} d{a['size']}" + (f" (of d{a['start']})" if a["size"] != a["start"] else "")
                         for a in abilities)
        facts.append(f"{category}: {dice}")
    if s["situation"]:
        facts.append("Situation dice: " + ", ".join(f"d{d['size']}" for d in s["situation"]))
    if s["penalties"]:
        facts.append("Penalty dice: " + ", ".join(f"d{d['size']}" + (" (lasting)" if d["lasting"] else "")
                                                  for d in s["penalties"]))
    if s["status"] != "alive":
        facts.append(s["status"])
    return {"name": s["name"], "facts": facts, "bars": []}
