"""RULES.md's worked Relics examples (seed 000, step 5), played through the CLI with entered faces."""
import pytest


@pytest.fixture
def heist(table):
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d")
    table("trait", "add", "Bo", "Steady", "+1 / 2d")
    table("trait", "add", "Guards", "Stubborn", "-2 / 2d", "--challenge")
    return table


def _cohort(t, faces, *extra):
    return t.json("cohort-turn", "Guards", "--leader", "Kira", "--faces", faces, *extra)


def _tally(t):
    return next(r for r in t.json("history") if r["type"] == "Challenge.RoundTallied")


def test_two_simple_modifiers_on_1_3_3_4_5_make_three_successes_and_one_destiny(heist):
    report = _cohort(heist, "1,3,3,4,5", "--trait", "Kira:Keen Eye", "--trait", "Bo:Steady",
                     "--place", "Keen Eye=5", "--place", "Steady=1,4")
    assert "2, 3, 3, 5, 7 = 3 successes" in _tally(heist)["line"]
    assert (report["resolved"], report["destiny"], report["doom"]) == (3, 2 + 1, 2 + 0)


def test_the_plus_two_on_the_five_alone_leaves_a_botch_one_success_one_destiny_one_doom(heist):
    report = _cohort(heist, "1,3,3,4,5", "--trait", "Kira:Keen Eye", "--place", "Keen Eye=5")
    assert "1, 3, 3, 4, 7 = 1 success" in _tally(heist)["line"]
    assert (report["resolved"], report["destiny"], report["doom"]) == (1, 3, 3)


def test_a_cohort_plus_may_stack_on_the_challenges_minus(heist):
    _cohort(heist, "2,3,3,5,6", "--trait", "Guards:Stubborn", "--trait", "Bo:Steady",
            "--place", "Stubborn=1,2", "--place", "Steady=2,5")
    assert "0, 2, 3, 5, 7 = 2 successes" in _tally(heist)["line"]


def test_the_best_placement_finds_the_three_success_one(heist):
    report = _cohort(heist, "1,3,3,4,5", "--trait", "Kira:Keen Eye", "--trait", "Bo:Steady", "--best")
    assert "= 3 successes" in _tally(heist)["line"]
    assert report["resolved"] == 3


def test_without_placements_the_turn_waits_and_offers_the_best_one(heist):
    report = _cohort(heist, "1,3,3,4,5", "--trait", "Kira:Keen Eye", "--trait", "Bo:Steady")
    assert report["phase"] == "cohort-place"
    offered = {report["pool"]["simple"][int(i)]["label"]: sorted(d) for i, d in report["offered"].items()}
    assert offered == {"Kira:Keen Eye": [5], "Bo:Steady": [1, 4]}
    heist("place", "Guards", "--best")
    assert "2, 3, 3, 5, 7 = 3 successes" in _tally(heist)["line"]
