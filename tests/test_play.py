"""Rounds played as at a real table: step by step, or whole; the demo; rules versions."""
import pytest

from tests.conftest import Table


def test_a_turn_played_step_by_step_equals_the_same_turn_in_one_command(tmp_path):
    def setup(name):
        t = Table(tmp_path / name)
        t("new", "X")
        t("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom")
        t("pc", "add", "Bo", "--expertise", "Phantom=3,Venger=1", "--primary", "Venger")
        t("trait", "add", "Kira", "Keen", "+2 / 1d")
        t("scenario", "start", "S")
        t("challenge", "open", "Guards", "--threat", "Major", "--type", "Phantom", "--rating", "4")
        return t

    whole, steps = setup("whole.db"), setup("steps.db")
    whole("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Keen", "--faces", "1,3,3,4,5", "--best")
    whole("challenge-turn", "Guards", "--faces", "6,2,2", "--stress", "Kira=1,Bo=1")

    assert steps.json("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Keen")["phase"] == "cohort-roll"
    assert steps.json("status")["turn"]["side"] == "cohort"
    assert steps.json("roll", "Guards", "--faces", "1,3,3,4,5")["phase"] == "cohort-place"
    assert steps.json("place", "Guards", "--best")["phase"] == "challenge"
    assert steps.json("status")["turn"] is None
    assert steps.json("challenge-turn", "Guards")["phase"] == "challenge-roll"
    assert steps.json("roll", "Guards", "--faces", "6,2,2")["phase"] == "challenge-stress"
    assert steps.json("stress", "Guards", "--stress", "Kira=1,Bo=1")["phase"] == "cohort"

    lines = lambda t: [(r["type"], r["line"]) for r in t.json("history")]  # noqa: E731
    assert lines(steps) == lines(whole)
    assert steps.json("sheet") == whole.json("sheet")


def test_a_pool_rolled_by_the_program_stores_every_face(table):
    report = table.json("cohort-turn", "Guards", "--leader", "Kira", "--roll")
    rolled = next(r for r in table.json("history") if r["type"] == "Challenge.PoolRolled")
    assert "rolled by the program" in rolled["line"]
    faces = [int(f) for f in rolled["line"].split(" show ")[1].split(" (")[0].split(",")]
    assert len(faces) == 5 and all(1 <= f <= 6 for f in faces)
    assert report["phase"] == "challenge" or report["phase"] == "resolved"


def test_the_challenge_turn_turns_resolved_dice_into_threat_auto_results(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "5,5,2,2,2")
    report = table.json("challenge-turn", "Guards", "--faces", "1,1")
    assert report["pool"]["autos"] == [4, 4]  # Minor = A4 under 0.6.1
    assert report["phase"] == "cohort" and report["round"] == 1


@pytest.mark.parametrize("version, autos, destiny", [("0.6.1", [5, 5, 5], 2 + 3), ("0.2.0", [6, 6, 6], 2 + 2)])
def test_a_campaign_plays_under_the_rules_version_it_recorded(tmp_path, version, autos, destiny):
    t = Table(tmp_path / "c.db")
    t("new", "X", "--rules-version", version)
    t("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom")
    t("pc", "add", "Bo", "--expertise", "Phantom=3,Venger=1", "--primary", "Venger")
    t("trait", "add", "Kira", "Keen", "+3 / 1d")
    t("scenario", "start", "S")
    t("challenge", "open", "Guards", "--threat", "Major", "--type", "Phantom", "--rating", "6")
    report = t.json("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Keen", "--faces", "6,2,3,2,3",
                    "--best")
    assert report["destiny"] == min(destiny, 6)  # one overpowering 9
    assert t.json("challenge-turn", "Guards", "--faces", "1,1,1")["pool"]["autos"] == autos


def test_the_demo_plays_a_challenge_to_its_end(empty):
    result = empty.json("demo")
    sheets = {s["name"]: s for s in result["sheets"]}
    assert (sheets["Bo"]["stress"], sheets["Bo"]["agony"], sheets["Bo"]["status"]) == (0, 1, "active")
    assert (result["pools"]["destiny"], result["pools"]["doom"]) == (2, 6)
    types = [r["type"] for r in result["history"]]
    for expected in ("Challenge.DisasterStruck", "Character.StressedOut", "Character.PushedTheLimit",
                     "Challenge.Resolved"):
        assert expected in types
    assert any("criticals 1, botches 1" in r["line"] for r in result["history"])
    assert all("entered from the table" in r["line"] for r in result["history"] if r["type"] == "Challenge.PoolRolled")
    again = empty.json("demo")
    assert again["history"] == result["history"]
