"""Beer Run through the library alone (campaign_ledger, no CLI, no subprocess), played step for step
beside the same game typed at the CLI on another file: every JSON read view of the ruleset (and the
campaign's sheet, pools, undo list and history) is the same, before and after an undo in the middle,
and each write's report is what the command's --json printed. A refusal carries the CLI's code and rule."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Sequence

import pytest

from campaign_ledger import CampaignError, new_campaign
from tests.conftest import Table

Step = tuple[Callable[[Any], Any], Sequence[str]]  # a call through the library, the CLI's words for it

CATEGORIES = "Physical,Mental,Social"
DOOR, QUEUE = "Back Door", "Queue"


def br(*words: str) -> tuple[str, ...]:
    return ("beer-run", *words)


def without_times(value: Any) -> Any:
    """A value as two files both hold it: no clock times, no generated idempotency keys."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if k not in ("time", "key", "channel")}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


CORE_VIEWS: list[Step] = [  # the read views every campaign has
    (lambda c: c.sheet(), ("sheet",)),
    (lambda c: c.pools(), ("pools",)),
    (lambda c: c.undo_list(20), ("undo", "--list")),
    (lambda c: c.history(), ("history",)),
]


def same_views(camp: Any, table: Table, views: Sequence[Step]) -> int:
    """Each view read through the library equals its CLI --json; the number of the ruleset's views
    that held something (an empty list on both sides compares nothing)."""
    held = 0
    for n, (read, words) in enumerate([*views, *CORE_VIEWS]):
        value = read(camp)
        assert without_times(value) == without_times(table.json(*words)), words
        held += n < len(views) and bool(value)
    return held


def play(camp: Any, table: Table, steps: Sequence[Step]) -> None:
    """Each step through the library and through the CLI: the same report (keys and times aside)."""
    for call, words in steps:
        report = call(camp)
        assert without_times(report) == without_times(table.json(*words)), words
        assert report["entries"], words


def refused_alike(camp: Any, table: Table, call: Callable[[Any], Any], words: Sequence[str]) -> CampaignError:
    """The library's refusal has the CLI's --json refusal's code, rule and words; nothing appended."""
    before = len(camp.history())
    with pytest.raises(CampaignError) as caught:
        call(camp)
    result = table(*words, "--json", ok=False)
    assert caught.value.as_json() == json.loads(result.stdout), words
    assert result.exit_code == caught.value.code
    assert len(camp.history()) == before
    return caught.value


def tables(tmp_path: Path, name: str, ruleset: str, settings: dict[str, str] | None = None) -> tuple[Any, Table]:
    """The same new campaign in two files: one opened through the library, one typed at the CLI."""
    camp = new_campaign(tmp_path / "library.db", name, ruleset=ruleset, settings=settings)
    table = Table(tmp_path / "cli.db")
    table("new", name, "--ruleset", ruleset,
          *[w for k, v in (settings or {}).items() for w in ("--setting", f"{k}={v}")])
    return camp, table


ANN = [("Physical", "Brawn", "d8"), ("Physical", "Health", "d6"), ("Mental", "Wits", "d6"), ("Social", "Charm", "d4")]
BOUNCER = {"Physical": {"Muscle": "d10", "Health": "d8"}, "Mental": {"Attention": "d4"}, "Social": {"Intimidate": "d6"}}

SET_UP: list[Step] = [
    (lambda c: c.beer_run_character_add("Ann", ANN, intensity=10),
     br("character", "add", "Ann", "--ability", "Physical:Brawn=d8,Physical:Health=d6,Mental:Wits=d6,Social:Charm=d4",
        "--intensity", "10")),
    (lambda c: c.beer_run_character_add("Cal", [("Physical", "Health", "d6"), ("Physical", "Reflexes", "d4"),
                                                ("Mental", "Nerve", "d8"), ("Social", "Fast Talk", "d10")]),
     br("character", "add", "Cal", "--ability", "Physical:Health=d6,Physical:Reflexes=d4",
        "--ability", "Mental:Nerve=d8,Social:Fast Talk=d10")),
    (lambda c: c.beer_run_character_add("Bouncer", BOUNCER, intensity=8),
     br("character", "add", "Bouncer", "--ability",
        "Physical:Muscle=d10,Physical:Health=d8,Mental:Attention=d4,Social:Intimidate=d6", "--intensity", "8")),
    (lambda c: c.beer_run_difficulty_add("Locked Door", {"Lock": "d8", "Bars": "d6"}),
     br("difficulty", "add", "Locked Door", "--dice", "Lock=d8,Bars=d6")),
    (lambda c: c.beer_run_difficulty_add("Crowd", ["d6", ("Elbows", "d4")]),
     br("difficulty", "add", "Crowd", "--dice", "d6,Elbows=d4")),
    (lambda c: c.beer_run_intensity("Cal", lose=2, reason="a long wait"),
     br("intensity", "Cal", "--lose", "2", "--reason", "a long wait")),
    (lambda c: c.beer_run_conflict_open(DOOR, ["Ann", "Bouncer"]), br("conflict", "open", DOOR, "--side", "Ann",
                                                                      "--side", "Bouncer")),

]
GOALS: list[Step] = [
    (lambda c: c.beer_run_goal(DOOR, "Ann", "slip past the Bouncer", ability="Attention"),
     br("goal", DOOR, "Ann", "slip past the Bouncer", "--ability", "Attention")),
    (lambda c: c.beer_run_goal(DOOR, "Bouncer", "keep Ann out"), br("goal", DOOR, "Bouncer", "keep Ann out")),
]

