"""Rough edges a new GM met playing Relics from the README (issue 35's last play-through): each is
a command as the GM typed it and what it must answer instead of what it did."""
from __future__ import annotations

from tests.conftest import Table


def test_a_sheet_asked_of_a_challenge_says_it_is_a_challenge_and_where_to_look(table: Table):
    line = table.refused("sheet", "guards")
    assert line == "Error: 'guards' is not a character of this campaign but a Challenge (campaign status shows it)."
    assert "There is no character named 'Nobody'" in table.refused("sheet", "Nobody")


def test_stress_no_step_can_distribute_is_refused_not_dropped(table: Table):
    """`challenge-turn --stress` on a turn that scored nothing, `roll --stress` on a Cohort turn and
    `--stress` before the placements are refused (nothing appended), never silently ignored."""
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2,2,2")
    line = table.refused("challenge-turn", "Guards", "--faces", "1,1,1,1", "--stress", "Kira=1,Bo=1")
    assert line == "Error: The Challenge scored no Stress this turn; --stress Kira=1,Bo=1 has nothing to distribute."
    table("challenge-turn", "Guards", "--faces", "1,1,1,1")
    table("cohort-turn", "Guards")
    assert "Cohort turn deals no Stress" in table.refused("roll", "Guards", "--faces", "2,2,2,2,2", "--stress", "Kira=1")
    table("roll", "Guards", "--faces", "2,2,2,2,2")
    table("trait", "add", "Bo", "Smoke Bomb", "-1 / 1d", "--target", "challenge")
    table("challenge-turn", "Guards", "--trait", "Bo:Smoke Bomb")
    assert "waits for the Simple modifiers to be placed" in table.refused(
        "roll", "Guards", "--faces", "5,5,5,5", "--stress", "Kira=1")
    table("roll", "Guards", "--faces", "5,5,5,5", "--best", "--stress", "Kira=2,Bo=1")
    assert table.json("status")["turn"] is None


def _trait(t: Table, owner: str, name: str) -> dict:
    """A trait as the read tables hold it (a Challenge's too, which no sheet shows)."""
    import sqlite3
    with sqlite3.connect(t.path) as db:
        db.row_factory = sqlite3.Row
        return dict(db.execute("SELECT * FROM traits WHERE owner = ? AND name = ?", [owner, name]).fetchone())


def test_trait_replace_that_flips_polarity_takes_the_pool_trait_add_would_give(table: Table):
    """Stubborn replaced by +1 / 1d helps the Challenge that owns it, as `trait add` would have it,
    not the Cohort it used to hinder; `--target` names a pool outright; an unflipped one keeps its."""
    table("trait", "add", "Guards", "Stubborn", "-2 / 2d", "--challenge")
    assert _trait(table, "Guards", "Stubborn")["target"] == "cohort"
    report = table.json("trait", "replace", "Guards", "Stubborn", "+1 / 1d")
    assert report["target"] == "challenge" == _trait(table, "Guards", "Stubborn")["target"]
    assert "targets the challenge pool" in report["history"][0]["line"]
    table("trait", "add", "Kira", "Keen Eye", "+1 / 1d")
    table("trait", "replace", "Kira", "Keen Eye", "+2 / 1d")
    assert _trait(table, "Kira", "Keen Eye")["target"] == "cohort"
    table("trait", "replace", "Kira", "Keen Eye", "-1 / 1d")
    assert _trait(table, "Kira", "Keen Eye")["target"] == "challenge"
    table("trait", "replace", "Kira", "Keen Eye", "-1 / 1d", "--target", "cohort")
    assert _trait(table, "Kira", "Keen Eye")["target"] == "cohort"
    assert table.differs_from_rebuild() == []
    table("undo", "--yes")
    assert _trait(table, "Kira", "Keen Eye")["target"] == "challenge"


