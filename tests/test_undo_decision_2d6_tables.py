"""Undo in a decision-2d6 campaign leaves every current-state table as a campaign that never played
the undone commands holds it (issue 33); the statements (sheet, supply and tracker rows) keep
every change and gain a row that says the undo."""
from __future__ import annotations

import sqlite3

from campaign_ledger.projections.rulesets.decision_2d6 import tables
from tests.undo_tables_check import check_as_never_played, missing_restorers

STATE = ("d2d6_sheets", "d2d6_rolls", "d2d6_contests", "d2d6_supplies", "d2d6_trackers")
BILLY = [["new", "Undo Delve", "--ruleset", "decision-2d6"],
         ["decision-2d6", "pc-add", "Billy", "--will", "2", "--fort", "3", "--stat", "Strength=1"],
         ["decision-2d6", "pc-add", "Ogre", "--will", "1", "--fort", "4", "--attribute", "Wits=1"]]
VIEWS = [["decision-2d6", "sheet"], ["decision-2d6", "rolls"], ["decision-2d6", "pools"]]


def test_every_state_attribute_of_a_decision_2d6_aggregate_has_a_restorer():
    assert missing_restorers("campaign_ledger.ledger.rulesets.decision_2d6", tables.RESTORERS) == {}


def test_an_undone_contest_leaves_the_contests_table(tmp_path):
    """Issue 33, finding 4: the contest's rounds stayed in d2d6_contests as if played."""
    contest = ["decision-2d6", "contest", "Billy:Strength", "Ogre:Wits", "--faces", "1,3/5,5"]
    t = check_as_never_played(tmp_path, BILLY + [contest, contest], 1, VIEWS, STATE, logs=tables.LOGS)
    with sqlite3.connect(t.path) as con:
        assert con.execute("SELECT count(*) FROM d2d6_contests").fetchone()[0] == 1


def test_undone_score_changes_leave_the_sheet_and_say_so_in_its_rows(tmp_path):
    change = ["decision-2d6", "pc-set", "Billy", "--level", "3", "--stat", "Strength=2,Agility=1", "--reason", "train"]
    t = check_as_never_played(tmp_path, BILLY + [change], 1, VIEWS, STATE, logs=tables.LOGS)
    with sqlite3.connect(t.path) as con:
        undone = con.execute("SELECT score, before, after FROM d2d6_sheet_rows WHERE reason LIKE 'undo %' "
                             "ORDER BY score").fetchall()
        marked = con.execute("SELECT score, reversed_at FROM d2d6_sheet_rows WHERE reason = 'train' ORDER BY score")
        undo_entry = con.execute("SELECT max(entry) FROM d2d6_sheet_rows").fetchone()[0]
        assert marked.fetchall() == [("Agility", undo_entry), ("Level", undo_entry), ("Strength", undo_entry)]
        assert con.execute("SELECT count(*) FROM d2d6_sheet_rows WHERE reversed_at IS NOT NULL").fetchone()[0] == 3
    assert undone == [("Agility", 1, None), ("Level", 3, 1), ("Strength", 2, 1)]


def test_the_supply_and_tracker_statements_mark_the_undone_changes(tmp_path):
    play = BILLY + [["decision-2d6", "item-add", "Torches", "--die", "D8"],
                    ["decision-2d6", "tracker-add", "Arrows", "--value", "80"],
                    ["decision-2d6", "supply-roll", "Torches", "--faces", "2"],
                    ["decision-2d6", "tracker-roll", "Arrows", "--faces", "5"]]
    t = check_as_never_played(tmp_path, play, 2, VIEWS, STATE, logs=tables.LOGS)
    torches = t.json("decision-2d6", "pools", "Torches")["rows"]
    assert [(r["change"], r["reversed_at"] is not None) for r in torches] == \
        [("added", False), ("rolled", True), ("undone", False)]


def test_undone_supply_tracker_and_decision_rolls_leave_what_was_never_played(tmp_path):
    play = BILLY + [["decision-2d6", "item-add", "Torches", "--die", "D8", "--holder", "Billy"],
                    ["decision-2d6", "tracker-add", "Arrows", "--value", "80", "--holder", "Billy"],
                    ["decision-2d6", "roll", "Billy", "Strength", "--target", "8", "--faces", "4,3"],
                    ["decision-2d6", "supply-roll", "Torches", "--faces", "2"],
                    ["decision-2d6", "tracker-roll", "Arrows", "--faces", "95"],
                    ["decision-2d6", "restock", "Torches", "D12", "--reason", "market"],
                    ["decision-2d6", "tracker-set", "Arrows", "60", "--reason", "refill"]]
    check_as_never_played(tmp_path, play, 5, VIEWS, STATE, logs=tables.LOGS)
