"""Correcting more than rounds (issue 13): each correction is an entry with its reason, refused
with one line when it cannot apply, shown in history, and a unit `undo` reverses exactly."""
from __future__ import annotations

import pytest

from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.ledger.ids import challenge_id, pc_id
from tests.conftest import Table


def _state(t: Table, id_) -> dict:
    app = open_ledger(t.path)
    try:
        return app.repository.get(id_).state()
    finally:
        app.close()


def _sheet(t: Table, name: str) -> dict:
    return t.json("sheet", name)


def _last_line(t: Table) -> str:
    return t.json("history", "--limit", "1")[0]["line"]


def test_a_renamed_pc_keeps_its_stream_and_answers_to_both_names(table):
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d")
    report = table.json("pc", "rename", "Kira", "Kira Vale")
    assert report["pc"] == "Kira Vale" and report["was"] == "Kira"
    assert _state(table, pc_id("Kira"))["name"] == "Kira Vale"  # the same stream, the id of the first name
    assert _sheet(table, "Kira Vale")["traits"][0]["name"] == "Keen Eye"
    assert _sheet(table, "kira")["name"] == "Kira Vale"  # the old name still finds the sheet
    assert "Kira is renamed Kira Vale" in _last_line(table)
    table("cohort-turn", "Guards", "--leader", "Kira Vale", "--trait", "Kira Vale:Keen Eye", "--faces", "2,3,3,5,6",
          "--best")
    lines = [r["line"] for r in table.json("history", "--pc", "Kira Vale")]
    assert any(line.startswith("Kira joined") for line in lines)  # lines from before the rename, too
    assert any("Kira Vale +" in line for line in lines)


@pytest.mark.parametrize("args, says", [
    (("pc", "rename", "Kira", "Bo"), "'Bo' is taken"),
    (("pc", "rename", "Kira", "Guards"), "names a Challenge"),
    (("pc", "rename", "Kira", "Kira"), "already named Kira"),
    (("pc", "rename", "Zed", "Zeb"), "no PC named 'Zed'"),
    (("pc", "rename", "Kira", "cohort"), "the Cohort's name"),
    (("pc", "rename", "Kira", " "), "cannot be empty"),
])
def test_a_rename_is_refused_when_the_name_is_taken_or_unknown(table, args, says):
    assert says in table.refused(*args)


def test_a_former_name_stays_taken(table):
    table("pc", "rename", "Kira", "Kira Vale")
    assert "Kira Vale" in table.refused("pc", "add", "Kira", "--expertise", "Phantom=2", "--primary", "Phantom")
    assert "taken" in table.refused("pc", "rename", "Bo", "Kira")
    table("pc", "rename", "Kira Vale", "Kira")  # back to the first name is the same PC
    assert _sheet(table, "Kira")["name"] == "Kira"


def test_a_retired_pc_cannot_lead_assist_or_take_stress_until_returned(table):
    table("pc", "add", "Ash", "--expertise", "Phantom=2", "--primary", "Phantom")
    table("pc", "retire", "Bo", "--reason", "the player moved away")
    assert "Bo is retired (the player moved away)" in table.refused(
        "cohort-turn", "Guards", "--leader", "Bo", "--faces", "1,1,1")
    assert "retired" in table.refused("cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo", "--faces", "1,1,1,1")
    assert (_sheet(table, "Bo")["retired"], _sheet(table, "Bo")["status"]) == ("the player moved away", "retired")
    assert table("sheet", "Bo").stdout.splitlines()[0] == "Bo  (retired: the player moved away)"  # not "active"
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "1,2,3,4")  # Ash assists; Bo adds nothing
    table("challenge-turn", "Guards", "--faces", "5,5,2,2")
    assert "retired" in table.refused("stress", "Guards", "--stress", "Kira=1,Bo=1")
    table("stress", "Guards", "--stress", "Kira=1,Ash=1")
    assert "already retired" in table.refused("pc", "retire", "Bo", "--reason", "again")
    table("pc", "return", "Bo")
    assert "not retired" in table.refused("pc", "return", "Bo")
    assert (_sheet(table, "Bo")["retired"], _sheet(table, "Bo")["status"]) == (None, "active")
    assert table("sheet", "Bo").stdout.splitlines()[0] == "Bo  (active)"
    table("cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo", "--faces", "1,2,3,4,4")


