"""Read-model tables of action-dice campaigns, registered on the one migration set.

Sheets are split as the seed splits a character: assets (die sizes), features and
conditions (level 1-3, the actions they impact); every action roll keeps a row.
"""
from sqlite_utils import Database

from campaign_ledger.migrations.read_model import migrations, rederive


@migrations(name="m120_action_dice")
def m120_action_dice(db: Database) -> None:
    db["action_dice_characters"].create({"id": str, "name": str, "rolls": int, "joined": int}, pk="id")
    db["action_dice_assets"].create({"character_id": str, "character": str, "name": str, "die": int,
                                     "entry": int}, pk=("character_id", "name"))
    db["action_dice_features"].create({"character_id": str, "character": str, "name": str, "entry": int},
                                      pk=("character_id", "name"))
    db["action_dice_conditions"].create({"character_id": str, "character": str, "name": str, "level": int,
                                         "impacts": str, "incapacitates": str, "entry": int},
                                        pk=("character_id", "name"))
    db["action_dice_rolls"].create({"entry": int, "character_id": str, "character": str, "action": str,
                                    "rating": str, "base": int, "advantages": int, "disadvantages": int,
                                    "difficulty": int, "assets": str, "dice": str, "faces": str,
                                    "entered": int, "successes": int, "outcome": str, "succeeded": int,
                                    "test": int, "features": str, "features_limit": int,
                                    "overridden": str, "gm_override": str}, pk="entry")


@migrations(name="m121_action_dice_versions")
def m121_action_dice_versions(db: Database) -> None:
    """`sheet --at` and `pools --at` read the versions of these tables' rows (m013's row_versions,
    projections/row_versions.py): triggers note each row changed; a campaign of this ruleset
    derives its tables again, so they hold every version since entry 1."""
    from campaign_ledger.projections import row_versions
    row_versions.triggers(db, ("action_dice_characters", "action_dice_assets", "action_dice_features", "action_dice_conditions"))
    if db["action_dice_characters"].count:
        rederive(db)


@migrations(name="m122_action_dice_undone")
def m122_action_dice_undone(db: Database) -> None:
    """Undo restores every state attribute in these tables now (projections/reversal_map.py, issue
    33): a campaign of this ruleset with an undo in its history derives its tables again, so rows
    an earlier undo left as the undone play had made them follow the state."""
    if db["action_dice_characters"].count and db.execute("SELECT 1 FROM history WHERE type LIKE '%Reversed' LIMIT 1").fetchone():
        rederive(db)
