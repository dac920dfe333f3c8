"""What the players' live page (`campaign serve`) shows of a Relics campaign: the Scenario, Scene
and Event, Destiny and Doom, each open Challenge with the dice resolved of its rating and what its
turn waits for (with the odds of a pool waiting on its roll), and each PC in short, Stress and Agony
as bars against the thresholds in play (house rules included).

The Challenge's own traits are the GM's: shown only when the GM asks (`--show-gm`).
"""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.ids import challenge_id
from campaign_ledger.ledger.rulesets.relics.challenge import NEXT_STEP
from campaign_ledger.ledger.rulesets.relics.odds import pool_line
from campaign_ledger.ledger.rulesets.relics.rules import rules_for, with_house_rules
from campaign_ledger.projections import views
from campaign_ledger.projections.rulesets.relics.state import stage


def view(app: Any, db: Database, show_gm: bool) -> dict[str, Any]:
    camp = app.campaign()
    rules = with_house_rules(rules_for(camp.rules_version), camp.house_rules)
    pools = views.pools(db)
    where = stage(db)
    return {
        "stage": [s for s in (f"Scenario: {pools['scenario']}" if pools["scenario"] else None,
                              f"Scene {where['scene']}" if where["scene"] is not None else None,
                              f"Event {where['event']}" if where["event"] is not None else None) if s],
        "pools": [{"label": "Destiny", "value": pools["destiny"], "kind": "destiny"},
                  {"label": "Doom", "value": pools["doom"], "kind": "doom"}],
        "challenges": [_challenge(app, db, row, show_gm) for row in views.challenges(db, open_only=True)],
        "sheets": [_sheet(s, rules) for s in views.sheets(db)],
    }


def gm_entries(db: Database) -> set[int]:
    """The entries that gave a Challenge a trait: the GM's, kept off a shared page until played
    (an activated trait is on the table, in the pool's own line)."""
    return {r[0] for r in db.execute("SELECT t.entry FROM traits t JOIN challenges c ON c.id = t.owner_id")}


def _challenge(app: Any, db: Database, row: dict[str, Any], show_gm: bool) -> dict[str, Any]:
    challenge = app.repository.get(challenge_id(row["name"]))  # the turn's step, as `campaign status` reads it
    pending, phase = challenge.pending, challenge.phase
    facts = [f"{row['threat']} {row['type']}", f"round {row['round']}" if row["round"] else "not begun"]
    if row["leader"]:
        facts.append(f"led by {row['leader']}")
    gm = []
    if show_gm:
        gm = [f"{name} {modifier}" for name, modifier in db.execute(
            "SELECT name, modifier FROM traits WHERE owner = ? AND ended IS NULL ORDER BY entry", [row["name"]])]
    return {"name": row["name"], "facts": facts,
            "progress": {"label": "Resolved", "value": row["resolved"] or 0, "max": row["rating"], "kind": "progress"},
            "waiting": NEXT_STEP.get(phase), "odds": pool_line(pending) if phase.endswith("-roll") and pending else None,
            "gm": gm}


def _sheet(sheet: dict[str, Any], rules: Any) -> dict[str, Any]:
    expertise = ", ".join(f"{k} {v}" for k, v in sheet["expertise"].items())
    facts = [f"{sheet['primary']}" + (f" ({expertise})" if expertise else "")]
    if sheet["status"] and sheet["status"] != "active":
        facts.append(sheet["status"])
    return {"name": sheet["name"], "facts": facts,
            "bars": [{"label": "Stress", "value": sheet["stress"], "max": rules.stressed_out_at, "kind": "stress"},
                     {"label": "Agony", "value": sheet["agony"], "max": rules.agony_out_at, "kind": "agony"}]}