def test_a_retired_pc_leaves_the_pool_cap(table):
    table("pc", "retire", "Bo", "--reason", "away")
    assert "3 x PCs" in table.refused("cohort-turn", "Guards", "--leader", "Kira", "--destiny", "1", "--faces", "1,2,3,4")


def test_expertise_changes_with_a_reason_and_is_refused_when_nothing_changes(table):
    table("pc", "expertise", "Kira", "Phantom=4,Sparrow=1", "--primary", "Sparrow", "--reason", "misread the sheet")
    sheet = _sheet(table, "Kira")
    assert sheet["expertise"] == {"Venger": 1, "Phantom": 4, "Sparrow": 1} and sheet["primary"] == "Sparrow"
    assert "misread the sheet" in _last_line(table)
    assert "already that" in table.refused("pc", "expertise", "Kira", "Phantom=4", "--reason", "again")
    assert "0 to 5" in table.refused("pc", "expertise", "Kira", "Phantom=9", "--reason", "x")
    assert "no Expertise left" in table.refused("pc", "expertise", "Kira", "Phantom=0,Venger=0,Sparrow=0",
                                                "--reason", "x")
    assert table("pc", "expertise", "Kira", "Phantom=2", ok=False).exit_code == 2  # --reason is required


def test_traits_are_removed_and_replaced_on_pcs_and_challenges(table):
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d", "--cost", "destiny")
    table("trait", "add", "Guards", "Stubborn", "-2 / 2d", "--challenge", "--cost", "doom")
    table("trait", "replace", "Kira", "keen eye", "+1 / 2d", "--reason", "ranked")
    assert _sheet(table, "Kira")["traits"][0]["modifier"] == "+1 / 2d"
    assert _sheet(table, "Kira")["traits"][0]["cost"] == "destiny"  # cost and limits kept
    assert "is now +1 / 2d beneficial (was +2 / 1d): ranked" in _last_line(table)
    assert "already" in table.refused("trait", "replace", "Kira", "Keen Eye", "+1 / 2d")
    table("trait", "remove", "Kira", "Keen Eye", "--reason", "lost her glasses")
    assert _sheet(table, "Kira")["traits"] == []
    assert "no trait named 'Keen Eye'" in table.refused("trait", "remove", "Kira", "Keen Eye", "--reason", "x")
    table("trait", "remove", "Guards", "Stubborn", "--reason", "they calmed down")
    assert "The Challenge Guards has no trait" in table.refused("trait", "replace", "Guards", "Stubborn", "-1 / 1d")
    assert "Cohort" in table.refused("trait", "remove", "Cohort", "Rallying Cry", "--reason", "x")
    assert "no PC named 'Zed'" in table.refused("trait", "remove", "Zed", "Quick", "--reason", "x")


