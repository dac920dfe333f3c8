"""Issue 35, finding 4: a unit's name never repeats, an undo notwithstanding.

An undo puts a Challenge's (or conflict's) round count back, and a character's count of rolls:
the round or roll played again after it is a new unit, under a name no unit had before
(`Guards:2`, `Mara's climb roll (#2)`), numbered by the rounds (rolls) ever begun. Its history
rows, `history --round` and the Markdown export's headings keep the two apart. A ledger written
before (a round played again under its old name) reads the same names as before.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from campaign_ledger.ledger import units
from tests.conftest import Table, heist
from tests.test_postgres import postgres_ledger  # noqa: F401  (the fixture: a database on the local server)

COHORT = ("cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo", "--faces", "1,2,3,4,5")
ANN = "Physical:Brawn=d8,Physical:Health=d6,Mental:Wits=d6,Social:Charm=d4"
BOB = "Physical:Brawn=d10,Physical:Health=d4,Mental:Wits=d6,Social:Charm=d2"
CHALLENGE = ("challenge-turn", "Guards", "--faces", "1,1,1,1")


def _rounds(t: Table, name: str) -> list[int]:
    return [r["entry"] for r in t.json("history", "--round", name, "--limit", "500")]


def _unit(t: Table, *args: str) -> str:
    return t.json(*args)["unit"]


def test_a_round_played_again_after_its_undo_is_a_new_round_under_a_new_name(table: Table):
    first = table.json(*COHORT)
    assert first["unit"] == "Guards:1"
    table("undo", "Guards:1", "--yes")
    again = table.json(*COHORT)
    assert again["unit"] == "Guards:2" and again["round"] == 1  # the Challenge's own count is back to 1
    assert _unit(table, *CHALLENGE) == "Guards:2"  # the round's later commands join it
    assert _unit(table, *COHORT) == "Guards:3"  # the next round: counted from every round begun
    assert _rounds(table, "Guards:1") == first["entries"]
    again_entries = [r["entry"] for r in again["history"]]
    assert _rounds(table, "Guards:2")[:len(again_entries)] == again_entries
    assert not set(_rounds(table, "Guards:2")) & set(_rounds(table, "Guards:3"))
    names = [u["unit"] for u in table.json("undo", "--list", "--limit", "50")]
    assert len(names) == len(set(names)) and "Guards:1" not in names
    log = table("export").stdout
    assert re.findall(r"^## (?:~~)?Guards, round (\d+)", log, re.M) == ["1", "2", "3"]
    one = log.split("## ~~Guards, round 1~~")[1].split("\n## ")[0]
    assert {int(e) for e in re.findall(r"^- #(\d+) ", one, re.M)} == set(first["entries"])  # not the undo, not round 2
    assert table.differs_from_rebuild() == []


def test_a_correction_keeps_the_name_of_the_round_it_corrects_and_its_round_goes_on(table: Table):
    table(*COHORT)
    table("undo", "Guards:1", "--yes")
    table(*COHORT)
    corrected = table.json("replay", "Guards:2", "--leader", "Bo", "--commit")
    assert corrected["unit"] == "Guards:2"
    assert _unit(table, *CHALLENGE) == "Guards:2"
    assert [u["unit"] for u in table.json("undo", "--list", "--limit", "1")] == ["Guards:2"]


def test_an_entry_about_a_round_outside_it_is_filed_under_the_rounds_new_name(table: Table):
    table(*COHORT)
    table("undo", "Guards:1", "--yes")
    table(*COHORT)
    closed = table.json("challenge", "close", "Guards", "--reason", "they ran")
    assert {r["round"] for r in closed["history"]} == {"Guards:2"}
    assert table.differs_from_rebuild() == []


@pytest.mark.parametrize("ruleset, setup, play, first, fresh", [
    ("beer-run", [("beer-run", "character", "add", "Ann", "--ability", ANN),
                  ("beer-run", "character", "add", "Bob", "--ability", BOB),
                  ("beer-run", "conflict", "open", "Brawl", "--side", "Ann", "--side", "Bob")],
     ("beer-run", "goal", "Brawl", "Ann", "win"), "Brawl:1", "Brawl:2"),
    ("action-dice", [("action-dice", "character", "Mara", "--asset", "Athletics=d8")],
     ("action-dice", "roll", "Mara", "climb", "--rating", "D6", "--faces", "2,3,4"),
     "Mara's climb roll (#1)", "Mara's climb roll (#2)"),
    ("decision-2d6", [("decision-2d6", "pc-add", "Billy", "--level", "3", "--will", "2", "--fort", "3",
                       "--stat", "Strength=1")],
     ("decision-2d6", "roll", "Billy", "Strength", "--target", "8", "--faces", "3,4"),
     "Billy's Strength roll (#1)", "Billy's Strength roll (#2)"),
])
def test_every_ruleset_names_a_round_or_roll_played_again_anew(tmp_path: Path, ruleset, setup, play, first, fresh):
    t = Table(tmp_path / "c.db")
    t("new", "C", "--ruleset", ruleset)
    for args in setup:
        t(*args)
    assert _unit(t, *play) == first
    t("undo", first, "--yes")
    assert _unit(t, *play) == fresh
    names = [u["unit"] for u in t.json("undo", "--list", "--limit", "50")]
    assert fresh in names and first not in names


def test_a_beer_run_round_is_found_by_the_name_undo_gives_it(tmp_path: Path):
    """Beer Run files no round of its own in the history: `history --round "Brawl:1"` printed "No
    entries." while `undo "Brawl:1"` took the round; its rows are filed under the round unit's name."""
    t = Table(tmp_path / "c.db")
    t("new", "C", "--ruleset", "beer-run")
    t("beer-run", "character", "add", "Ann", "--ability", ANN)
    t("beer-run", "character", "add", "Bob", "--ability", BOB)
    t("beer-run", "conflict", "open", "Brawl", "--side", "Ann", "--side", "Bob")
    played = t.json("beer-run", "goal", "Brawl", "Ann", "win")
    assert played["unit"] == "Brawl:1" and _rounds(t, "Brawl:1") == played["entries"]
    assert t.differs_from_rebuild() == []


