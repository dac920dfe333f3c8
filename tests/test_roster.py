"""Rosters (issue 13): `roster load` adds PCs, their traits and a bestiary in one unit; `roster dump`
writes them back; a bad file is refused with its line and key, appending nothing."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from campaign_ledger.ledger.roster import line_of
from tests.conftest import Table

HEIST = '''\
[[pc]]
name = "Kira"
primary = "Phantom"
expertise = { Phantom = 3, Venger = 1 }

[[pc.trait]]
name = "Keen Eye"
modifier = "+2 / 1d"
cost = "destiny"

[[pc.trait]]
name = "Lucky"
modifier = "A6 / 1d"
cost = "destiny-or-doom"
frequency = "scene"

[[pc]]
name = "Bo"
primary = "Venger"
expertise = { Venger = 4, Phantom = 2 }
retired = "the player is away this month"

[[pc.trait]]
name = "Smoke Bomb"
modifier = "-1 / 1d"
target = "challenge"
types = ["Phantom"]

[[challenge]]
name = "Vault Guards"
threat = "Minor"
type = "Phantom"
rating = 4

[[challenge.trait]]
name = "Stubborn"
modifier = "-2 / 2d"
cost = "doom"
'''


def _campaign(tmp: Path, name: str, ruleset: str = "relics") -> Table:
    t = Table(tmp / f"{name}.db")
    t("new", name, "--ruleset", ruleset)
    return t


def _file(tmp: Path, text: str, name: str = "roster.toml") -> str:
    path = tmp / name
    path.write_text(text)
    return str(path)


def test_a_roster_loads_in_one_unit_and_one_undo_takes_it_all_back(tmp_path):
    t = _campaign(tmp_path, "heist")
    report = t.json("roster", "load", _file(tmp_path, HEIST))
    assert report["pcs"] == ["Kira", "Bo"] and report["challenges"] == ["Vault Guards"]
    sheets = {s["name"]: s for s in t.json("sheet")}
    assert [x["name"] for x in sheets["Kira"]["traits"]] == ["Keen Eye", "Lucky"]
    assert sheets["Kira"]["traits"][1]["frequency"] == "scene"
    assert sheets["Bo"]["retired"] == "the player is away this month"
    units = t.json("undo", "--list")
    assert len(units) == 1 and units[0]["unit"] == "load roster #1"
    t("undo", "--yes")
    assert t.json("sheet") == []
    t("roster", "load", _file(tmp_path, HEIST))  # loaded again after the undo: the same PCs
    assert {s["name"] for s in t.json("sheet")} == {"Kira", "Bo"}


def test_the_bestiary_defines_a_challenge_that_opens_with_its_traits(tmp_path):
    t = _campaign(tmp_path, "heist")
    t("roster", "load", _file(tmp_path, HEIST))
    assert "Vault Guards" not in [c["name"] for c in t.json("status")["challenges"]]  # defined, not opened
    t("scenario", "start", "Night")
    opened = t.json("challenge", "open", "vault guards")
    assert (opened["challenge"], opened["threat"], opened["type"], opened["rating"]) == ("Vault Guards", "Minor",
                                                                                          "Phantom", 4)
    t("cohort-turn", "Vault Guards", "--leader", "Kira", "--faces", "6,6,6")
    t("challenge-turn", "Vault Guards", "--faces", "1")
    turn = t.json("cohort-turn", "Vault Guards", "--leader", "Kira", "--trait", "Vault Guards:Stubborn")
    assert turn["pool"]["simple"][0]["label"].endswith("Stubborn")  # a Challenge's Hindering trait: the Cohort's pool
    assert "the bestiary defines no 'Dogs'" in t.refused("challenge", "open", "Dogs")


def test_dump_then_load_into_a_new_campaign_gives_equal_sheets(tmp_path):
    first = _campaign(tmp_path, "first")
    first("roster", "load", _file(tmp_path, HEIST))
    first("pc", "add", "Ash", "--expertise", "Sparrow=2", "--primary", "Sparrow")
    first("trait", "add", "Ash", "Gunplay", "+1 / 1d", "--frequency", "scene", "--types", "Venger,Scav")
    first("trait", "add", "Ash", "Hex", "A2 / 1d", "--polarity", "hindering", "--target", "challenge")
    dumped = str(tmp_path / "dumped.toml")
    first("roster", "dump", dumped)
    second = _campaign(tmp_path, "second")
    second("roster", "load", dumped)
    assert second.json("sheet") == first.json("sheet")
    assert second("roster", "dump").stdout == first("roster", "dump").stdout
    assert second.json("roster", "dump") == first.json("roster", "dump")


def test_dump_writes_one_style_that_loads_back(tmp_path):
    """Issue 35, finding 12: every trait its own [[pc.trait]] / [[challenge.trait]] table, small values
    inline, whatever their length (tomli_w wrote short trait lists inline and long ones as tables,
    expertise as a [pc.expertise] table); odd text survives the trip."""
    first = _campaign(tmp_path, "first")
    first("roster", "load", _file(tmp_path, HEIST))
    first("pc", "add", "Ash 'Quiet' Vale", "--expertise", "Sparrow=2,Scav=1", "--primary", "Sparrow")
    first("trait", "add", "Ash 'Quiet' Vale", "Gunplay \u00e9", "+1 / 1d", "--frequency", "scene",
          "--types", "Venger,Scav,Phantom,Stallion,Sparrow")
    first("pc", "retire", "Ash 'Quiet' Vale", "--reason", 'the "player" moved \\ away')
    dumped = first("roster", "dump").stdout
    headers = [line for line in dumped.splitlines() if line.startswith("[")]
    assert headers == ["[[pc]]", "[[pc.trait]]", "[[pc.trait]]", "[[pc]]", "[[pc.trait]]", "[[pc]]", "[[pc.trait]]",
                       "[[challenge]]", "[[challenge.trait]]"], dumped
    assert 'expertise = { Sparrow = 2, Scav = 1 }' in dumped or 'expertise = { Scav = 1, Sparrow = 2 }' in dumped
    assert 'types = ["Phantom"]' in dumped
    second = _campaign(tmp_path, "second")
    second("roster", "load", _file(tmp_path, dumped, "dumped.toml"))
    assert second.json("sheet") == first.json("sheet")
    assert second("roster", "dump").stdout == dumped


def test_dump_of_an_empty_campaign_says_so_and_counts_in_words(tmp_path):
    t = _campaign(tmp_path, "empty")
    assert t("roster", "dump").stdout.startswith("# No PCs and no bestiary yet")  # was an empty line
    t("roster", "load", _file(tmp_path, HEIST))
    assert t("roster", "dump", str(tmp_path / "out.toml")).stdout.strip().startswith("Wrote 2 PCs and 1 Challenge to ")


def test_dump_writes_the_current_sheets_after_corrections(tmp_path):
    t = _campaign(tmp_path, "heist")
    t("roster", "load", _file(tmp_path, HEIST))
    t("pc", "rename", "Kira", "Kira Vale")
    t("trait", "remove", "Kira Vale", "Lucky", "--reason", "spent")
    dumped = t.json("roster", "dump")
    assert [p["name"] for p in dumped["pc"]] == ["Kira Vale", "Bo"]
    assert [x["name"] for x in dumped["pc"][0]["trait"]] == ["Keen Eye"]


@pytest.mark.parametrize("change, says", [
    (('expertise = { Phantom = 3, Venger = 1 }', 'expertise = { Phantom = 9 }'), "line 4, pc[0].expertise: Expertise ranks go from 0 to 5"),
    (('modifier = "+2 / 1d"', 'modifier = "+2 / 1x"'), "line 8, pc[0].trait[0].modifier:"),
    (('frequency = "scene"', 'frequency = "fortnight"'), "line 15, pc[0].trait[1].frequency:"),
    (('rating = 4', 'rating = "four"'), "line 33, challenge[0].rating: expected a whole number"),
    (('threat = "Minor"', 'threat = "Huge"'), "line 31, challenge[0].threat:"),
    (('name = "Bo"', 'name = "Kira"'), "line 18, pc[1].name: 'Kira' is named twice"),
    (('types = ["Phantom"]', 'types = ["Phantom"]\ncolour = "red"'), "line 28, pc[1].trait[0].colour: unknown key"),
    (('primary = "Venger"\n', ''), "line 17, pc[1]: 'primary' is missing"),
    (('name = "Vault Guards"', 'name = "Vault Guards'), "is not TOML"),
    # issue 35's play-through: what `pc add`, `pc retire` and `challenge open` refuse, the file does too
    (('expertise = { Venger = 4, Phantom = 2 }', 'expertise = { Venger = 0 }'), "line 20, pc[1].expertise: A PC needs"),
    (('retired = "the player is away this month"', 'retired = " "'), "line 21, pc[1].retired: Say why"),
    (('retired = "the player is away this month"', 'retired = "away\\nfor good"'), "line 21, pc[1].retired: A reason cannot"),
    (('name = "Vault Guards"', 'name = "cohort"'), "line 30, challenge[0].name: 'cohort' is the Cohort's name"),
])
def test_a_bad_file_is_refused_with_its_line_and_key_and_appends_nothing(tmp_path, change, says):
    t = _campaign(tmp_path, "heist")
    old, new = change
    assert old in HEIST
    refusal = t.refused("roster", "load", _file(tmp_path, HEIST.replace(old, new, 1)))
    assert says in refusal


def test_a_roster_naming_what_the_campaign_holds_is_refused_whole(tmp_path):
    t = _campaign(tmp_path, "heist")
    t("pc", "add", "Bo", "--expertise", "Venger=1", "--primary", "Venger")
    assert "line 18, pc[1].name: there is already a PC named Bo" in t.refused("roster", "load", _file(tmp_path, HEIST))
    assert [s["name"] for s in t.json("sheet")] == ["Bo"]  # Kira, before Bo in the file, was not added either
    assert "Cannot read the roster" in t.refused("roster", "load", str(tmp_path / "missing.toml"))
    assert "no [[pc]] or [[challenge]]" in t.refused("roster", "load", _file(tmp_path, "# nothing\n", "empty.toml"))


def test_a_roster_file_as_editors_save_it_or_not_text_at_all(tmp_path):
    """Issue 35's play-through: a UTF-8 byte-order mark (Notepad) was 'not TOML: Invalid statement';
    a file in another encoding showed Python's codec message; an empty FILE said 'roster : No such file'."""
    t = _campaign(tmp_path, "heist")
    (tmp_path / "bom.toml").write_bytes(b"\xef\xbb\xbf" + HEIST.encode())
    assert t.json("roster", "load", str(tmp_path / "bom.toml"))["pcs"] == ["Kira", "Bo"]
    (tmp_path / "latin.toml").write_bytes(HEIST.replace("Kira", "K\u00e9ra").encode("latin-1"))
    assert t.refused("roster", "load", str(tmp_path / "latin.toml")).endswith(
        "latin.toml: it is not UTF-8 text (byte 0xe9 at offset 16); save it as UTF-8.")
    for command in ("load", "dump"):
        assert t.refused("roster", command, " ") == "Error: Name the roster file, e.g. heist.toml."


