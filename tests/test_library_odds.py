"""`odds` through the library alone (Campaign.odds, odds_without_campaign): the same answers as
`campaign odds --json` on the same file, and the same refusals (code and rule); nothing recorded."""
from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from campaign_ledger import CampaignError, open_campaign
from campaign_ledger.odds import jsonable, odds_without_campaign
from tests.conftest import Table, heist


def _refusal(table: Table, *words: str) -> dict:
    result = table(*words, "--json", ok=False)
    assert result.exit_code in (1, 2)
    return json.loads(result.stdout)


def _refused_alike(table: Table, call: Any, *words: str) -> CampaignError:
    with pytest.raises(CampaignError) as refused:
        call()
    assert refused.value.as_json() == _refusal(table, *words)
    return refused.value


# --- Relics -----------------------------------------------------------------------------------------

def test_a_relics_pool_through_the_library_is_the_clis(tmp_path):
    table = heist(tmp_path)
    camp = open_campaign(table.path)
    before = table.entries()
    assert camp.odds("Guards") == table.json("odds", "Guards")
    huddle = camp.odds("Guards", leader="Kira", assists=["Bo"], destiny=1)
    assert huddle == table.json("odds", "Guards", "--leader", "Kira", "--assist", "Bo", "--destiny", "1")
    assert huddle["ruleset"] == "relics" and huddle["side"] == "cohort" and not huddle["waiting"]
    assert _refused_alike(table, lambda: camp.odds("Guards", challenge_turn=True),
                          "odds", "Guards", "--challenge-turn").rule == "turn-waiting"
    assert table.entries() == before  # odds record nothing
    table("cohort-turn", "Guards", "--leader", "Kira")  # a pool now waits for its roll
    before = table.entries()
    waiting = camp.odds("Guards")
    assert waiting == table.json("odds", "Guards") and waiting["waiting"] is True
    assert sum(Fraction(p) for p in waiting["successes"].values()) == 1
    assert table.entries() == before


def test_exact_odds_are_fractions_and_read_as_the_json_does(tmp_path):
    table = heist(tmp_path)
    camp = open_campaign(table.path)
    exact = camp.odds("Guards", leader="Kira", exact=True)
    assert all(isinstance(p, Fraction) for p in exact["successes"].values())
    assert sum(exact["successes"].values()) == 1
    assert jsonable(exact) == camp.odds("Guards", leader="Kira")


def test_relics_odds_are_refused_as_the_cli_refuses_them(tmp_path):
    table = heist(tmp_path)
    camp = open_campaign(table.path)
    missing = _refused_alike(table, lambda: camp.odds("Nobody"), "odds", "Nobody")
    assert missing.code == 1 and missing.rule
    malformed = _refused_alike(table, lambda: camp.odds("Guards", destiny=-1), "odds", "Guards", "--destiny", "-1")
    assert (malformed.code, malformed.rule) == (2, None)
    _refused_alike(table, lambda: camp.odds("Guards", challenge_turn=True, leader="Kira"),
                   "odds", "Guards", "--challenge-turn", "--leader", "Kira")
    _refused_alike(table, lambda: camp.odds("Guards", traits=["Keen Eye"]), "odds", "Guards", "--trait", "Keen Eye")
    with pytest.raises(CampaignError) as unknown:  # a value its turn does not take: malformed, named
        camp.odds("Guards", speed=3)
    assert (unknown.value.code, unknown.value.rule) == (2, None) and "speed" in unknown.value.message
    with pytest.raises(CampaignError) as contest:  # another ruleset's mode
        camp.odds(contest=(("Kira", "Phantom"), ("Bo", "Phantom")))
    assert contest.value.code == 2


# --- Beer Run ---------------------------------------------------------------------------------------

