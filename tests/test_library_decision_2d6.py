"""decision-2d6 through the library alone (no CLI, no subprocess), and the same game through the CLI
on another file: every JSON read view equal, after an undo in the middle too; refusals alike."""
from __future__ import annotations

from typing import Any, Callable

import pytest

from campaign_ledger import CampaignError, new_campaign
from tests.conftest import Table

D = ("decision-2d6",)

# One game, each step as the library's call and as the words a GM types.
GAME: list[tuple[Callable[[Any], Any], tuple[str, ...]]] = [
    (lambda c: c.decision_2d6_pc_add("Billy", level=3, will=2, fort=3, stats={"Strength": 0, "Agility": 1},
                                     attributes={"Stealth": 2}),
     (*D, "pc-add", "Billy", "--level", "3", "--will", "2", "--fort", "3", "--stat", "Strength=0,Agility=1",
      "--attribute", "Stealth=2")),
    (lambda c: c.decision_2d6_pc_add("Ogre", level=4, will=1, fort=5, stats={"Strength": 3, "Wits": -1}),
     (*D, "pc-add", "Ogre", "--level", "4", "--will", "1", "--fort", "5", "--stat", "Strength=3,Wits=-1")),
    (lambda c: c.decision_2d6_roll("Billy", "Strength", difficulty="challenging", faces=[3, 6, 6, 2],
                                   purpose="hold the gate"),
     (*D, "roll", "Billy", "Strength", "--difficulty", "challenging", "--faces", "3,6,6,2", "--for", "hold the gate")),
    (lambda c: c.decision_2d6_roll("Ogre", "Wits", target=8, bonuses=[2], penalties=[-1], modifiers=[1],
                                   advantage="minor-advantage", grants=1, faces=[4, 2, 5]),
     (*D, "roll", "Ogre", "Wits", "--target", "8", "--bonus", "2", "--penalty", "-1", "--modifier", "1",
      "--advantage", "minor-advantage", "--grant", "--faces", "4,2,5")),
    (lambda c: c.decision_2d6_item_add("Torches", die="D6", holder="Billy"),
     (*D, "item-add", "Torches", "--die", "D6", "--holder", "Billy")),
    (lambda c: c.decision_2d6_tracker_add("Arrows", value=60, holder="Billy"),
     (*D, "tracker-add", "Arrows", "--value", "60", "--holder", "Billy")),
    (lambda c: c.decision_2d6_supply_roll("Torches", faces=[2], purpose="light the tunnel"),
     (*D, "supply-roll", "Torches", "--faces", "2", "--for", "light the tunnel")),
    (lambda c: c.decision_2d6_contest(("Billy", "Stealth"), ("Ogre", "Wits"), grants=["Billy"],
                                      bonuses={"Ogre": 1}, rounds=[([1, 1], [4, 3]), ([6, 2, 1], [3, 3])]),
     (*D, "contest", "Billy:Stealth", "Ogre:Wits", "--grant", "Billy", "--bonus", "Ogre=1",
      "--faces", "1,1/4,3", "--faces", "6,2,1/3,3")),
    (lambda c: c.decision_2d6_tracker_roll("Arrows", faces=[37], purpose="cover the retreat"),
     (*D, "tracker-roll", "Arrows", "--faces", "37", "--for", "cover the retreat")),
    (lambda c: c.undo(), ("undo", "--yes")),  # the tracker roll, in the middle of the game
    (lambda c: c.decision_2d6_pc_set("Billy", level=4, stats={"Agility": 2, "Lore": 1}, reason="levelled up"),
     (*D, "pc-set", "Billy", "--level", "4", "--stat", "Agility=2,Lore=1", "--reason", "levelled up")),
    (lambda c: c.decision_2d6_restock("Torches", "D8", reason="bought in town"),
     (*D, "restock", "Torches", "D8", "--reason", "bought in town")),
    (lambda c: c.decision_2d6_tracker_set("Arrows", 100, reason="new quiver"),
     (*D, "tracker-set", "Arrows", "100", "--reason", "new quiver")),
    (lambda c: c.decision_2d6_contest(("Ogre", "Strength"), ("Billy", "Strength"), advantage=("Billy", "major"),
                                      penalties=[("Ogre", -2)], modifiers={"Billy": 1}, rounds=[([5, 2], [1, 1, 1])],
                                      purpose="arm wrestling"),
     (*D, "contest", "Ogre:Strength", "Billy:Strength", "--advantage", "Billy=major", "--penalty", "Ogre=-2",
      "--modifier", "Billy=1", "--faces", "5,2/1,1,1", "--for", "arm wrestling")),
]