def test_the_primary_expertise_is_a_type_the_pc_has_and_changes_alone(table: Table):
    line = table.refused("pc", "add", "Zed", "--expertise", "Phantom=2", "--primary", "Venger")
    assert line == "Error: The Primary Expertise is one the PC has a rank in (Phantom), not Venger."
    assert table("pc", "expertise", "Kira", "--primary", "Scav", "--reason", "r", ok=False).exit_code == 2
    report = table.json("pc", "expertise", "Kira", "--primary", "Venger", "--reason", "leads the fights now")
    assert (report["primary"], report["expertise"]) == ("Venger", {"Phantom": 3, "Venger": 1})
    assert table.json("sheet", "Kira")["primary"] == "Venger"
    assert "rank in (Phantom)" in table.refused("pc", "expertise", "Kira", "Venger=0", "--reason", "r")
    assert "Give the ranks to change" in table.refused("pc", "expertise", "Kira", "--reason", "r")


def test_a_renamed_pcs_statement_is_one_statement_under_any_name(table: Table):
    """`statement Kay:stress` after Kira became Kay starts at Kira's first entry, not at the rename
    (whose carried-over value is no change); `Kira:stress` is the same statement."""
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2,2,2")
    table("challenge-turn", "Guards", "--faces", "6,6,2,2", "--stress", "Kira=2")
    table("pc", "rename", "Kira", "Kay")
    table("cohort-turn", "Guards", "--faces", "2,2,2,2,2")
    table("challenge-turn", "Guards", "--faces", "6,2,2,2", "--stress", "Kay=1")
    rows = table.json("statement", "Kay:stress")["changes"]
    assert [(r["change"], r["balance"]) for r in rows] == [(0, 0), (2, 2), (1, 3)]
    assert table.json("statement", "kira:stress")["changes"] == rows
    assert [r["change"] for r in table.json("statement", "Bo:stress")["changes"]] == [0]


def test_a_motto_keeps_its_words_on_the_sheet_and_in_the_history(table: Table):
    report = table.json("motto", "Kira", "Nobody gets left behind")
    assert '"Nobody gets left behind"' in report["history"][0]["line"]
    motto = next(t for t in table.json("sheet", "Kira")["traits"] if t["name"] == "Motto")
    assert motto["words"] == "Nobody gets left behind"
    assert 'Trait Motto "Nobody gets left behind": A6 / 1d' in table("sheet", "Kira").stdout
    assert table.differs_from_rebuild() == []


def test_an_opportunity_is_created_only_by_a_pc_facing_the_challenge(table: Table):
    """After a split, Bo faces Back Stairs alone: creating an opportunity in Guards (+1 Destiny at
    the round's end) is refused as leading or assisting it is."""
    table("challenge", "split", "Guards", "--into", "Back Stairs", "--dice", "2", "--group", "Bo", "--pay", "doom")
    line = table.refused("cohort-turn", "Guards", "--leader", "Kira", "--opportunity", "Bo")
    assert line == "Error: Bo is not facing Guards."


def test_an_agony_trait_for_a_pc_with_no_agony_says_so(table: Table):
    line = table.refused("agony-trait", "Bo", "Shaking hands", "-1 / 1d")
    assert line == "Error: Bo has no Agony: an Agony trait comes with each Agony gained (Pushing the Limit)."


def test_a_second_amendment_of_a_house_rule_table_keeps_the_first(table: Table):
    """`ranked_simple 3=2/3` then `4=3/3`: rank 3 stays amended (the second entry held only rank 4,
    so rank 3 went back to the rules' 2/2 while the history said nothing of it)."""
    table("house-rule", "set", "lead_dice", "3=4", "--reason", "bold leaders")
    report = table.json("house-rule", "set", "lead_dice", "2=3", "--reason", "and bolder")
    assert (report["value"]["3"], report["value"]["2"]) == (4, 3)
    assert "is now 5=5,4=4,3=4,2=3 (was 5=5,4=4,3=4,2=2)" in report["history"][0]["line"]
    table("cohort-turn", "Guards", "--leader", "Kira")  # Phantom 3 leads with 4 dice, Bo assists with 2
    assert table.json("status")["challenges"][0]["pending"]["pool"]["size"] == 4 + 2


def test_a_name_ending_in_s_takes_a_plain_apostrophe_in_the_history(table: Table):
    table("scene", "start", "The vault")
    table("check-this-out", "Loose grating", "+1 / 1d", "--pay", "destiny", "--against", "Guards")
    lines = [r["line"] for r in table.json("scene", "end")["history"]]
    assert "Guards' temporary trait Loose grating ends" in lines