def test_a_temporary_trait_is_not_removed_by_hand(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo", "--faces", "1,1,1,1,1")  # a Disaster
    table("disaster-trait", "Guards", "Rattled", "-1 / 1d", "--on", "Bo")
    table("challenge-turn", "Guards", "--faces", "2,2,2,2")
    assert "temporary trait" in table.refused("trait", "remove", "Bo", "Rattled", "--reason", "x")


def test_a_challenge_is_rerated_closed_or_abandoned_between_turns(table):
    table("challenge", "rate", "Guards", "6", "--reason", "reinforcements")
    assert _state(table, challenge_id("Guards"))["rating"] == 6
    assert "rating 4 -> 6: reinforcements" in _last_line(table)
    assert "already 6" in table.refused("challenge", "rate", "Guards", "6", "--reason", "x")
    assert table("challenge", "rate", "Guards", "0", "--reason", "x", ok=False).exit_code == 2
    table("cohort-turn", "Guards", "--leader", "Kira")  # the pool waits for its roll: a turn unfinished
    assert "unfinished" in table.refused("challenge", "close", "Guards", "--reason", "bribed")
    assert "unfinished" in table.refused("pc", "rename", "Kira", "Kira Vale")
    table("undo", "--yes")
    table("challenge", "close", "Guards", "--reason", "bribed the captain")
    assert "Guards is closed after round 1: bribed the captain" in _last_line(table)
    assert "already closed" in table.refused("challenge", "abandon", "Guards", "--reason", "x")
    assert "waiting for nothing" in table.refused("cohort-turn", "Guards", "--leader", "Kira", "--faces", "1,2,3")
    table("challenge", "open", "Dogs", "--threat", "Minor", "--type", "Venger", "--rating", "2")
    table("challenge", "abandon", "Dogs", "--reason", "ran for it")
    finished = {c["name"]: c["phase"] for c in table.json("status")["finished"]}
    assert finished == {"Guards": "ended", "Dogs": "ended"}


def test_a_challenge_with_dice_resolved_keeps_its_rating_above_them(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo", "--faces", "5,5,6,2,2", "--best")
    table("challenge-turn", "Guards", "--faces", "2")
    resolved = _state(table, challenge_id("Guards"))["resolved"]
    assert resolved >= 1
    assert "close it instead" in table.refused("challenge", "rate", "Guards", str(resolved), "--reason", "x")


@pytest.mark.parametrize("correction", [
    ("pc", "rename", "Kira", "Kira Vale"),
    ("pc", "retire", "Bo", "--reason", "away"),
    ("pc", "expertise", "Kira", "Phantom=5", "--reason", "grew"),
    ("trait", "remove", "Kira", "Keen Eye", "--reason", "lost"),
    ("trait", "replace", "Guards", "Stubborn", "-1 / 1d"),
    ("challenge", "rate", "Guards", "7", "--reason", "more"),
    ("challenge", "close", "Guards", "--reason", "done"),
    ("challenge", "abandon", "Guards", "--reason", "fled"),
])
def test_undo_of_a_correction_restores_the_campaign_and_the_read_tables(table, correction):
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d")
    table("trait", "add", "Guards", "Stubborn", "-2 / 2d", "--challenge")
    before = (table.json("sheet"), table.json("status"), [_state(table, i) for i in (pc_id("Kira"), pc_id("Bo"),
                                                                                     challenge_id("Guards"))])
    table(*correction)
    unit = table.json("undo", "--list")[0]["unit"]
    undone = table.json("undo", unit, "--yes")
    assert [r["unit"] for r in undone["reversed"]] == [unit]
    after = (table.json("sheet"), table.json("status"), [_state(table, i) for i in (pc_id("Kira"), pc_id("Bo"),
                                                                                    challenge_id("Guards"))])
    assert after == before
    assert table("audit").exit_code == 0
    table("rebuild")
    assert table.json("sheet") == before[0]


def test_undo_of_a_rename_gives_the_new_name_back(table):
    table("pc", "rename", "Kira", "Kira Vale")
    table("undo", "--yes")
    assert "no PC named 'Kira Vale'" in table.refused("pc", "retire", "Kira Vale", "--reason", "x")
    table("pc", "add", "Kira Vale", "--expertise", "Phantom=2", "--primary", "Phantom")  # free again
    assert {s["name"] for s in table.json("sheet")} == {"Kira", "Bo", "Kira Vale"}


def test_a_renamed_pc_still_faces_a_challenge_opened_for_its_old_name(table):
    table("challenge", "open", "Dogs", "--threat", "Minor", "--type", "Venger", "--rating", "2", "--group", "Bo")
    table("pc", "rename", "Bo", "Bo the Bold")
    table("cohort-turn", "Dogs", "--leader", "Bo the Bold", "--faces", "1,1,2,2")
    table("challenge-turn", "Dogs", "--faces", "5,2")
    assert "not facing" in table.refused("stress", "Dogs", "--stress", "Kira=1")
    table("stress", "Dogs", "--stress", "Bo the Bold=1")  # the group named Bo: Bo the Bold faces it
    assert _sheet(table, "Bo the Bold")["stress"] == 1


def test_history_kind_corrections_lists_the_correction_lines(table):
    table("pc", "retire", "Bo", "--reason", "away")
    table("challenge", "rate", "Guards", "5", "--reason", "more guards")
    table("note", "Correction of nothing: a note")
    lines = [r["line"] for r in table.json("history", "--kind", "corrections")]
    assert lines == ["Correction: Bo retires: away", "Correction: Guards' rating 4 -> 5: more guards"]


def test_notes_find_a_renamed_pc_by_either_name(table):
    table("note", "got the scar", "--about", "Kira", "--tag", "scar")
    table("pc", "rename", "Kira", "Kira Vale")
    assert table.json("note", "asked about the scar", "--about", "Kira Vale")["about"] == "Kira Vale"
    notes = [r["line"] for r in table.json("history", "--pc", "Kira Vale", "--kind", "notes")]
    assert [n.split(":", 1)[0] for n in notes] == ["Note about Kira", "Note about Kira Vale"]
