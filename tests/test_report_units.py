"""Issue 35, finding 5: a command's `--json` report names its unit exactly as `undo` takes it.

Every command that appends, of every ruleset, is played once (the scripts below, one campaign
a ruleset); its report's `unit`, given unchanged to `undo UNIT --dry-run --json`, is accepted
and names that command's entries. The list of commands comes from the click groups: a command
that appends and is in no script fails `test_every_command_is_played_or_named_as_no_unit`.
Finding 10 (part): an unknown unit is refused in one line naming the latest units newest first,
as `undo --list` lists them.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import Table
from tests.test_cli_contract import LEAVES

ROSTER = str(Path(__file__).parent / "fixtures" / "roster_ash.toml")
ANN = "Physical:Brawn=d8,Physical:Health=d6,Mental:Wits=d6,Social:Charm=d4"
BOB = "Physical:Brawn=d10,Physical:Health=d4,Mental:Wits=d6,Social:Charm=d2"
GM = ("--gm-override", "the GM allows it")
WHY = ("--reason", "the GM says so")

# Commands that append nothing a GM can undo: reads, files, servers, and the two that are no unit
# (`new` makes the campaign; an undo is undone by nothing).
NO_UNIT = {("new",), ("undo",), ("demo",), ("import",), ("export",), ("serve",), ("shell",), ("anchor",),
           ("audit",), ("rebuild",), ("history",), ("odds",), ("sheet",), ("status",), ("pools",), ("statement",),
           ("session", "list"), ("roster", "dump"), ("seat", "list"),
           ("action-dice", "sheet"), ("action-dice", "rolls"), ("action-dice", "difficulty"),
           ("beer-run", "sheet"), ("beer-run", "pools"), ("beer-run", "statement"), ("beer-run", "status"),
           ("beer-run", "conflicts"),
           ("decision-2d6", "sheet"), ("decision-2d6", "pools"), ("decision-2d6", "rolls")}

SCRIPTS: dict[str, list[tuple[str, ...]]] = {
    "relics": [
        ("session", "start", "One"),
        ("pc", "add", "Kira", "--expertise", "Phantom=3,Venger=1", "--primary", "Phantom"),
        ("pc", "add", "Bo", "--expertise", "Phantom=3,Venger=4", "--primary", "Venger"),
        ("scenario", "start", "Night"),
        ("scene", "start", "The vault"),
        ("event", "start", "The alarm"),
        ("challenge", "open", "Guards", "--threat", "Minor", "--type", "Phantom", "--rating", "6"),
        ("trait", "add", "Kira", "Keen", "+1 / 1d"),
        ("trait", "replace", "Kira", "Keen", "+2 / 1d", *WHY),
        ("trait", "remove", "Kira", "Keen", *WHY),
        ("trait", "add", "Kira", "Quick", "+1 / 1d"),
        ("motto", "Kira", "Never again"),
        ("note", "The guards look bored", "--about", "Guards"),
        ("house-rule", "set", "stressed_out_at", "6", *WHY),
        ("pc", "expertise", "Bo", "Phantom=3,Venger=4,Stallion=2", *WHY),
        ("pc", "add", "Zed", "--expertise", "Phantom=2", "--primary", "Phantom"),
        ("pc", "rename", "Zed", "Zeb"),
        ("pc", "retire", "Zeb", *WHY),
        ("pc", "return", "Zeb"),
        ("challenge", "rate", "Guards", "5", *WHY),
        ("check-this-out", "Loose grating", "+1 / 1d", "--pay", "destiny"),
        ("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Quick"),
        ("roll", "Guards", "--faces", "1,2,3,4,5,6"),
        ("place", "Guards", "--best"),
        ("challenge-turn", "Guards", "--faces", "6,6,6"),
        ("stress", "Guards", "--stress", "Kira=2,Bo=1"),
        ("replay", "Guards:1", "--leader", "Bo", "--commit"),
        ("push", "Kira", *GM),
        ("disaster-trait", "Guards", "Rattled", "-1 / 1d", "--on", "Kira", *GM),
        ("agony-trait", "Kira", "Scar", "-1 / 1d", *GM),
        ("growth-test", "Kira", "--pool", "2", "--faces", "1,2", *GM),
        ("hand-of-doom", "stress", *GM),
        ("hand-of-doom", "trait", "Gloom", "-1 / 1d", *GM),
        ("hand-of-doom", "challenge", "Hounds", "--threat", "minor", "--type", "phantom", "--rating", "3", *GM),
        ("challenge", "split", "Guards", "--into", "Rear Guards", "--dice", "1", "--group", "Bo", "--pay",
         "destiny", *GM),
        ("challenge", "close", "Hounds", *WHY),
        ("challenge", "abandon", "Rear Guards", *WHY),
        ("event", "end"),
        ("scene", "end"),
        ("recover", "set", "--stress", "Kira=1", *GM),
        ("recover", "test", *GM),
        ("cohort-turn", "Recovery after Scene 1", "--leader", "Bo", "--roll"),
        ("recover", "apply", "--stress", "Kira=1", *GM),
        ("downtime",),
        ("roster", "load", ROSTER),
        ("seat", "add", "Kira", "--player", "Ana", "--url", "http://table.test:8000"),
        ("seat", "rotate", "Kira", "--url", "http://table.test:8000"),
        ("seat", "revoke", "Kira"),
        ("session", "end"),
    ],
    "beer-run": [
        ("beer-run", "character", "add", "Ann", "--ability", ANN),
        ("beer-run", "character", "add", "Bob", "--ability", BOB),
        ("beer-run", "character", "add", "Cal", "--ability", BOB),
        ("beer-run", "difficulty", "add", "Bouncer", "--dice", "d8,d6,d6"),
        ("beer-run", "intensity", "Ann", "--gain", "1", *WHY),
        ("beer-run", "outcome", "gain", "Ann", "Mental:Nerve=d6", "--reason", "a lesson"),
        ("beer-run", "outcome", "inflict", "Bob", "d4", "--reason", "a bruise"),
        ("beer-run", "outcome", "lift", "Bob", "d4", "--reason", "it healed"),
        ("beer-run", "conflict", "open", "Brawl", "--side", "Ann", "--side", "Bob"),
        ("beer-run", "goal", "Brawl", "Ann", "win"),
        ("beer-run", "helping", "Brawl", "Cal", "Ann", "a shove", "--die", "d6", "--faces", "3,3,1",
         "--difficulty-faces", "1,1,1"),
        ("beer-run", "goal", "Brawl", "Bob", "leave"),
        ("beer-run", "roll", "Brawl", "Ann", "--faces", "4,4,4,4"),
        ("beer-run", "roll", "Brawl", "Bob", "--faces", "1,1,1"),
        ("beer-run", "pips", "Brawl", "Ann", "Brawn=4"),
        ("beer-run", "conflict", "end", "Brawl", "--reason", "Bob left"),
        ("beer-run", "conflict", "open", "Chase", "--side", "Ann", "--side", "Bob"),
        ("beer-run", "goal", "Chase", "Ann", "catch him"),
        ("beer-run", "cede", "Chase", "Bob"),
        ("seat", "add", "Ann", "--player", "Ana", "--url", "http://table.test:8000"),
    ],
    "action-dice": [
        ("action-dice", "character", "Mara", "--asset", "Athletics=d8"),
        ("action-dice", "asset", "Mara", "Rope", "d6"),
        ("action-dice", "feature", "Mara", "Nimble"),
        ("action-dice", "condition", "Mara", "Bruised", "--level", "1", "--impacts", "climb"),
        ("action-dice", "worsen", "Mara", "Bruised"),
        ("action-dice", "ease", "Mara", "Bruised"),
        ("action-dice", "treat", "Mara", "Bruised"),
        ("action-dice", "roll", "Mara", "climb", "--rating", "D6", "--asset", "Athletics", "--faces", "2,3,4"),
        ("seat", "add", "Mara", "--player", "Ana", "--url", "http://table.test:8000"),
    ],
    "decision-2d6": [
        ("decision-2d6", "pc-add", "Billy", "--level", "3", "--will", "2", "--fort", "3", "--stat", "Strength=1"),
        ("decision-2d6", "pc-add", "Ogre", "--level", "2", "--will", "1", "--fort", "2", "--stat", "Strength=2"),
        ("decision-2d6", "pc-set", "Billy", "--stat", "Agility=1", *WHY),
        ("decision-2d6", "item-add", "Torches", "--die", "D6", "--holder", "Billy"),
        ("decision-2d6", "supply-roll", "Torches", "--faces", "2"),
        ("decision-2d6", "restock", "Torches", "D8"),
        ("decision-2d6", "tracker-add", "Arrows", "--holder", "Billy"),
        ("decision-2d6", "tracker-roll", "Arrows", "--faces", "40"),
        ("decision-2d6", "tracker-set", "Arrows", "5", *WHY),
        ("decision-2d6", "roll", "Billy", "Strength", "--target", "8", "--faces", "3,4"),
        ("decision-2d6", "contest", "Billy:Strength", "Ogre:Strength", "--faces", "5,5/1,2"),
        ("seat", "add", "Billy", "--player", "Ana", "--url", "http://table.test:8000"),
    ],
}


def _path(args: tuple[str, ...]) -> tuple[str, ...]:
    """The command an argument list plays (the longest leading words naming a command)."""
    return max((p for p in LEAVES if args[:len(p)] == p), key=len)


def test_every_command_is_played_or_named_as_no_unit():
    played = {_path(args) for script in SCRIPTS.values() for args in script}
    assert NO_UNIT.isdisjoint(played)
    missing = sorted(set(LEAVES) - played - NO_UNIT)
    assert not missing, f"commands in no script of tests/test_report_units.py: {missing}"


@pytest.mark.parametrize("ruleset", sorted(SCRIPTS))
def test_every_reports_unit_is_what_undo_takes_for_its_entries(tmp_path: Path, ruleset: str):
    t = Table(tmp_path / "c.db")
    t("new", "C", "--ruleset", ruleset)
    named = []
    for args in SCRIPTS[ruleset]:
        report = t.json(*args)
        unit, entries = report.get("unit"), report["entries"]
        assert isinstance(unit, str) and entries, (args, report)
        plan = t.json("undo", unit, "--dry-run")
        reversed_ = plan["reversed"]
        assert reversed_[0]["unit"] == unit, (args, plan)
        first, last = reversed_[0]["entries"]
        assert last == entries[-1], (args, unit, entries, reversed_)
        begins = unit not in named or args[0] == "replay"  # a committed correction: a unit under its round's name
        assert first == entries[0] if begins else first < entries[0], (args, unit, entries, reversed_)
        assert [h["unit"] for h in report["history"]] == [unit] * len(entries), (args, report["history"])
        named.append(unit)
    assert len(set(named)) == len(set(map(str.casefold, named)))


def test_an_unknown_unit_is_refused_in_one_line_naming_the_latest_newest_first(table: Table):
    table("trait", "add", "Kira", "Keen", "+1 / 1d")
    line = table.refused("undo", "No Such Unit", "--yes")
    assert table("undo", "No Such Unit", "--yes", ok=False).exit_code == 1
    named = re.search(r"the latest: (.*) \(see", line).group(1).split(", ")
    listed = [u["unit"] for u in table.json("undo", "--list")]
    assert named == listed[:len(named)] and named[0] == "add trait Kira #1"
