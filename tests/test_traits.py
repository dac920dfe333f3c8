"""Traits keep their limits: how often, for which Challenge types, and whose they are."""
from pathlib import Path

from tests.conftest import Table

FIXTURE = Path(__file__).parent / "fixtures" / "relics_demo_v1.jsonl"


def _round(t, *cohort):
    t("cohort-turn", "Guards", *cohort, "--faces", "2,2,2,2,2", "--best")
    t("challenge-turn", "Guards", "--faces", "2,2,2,2")


def test_a_once_a_scenario_trait_is_refused_until_the_next_scenario(table):
    table("trait", "add", "Kira", "Big Moment", "+2 / 1d", "--frequency", "scenario")
    _round(table, "--leader", "Kira", "--trait", "Kira:Big Moment")
    assert "once a scenario and was used this scenario" in table.refused(
        "cohort-turn", "Guards", "--trait", "Kira:Big Moment")
    table("cohort-turn", "Guards", "--trait", "Kira:Big Moment", "--gm-override", "the GM allows it",
          "--faces", "2,2,2,2,2", "--best")
    table("challenge-turn", "Guards", "--faces", "2,2,2,2")
    table("scenario", "start", "The next night")
    table("challenge", "open", "Dogs", "--threat", "Minor", "--type", "Phantom", "--rating", "2")
    table("cohort-turn", "Dogs", "--leader", "Kira", "--trait", "Kira:Big Moment", "--faces", "2,2,3,3,4", "--best")


def test_a_trait_for_other_challenge_types_is_refused(table):
    table("trait", "add", "Kira", "Gunplay", "+1 / 1d", "--types", "Venger,Scav")
    assert "applies to Venger, Scav Challenges, not Phantom" in table.refused(
        "cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Gunplay")


def test_the_cohort_has_its_rallying_cry_once_a_scenario_and_its_own_traits(table):
    table("trait", "add", "Cohort", "Old Friends", "+1d6")
    assert [x["name"] for x in table.json("pools")["cohort_traits"]] == ["Old Friends"]
    assert "Cohort trait Old Friends: +1d6 beneficial" in table("pools").stdout
    report = table.json("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Cohort:Rallying Cry=doom",
                        "--trait", "Cohort:Old Friends")
    assert report["pool"]["autos"] == [6] and report["pool"]["pool"]["size"] == 6
    assert report["doom"] == 3
    table("roll", "Guards", "--faces", "2,2,3,3,4")
    table("challenge-turn", "Guards", "--faces", "2,2,2")
    assert "Rallying Cry is once a scenario" in table.refused("cohort-turn", "Guards",
                                                             "--trait", "Cohort:Rallying Cry=destiny")
    assert "already has a trait named 'Rallying Cry'" in table.refused("trait", "add", "Cohort", "Rallying Cry",
                                                                       "+1d6")


def test_unknown_frequencies_are_refused(table):
    assert "'hourly' is not one of always, round, scene, scenario" in table.refused("trait", "add", "Kira", "Odd", "+1d6", "--frequency", "hourly")


def test_a_ledger_written_before_trait_limits_still_loads_and_plays(tmp_path):
    t = Table(tmp_path / "old.db")
    t("import", str(FIXTURE))
    assert t.json("audit")["clean"]
    kira = t.json("sheet", "Kira")
    assert {x["name"] for x in kira["traits"]} == {"Shadowstep", "Smoke Bomb"}
    t("cohort-turn", "Vault Guards", "--trait", "Kira:Shadowstep", "--faces", "6,6,2,3,4", "--best")
    assert t.json("status")["challenges"] == []
