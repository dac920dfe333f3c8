"""Every rule the ledger enforces refuses with one `Error:` line, a non-zero exit, and no entry."""
import pytest


def _round(t, stress="Kira=4", leader=("--leader", "Kira")):
    """A round the Cohort loses: no successes, then 4 Stress from the Challenge."""
    t("cohort-turn", "Guards", *leader, "--faces", "2,2,3,3,4")
    t("challenge-turn", "Guards", "--faces", "6,6,6,6", "--stress", stress)


def stress_out(t, name="Bo"):
    for _ in range(3):
        _round(t, f"{name}=4")


SETUP_REFUSALS = [
    (["new", "Again"], "already holds a campaign"),
    (["pc", "add", "Kira", "--expertise", "Scav=1", "--primary", "Scav"], "already a PC named Kira"),
    (["pc", "add", "Zed", "--expertise", "Scav=6", "--primary", "Scav"], "ranks go from 0 to 5"),
    (["pc", "add", "Zed", "--expertise", "Pilot=2", "--primary", "Scav"], "'Pilot' is not a type of Expertise"),
    (["pc", "add", "Zed", "--expertise", "Scav=two", "--primary", "Scav"], "NAME=NUMBER"),
    (["pc", "add", "Zed", "--expertise", "Scav=0", "--primary", "Scav"], "needs at least one Expertise"),
    (["trait", "add", "Kira", "Blaster", "+1 / 1x"], "is not a modifier"),
    (["trait", "add", "Kira", "Blaster", "+1 / 1d", "--cost", "gold"], "'gold' is not one of free, destiny, doom, destiny-or-doom"),
    (["trait", "add", "Kira", "Blaster", "+1 / 1d", "--polarity", "hindering"], "reads as beneficial"),
    (["trait", "add", "Kira", "Bigger", "+2d6", "--target", "challenge"], "Add Dice never change a Challenge pool"),
    (["trait", "add", "Nobody", "Blaster", "+1 / 1d"], "no PC named 'Nobody'"),
    (["trait", "add", "Vault", "Bells", "-1 / 1d", "--challenge"], "no Challenge named 'Vault'"),
    (["challenge", "open", "Guards", "--threat", "Minor", "--type", "Phantom", "--rating", "3"], "already a Challenge"),
    (["challenge", "open", "Rats", "--threat", "Huge", "--type", "Phantom", "--rating", "3"], "'Huge' is not one of Common, Minor, Major, Extreme, Ultimate"),
    (["challenge", "open", "Rats", "--threat", "Minor", "--type", "Phantom", "--rating", "0"], "rating is at least 1"),
]


@pytest.mark.parametrize("args, message", SETUP_REFUSALS)
def test_setting_up_refuses(table, args, message):
    assert message in table.refused(*args)


def test_a_new_campaign_refuses_an_unknown_ruleset_or_version(empty):
    result = empty("new", "X", "--ruleset", "chess", ok=False)
    assert result.exit_code == 2 and result.stderr.startswith("Error: Invalid value for '--ruleset': 'chess' is not one of ") and "relics" in result.stderr
    result = empty("new", "X", "--rules-version", "9.9", ok=False)
    assert "no rules version '9.9'" in result.stderr


def test_a_command_on_a_missing_file_is_refused_and_creates_nothing(empty):
    import os
    result = empty("sheet", ok=False)
    assert result.exit_code == 1 and "No campaign file" in result.stderr
    assert not os.path.exists(empty.path)


def test_a_challenge_needs_a_scenario(empty):
    empty("new", "X")
    empty("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom")
    assert "No Scenario has started" in empty.refused("challenge", "open", "Rats", "--threat", "Minor",
                                                     "--type", "Scav", "--rating", "2")


def test_a_scenario_needs_a_pc(empty):
    empty("new", "X")
    assert "needs at least one PC" in empty.refused("scenario", "start", "S")


def test_a_malformed_command_gets_one_line_and_exit_2(table):
    result = table("cohort-turn", ok=False)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == ["Error: Missing argument 'CHALLENGE'."]


