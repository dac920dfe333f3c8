"""Read-model tables of decision-2d6 campaigns, registered on the one migration set.

Current state: sheets, supply dice, trackers. A row after every change: sheet rows, supply
rows, tracker rows. Every decision roll, and every round of every contest.
"""
from sqlite_utils import Database

from campaign_ledger.migrations.read_model import migrations, rederive


@migrations(name="m130_decision_2d6")
def m130_decision_2d6(db: Database) -> None:
    db["d2d6_sheets"].create({"id": str, "name": str, "level": int, "will": int, "fort": int, "stress": int,
                              "vitality": int, "stats": str, "attributes": str, "joined": int, "entry": int},
                             pk="id")
    db["d2d6_sheet_rows"].create({"entry": int, "character": str, "score": str, "kind": str, "before": int,
                                  "after": int, "stress": int, "vitality": int, "reason": str},
                                 pk=("entry", "score"))
    db["d2d6_rolls"].create({"entry": int, "character": str, "stat": str, "stat_value": int, "advantage": str,
                             "chains": str, "modifiers": str, "total": int, "target": int, "difficulty": str,
                             "success": int, "entered": int, "purpose": str}, pk="entry")
    db["d2d6_contests"].create({"entry": int, "round": int, "first": str, "first_chains": str,
                                "first_total": int, "second": str, "second_chains": str, "second_total": int,
                                "result": str}, pk=("entry", "round"))
    db["d2d6_supplies"].create({"id": str, "item": str, "holder": str, "die": str, "entry": int}, pk="id")
    db["d2d6_supply_rows"].create({"entry": int, "item": str, "change": str, "before": str, "face": int,
                                   "after": str, "note": str}, pk="entry")
    db["d2d6_trackers"].create({"id": str, "tracker": str, "holder": str, "value": int, "step": int,
                                "entry": int}, pk="id")
    db["d2d6_tracker_rows"].create({"entry": int, "tracker": str, "change": str, "before": int, "face": int,
                                    "after": int, "note": str}, pk="entry")


@migrations(name="m131_decision_2d6_versions")
def m131_decision_2d6_versions(db: Database) -> None:
    """`sheet --at` and `pools --at` read the versions of these tables' rows (m013's row_versions,
    projections/row_versions.py): triggers note each row changed; a campaign of this ruleset
    derives its tables again, so they hold every version since entry 1."""
    from campaign_ledger.projections import row_versions
    row_versions.triggers(db, ("d2d6_sheets", "d2d6_supplies", "d2d6_trackers"))
    if db["d2d6_sheets"].count:
        rederive(db)


@migrations(name="m132_decision_2d6_undone")
def m132_decision_2d6_undone(db: Database) -> None:
    """Undo restores every state attribute in these tables now (projections/reversal_map.py, issue
    33), and the logs' rows an undo reversed say so (`reversed_at`: the undo's entry). A campaign of
    this ruleset with an undo in its history derives its tables again, so rows an earlier undo left
    as the undone play had made them follow the state, and its logs' undone rows are marked."""
    db["d2d6_sheet_rows"].add_column("reversed_at", int)
    db["d2d6_supply_rows"].add_column("reversed_at", int)
    db["d2d6_tracker_rows"].add_column("reversed_at", int)
    if db["d2d6_sheets"].count and db.execute("SELECT 1 FROM history WHERE type LIKE '%Reversed' LIMIT 1").fetchone():
        rederive(db)
