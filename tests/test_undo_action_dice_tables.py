"""Undo in an action-dice campaign leaves every read table as a campaign that never played the
undone commands holds it (issue 33): assets, features, conditions (in their order) and rolls."""
from __future__ import annotations

from campaign_ledger.projections.rulesets.action_dice import tables
from tests.undo_tables_check import check_as_never_played, missing_restorers

MARA = [["new", "Undo Heist", "--ruleset", "action-dice"],
        ["action-dice", "character", "Mara", "--asset", "Athletics=d12", "--asset", "Lockpicks=d6"]]
VIEWS = [["action-dice", "sheet"], ["action-dice", "rolls"]]


def test_every_state_attribute_of_an_action_dice_aggregate_has_a_restorer():
    assert missing_restorers("campaign_ledger.ledger.rulesets.action_dice", tables.RESTORERS) == {}


def test_undoing_an_asset_change_gives_the_old_die_back(tmp_path):
    """Issue 33, finding 1: "Mara restored", yet the sheet kept Lockpicks d12."""
    t = check_as_never_played(tmp_path, MARA + [["action-dice", "asset", "Mara", "Lockpicks", "d12"]], 1,
                              VIEWS, tables.TABLES)
    assert t.json("action-dice", "sheet", "Mara")["assets"] == {"Athletics": 12, "Lockpicks": 6}


def test_undoing_a_new_asset_and_a_new_feature_takes_their_rows_away(tmp_path):
    check_as_never_played(tmp_path, MARA + [["action-dice", "asset", "Mara", "Rope", "d8"],
                                            ["action-dice", "feature", "Mara", "Quick"]], 2, VIEWS, tables.TABLES)


def test_a_treated_condition_undone_stands_where_it_stood_among_the_others(tmp_path):
    conditions = [["action-dice", "condition", "Mara", "Bruised", "--level", "2", "--impacts", "climb"],
                  ["action-dice", "condition", "Mara", "Shaken", "--level", "1", "--impacts", "sneak"],
                  ["action-dice", "treat", "Mara", "Bruised"]]
    t = check_as_never_played(tmp_path, MARA + conditions, 1, VIEWS, tables.TABLES)
    assert [c["name"] for c in t.json("action-dice", "sheet", "Mara")["conditions"]] == ["Bruised", "Shaken"]


def test_undoing_rolls_and_sheet_changes_among_others_leaves_what_was_never_played(tmp_path):
    play = MARA + [["action-dice", "character", "Tobin", "--asset", "Nerve=d8"],
                   ["action-dice", "roll", "Mara", "climb", "--rating", "D6", "--asset", "Athletics", "--faces", "7,3,2"],
                   ["action-dice", "feature", "Tobin", "Old Debts"],
                   ["action-dice", "asset", "Tobin", "Nerve", "d10"],
                   ["action-dice", "condition", "Tobin", "Winded", "--level", "3", "--impacts", "run"],
                   ["action-dice", "roll", "Tobin", "sneak", "--rating", "D8", "--asset", "Nerve", "--faces", "9,4,1"],
                   ["action-dice", "asset", "Mara", "Athletics", "d8"]]
    check_as_never_played(tmp_path, play, 5, VIEWS, tables.TABLES)