# Every read view, as the library's call and as the CLI's words (each with --json).
VIEWS: list[tuple[Callable[[Any], Any], tuple[str, ...]]] = [
    (lambda c: c.decision_2d6_sheet(), (*D, "sheet")),
    (lambda c: c.decision_2d6_sheet("billy"), (*D, "sheet", "billy")),
    (lambda c: c.decision_2d6_pools(), (*D, "pools")),
    (lambda c: c.decision_2d6_pools("Torches"), (*D, "pools", "Torches")),
    (lambda c: c.decision_2d6_pools("Arrows"), (*D, "pools", "Arrows")),
    (lambda c: c.decision_2d6_rolls(), (*D, "rolls")),
    (lambda c: c.decision_2d6_rolls("Ogre", limit=1), (*D, "rolls", "Ogre", "--limit", "1")),
    (lambda c: c.sheet(), ("sheet",)),
    (lambda c: c.sheet("Ogre"), ("sheet", "Ogre")),
    (lambda c: c.pools(), ("pools",)),
    (lambda c: c.sheet("Billy", at=4), ("sheet", "Billy", "--at", "4")),
    (lambda c: c.pools(at=9), ("pools", "--at", "9")),
    (lambda c: c.undo_list(), ("undo", "--list")),
    (lambda c: c.history(), ("history",)),
]


def _same(value: Any) -> Any:
    """A view as both files must show it: the entries' times differ by when each was written, and a
    contest's id (history's `about`) is drawn at random."""
    if isinstance(value, list):
        return [_same(v) for v in value]
    if isinstance(value, dict):
        return {k: _same(v) for k, v in value.items() if k not in ("time", "about", "channel")}
    return value


def _views(camp: Any, table: Table, steps: int) -> None:
    for call, words in VIEWS:
        if steps < 5 and "Torches" in words or steps < 6 and "Arrows" in words or steps < 8 and "--at" in words:
            continue  # not added yet, or not that far
        assert _same(call(camp)) == _same(table.json(*words)), words


@pytest.fixture
def both(tmp_path) -> tuple[Any, Table]:
    camp = new_campaign(tmp_path / "library.db", "The Heavy Gate", ruleset="decision-2d6",
                        settings={"supply_threshold": "3"})
    table = Table(tmp_path / "cli.db")
    table("new", "The Heavy Gate", "--ruleset", "decision-2d6", "--setting", "supply_threshold=3")
    return camp, table


def test_a_game_through_the_library_reads_as_the_same_game_through_the_cli(both):
    camp, table = both
    for step, (call, words) in enumerate(GAME, 1):
        report = call(camp)
        printed = table.json(*words)
        assert [h["line"] for h in report.get("history", [])] == [h["line"] for h in printed.get("history", [])]
        assert report.get("entries") == printed.get("entries"), words
        if step in (3, 8, 10, len(GAME)):  # early, before the undo, just after it, at the end
            _views(camp, table, step)
    assert camp.decision_2d6_pools("Arrows")["rows"][-1]["after"] == 100


def test_a_roll_reports_what_the_cli_prints_die_by_die(both):
    camp, table = both
    for call, words in GAME[:2]:
        call(camp), table(*words)
    report = camp.decision_2d6_roll("Billy", "Strength", difficulty="challenging", faces=[3, 6, 6, 2])
    printed = table.json(*D, "roll", "Billy", "Strength", "--difficulty", "challenging", "--faces", "3,6,6,2")
    for field in ("chains", "dice_total", "stat", "stat_value", "modifiers", "modifier_total", "advantage_modifier",
                  "total", "unit", "entries"):
        assert report[field] == printed[field], field
    assert report["chains"] == [[3], [6, 6, 2]] and report["total"] == 17


def test_a_key_given_again_appends_nothing(both):
    camp, _ = both
    first = camp.decision_2d6_item_add("Rope", die="D8", key="rope-1")
    again = camp.decision_2d6_item_add("Rope", die="D8", key="rope-1")
    assert again["repeated"] is True and again["entries"] == first["entries"]
    assert len(camp.decision_2d6_pools()["supplies"]) == 1


