"""What the players' live page (`campaign serve`) shows of a decision-2d6 campaign: supply dice
and trackers as its pools, and each character in short (level, Will, Fort, Stress, Vitality,
stats and attributes)."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from campaign_ledger.projections.rulesets.decision_2d6 import tables


def view(app: Any, db: Database, show_gm: bool) -> dict[str, Any]:
    pools = tables.pools(db)
    supplies = [{"label": f"{s['item']} ({s['holder']})" if s["holder"] else s["item"], "value": s["die"],
                 "kind": "supply"} for s in pools["supplies"]]
    trackers = [{"label": f"{t['tracker']} ({t['holder']})" if t["holder"] else t["tracker"],
                 "value": f"{t['value']}%", "kind": "tracker"} for t in pools["trackers"]]
    return {"stage": [], "pools": supplies + trackers, "challenges": [],
            "sheets": [_sheet(s) for s in tables.sheets(db)]}


def _sheet(s: dict[str, Any]) -> dict[str, Any]:
    signed = lambda values: ", ".join(f"{k} {v:+d}" for k, v in values.items())  # noqa: E731
    facts = [f"Level {s['level']}, Will {s['will']}, Fort {s['fort']}, Stress {s['stress']}, Vitality {s['vitality']}"]
    if s["stats"]:
        facts.append("Stats: " + signed(s["stats"]))
    if s["attributes"]:
        facts.append("Attributes: " + signed(s["attributes"]))
    return {"name": s["name"], "facts": facts, "bars": []}
