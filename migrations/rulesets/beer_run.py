"""Read-model tables of beer-run campaigns, registered on the one migration set.

Sheets and their ability dice, the Intensity statement (one row per change, so a balance can be
read after any entry), conflicts, and every comparison with its faces (seed 002 "Compare Rolls").
"""
from sqlite_utils import Database

from campaign_ledger.migrations.read_model import migrations, rederive


@migrations(name="m110_beer_run")
def m110_beer_run(db: Database) -> None:
    db["beer_run_sheets"].create({"id": str, "name": str, "kind": str, "intensity": int, "status": str,
                                  "situation": str, "penalties": str, "joined": int}, pk="id")
    db["beer_run_abilities"].create({"character_id": str, "character": str, "name": str, "category": str,
                                     "size": int, "start": int, "position": int, "entry": int},
                                    pk=("character_id", "name"))
    db["beer_run_intensity"].create({"entry": int, "character": str, "change": int, "balance": int,
                                     "reason": str}, pk="entry")
    db["beer_run_conflicts"].create({"id": str, "name": str, "sides": str, "target": str, "round": int,
                                     "out": str, "status": str, "result": str, "opened": int}, pk="id")
    db["beer_run_comparisons"].create({"entry": int, "conflict": str, "round": int, "kind": str, "side": str,
                                       "opponent": str, "faces": str, "opponent_faces": str, "pairs": str,
                                       "scored": str, "kept": str, "upper_hand": str}, pk="entry")


@migrations(name="m111_beer_run_versions")
def m111_beer_run_versions(db: Database) -> None:
    """`sheet --at` and `pools --at` read the versions of these tables' rows (m013's row_versions,
    projections/row_versions.py): triggers note each row changed; a campaign of this ruleset
    derives its tables again, so they hold every version since entry 1."""
    from campaign_ledger.projections import row_versions
    row_versions.triggers(db, ("beer_run_sheets", "beer_run_abilities"))
    if db["beer_run_sheets"].count:
        rederive(db)


@migrations(name="m112_beer_run_undone")
def m112_beer_run_undone(db: Database) -> None:
    """Undo restores every state attribute in these tables now (projections/reversal_map.py, issue
    33), and the logs' rows an undo reversed say so (`reversed_at`: the undo's entry). A campaign of
    this ruleset with an undo in its history derives its tables again, so rows an earlier undo left
    as the undone play had made them follow the state, and its logs' undone rows are marked. A gone
    ability die an outcome die brings back keeps the size it had started at (`earlier_starts`), so
    undoing that gives it back."""
    db["beer_run_intensity"].add_column("reversed_at", int)
    db["beer_run_abilities"].add_column("earlier_starts", str)  # a die brought back: the starts it had
    if db["beer_run_sheets"].count and db.execute("SELECT 1 FROM history WHERE type LIKE '%Reversed' LIMIT 1").fetchone():
        rederive(db)