# Round 1 (the demo's): Cal helps Ann to a d6, then the pools, then the pips, upper hand first.
ROUND_1: list[Step] = [
    (lambda c: c.beer_run_helping(DOOR, "Cal", "Ann", "distract the Bouncer", die="d6",
                                  base=["Reflexes", "Nerve", "Fast Talk"], faces=[2, 4, 9], difficulty_faces=[5, 5, 3]),
     br("helping", DOOR, "Cal", "Ann", "distract the Bouncer", "--die", "d6", "--base", "Reflexes,Nerve,Fast Talk",
        "--faces", "2,4,9", "--difficulty-faces", "5,5,3")),
    (lambda c: c.beer_run_roll(DOOR, "Ann", faces=[7, 5, 2, 4]), br("roll", DOOR, "Ann", "--faces", "7,5,2,4")),
    (lambda c: c.beer_run_roll(DOOR, "Bouncer", faces=(8, 1, 5)), br("roll", DOOR, "Bouncer", "--faces", "8,1,5")),
    (lambda c: c.beer_run_pips(DOOR, "Bouncer", {"Health": 1}), br("pips", DOOR, "Bouncer", "Health=1")),
    (lambda c: c.beer_run_pips(DOOR, "Ann", {"Attention": 1}, on="Bouncer"),
     br("pips", DOOR, "Ann", "Attention=1", "--on", "Bouncer")),
]

ROUND_2: list[Step] = [
    (lambda c: c.beer_run_roll(DOOR, "Ann", extra=["Health"], faces=[8, 6, 3, 2]),
     br("roll", DOOR, "Ann", "--extra", "Health", "--faces", "8,6,3,2")),
    (lambda c: c.beer_run_roll(DOOR, "Bouncer", extra=["Health"], faces=[5, 3, 4, 1]),
     br("roll", DOOR, "Bouncer", "--extra", "Health", "--faces", "5,3,4,1")),
    (lambda c: c.beer_run_pips(DOOR, "Ann", {"Attention": 3}), br("pips", DOOR, "Ann", "Attention=3")),
    (lambda c: c.beer_run_conflict_end(DOOR, reason="Ann is inside"),
     br("conflict", "end", DOOR, "--reason", "Ann is inside")),
    (lambda c: c.beer_run_outcome_gain("Ann", "Social", "Six-pack", "d6", reason="bought the beer"),
     br("outcome", "gain", "Ann", "Social:Six-pack=d6", "--reason", "bought the beer")),
    (lambda c: c.beer_run_outcome_inflict("Bouncer", "d4", reason="laughed at by the queue"),
     br("outcome", "inflict", "Bouncer", "d4", "--reason", "laughed at by the queue")),
    (lambda c: c.beer_run_outcome_lift("Bouncer", "d4", reason="the queue forgot"),
     br("outcome", "lift", "Bouncer", "d4", "--reason", "the queue forgot")),
    (lambda c: c.beer_run_intensity("Cal", gain=3, reason="a night's sleep"),
     br("intensity", "Cal", "--gain", "3", "--reason", "a night's sleep")),
    (lambda c: c.beer_run_conflict_open(QUEUE, ["Cal", "Crowd"]), br("conflict", "open", QUEUE, "--side", "Cal",
                                                                     "--side", "Crowd")),
    (lambda c: c.beer_run_goal(QUEUE, "Cal", "get to the bar", situation="d6", against=["d4", "d6", "d8"],
                               replace=[1]),
     br("goal", QUEUE, "Cal", "get to the bar", "--situation", "d6", "--against", "d4,d6,d8", "--replace", "1")),
    (lambda c: c.beer_run_goal(QUEUE, "Crowd", "push Cal back"), br("goal", QUEUE, "Crowd", "push Cal back")),
    (lambda c: c.beer_run_cede(QUEUE, "Cal"), br("cede", QUEUE, "Cal")),
]