@pytest.fixture
def run(tmp_path) -> Table:
    """The Back Door of tests/test_odds_beer_run.py, and Cal, who can help."""
    t = Table(tmp_path / "run.db")
    t("new", "The Beer Run", "--ruleset", "beer-run")
    t("beer-run", "character", "add", "Ann", "--ability", "Physical:Brawn=d8,Physical:Health=d6,Mental:Wits=d6,Social:Charm=d4")
    t("beer-run", "character", "add", "Bouncer",
      "--ability", "Physical:Muscle=d10,Physical:Health=d8,Mental:Attention=d4,Social:Intimidate=d6")
    t("beer-run", "character", "add", "Cal",
      "--ability", "Physical:Grit=d6,Physical:Health=d4,Mental:Wits=d8,Social:Charm=d6")
    t("beer-run", "conflict", "open", "Back Door", "--side", "Ann", "--side", "Bouncer")
    t("beer-run", "goal", "Back Door", "Ann", "slip past", "--ability", "Attention")
    return t


def test_a_beer_run_comparison_through_the_library_is_the_clis(run):
    camp = open_campaign(run.path)
    before = run.entries()
    plain = camp.odds("Back Door", "Ann")
    assert plain == run.json("odds", "Back Door", "Ann")
    assert plain["ruleset"] == "beer-run" and sum(Fraction(p) for p in plain["upper_hand"].values()) == 1
    assert camp.odds("Back Door", "Ann", extra=["Health"], base=["Brawn", "Wits", "Charm"]) == \
        run.json("odds", "Back Door", "Ann", "--extra", "Health", "--base", "Brawn,Wits,Charm")
    assert camp.odds("Back Door", "Ann", situation="d6") == run.json("odds", "Back Door", "Ann", "--situation", "d6")
    helping = camp.odds("Back Door", "Cal", helping="Ann", die="d8", goal_against=["d4", "d6", "d10", "d2"],
                        replace=[1, 4])
    assert helping == run.json("odds", "Back Door", "Cal", "--helping", "Ann", "--die", "d8",
                               "--goal-against", "d4,d6,d10,d2", "--replace", "1,4")
    assert helping["helping"]["difficulty"] == [8, 6, 10, 8]
    _refused_alike(run, lambda: camp.odds("Back Door", "Cal", helping="Ann"),
                   "odds", "Back Door", "Cal", "--helping", "Ann")
    _refused_alike(run, lambda: camp.odds("Front Door", "Ann"), "odds", "Front Door", "Ann")
    assert run.entries() == before


def test_pools_described_without_a_campaign_are_the_clis(tmp_path):
    table = Table(tmp_path / "never.db")
    assert odds_without_campaign("beer-run", pool=["d8", "d6"], against=["d10", "d4"]) == \
        table.json("odds", "--ruleset", "beer-run", "--pool", "d8,d6", "--against", "d10,d4")
    assert odds_without_campaign("beer-run", pool=["d8", "d6", "d6"], goal="d8", goal_against=["d4", "d6", "d10"],
                                 replace=[2]) == \
        table.json("odds", "--ruleset", "beer-run", "--pool", "d8,d6,d6", "--goal", "d8", "--goal-against",
                   "d4,d6,d10", "--replace", "2")
    assert odds_without_campaign("relics", dice=4, traits=["+1d6", "A6 / 1d"], threat="Major", rating=5, pcs=2) == \
        table.json("odds", "--ruleset", "relics", "--dice", "4", "--trait", "+1d6", "--trait", "A6 / 1d",
                   "--threat", "Major", "--rating", "5", "--pcs", "2")
    assert odds_without_campaign("decision-2d6", stat=2, difficulty="challenging", bonuses=[1],
                                 advantage="minor-advantage") == \
        table.json("odds", "--ruleset", "decision-2d6", "--stat", "2", "--difficulty", "challenging", "--bonus", "1",
                   "--advantage", "minor-advantage")
    assert odds_without_campaign("Decision-2d6", stat=1, against_stat=2) == \
        table.json("odds", "--ruleset", "decision-2d6", "--stat", "1", "--against-stat", "2")
    assert odds_without_campaign("action-dice", rating="D8", assets=["d8", "d10"]) == \
        table.json("odds", "--ruleset", "action-dice", "--rating", "D8", "--asset", "d8", "--asset", "d10")
    for call, words in [(lambda: odds_without_campaign("beer-run", against=["d4"]), ("--ruleset", "beer-run", "--against", "d4")),
                        (lambda: odds_without_campaign("relics", dice=3), ("--ruleset", "relics", "--dice", "3")),
                        (lambda: odds_without_campaign("decision-2d6", die="D7"), ("--ruleset", "decision-2d6", "--die", "D7"))]:
        assert _refused_alike(table, call, "odds", *words).code == 2
    with pytest.raises(CampaignError) as unknown:
        odds_without_campaign("chess", pawns=8)
    assert (unknown.value.code, unknown.value.rule) == (2, None)
    assert not (tmp_path / "never.db").exists()  # no file is opened, so none is made