def test_other_rulesets_refuse_rosters_naming_theirs(tmp_path):
    t = _campaign(tmp_path, "pub", "beer-run")
    assert "beer-run campaign" in t.refused("roster", "load", _file(tmp_path, HEIST))
    assert "beer-run campaign" in t.refused("roster", "dump")


def test_the_line_of_a_key_follows_the_array_headers():
    assert line_of(HEIST, ("pc", 1, "trait", 0, "types")) == 27
    assert line_of(HEIST, ("challenge", 0, "trait", 0, "cost")) == 38
    assert line_of(HEIST, ("pc", 0, "trait", 1)) == 11  # a table's own header when the key is missing


DOCS = Path(__file__).resolve().parent.parent / "docs" / "rulesets"
RELICS = (DOCS / "relics.md").read_text()  # README's Relics sections moved here, its Rosters to rosters.md
ROSTERS = (DOCS / "rosters.md").read_text()


def _readme_block(page: str, heading: str, lang: str) -> str:
    """The first ```lang block after `heading` in a docs page, as a GM would copy it."""
    return page.split(heading, 1)[1].split(f"```{lang}", 1)[1].split("\n", 1)[1].split("```", 1)[0]


def _readme_commands(block: str) -> list[list[str]]:
    """A docs sh block as `campaign` argument lists (continuations joined, comments dropped)."""
    lines = block.replace("\\\n", " ").splitlines()
    return [shlex.split(line, comments=True)[1:] for line in lines if line.startswith("campaign ")]


