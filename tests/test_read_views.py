"""Each ruleset's JSON read views show the state a GM acts on, so two campaigns compare without
reading tables: played through the CLI, the view shows it; undone, it shows what it showed before;
rebuilt, it shows what it showed live."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import Table
from tests.test_undo_units import AD, BR, D, SETUP


def _live_equals_rebuild(t: Table, *view: str) -> Any:
    shown = t.json(*view)
    t("rebuild")
    assert t.json(*view) == shown
    return shown


def _round(t: Table, *cohort: str) -> None:
    t("cohort-turn", "Guards", *cohort, "--faces", "2,2,2,2,2", "--best")
    t("challenge-turn", "Guards", "--faces", "2,2,2,2")


# --- Relics: `status --json` ------------------------------------------------------------------------

def test_status_shows_trait_uses_opportunities_and_finished_challenges_and_undo_takes_them_back(table):
    table("motto", "Kira", "Never again")
    table("challenge", "open", "Dogs", "--threat", "Minor", "--type", "Phantom", "--rating", "2")
    before = table.json("status")
    assert (before["trait_uses"], before["opportunities"], before["finished"]) == ([], [], [])
    table("cohort-turn", "Dogs", "--leader", "Kira", "--opportunity", "Bo", "--trait", "Kira:Motto=destiny",
          "--faces", "5,5")  # the Motto's 6 and two 5s: 3 successes resolve a rating of 2
    played = _live_equals_rebuild(table, "status")
    assert played["trait_uses"] == [{"trait": "Kira:Motto", "scope": "scenario 1", "spent": True}]
    assert played["opportunities"] == [{"challenge": "Dogs", "round": 1, "pc": "Bo"}]
    assert [(c["name"], c["phase"], c["resolved"]) for c in played["finished"]] == [("Dogs", "resolved", 2)]
    assert [c["name"] for c in played["challenges"]] == ["Guards"]
    assert played["stage"] == {"scenario": 1, "scene": None, "event": None}
    table("undo", "--yes")
    assert _live_equals_rebuild(table, "status") == before


def test_spent_says_whether_the_ledger_would_refuse_another_use_now(table):
    table("trait", "add", "Kira", "Gunplay", "+1 / 1d", "--frequency", "scene")
    table("trait", "add", "Bo", "Quick", "+1 / 1d", "--frequency", "round")

    def spent() -> dict[str, bool]:
        return {u["trait"]: u["spent"] for u in table.json("status")["trait_uses"]}

    def used_again(trait: str, ok: bool) -> None:
        if ok:
            _round(table, "--trait", trait)
        else:
            table.refused("cohort-turn", "Guards", "--trait", trait)

    _round(table, "--leader", "Kira", "--trait", "Kira:Gunplay")  # no Scene open: its scope is the Scenario
    assert spent() == {"Kira:Gunplay": True}
    used_again("Kira:Gunplay", ok=False)
    table("scene", "start", "The vault")
    assert spent() == {"Kira:Gunplay": False}
    used_again("Kira:Gunplay", ok=True)
    assert spent() == {"Kira:Gunplay": True}
    used_again("Kira:Gunplay", ok=False)
    table("cohort-turn", "Guards", "--trait", "Bo:Quick", "--faces", "2,2,2,2,2", "--best")
    assert spent() == {"Kira:Gunplay": True, "Bo:Quick": True}
    table("challenge-turn", "Guards", "--faces", "2,2,2,2")  # the round ends
    assert spent() == {"Kira:Gunplay": True, "Bo:Quick": False}
    table("scene", "end")
    assert spent() == {"Kira:Gunplay": False, "Bo:Quick": False}
    assert table.json("status")["stage"] == {"scenario": 1, "scene": None, "event": None}
    used_again("Kira:Gunplay", ok=True)


def test_undoing_a_later_use_brings_back_the_earlier_scope(table):
    table("trait", "add", "Kira", "Gunplay", "+1 / 1d", "--frequency", "scene")
    _round(table, "--leader", "Kira", "--trait", "Kira:Gunplay")
    table("scene", "start", "The vault")
    before = table.json("status")
    _round(table, "--trait", "Kira:Gunplay")
    assert table.json("status")["trait_uses"] == [{"trait": "Kira:Gunplay", "scope": "scene 1", "spent": True}]
    table("undo", "--yes")
    assert _live_equals_rebuild(table, "status") == before
    assert before["trait_uses"] == [{"trait": "Kira:Gunplay", "scope": "scenario 1", "spent": False}]


# --- Beer Run: `beer-run conflicts --json` -------------------------------------------------------------

def test_beer_run_conflicts_show_ended_ones_and_undo_reopens_them(tmp_path: Path):
    t = Table(tmp_path / "beer.db")
    for args in SETUP[BR]:
        t(*args)
    t(BR, "conflict", "open", "Door", "--side", "Ann", "--side", "Bob")
    before = t.json(BR, "conflicts")
    assert [(c["name"], c["status"]) for c in before] == [("Brawl", "open"), ("Door", "open")]
    t(BR, "conflict", "end", "Brawl", "--reason", "the bouncer arrives")
    ended = _live_equals_rebuild(t, BR, "conflicts")
    assert [(c["name"], c["status"], c["result"]) for c in ended] == [("Brawl", "ended", "the bouncer arrives"),
                                                                      ("Door", "open", None)]
    assert [c["name"] for c in t.json(BR, "conflicts", "--open")] == ["Door"]
    assert "Brawl (Ann, Bob): ended: the bouncer arrives" in t(BR, "conflicts").stdout
    t("undo", "--yes")
    assert _live_equals_rebuild(t, BR, "conflicts") == before


# --- decision-2d6: `decision-2d6 rolls --json` ---------------------------------------------------------

def test_the_decision_roll_log_shows_each_roll_and_undo_takes_it_off(tmp_path: Path):
    t = Table(tmp_path / "gate.db")
    for args in SETUP[D]:
        t(*args)
    assert t.json(D, "rolls") == []
    t(D, "roll", "Billy", "Strength", "--target", "8", "--faces", "3,6,6,2", "--for", "lift the gate")
    first = t.json(D, "rolls")
    assert [(r["character"], r["chains"], r["total"], r["success"], r["purpose"]) for r in first] == \
        [("Billy", [[3], [6, 6, 2]], 18, True, "lift the gate")]
    t(D, "roll", "Billy", "Strength", "--target", "8", "--faces", "1,2")
    both = _live_equals_rebuild(t, D, "rolls")
    assert [r["total"] for r in both] == [18, 4] and both[1]["success"] is False
    assert t.json(D, "rolls", "Billy", "--limit", "1") == both[1:]
    t("undo", "--yes")
    assert _live_equals_rebuild(t, D, "rolls") == first
    assert "There is no character named 'Nobody'" in t.refused(D, "rolls", "Nobody")


# --- action dice: `action-dice rolls --json` and `sheet --json` --------------------------------------

def test_action_rolls_and_conditions_show_and_undo_restores_them(tmp_path: Path):
    t = Table(tmp_path / "archive.db")
    for args in SETUP[AD]:
        t(*args)
    before = (t.json(AD, "rolls"), t.json(AD, "sheet"))
    t(AD, "condition", "Mara", "Bruised", "--level", "3", "--impacts", "climb")
    t(AD, "roll", "Mara", "climb", "--rating", "D6", "--asset", "Athletics", "--faces", "6,2,1",
      "--gm-override", "Tobin holds the rope")
    played = (_live_equals_rebuild(t, AD, "rolls"), _live_equals_rebuild(t, AD, "sheet"))
    assert [(r["character"], r["faces"], r["gm_override"]) for r in played[0]] == \
        [("Mara", [6, 2, 1], "Tobin holds the rope")]
    assert played[1][0]["incapacitated_for"] == ["climb"]
    t("undo", "--yes")
    t("undo", "--yes")
    assert (_live_equals_rebuild(t, AD, "rolls"), _live_equals_rebuild(t, AD, "sheet")) == before


def test_a_rulesets_view_on_another_rulesets_campaign_is_refused(table):
    for view in (("conflicts",), ("pools",), ("statement",), ("status",)):  # pools, statement and status
        assert "that command is for beer-run campaigns" in table.refused(BR, *view)  # answered "no characters yet"
    assert "that command is for decision-2d6 campaigns" in table.refused(D, "rolls")
    assert "that command is for decision-2d6 campaigns" in table.refused(D, "pools")