COHORT_REFUSALS = [
    ([], "Choose a leader"),
    (["--leader", "Nobody"], "no PC named 'Nobody'"),
    (["--leader", "Kira", "--assist", "Kira"], "named twice"),
    (["--leader", "Kira", "--destiny", "3"], "Destiny pool holds 2"),
    (["--leader", "Kira", "--destiny", "2"], "may not exceed 6 (3 x PCs)"),
    (["--leader", "Kira", "--destiny", "-1"], "cannot be negative"),
    (["--leader", "Kira", "--faces", "1,2,3,4"], "This pool rolls 5 dice; you entered 4 faces"),
    (["--leader", "Kira", "--faces", "1,2,3,4,7"], "7 is not a face"),
    (["--leader", "Kira", "--faces", "1,2,x,4,5"], "whole numbers"),
    (["--leader", "Kira", "--faces", "1,2,3,4,5", "--roll"], "not both"),
    (["--leader", "Kira", "--trait", "Kira:Nothing"], "Kira has no trait named 'Nothing'"),
    (["--leader", "Kira", "--trait", "Kira"], "OWNER:TRAIT"),
    (["--leader", "Kira", "--trait", "Kira:Smoke"], "targets the Challenge pool, not the Cohort pool"),
    (["--leader", "Kira", "--trait", "Bo:Lucky"], "costs Destiny or Doom; say which"),
    (["--leader", "Kira", "--trait", "Kira:Keen", "--trait", "Kira:Keen"], "already activated"),
    (["--leader", "Kira", "--trait", "Kira:Keen", "--faces", "1,2,3,4,5", "--place", "Keen=1,2"],
     "goes on 1 die, not 2"),
    (["--leader", "Kira", "--trait", "Kira:Keen", "--faces", "1,2,3,4,5", "--place", "Keen=9"],
     "placed off it"),
    (["--leader", "Kira", "--trait", "Kira:Keen", "--faces", "1,2,3,4,5", "--place", "Blaster=1"],
     "No Simple modifier 'Blaster'"),
    (["--leader", "Kira", "--trait", "Kira:Keen", "--trait", "Bo:Steady", "--faces", "1,2,3,4,5",
      "--place", "Keen=1", "--place", "Steady=1,2"], "two beneficial Simple modifiers"),
    (["--leader", "Kira", "--trait", "Kira:Keen", "--trait", "Bo:Steady", "--faces", "1,2,3,4,5",
      "--place", "Keen=1"], "must be placed while a die can take it"),
]


@pytest.fixture
def traited(table):
    table("trait", "add", "Kira", "Keen", "+2 / 1d", "--cost", "destiny")
    table("trait", "add", "Kira", "Smoke", "-1 / 1d", "--target", "challenge")
    table("trait", "add", "Bo", "Lucky", "A6 / 1d", "--cost", "destiny-or-doom")
    table("trait", "add", "Bo", "Steady", "+1 / 2d")
    return table


@pytest.mark.parametrize("args, message", COHORT_REFUSALS)
def test_a_cohort_turn_refuses(traited, args, message):
    assert message in traited.refused("cohort-turn", "Guards", *args)


def test_a_destiny_cost_is_refused_when_the_pool_is_empty(traited):
    traited("trait", "add", "Bo", "Grit", "+1d6", "--cost", "destiny")
    assert "Destiny pool is empty" in traited.refused("cohort-turn", "Guards", "--leader", "Kira",
                                                      "--trait", "Bo:Lucky=destiny", "--trait", "Kira:Keen",
                                                      "--trait", "Bo:Grit")


def test_the_gm_cannot_spend_doom_the_pool_does_not_hold(empty):
    empty("new", "X")
    empty("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom")
    empty("scenario", "start", "S")  # Doom 1
    empty("challenge", "open", "Guards", "--threat", "Minor", "--type", "Phantom", "--rating", "3")
    empty("trait", "add", "Guards", "Bells", "-1 / 1d", "--challenge", "--cost", "doom")
    empty("trait", "add", "Guards", "Dogs", "-1 / 1d", "--challenge", "--cost", "doom")
    assert "Doom pool is empty" in empty.refused("cohort-turn", "Guards", "--leader", "Kira",
                                                 "--trait", "Guards:Bells", "--trait", "Guards:Dogs")


def test_a_rank_1_pc_cannot_lead(table):
    table("pc", "add", "Ash", "--expertise", "Phantom=1,Sparrow=3", "--primary", "Sparrow")
    assert "needs rank 2 or more" in table.refused("cohort-turn", "Guards", "--leader", "Ash")


def test_the_leader_is_kept_until_the_challenge_is_resolved(table):
    _round(table)
    assert "Kira leads Guards until it is resolved" in table.refused("cohort-turn", "Guards", "--leader", "Bo")