def test_history_of_a_round_that_never_was_is_refused_as_a_pc_that_never_was(table: Table):
    line = table.refused("history", "--round", "Guards:9")
    assert line.startswith("Error: There is no round 'Guards:9' in this campaign")
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2,2,2")
    assert table.json("history", "--round", "guards:1")


def test_an_export_to_a_folder_that_does_not_exist_is_refused_in_one_line(table: Table, tmp_path):
    where = tmp_path / "no such folder" / "session.md"
    result = table("export", "--format", "md", "-o", str(where), ok=False)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"Error: Cannot write the export {where}: No such file or directory."


def test_replay_of_no_such_round_offers_the_latest_rounds_not_other_commands(table: Table):
    for _ in range(2):
        table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2,2,2")
        table("challenge-turn", "Guards", "--faces", "2,2,2,2")
    table("pc", "add", "Ash", "--expertise", "Phantom=2", "--primary", "Phantom")
    table("note", "the map is fake")
    line = table.refused("replay", "Guards:9")
    assert line == "Error: There is no round or roll 'Guards:9' to replay; the latest are: Guards:2, Guards:1."


def test_units_say_whose_they_are(table: Table):
    """`end encounter #1`, `hand of doom #1`, `disaster trait #1`: a GM reading `undo --list` saw
    neither the game's word (an Event) nor what each was about; the report's unit is undo's name."""
    assert table.json("event", "start", "The alarm")["unit"] == "start event The alarm #1"
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "1,1,1,1,1")  # a Disaster
    assert table.json("disaster-trait", "Guards", "Rattled", "-1 / 1d", "--on", "Kira")["unit"] == \
        "disaster trait Guards #1"
    assert table.json("hand-of-doom", "stress", "--gm-override", "a test")["unit"] == "hand of doom stress #1"
    assert table.json("event", "end")["unit"] == "end event The alarm #1"
    listed = [u["unit"] for u in table.json("undo", "--list")]
    assert {"end event The alarm #1", "hand of doom stress #1", "disaster trait Guards #1"} <= set(listed)
    assert table.json("undo", "hand of doom stress #1", "--dry-run", "--cascade")["reversed"]


def test_odds_without_a_campaign_refuse_a_rating_no_challenge_has(empty: Table):
    """`--rating 0` and `--resolved` at or past the rating described no Challenge a campaign can hold
    (a Challenge turn of 2 dice with 5 resolved showed two auto results and no word)."""
    base = ("odds", "--ruleset", "relics", "--threat", "Minor")
    for args in (("--dice", "3", "--rating", "0", "--pcs", "2"),
                 ("--dice", "3", "--rating", "2", "--resolved", "2", "--pcs", "2"),
                 ("--dice", "2", "--challenge-turn", "--resolved", "5")):
        result = empty(*base, *args, ok=False)
        assert result.exit_code == 2 and result.stderr.startswith("Error: --"), result.output
    assert empty(*base, "--dice", "3", "--rating", "3", "--resolved", "2", "--pcs", "2").exit_code == 0


def test_the_cohorts_rallying_cry_is_the_rules_not_a_trait_add_to_undo(table: Table):
    line = table.refused("trait", "remove", "Cohort", "Rallying Cry", "--reason", "r")
    assert "Rallying Cry comes with the rules" in line and "trait add" not in line
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "6,2,2,2,2")
    table("challenge-turn", "Guards", "--faces", "2,2,2")
    assert "has 1 die resolved" in table.refused("challenge", "rate", "Guards", "1", "--reason", "r")


def test_a_roster_dump_keeps_a_mottos_words_and_a_load_gives_them_back(table: Table, tmp_path):
    table("motto", "Kira", 'Nobody says "left behind"')
    roster = tmp_path / "heist.toml"
    table("roster", "dump", str(roster))
    other = Table(tmp_path / "other.db")
    other("new", "Other")
    other("roster", "load", str(roster))
    motto = next(t for t in other.json("sheet", "Kira")["traits"] if t["name"] == "Motto")
    assert motto["words"] == 'Nobody says "left behind"'
