"""Action dice through the library alone (campaign_ledger, no CLI, no subprocess), played step for
step beside the same game typed at the CLI on another file: every JSON read view of the ruleset (and
the campaign's sheet, pools, undo list and history) is the same, before and after an undo in the
middle, and each write's report is what its --json printed. A refusal carries the CLI's code and rule."""
from __future__ import annotations

import pytest

from campaign_ledger import CampaignError, new_campaign
from tests.test_library_beer_run import Step, play, refused_alike, same_views, tables, without_times

AD = "action-dice"
ANKLE = "Sprained Ankle"


def ad(*words: str) -> tuple[str, ...]:
    return (AD, *words)


SET_UP: list[Step] = [
    (lambda c: c.action_dice_character("Mara", assets={"Athletics": "d8", "Nerve": "d10", "Lockpicks": "d6"},
                                       features=["Cat-like", "Scholar"]),
     ad("character", "Mara", "--asset", "Athletics=d8", "--asset", "Nerve=d10,Lockpicks=d6",
        "--feature", "Cat-like", "--feature", "Scholar")),
    (lambda c: c.action_dice_character("Tobin"), ad("character", "Tobin")),
    (lambda c: c.action_dice_asset("Tobin", "Rope", 6), ad("asset", "Tobin", "Rope", "6")),
    (lambda c: c.action_dice_asset("Mara", "Athletics", "d10"), ad("asset", "Mara", "Athletics", "d10")),
    (lambda c: c.action_dice_feature("Mara", "Old Debts"), ad("feature", "Mara", "Old Debts")),
    (lambda c: c.action_dice_roll("Mara", "climb", rating="D8", advantages=1, assets=["Athletics"], faces=[7, 3, 2]),
     ad("roll", "Mara", "climb", "--rating", "D8", "--advantage", "--asset", "Athletics", "--faces", "7,3,2")),
]

# Mara's ankle: a condition, worse, an incapacitated climb the GM allows, eased, treated.
ANKLE_STEPS: list[Step] = [
    (lambda c: c.action_dice_condition("Mara", ANKLE, level=2, impacts=["climb", "Run"]),
     ad("condition", "Mara", ANKLE, "--level", "2", "--impacts", "climb,Run")),
    (lambda c: c.action_dice_worsen("Mara", ANKLE), ad("worsen", "Mara", ANKLE)),
    (lambda c: c.action_dice_roll("Mara", "climb", rating="D6", faces=[4, 4, 1], override="Tobin holds the rope"),
     ad("roll", "Mara", "climb", "--rating", "D6", "--faces", "4,4,1", "--gm-override", "Tobin holds the rope")),
    (lambda c: c.action_dice_ease("Mara", ANKLE, steps=2), ad("ease", "Mara", ANKLE, "--steps", "2")),
    (lambda c: c.action_dice_condition("Mara", ANKLE, level=2), ad("condition", "Mara", ANKLE, "--level", "2")),
    (lambda c: c.action_dice_worsen("Mara", ANKLE, steps=5), ad("worsen", "Mara", ANKLE, "--steps", "5")),
    (lambda c: c.action_dice_treat("Mara", ANKLE), ad("treat", "Mara", ANKLE)),
]

LATER: list[Step] = [
    (lambda c: c.action_dice_roll("Tobin", "haul", difficulty=5, disadvantages=2, assets=["Rope"],
                                  features=(), faces=[6, 2, 4], test=True),
     ad("roll", "Tobin", "haul", "--difficulty", "5", "--disadvantage", "--disadvantage", "--asset", "Rope",
        "--faces", "6,2,4", "--test")),
    (lambda c: c.action_dice_roll("Mara", "sneak", rating="++", difficulty=8, assets=["Nerve", "Lockpicks"],
                                  features=["Cat-like", "Old Debts"], faces=[10, 6, 4]),
     ad("roll", "Mara", "sneak", "--rating", "++", "--difficulty", "8", "--asset", "Nerve", "--asset", "Lockpicks",
        "--feature", "Cat-like", "--feature", "Old Debts", "--faces", "10,6,4")),
]

