"""What the players' live page (`campaign serve`) shows of a Beer Run campaign: each character's
Intensity (the pool they spend), the conflicts still going on with their round, goals, who has left
and what the round waits for, and each character in short: abilities by category (the die it has now, and the one it began at
when worn down), situation and penalty dice."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.rulesets.beer_run.character import BeerRunCharacter
from campaign_ledger.projections.rulesets.beer_run import tables


def view(app: Any, db: Database, show_gm: bool) -> dict[str, Any]:
    conflicts = tables.conflicts(db, open_only=True)
    return {
        "stage": [f"Conflict: {c['name']}" for c in conflicts],
        "pools": [{"label": f"{p['name']} Intensity", "value": p["intensity"], "kind": "intensity"}
                  for p in tables.pools(db)],
        "challenges": [_conflict(c, app.beer_run_conflict_state(c["name"])) for c in conflicts],
        "sheets": [_sheet(s) for s in tables.sheets(db)],
    }


def _conflict(c: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """A conflict's card: its sides, round and goals, and what the round waits for, in the words of
    `beer-run status` (the conflict's own `waiting_for`); the target only where it is not plain."""
    facts = [" vs ".join(c["sides"]), f"round {c['round']}"]
    if len(c["sides"]) > 2:
        facts.append(f"every side against {c['target']}")
    for side, now in state["sides"].items():
        if now["goal"]:
            facts.append(f"{side}'s goal: {now['goal']['text']}")
    facts += [f"{who} out: {why}" for who, why in c["out"].items()]
    waiting = ", ".join(state["waiting_for"]) or None
    return {"name": c["name"], "facts": facts, "progress": None, "waiting": waiting, "odds": None, "gm": []}


def _sheet(s: dict[str, Any]) -> dict[str, Any]:
    """A character as `beer-run sheet` shows it: an ability at zero is gone (the page said `d0`), and
    each held die says how long it lasts, in the words an undo uses for it (BeerRunCharacter.WORDS)."""
    words = BeerRunCharacter.WORDS
    facts = []
    for category, abilities in s["abilities"].items():
        dice = ", ".join(f"{a['name']} {words['abilities'](a)}" + (f" (of d{a['start']})" if a["size"] != a["start"] else "")
                         for a in abilities)
        facts.append(f"{category}: {dice}")
    if s["situation"]:
        facts.append("Situation dice: " + ", ".join(words["situation"](d) for d in s["situation"]))
    if s["penalties"]:
        facts.append("Penalty dice: " + ", ".join(words["penalties"](d) for d in s["penalties"]))
    if s["status"] != "alive":
        facts.append(s["status"])
    return {"name": s["name"], "facts": facts, "bars": []}