BEER_RUN_VIEWS: list[Step] = [
    (lambda c: c.beer_run_sheet(), br("sheet")),
    (lambda c: c.beer_run_sheet("Ann"), br("sheet", "Ann")),
    (lambda c: c.beer_run_sheet("locked door"), br("sheet", "locked door")),
    (lambda c: c.beer_run_pools(), br("pools")),
    (lambda c: c.beer_run_statement(), br("statement")),
    (lambda c: c.beer_run_statement("Cal"), br("statement", "Cal")),
    (lambda c: c.beer_run_status(), br("status")),
    (lambda c: c.beer_run_status(DOOR), br("status", DOOR)),
    (lambda c: c.beer_run_conflicts(), br("conflicts")),
    (lambda c: c.beer_run_conflicts(open_only=True), br("conflicts", "--open")),
]


def test_a_beer_run_game_through_the_library_reads_as_the_same_game_typed_at_the_cli(tmp_path):
    camp, table = tables(tmp_path, "Pub Night", "beer-run", {"categories": CATEGORIES})
    assert camp.ruleset() == "beer-run"
    play(camp, table, SET_UP + GOALS + ROUND_1)
    assert camp.beer_run_status(DOOR)[0]["round"] == 2
    assert same_views(camp, table, BEER_RUN_VIEWS) == 10  # mid-game, every view holds something

    undone = camp.undo()  # round 1 of the Back Door, taken back in the middle of the game
    assert [u["unit"] for u in undone["reversed"]] == [f"{DOOR}:1"]  # the round, with its goals
    assert without_times(undone) == without_times(table.json("undo", "--yes"))
    assert camp.beer_run_status(DOOR)[0]["round"] == 1 and camp.beer_run_sheet("Cal")["intensity"] == 8
    assert same_views(camp, table, BEER_RUN_VIEWS) == 10

    play(camp, table, GOALS + ROUND_1 + ROUND_2)
    assert camp.beer_run_conflicts()[0]["status"] == "ended"
    assert camp.beer_run_conflicts(open_only=True) == []
    assert {a["name"] for a in camp.beer_run_sheet("Ann")["abilities"]["Social"]} == {"Charm", "Six-pack"}
    assert same_views(camp, table, BEER_RUN_VIEWS) == 8  # the conflict over: status and conflicts --open empty


def test_beer_run_refusals_carry_the_cli_s_code_and_rule(tmp_path):
    camp, table = tables(tmp_path, "Pub Night", "beer-run", {"categories": CATEGORIES})
    play(camp, table, SET_UP + GOALS + ROUND_1[:3])
    # the upper hand lands its pips first: a rule of the game (1)
    e = refused_alike(camp, table, lambda c: c.beer_run_pips(DOOR, "Ann", {"Attention": 1}),
                      br("pips", DOOR, "Ann", "Attention=1"))
    assert e.code == 1 and e.rule
    # no change of Intensity at all is malformed (2), refused before the file is opened
    e = refused_alike(camp, table, lambda c: c.beer_run_intensity("Ann", gain=2, lose=2),
                      br("intensity", "Ann", "--gain", "2", "--lose", "2"))
    assert e.code == 2
    refused_alike(camp, table, lambda c: c.beer_run_intensity("Ann", gain=-1), br("intensity", "Ann", "--gain", "-1"))
    refused_alike(camp, table, lambda c: c.beer_run_roll(DOOR, "Ann", faces=[1, 1, 1], roll=True),
                  br("roll", DOOR, "Ann", "--faces", "1,1,1", "--roll"))
    refused_alike(camp, table, lambda c: c.beer_run_sheet("Nobody"), br("sheet", "Nobody"))
    refused_alike(camp, table, lambda c: c.beer_run_statement("Nobody"), br("statement", "Nobody"))
    refused_alike(camp, table, lambda c: c.beer_run_status("Nowhere"), br("status", "Nowhere"))
    refused_alike(camp, table, lambda c: c.beer_run_character_add("Ann", ANN), br(
        "character", "add", "Ann", "--ability", "Physical:Brawn=d8,Physical:Health=d6"))
    e = refused_alike(camp, table, lambda c: c.action_dice_sheet(), ("action-dice", "sheet"))
    assert e.code == 1


def test_a_beer_run_write_is_logged_under_its_key_and_not_repeated(tmp_path):
    camp, _ = tables(tmp_path, "Pub Night", "beer-run", {"categories": CATEGORIES})
    first = camp.beer_run_character_add("Ann", ANN, key="ann-joins")
    again = camp.beer_run_character_add("Ann", ANN, key="ann-joins")
    assert again["repeated"] and again["entries"] == first["entries"]
    assert len(camp.beer_run_sheet()) == 1
    with pytest.raises(CampaignError):  # the same key with other words is another command
        camp.beer_run_character_add("Bo", ANN, key="ann-joins")
