"""Undo in a beer-run campaign leaves every current-state table as a campaign that never played the
undone commands holds it (issue 33); the Intensity statement keeps every change and says the undo."""
from __future__ import annotations

from campaign_ledger.projections.rulesets.beer_run import tables
from tests.test_beer_run_ledger import ANN, BOB
from tests.undo_tables_check import check_as_never_played, missing_restorers

STATE = ("beer_run_sheets", "beer_run_abilities", "beer_run_conflicts", "beer_run_comparisons")
PUB = [["new", "Undo Pub", "--ruleset", "beer-run"],
       ["beer-run", "character", "add", "Ann", "--ability", ANN],
       ["beer-run", "character", "add", "Bob", "--ability", BOB, "--intensity", "4"]]
VIEWS = [["beer-run", "sheet"], ["beer-run", "pools"], ["beer-run", "conflicts"], ["beer-run", "statement"]]


def test_every_state_attribute_of_a_beer_run_aggregate_has_a_restorer():
    assert missing_restorers("campaign_ledger.ledger.rulesets.beer_run", tables.RESTORERS) == {}


def test_an_undone_outcome_die_leaves_the_sheet(tmp_path):
    """The restored abilities only resized the rows they named: a die gained for good kept its row."""
    t = check_as_never_played(tmp_path, PUB + [["beer-run", "outcome", "gain", "Ann", "Social:Six-pack=d6"]], 1,
                              VIEWS[:3], STATE, logs=tables.LOGS)
    assert "Six-pack" not in str(t.json("beer-run", "sheet", "Ann"))


def test_an_undone_round_leaves_what_was_never_played(tmp_path):
    play = PUB + [["beer-run", "conflict", "open", "Brawl", "--side", "Ann", "--side", "Bob"],
                  ["beer-run", "goal", "Brawl", "Ann", "talk Bob down", "--ability", "Charm"],
                  ["beer-run", "goal", "Brawl", "Bob", "throw Ann out"],
                  ["beer-run", "roll", "Brawl", "Ann", "--faces", "8,6,4"],
                  ["beer-run", "roll", "Brawl", "Bob", "--faces", "3,2,1"],
                  ["beer-run", "pips", "Brawl", "Ann", "Charm=2,Wits=1"]]
    check_as_never_played(tmp_path, play, 5, VIEWS[:3], STATE, undos=1, logs=tables.LOGS)  # the round is one unit


def test_the_intensity_statement_marks_an_undone_change_and_says_the_undo(tmp_path):
    t = check_as_never_played(tmp_path, PUB + [["beer-run", "intensity", "Ann", "--lose", "3", "--reason", "a round"]],
                              1, VIEWS[:3], STATE, logs=tables.LOGS)
    rows = [(r["change"], r["balance"], r["reversed_at"] is not None) for r in t.json("beer-run", "statement", "Ann")]
    assert rows == [(10, 10, False), (-3, 7, True), (3, 10, False)]


def test_a_gone_die_brought_back_by_an_outcome_die_and_undone_starts_where_it_started(tmp_path):
    """Bringing back a die pips had zeroed stopped the read tables (the row-versions trigger under an
    upsert); undone, the die is gone again at the size it had first started at (d2), not d6."""
    round_ = [["beer-run", "conflict", "open", "Brawl", "--side", "Ann", "--side", "Bob"],
              ["beer-run", "goal", "Brawl", "Ann", "talk Bob down", "--ability", "Charm"],
              ["beer-run", "goal", "Brawl", "Bob", "throw Ann out"],
              ["beer-run", "roll", "Brawl", "Ann", "--faces", "8,6,4"],
              ["beer-run", "roll", "Brawl", "Bob", "--faces", "3,2,1"],
              ["beer-run", "pips", "Brawl", "Ann", "Charm=2,Wits=1"]]
    t = check_as_never_played(tmp_path, PUB + round_ + [["beer-run", "outcome", "gain", "Bob", "Mental:Charm=d6"]],
                              1, VIEWS, STATE, logs=tables.LOGS)
    assert t.json("beer-run", "sheet", "Bob")["abilities"]["Social"] == [{"name": "Charm", "size": 0, "start": 2}]