def _readme_round(t: Table) -> list[list[str]]:
    """The Relics page's 'Playing a round in one command', its odds first: the Huddle without the dice."""
    cohort, challenge = _readme_commands(_readme_block(RELICS, "## Playing a round in one command", "sh"))
    dice_options = {"--faces", "--place"}
    huddle = [a for i, a in enumerate(cohort[1:]) if a not in dice_options and cohort[i] not in dice_options]
    odds = t.json("odds", *huddle)
    t(*cohort)
    assert challenge[challenge.index("--faces") + 1] == "6,6,3"  # the table's faces: 2 successes, 2 Stress
    t(*challenge)
    return odds


def _stubborn(t: Table) -> dict:
    import sqlite_utils
    rows = sqlite_utils.Database(t.path).execute("SELECT name, modifier, polarity, cost, target FROM traits "
                                                 "WHERE owner = 'Vault Guards'").fetchall()
    return {row[0]: row[1:] for row in rows}


def test_the_readme_example_plays_whichever_way_the_challenge_trait_came(tmp_path):
    """Finding 8 of issue 35: the Relics page's Stubborn (README's until docs/), given by `trait add ...
    --challenge` or by the roster's bestiary, is one trait on one pool (the Cohort's: a Challenge's
    Hindering trait aims at the opposition, as in 000's worked example), and the page's round and its
    odds run either way."""
    setup = _readme_commands(RELICS.split("```sh\nexport CAMPAIGN_DB=heist.db\n", 1)[1].split("```", 1)[0])
    by_hand = _campaign(tmp_path, "by-hand")
    for command in setup[1:]:  # after `campaign new`
        by_hand(*command)
    by_roster = _campaign(tmp_path, "by-roster")
    by_roster("roster", "load", _file(tmp_path, _readme_block(ROSTERS, "# Relics: rosters", "toml")))
    for command in setup[1:]:
        if not {"Kira", "Vault Guards"} & set(command[:3]):  # the roster holds them
            by_roster(*command)
    by_roster(*next(c for c in _readme_commands(_readme_block(ROSTERS, "# Relics: rosters", "sh")) if c[:2] == ["challenge", "open"]))
    assert _stubborn(by_hand) == _stubborn(by_roster) == {"Stubborn": ("-2 / 2d", "hindering", "doom", "cohort")}
    for t in (by_hand, by_roster):
        odds = _readme_round(t)
        assert any(m["label"] == "Vault Guards:Stubborn" for m in odds["pool"]["simple"]), odds