# --- decision-2d6 -----------------------------------------------------------------------------------

@pytest.fixture
def gate(tmp_path) -> Table:
    t = Table(tmp_path / "gate.db")
    t("new", "The Heavy Gate", "--ruleset", "decision-2d6")
    t("decision-2d6", "pc-add", "Billy", "--level", "3", "--will", "2", "--fort", "3",
      "--stat", "Strength=0,Agility=1", "--attribute", "Stealth=2")
    t("decision-2d6", "pc-add", "Ogre", "--level", "4", "--will", "1", "--fort", "5", "--stat", "Strength=3,Wits=-1")
    t("decision-2d6", "item-add", "Torches", "--die", "D6")
    t("decision-2d6", "tracker-add", "Arrows", "--value", "60")
    return t


def test_a_decision_roll_through_the_library_is_the_clis(gate):
    camp = open_campaign(gate.path)
    before = gate.entries()
    roll = camp.odds("Billy", "Strength", difficulty="challenging", bonuses=[1], penalties=[-2],
                     advantage="minor-advantage", grants=1)
    assert roll == gate.json("odds", "Billy", "Strength", "--difficulty", "challenging", "--bonus", "1",
                             "--penalty", "-2", "--advantage", "minor-advantage", "--grant")
    assert roll["character"] == "Billy" and roll["target"] == 12 and set(roll["levels"]) >= {"neutral"}
    assert camp.odds("Ogre", "Wits", target=8) == gate.json("odds", "Ogre", "Wits", "--target", "8")
    assert camp.odds(item="Torches") == gate.json("odds", "--item", "Torches")
    assert camp.odds(tracker="Arrows") == gate.json("odds", "--tracker", "Arrows")
    contest = camp.odds(contest=(("Billy", "Stealth"), ("Ogre", "Wits")), advantage=("Billy", "minor"),
                        grants=["Ogre"], bonuses={"Ogre": 1}, penalties=[("Billy", -1)])
    assert contest == gate.json("odds", "contest", "Billy:Stealth", "Ogre:Wits", "--advantage", "Billy=minor",
                                "--grant", "Ogre", "--bonus", "Ogre=1", "--penalty", "Billy=-1")
    assert sum(Fraction(p) for p in contest["wins"].values()) == 1
    assert gate.entries() == before


def test_decision_odds_are_refused_as_the_cli_refuses_them(gate):
    camp = open_campaign(gate.path)
    assert _refused_alike(gate, lambda: camp.odds("Nobody", "Strength"), "odds", "Nobody", "Strength").code == 1
    assert _refused_alike(gate, lambda: camp.odds("Billy"), "odds", "Billy").code == 2
    _refused_alike(gate, lambda: camp.odds("Billy", "Strength", advantage="sideways"),
                   "odds", "Billy", "Strength", "--advantage", "sideways")
    _refused_alike(gate, lambda: camp.odds("Billy", "Strength", item="Torches"),
                   "odds", "Billy", "Strength", "--item", "Torches")
    _refused_alike(gate, lambda: camp.odds(item="Lantern"), "odds", "--item", "Lantern")
    _refused_alike(gate, lambda: camp.odds(contest=(("Billy", "Stealth"), ("Ogre", "Wits")), bonuses={"Zed": 1}),
                   "odds", "contest", "Billy:Stealth", "Ogre:Wits", "--bonus", "Zed=1")