def test_a_ledger_that_played_a_round_again_under_its_old_name_reads_as_before(tmp_path: Path, monkeypatch):
    """Written as the code before issue 35 did (every round under its own count): the two
    `Guards:1` keep their name, in the history and in undo, and the standing one plays on."""
    with monkeypatch.context() as old:
        old.setattr(units, "fresh", lambda recorder, unit, detail: unit)
        t = heist(tmp_path)
        t(*COHORT)
        t("undo", "Guards:1", "--yes")
        t(*COHORT)
        before = [(r["entry"], r["round"], r["unit"]) for r in t.json("history", "--limit", "500")]
        listed = t.json("undo", "--list", "--limit", "50")
    t("rebuild")
    assert [(r["entry"], r["round"], r["unit"]) for r in t.json("history", "--limit", "500")] == before
    assert t.json("undo", "--list", "--limit", "50") == listed
    assert _unit(t, *CHALLENGE) == "Guards:1"  # the standing round of that name goes on under it


def test_a_ledger_on_postgresql_names_a_round_played_again_anew(postgres_ledger, tmp_path: Path):
    t = heist(tmp_path)
    t(*COHORT)
    t("undo", "Guards:1", "--yes")
    assert _unit(t, *COHORT) == "Guards:2"
    assert _unit(t, *CHALLENGE) == "Guards:2"
    assert _unit(t, "trait", "add", "Kira", "Keen", "+1 / 1d") == "add trait Kira #1"
    assert [u["unit"] for u in t.json("undo", "--list", "--limit", "2")] == ["add trait Kira #1", "Guards:2"]
