"""What the campaign is (its name, ruleset and rules version, for every reader of the file), and
where a Relics campaign stands: the Scenario, Scene and Event in play (`stage`: a trait used
once a scene is spent while its Scene lasts) and the opportunities created (`opportunities`)."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.ids import CAMPAIGN_ID
from campaign_ledger.ledger.reversible import Reversible


TABLES = ("campaign", "stage", "opportunities")
NAMED = ("name", "ruleset", "rules_version")  # the campaign's attributes the `campaign` table keeps
STAGE = ("scenario_number", "scene", "scenes", "encounter")  # the campaign's attributes `stage` mirrors
# What an undo restores (a `Reversed` event's `changes`) that these rows show, by aggregate: each is
# written back in `_reversed` (tests/test_undo_relics_tables.py holds every projection to its list).
RESTORED = {Campaign: (*NAMED, *STAGE, "opportunities")}


HANDLED = (Campaign.Started, Campaign.ScenarioStarted, Campaign.SceneStarted, Campaign.SceneEnded,
           Campaign.EncounterStarted, Campaign.EncounterEnded, Campaign.OpportunityCreated, Reversible.Reversed)


def apply(db: Database, entry: int, e: Any) -> None:
    if isinstance(e, Campaign.Started):
        db.table("campaign").insert_all([{"key": "name", "value": e.name}, {"key": "ruleset", "value": e.ruleset},
                                   {"key": "rules_version", "value": e.rules_version}])
        _stage(db, {})
    elif isinstance(e, Campaign.ScenarioStarted):
        _stage(db, {"scenario_number": stage(db)["scenario_number"] + 1})
    elif isinstance(e, Campaign.SceneStarted):
        _stage(db, {"scene": e.number, "scenes": e.number})
    elif isinstance(e, Campaign.SceneEnded):
        _stage(db, {"scene": None})
    elif isinstance(e, Campaign.EncounterStarted):
        _stage(db, {"encounter": e.number})
    elif isinstance(e, Campaign.EncounterEnded):
        _stage(db, {"encounter": None})
    elif isinstance(e, Campaign.OpportunityCreated):
        db.table("opportunities").insert({"key": f"{e.challenge}:{e.round}", "challenge": e.challenge,
                                          "round": e.round, "pc": e.pc, "entry": entry})
    elif isinstance(e, Reversible.Reversed) and e.originator_id == CAMPAIGN_ID:
        _reversed(db, entry, e.changes)


def stage(db: Database) -> dict[str, Any]:
    """The stage row (a file made before the table existed has none until `rebuild`: it reads as the start)."""
    row = db.execute("SELECT scenario_number, scene, scenes, encounter FROM stage WHERE id = 1").fetchone()
    return dict(zip(STAGE, row or (0, None, 0, None)))


def _stage(db: Database, changes: dict[str, Any]) -> None:
    db.table("stage").upsert({"id": 1, **stage(db), **changes}, pk="id")


def _reversed(db: Database, entry: int, changes: dict[str, Any]) -> None:
    """An undo restores the campaign's own attributes: its name and rules, the stage it stood at,
    the opportunities it held."""
    for key in NAMED:
        if key in changes:
            db.execute("UPDATE campaign SET value = ? WHERE key = ?", [changes[key], key])
    restored = {k: changes[k] for k in STAGE if k in changes}
    for k in ("scene", "encounter"):  # the aggregate keeps {"number": n, ...} or None
        if k in restored:
            restored[k] = restored[k]["number"] if restored[k] else None
    if restored:
        _stage(db, restored)
    if "opportunities" in changes:
        _restore_opportunities(db, entry, changes["opportunities"])


def _restore_opportunities(db: Database, entry: int, kept: dict[str, str]) -> None:
    """The rows match the opportunities the undo restored: one it took away goes (a campaign that
    never played it has none), one it brought back is there again."""
    held = {key for key, in db.execute("SELECT key FROM opportunities").fetchall()}
    for key in held - kept.keys():
        db.execute("DELETE FROM opportunities WHERE key = ?", [key])
    for key in kept.keys() - held:
        challenge, round_ = key.rsplit(":", 1)
        db.table("opportunities").insert({"key": key, "challenge": challenge, "round": int(round_),
                                          "pc": kept[key], "entry": entry})