def test_steps_out_of_order_are_refused(table):
    assert "waiting for the Cohort turn" in table.refused("roll", "Guards", "--faces", "1")
    assert "waiting for the Cohort turn" in table.refused("challenge-turn", "Guards")
    assert "waiting for the Cohort turn" in table.refused("stress", "Guards", "--stress", "Kira=1")
    table("cohort-turn", "Guards", "--leader", "Kira")
    assert "waiting for the Cohort's roll" in table.refused("place", "Guards", "--best")
    assert "waiting for the Cohort's roll" in table.refused("cohort-turn", "Guards")


def test_an_unfinished_turn_blocks_a_turn_on_another_challenge(table):
    table("challenge", "open", "Rats", "--threat", "Common", "--type", "Phantom", "--rating", "2")
    table("cohort-turn", "Guards", "--leader", "Kira")
    assert "turn on Guards is unfinished" in table.refused("cohort-turn", "Rats", "--leader", "Bo")
    status = table.json("status")
    assert status["turn"] == {"challenge": "Guards", "side": "cohort", "round": 1}


def test_a_stress_distribution_must_add_up_and_name_the_cohort(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,3,3,4")
    table("challenge-turn", "Guards", "--faces", "6,6,2,2")
    assert "adds up to 3" in table.refused("stress", "Guards", "--stress", "Kira=2,Bo=1")
    assert "no PC named 'Zed'" in table.refused("stress", "Guards", "--stress", "Zed=2")
    table("stress", "Guards", "--stress", "Kira=1,Bo=1")


def test_a_stressed_out_pc_contributes_nothing_until_it_pushes_the_limit(traited):
    stress_out(traited, "Bo")
    assert traited.json("sheet", "Bo")["status"] == "Stressed Out"
    for args in (["--assist", "Bo"], ["--trait", "Bo:Steady"]):
        assert "Bo is Stressed Out" in traited.refused("cohort-turn", "Guards", *args)
    traited("push", "Bo")
    traited("cohort-turn", "Guards", "--trait", "Bo:Steady", "--faces", "2,2,3,3,4", "--best")


def test_push_the_limit_needs_a_stressed_out_pc(table):
    assert "not Stressed Out" in table.refused("push", "Kira")


def test_a_pc_out_of_the_game_is_refused_everything(table):
    table("challenge", "open", "Storm", "--threat", "Minor", "--type", "Phantom", "--rating", "10")
    for agony in range(1, 6):
        table("cohort-turn", "Storm", "--leader", "Kira", "--faces", "2,2,3,3,4")
        table("challenge-turn", "Storm", "--faces", ",".join(["6"] * 10), "--stress", "Bo=10")
        table("push", "Bo")
    sheet = table.json("sheet", "Bo")
    assert (sheet["agony"], sheet["status"]) == (5, "out of the game")
    assert "out of the game for good" in table.refused("cohort-turn", "Storm", "--assist", "Bo")
    assert "out of the game for good" in table.refused("push", "Bo")


def test_a_resolved_challenge_takes_no_more_turns(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "6,6,6,6,2")
    assert "waiting for nothing: it is resolved" in table.refused("challenge-turn", "Guards")


@pytest.mark.parametrize("args, message", [
    (["--ruleset", "decision-2d6", "--setting", "supply_treshold=3"], "'supply_treshold' is not a decision-2d6 setting"),
    (["--ruleset", "decision-2d6", "--setting", "supply_threshold=low"], "supply_threshold must be a whole number"),
    (["--ruleset", "beer-run", "--setting", "intensity=lots"], "intensity setting must be a whole number"),
    (["--ruleset", "action-dice", "--setting", "features_limit=-1"], "features_limit must be a whole number"),
    (["--setting", "categories=A,B"], "'categories' is not a relics setting"),
])
def test_a_new_campaign_refuses_a_setting_it_cannot_read_and_leaves_no_file(empty, args, message):
    import os
    result = empty("new", "X", *args, ok=False)
    assert result.exit_code == 2 and message in result.stderr  # a setting that does not parse is malformed
    assert not os.path.exists(empty.path)


@pytest.mark.parametrize("args", [["roster", "load", "\x00"], ["pc", "add", "Ze\x00d", "--expertise", "Scav=1",
                                                                 "--primary", "Scav"]])
def test_an_argument_holding_a_nul_character_is_refused_in_one_line(table, args):
    """Only a line typed in the shell can carry one (a process's arguments cannot): it reached the
    file system as 'the command failed unexpectedly (ValueError: embedded null byte)' (tests/test_fuzz.py)."""
    assert "NUL character" in table.refused(*args)