# Refusals: the library's (code, rule) is the CLI's --json refusal's; a rule's words are the same too.
REFUSED: list[tuple[Callable[[Any], Any], tuple[str, ...], bool]] = [
    (lambda c: c.decision_2d6_roll("Nobody", "Strength", faces=[1, 2]),
     (*D, "roll", "Nobody", "Strength", "--faces", "1,2"), True),
    (lambda c: c.decision_2d6_roll("Billy", "Charm", faces=[1, 2]), (*D, "roll", "Billy", "Charm", "--faces", "1,2"), True),
    (lambda c: c.decision_2d6_roll("Billy", "Strength", advantage="sideways", faces=[1, 2]),
     (*D, "roll", "Billy", "Strength", "--advantage", "sideways", "--faces", "1,2"), True),
    (lambda c: c.decision_2d6_roll("Billy", "Strength", target=8, difficulty="simple"),
     (*D, "roll", "Billy", "Strength", "--target", "8", "--difficulty", "simple"), True),
    (lambda c: c.decision_2d6_roll("Billy", "Strength", faces=[1, 2], roll=True),
     (*D, "roll", "Billy", "Strength", "--faces", "1,2", "--roll"), False),
    (lambda c: c.decision_2d6_pc_add("Billy", will=1, fort=1), (*D, "pc-add", "Billy", "--will", "1", "--fort", "1"), True),
    (lambda c: c.decision_2d6_restock("Torches", "D6"), (*D, "restock", "Torches", "D6"), True),
    (lambda c: c.decision_2d6_restock("Torches", "D7"), (*D, "restock", "Torches", "D7"), True),
    (lambda c: c.decision_2d6_supply_roll("Lantern", faces=[2]), (*D, "supply-roll", "Lantern", "--faces", "2"), True),
    (lambda c: c.decision_2d6_tracker_set("Arrows", 60), (*D, "tracker-set", "Arrows", "60"), True),
    (lambda c: c.decision_2d6_tracker_set("Arrows", 150), (*D, "tracker-set", "Arrows", "150"), True),
    (lambda c: c.decision_2d6_contest(("Billy", "Stealth"), ("Ogre", "Wits"), bonuses={"Zed": 1}),
     (*D, "contest", "Billy:Stealth", "Ogre:Wits", "--bonus", "Zed=1"), True),
    (lambda c: c.decision_2d6_contest(("Billy", "Stealth"), ("Billy", "Agility")),
     (*D, "contest", "Billy:Stealth", "Billy:Agility"), True),
    (lambda c: c.decision_2d6_contest(("Billy", "Stealth"), ("Ogre", "Wits"), advantage=("Ogre", "minor-disadvantage")),
     (*D, "contest", "Billy:Stealth", "Ogre:Wits", "--advantage", "Ogre=minor-disadvantage"), True),
    (lambda c: c.decision_2d6_sheet("Nobody"), (*D, "sheet", "Nobody"), True),
    (lambda c: c.decision_2d6_pools("Lantern"), (*D, "pools", "Lantern"), True),
    (lambda c: c.decision_2d6_rolls("Nobody"), (*D, "rolls", "Nobody"), True),
]


@pytest.fixture(scope="module")
def gate(tmp_path_factory) -> tuple[Any, Table]:
    """Both files with Billy, the Ogre, Torches and Arrows: refusals append nothing, so they share it."""
    folder = tmp_path_factory.mktemp("refusals")
    camp = new_campaign(folder / "library.db", "The Heavy Gate", ruleset="decision-2d6")
    table = Table(folder / "cli.db")
    table("new", "The Heavy Gate", "--ruleset", "decision-2d6")
    for step, cli_words in GAME[:2] + GAME[4:6]:
        step(camp), table(*cli_words)
    return camp, table


@pytest.mark.parametrize("call, words, same_words", REFUSED, ids=[" ".join(w[1:4]) for _, w, _ in REFUSED])
def test_a_refusal_through_the_library_carries_the_clis_code_and_rule(gate, call, words, same_words):
    camp, table = gate
    before, written = table.entries(), Table(camp.path).entries()
    with pytest.raises(CampaignError) as refused:
        call(camp)
    table.refused(*words)
    printed = _refusal(table, words)
    assert (refused.value.code, refused.value.rule) == (printed["code"], printed["rule"])
    if same_words:
        assert refused.value.message == printed["error"]
    assert (table.entries(), Table(camp.path).entries()) == (before, written)  # nothing appended by either


def _refusal(table: Table, words: tuple[str, ...]) -> dict:
    import json

    result = table(*words, "--json", ok=False)
    assert result.exit_code in (1, 2)
    return json.loads(result.stdout)


def test_a_decision_2d6_call_on_another_rulesets_campaign_is_refused_as_the_cli_refuses_it(tmp_path):
    from tests.conftest import heist

    table = heist(tmp_path)
    from campaign_ledger import open_campaign

    camp = open_campaign(table.path)
    for call, words in [(lambda c: c.decision_2d6_item_add("Rope", die="D8"), (*D, "item-add", "Rope", "--die", "D8")),
                        (lambda c: c.decision_2d6_rolls(), (*D, "rolls"))]:
        with pytest.raises(CampaignError) as refused:
            call(camp)
        printed = _refusal(table, words)
        assert refused.value.as_json() == printed
        assert printed["rule"] == "wrong-ruleset"
