"""The GM has the last word: a refused rule is accepted with a stated reason, kept in the ledger.
House rules amend a rule for one campaign from the entry that sets them on."""
import pytest

from tests.test_refusals import _round, stress_out


@pytest.fixture
def traited(table):
    table("trait", "add", "Kira", "Keen", "+2 / 1d", "--cost", "destiny")
    table("trait", "add", "Kira", "Smoke", "-1 / 1d", "--target", "challenge")
    table("trait", "add", "Bo", "Steady", "+1 / 2d")
    table("pc", "add", "Ash", "--expertise", "Phantom=1", "--primary", "Phantom")
    return table


OVERRIDABLE = [
    (["--leader", "Ash"], "needs rank 2 or more"),
    (["--leader", "Kira", "--destiny", "4"], "Destiny pool holds 2"),
    (["--leader", "Kira", "--trait", "Kira:Smoke"], "targets the Challenge pool"),
    (["--leader", "Kira", "--trait", "Kira:Keen", "--trait", "Bo:Steady", "--faces", "1,2,3,4,5,6",
      "--place", "Keen=1", "--place", "Steady=1,2"], "two beneficial Simple modifiers"),
]


@pytest.mark.parametrize("args, rule", OVERRIDABLE)
def test_a_refused_rule_is_accepted_with_a_gm_override_that_history_shows(traited, args, rule):
    assert rule in traited.refused("cohort-turn", "Guards", *args)
    before = traited.entries()
    traited("cohort-turn", "Guards", *args, "--gm-override", "the table agreed")
    assert traited.entries() > before
    lines = [r["line"] for r in traited.json("history")[before:]]
    assert any(line.startswith("GM override: the table agreed (the rule set aside: ") and rule in line
               for line in lines)
    overrides = traited.json("audit")["overrides"]
    assert [o["reason"] for o in overrides] == ["the table agreed"]


def test_overriding_an_empty_destiny_pool_waives_the_cost_and_never_goes_below_zero(traited):
    traited("cohort-turn", "Guards", "--leader", "Kira", "--destiny", "2", "--faces", "2,2,2,3,3,4,4,4")
    traited("challenge-turn", "Guards", "--faces", "2,2,2,2")
    assert traited.json("pools")["destiny"] == 0
    assert "Destiny pool is empty" in traited.refused("cohort-turn", "Guards", "--trait", "Kira:Keen")
    traited("cohort-turn", "Guards", "--trait", "Kira:Keen", "--gm-override", "Kira's big moment")
    assert traited.json("pools")["destiny"] == 0


def test_a_stressed_out_pc_may_act_if_the_gm_says_so(table):
    stress_out(table, "Bo")
    assert "Bo is Stressed Out" in table.refused("cohort-turn", "Guards", "--assist", "Bo")
    table("cohort-turn", "Guards", "--assist", "Bo", "--gm-override", "adrenaline")
    assert any(r["line"].startswith("GM override: adrenaline") for r in table.json("history", "--limit", "12"))


def test_an_empty_reason_is_not_an_override(table):
    assert "needs a reason" in table.refused("cohort-turn", "Guards", "--leader", "Kira", "--gm-override", " ")


def test_a_house_rule_applies_from_its_entry_on_and_history_shows_when(table):
    _round(table, "Kira=4")
    table("house-rule", "set", "stressed_out_at", "6", "--reason", "a grittier campaign")
    line = table.json("history", "--limit", "1")[0]["line"]
    assert line == "House rule: stressed_out_at is now 6 (was 10): a grittier campaign"
    _round(table, "Kira=4")
    assert table.json("sheet", "Kira")["status"] == "Stressed Out"  # 8 Stress, under the new rule
    assert [h["rule"] for h in table.json("audit")["house_rules"]] == ["stressed_out_at"]


def test_a_house_rule_table_amends_only_the_ranks_it_names(table):
    table("house-rule", "set", "lead_dice", "3=4")
    table("cohort-turn", "Guards", "--leader", "Kira")
    assert table.json("status")["challenges"][0]["pending"]["pool"]["size"] == 4 + 2


@pytest.mark.parametrize("args, message", [
    (["bogus", "1"], "is not a rule a house rule can change"),
    (["stressed_out_at", "ten"], "stressed_out_at is written as a number"),
    (["ranked_simple", "1=1"], "ranked_simple is written as"),
    (["stressed_out_at", "10"], "already 10"),
])
def test_a_house_rule_that_cannot_be_read_is_refused(table, args, message):
    assert message in table.refused("house-rule", "set", *args)
