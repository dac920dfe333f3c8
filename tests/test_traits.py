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


def test_a_trait_without_target_modifies_the_pool_the_seeds_say(table, tmp_path):
    """001 "Modifiers": a Beneficial modifier helps its owner's own pool, a Hindering one the
    opposition's; Add Dice only ever change the Cohort pool. `trait add` and `roster load` agree
    (issue 35, finding 8): both ask traits.pool."""
    cases = [("Kira", "Keen Eye", "+2 / 1d", (), "cohort"), ("Kira", "Smoke", "-1 / 1d", (), "challenge"),
             ("Kira", "Limp", "-1d6", (), "cohort"), ("Cohort", "Old Friends", "+1d6", (), "cohort"),
             ("Guards", "Stubborn", "-2 / 2d", ("--challenge",), "cohort"),
             ("Guards", "Alert", "+1 / 1d", ("--challenge",), "challenge"),
             ("Guards", "Bells", "A1 / 1d", ("--challenge", "--polarity", "hindering"), "cohort")]
    for owner, name, modifier, extra, pool in cases:
        assert table.json("trait", "add", owner, name, modifier, *extra)["target"] == pool, name
    assert "Add Dice never change a Challenge pool" in table.refused("trait", "add", "Guards", "More", "+1d6",
                                                                     "--challenge")
    roster = tmp_path / "bestiary.toml"
    roster.write_text('[[challenge]]\nname = "Dogs"\nthreat = "Minor"\ntype = "Phantom"\nrating = 2\n'
                      '[[challenge.trait]]\nname = "More"\nmodifier = "+1d6"\n')
    assert "line 6, challenge[0].trait[0].target: Add Dice never change" in table.refused("roster", "load", str(roster))
    table("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Guards:Stubborn", "--trait", "Guards:Bells",
          "--faces", "5,5,5,5", "--best")
    table("challenge-turn", "Guards", "--trait", "Kira:Smoke", "--trait", "Guards:Alert", "--faces", "3,3,3", "--best")