ACTION_DICE_VIEWS: list[Step] = [
    (lambda c: c.action_dice_sheet(), ad("sheet")),
    (lambda c: c.action_dice_sheet("mara"), ad("sheet", "mara")),
    (lambda c: c.action_dice_rolls(), ad("rolls")),
    (lambda c: c.action_dice_rolls("Mara", limit=1), ad("rolls", "Mara", "--limit", "1")),
    (lambda c: c.action_dice_difficulty(), ad("difficulty")),
    (lambda c: c.action_dice_difficulty("D8", disadvantages=1), ad("difficulty", "D8", "--disadvantage")),
    (lambda c: c.action_dice_difficulty(difficulty=4, advantages=2), ad("difficulty", "--difficulty", "4",
                                                                        "--advantage", "--advantage")),
]


def test_an_action_dice_game_through_the_library_reads_as_the_same_game_typed_at_the_cli(tmp_path):
    camp, table = tables(tmp_path, "Drowned Archive", AD, {"features_limit": "2"})
    play(camp, table, SET_UP + ANKLE_STEPS[:3])
    assert camp.action_dice_sheet("Mara")["incapacitated_for"] == ["climb", "run"]
    same_views(camp, table, ACTION_DICE_VIEWS)

    undone = camp.undo()  # the climb the GM allowed, taken back in the middle of the game
    assert undone["reversed"][0]["unit"] == "Mara's climb roll (#2)"
    assert without_times(undone) == without_times(table.json("undo", "--yes"))
    assert len(camp.action_dice_rolls("Mara")) == 1
    same_views(camp, table, ACTION_DICE_VIEWS)

    play(camp, table, ANKLE_STEPS[2:] + LATER)
    assert camp.action_dice_sheet("Mara")["conditions"] == []
    assert [r["succeeded"] for r in camp.action_dice_rolls()][-2] is False  # Tobin's test: 6 against 7
    assert same_views(camp, table, ACTION_DICE_VIEWS) == 7


def test_the_program_rolls_through_the_library_and_records_every_face(tmp_path):
    camp = new_campaign(tmp_path / "library.db", "Drowned Archive", ruleset=AD)
    camp.action_dice_character("Tobin", assets={"Rope": "d6"})
    report = camp.action_dice_roll("Tobin", "haul", rating="D4", assets=["Rope"], roll=True)
    assert report["entered"] is False and len(report["faces"]) == 3 and report["dice"] == [6, 4, 4]
    assert camp.action_dice_rolls("Tobin")[0]["faces"] == report["faces"]


def test_action_dice_refusals_carry_the_cli_s_code_and_rule(tmp_path):
    camp, table = tables(tmp_path, "Drowned Archive", AD, {"features_limit": "2"})
    play(camp, table, SET_UP + ANKLE_STEPS[:2])
    e = refused_alike(camp, table, lambda c: c.action_dice_roll("Mara", "Climb", rating="D6", faces=[1, 1, 1]),
                      ad("roll", "Mara", "Climb", "--rating", "D6", "--faces", "1,1,1"))
    assert e.code == 1 and e.rule and "incapacitated by Sprained Ankle (level 3)" in e.message
    e = refused_alike(camp, table, lambda c: c.action_dice_roll("Mara", "run", rating="D6", faces=[1, 1], roll=True),
                      ad("roll", "Mara", "run", "--rating", "D6", "--faces", "1,1", "--roll"))
    assert e.code == 2
    refused_alike(camp, table, lambda c: c.action_dice_roll("Mara", "run", rating="D6", faces=[1, 1]),
                  ad("roll", "Mara", "run", "--rating", "D6", "--faces", "1,1"))
    refused_alike(camp, table, lambda c: c.action_dice_roll("Mara", "run"), ad("roll", "Mara", "run"))
    refused_alike(camp, table, lambda c: c.action_dice_condition("Mara", "Tired", level=4),
                  ad("condition", "Mara", "Tired", "--level", "4"))
    refused_alike(camp, table, lambda c: c.action_dice_character("Mara"), ad("character", "Mara"))
    refused_alike(camp, table, lambda c: c.action_dice_treat("Mara", "Tired"), ad("treat", "Mara", "Tired"))
    refused_alike(camp, table, lambda c: c.action_dice_sheet("Nobody"), ad("sheet", "Nobody"))
    refused_alike(camp, table, lambda c: c.action_dice_rolls("Nobody"), ad("rolls", "Nobody"))
    refused_alike(camp, table, lambda c: c.action_dice_difficulty("D7"), ad("difficulty", "D7"))
    refused_alike(camp, table, lambda c: c.beer_run_pools(), ("beer-run", "pools"))
    with pytest.raises(CampaignError) as caught:  # the CLI's --steps takes no less than 1 (click says so)
        camp.action_dice_ease("Mara", ANKLE, steps=0)
    assert caught.value.code == 2
