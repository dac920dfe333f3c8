"""Undo of a command that made something (a PC, a Challenge, an item, a conflict): it is
unmade, absent to play and to every read table, and the same name can be made again.

Ids derive from names, so a thing made again continues the unmade one's stream (a `Remade`
entry); the read tables apply it as they applied the first making.
"""
from __future__ import annotations

from pathlib import Path

from tests.conftest import Table

AD, D, BR = "action-dice", "decision-2d6", "beer-run"
ANN = "Physical:Brawn=d8,Physical:Health=d6,Mental:Wits=d6,Social:Charm=d4"
BOB = "Physical:Brawn=d10,Physical:Health=d4,Mental:Wits=d6,Social:Charm=d2"


def _live_equals_rebuild(t: Table) -> None:
    """The read tables kept live equal a rebuild from the whole ledger, and audit is clean."""
    t("history", "--limit", "1")
    assert t.differs_from_rebuild() == []
    assert "Clean." in t("audit").stdout


def test_an_undone_pc_is_gone_from_every_view_and_can_be_made_again(table: Table):
    table("pc", "add", "Ash", "--expertise", "Sparrow=2", "--primary", "Sparrow")
    listed = {u["unit"]: u for u in table.json("undo", "--list")}
    assert listed["add pc Ash #1"]["dependents"] == []
    table("undo", "add pc Ash", "--yes")
    assert [s["name"] for s in table.json("sheet")] == ["Kira", "Bo"]
    assert "no PC named 'Ash'" in table.refused("push", "Ash")
    table("pc", "add", "Ash", "--expertise", "Scav=3", "--primary", "Scav")  # the typo fixed
    ash = [s for s in table.json("sheet") if s["name"] == "Ash"]
    assert ash and ash[0]["expertise"] == {"Scav": 3} and ash[0]["primary"] == "Scav"
    assert "add pc Ash #2" in [u["unit"] for u in table.json("undo", "--list")]
    _live_equals_rebuild(table)
    table("undo", "add pc Ash #2", "--yes")  # the making again undone: gone once more
    assert [s["name"] for s in table.json("sheet")] == ["Kira", "Bo"]
    table("pc", "add", "Ash", "--expertise", "Venger=1", "--primary", "Venger")
    assert [s["expertise"] for s in table.json("sheet") if s["name"] == "Ash"] == [{"Venger": 1}]
    _live_equals_rebuild(table)


def test_undoing_an_early_pc_leaves_the_later_ones_in_their_order(empty: Table):
    """Adding Bo only appended to the Cohort: undoing Kira needs no cascade and keeps Bo
    (starting a scenario or opening a Challenge reads every PC, so those would depend on Kira)."""
    table = empty
    table("new", "Heist")
    for name in ("Kira", "Bo"):
        table("pc", "add", name, "--expertise", "Phantom=3", "--primary", "Phantom")
    listed = {u["unit"]: u for u in table.json("undo", "--list", "--limit", "100")}
    assert listed["add pc Kira #1"]["dependents"] == []
    table("undo", "add pc Kira", "--yes")
    assert [s["name"] for s in table.json("sheet")] == ["Bo"]
    table("pc", "add", "Kira", "--expertise", "Phantom=1", "--primary", "Phantom")
    assert [s["name"] for s in table.json("sheet")] == ["Bo", "Kira"]
    _live_equals_rebuild(table)


def test_a_pc_who_played_takes_the_round_along_only_with_cascade(table: Table):
    table("pc", "add", "Ash", "--expertise", "Phantom=2", "--primary", "Phantom")
    table("cohort-turn", "Guards", "--leader", "Ash", "--faces", "1,2,3,4,5,6")
    refusal = table.refused("undo", "add pc Ash")
    assert "Guards:1" in refusal and "--cascade" in refusal
    table("undo", "add pc Ash", "--cascade", "--yes")
    assert "Ash" not in [s["name"] for s in table.json("sheet")]
    assert table.json("status")["turn"] is None
    _live_equals_rebuild(table)


def test_an_undone_challenge_is_gone_and_its_name_free(table: Table):
    table("challenge", "open", "Dogs", "--threat", "Common", "--type", "Venger", "--rating", "2")
    table("undo", "open challenge Dogs", "--yes")
    assert "Dogs" not in table("status").stdout
    assert "no Challenge named 'Dogs'" in table.refused("cohort-turn", "Dogs", "--leader", "Bo", "--faces", "1,2")
    table("challenge", "open", "Dogs", "--threat", "Minor", "--type", "Venger", "--rating", "5")
    assert "Dogs (Minor Venger 5)" in table("status").stdout
    history = table("history").stdout
    assert "Dogs unmade, as if never made" in history
    _live_equals_rebuild(table)


def test_an_undone_making_travels_through_export_and_import(table: Table, tmp_path: Path):
    table("pc", "add", "Ash", "--expertise", "Sparrow=2", "--primary", "Sparrow")
    table("undo", "add pc Ash", "--yes")
    table("pc", "add", "Ash", "--expertise", "Scav=3", "--primary", "Scav")
    out = tmp_path / "heist.jsonl"
    table("export", "--format", "jsonl", "--output", str(out))
    copy = Table(tmp_path / "copy.db")
    copy("import", str(out))
    assert copy.json("sheet") == table.json("sheet")
    assert "Clean." in copy("audit").stdout


def test_each_ruleset_unmakes_what_it_made(tmp_path: Path):
    ad = Table(tmp_path / "ad.db")
    ad("new", "A", "--ruleset", AD)
    ad(AD, "character", "Mara", "--asset", "Athletics=d8")
    ad("undo", "--yes")
    assert "Mara" not in str(ad.json(AD, "sheet"))
    ad(AD, "character", "Mara", "--asset", "Athletics=d6")
    assert "d6" in ad(AD, "sheet", "Mara").stdout
    _live_equals_rebuild(ad)

    d = Table(tmp_path / "d.db")
    d("new", "D", "--ruleset", D)
    d(D, "pc-add", "Billy", "--level", "3", "--will", "2", "--fort", "3", "--stat", "Strength=1")
    d(D, "item-add", "Rope", "--die", "D6", "--holder", "Billy")
    d("undo", "--yes")
    assert "Rope" not in d(D, "pools").stdout
    d(D, "item-add", "Rope", "--die", "D10", "--holder", "Billy")
    assert "D10" in d(D, "pools").stdout
    _live_equals_rebuild(d)

    br = Table(tmp_path / "br.db")
    br("new", "B", "--ruleset", BR)
    br(BR, "character", "add", "Ann", "--ability", ANN)
    br(BR, "character", "add", "Bob", "--ability", BOB)
    br(BR, "conflict", "open", "Brawl", "--side", "Ann", "--side", "Bob")
    br("undo", "--yes")
    assert "no conflict named 'Brawl'" in br.refused(BR, "status", "Brawl")
    br(BR, "conflict", "open", "Brawl", "--side", "Bob", "--side", "Ann")
    _live_equals_rebuild(br)
