"""decision-2d6 campaigns on the ledger (seed 004), through the application and the real CLI."""
from __future__ import annotations

import json

import pytest

from campaign_ledger.ledger import dice
from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.ledger.rulesets.decision_2d6.commands import DEMO_NAME, Side, Stated, play_demo
from campaign_ledger.projections import runner
from tests.conftest import Table

D = ("decision-2d6",)


@pytest.fixture
def gate(tmp_path) -> Table:
    """A decision-2d6 campaign: Billy (Level 3, Will 2, Fort 3) and an Ogre, supply threshold 3."""
    t = Table(tmp_path / "gate.db")
    t("new", "The Heavy Gate", "--ruleset", "decision-2d6", "--setting", "supply_threshold=3")
    t(*D, "pc-add", "Billy", "--level", "3", "--will", "2", "--fort", "3",
      "--stat", "Strength=0,Agility=1", "--attribute", "Stealth=2")
    t(*D, "pc-add", "Ogre", "--level", "4", "--will", "1", "--fort", "5", "--stat", "Strength=3,Wits=-1")
    return t


@pytest.fixture
def scripted(monkeypatch):
    """The program's dice, scripted: each call to dice.roll takes the next faces; calls are kept."""
    calls: list[tuple[int, int]] = []
    queue: list[int] = []

    def roll(count: int, sides: int = 6) -> dice.Roll:
        calls.append((count, sides))
        faces = tuple(queue.pop(0) for _ in range(count))
        return dice.Roll(sides, faces, False)

    monkeypatch.setattr(dice, "roll", roll)
    return queue, calls


def db_rows(t: Table, table: str) -> list[dict]:
    return list(runner.connect(t.path)[table].rows_where(order_by="rowid"))


# --- the seed's own example --------------------------------------------------------------------

def test_seed_example_billy_holds_the_gate_total_17_shown_die_by_die(gate):
    out = gate(*D, "roll", "Billy", "Strength", "--faces", "3,6,6,2").output
    assert "Die 1: 3 = 3" in out
    assert "Die 2: 6 -> 6 -> 2 = 14 (exploded twice)" in out
    assert "Total: dice 17, Strength +0 = 17" in out
    assert "Billy rolls Strength +0: dice 3 | 6 -> 6 -> 2 = 17 (entered)" in out
    row = db_rows(gate, "d2d6_rolls")[-1]
    assert (row["chains"], row["total"], row["entered"]) == ("[[3], [6, 6, 2]]", 17, 1)


def test_the_program_rolls_one_die_at_a_time_until_every_chain_is_complete(gate, scripted):
    queue, calls = scripted
    queue += [6, 3, 6, 6, 1]
    report = gate.json(*D, "roll", "Billy", "Agility", "--roll")
    assert calls == [(1, 6)] * 5
    assert (report["faces"], report["chains"], report["total"]) == ([6, 3, 6, 6, 1], [[6, 6, 6, 1], [3]], 23)
    assert report["entered"] is False and "(rolled by the program)" in report["history"][0]["line"]


def test_replay_never_rolls(gate, monkeypatch):
    gate(*D, "roll", "Billy", "Strength")
    gate(*D, "contest", "Billy:Stealth", "Ogre:Wits")
    gate(*D, "item-add", "Rope", "--die", "D8")
    gate(*D, "supply-roll", "Rope")
    gate(*D, "tracker-add", "Arrows")
    gate(*D, "tracker-roll", "Arrows")
    db = runner.connect(gate.path)
    before = list(runner.tables(db))

    def no_rolls(*_):
        raise AssertionError("replay rolled")
    monkeypatch.setattr(dice, "roll", no_rolls)
    app = open_ledger(gate.path)
    runner.rebuild(app, db)
    assert list(runner.tables(db)) == before
    events = [app.mapper.to_domain_event(n) for n in app.recorder.select_notifications(0, 100)]
    rolled = [e for e in events if type(e).__qualname__ == "Hero.DecisionRolled"]
    assert sum(sum(c) for c in rolled[0].chains) + rolled[0].stat_value == rolled[0].total


# --- decision rolls: faces, advantage, modifiers, targets -------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--faces", "3,6,6"], "still needs 1 more decision die"),
    (["--faces", "3,6,6,2,1"], "complete after 4 faces, but you entered 5"),
    (["--faces", "3,7"], "7 is not a face"),
    (["--faces", "3,x"], "whole numbers"),
    (["--faces", "3,4", "--roll"], "not both"),
    (["--faces", "3,4", "--advantage", "major-advantage"], "still needs 1 more"),
    (["--faces", "3,4", "--advantage", "major-disadvantage"], "complete after 1 face"),
    (["--faces", "3,4", "--advantage", "huge"], "not a step of the advantage scale"),
    (["--faces", "3,4", "--difficulty", "tricky"], "'tricky' is not a difficulty"),
    (["--faces", "3,4", "--difficulty", "simple", "--target", "6"], "not both"),
])
def test_a_decision_roll_refuses_faces_that_are_not_exactly_the_dice_it_needs(gate, args, message):
    assert message in gate.refused(*D, "roll", "Billy", "Strength", *args)


def test_a_roll_names_an_existing_character_and_stat(gate):
    assert "no character named 'Zed'" in gate.refused(*D, "roll", "Zed", "Strength", "--faces", "1,2")
    assert "no stat or attribute named 'Charm'" in gate.refused(*D, "roll", "Billy", "Charm", "--faces", "1,2")


@pytest.mark.parametrize("args, faces, total, rolled_with", [
    (["--advantage", "major-advantage"], "1,2,3", 6, "MAJOR_ADVANTAGE"),
    (["--advantage", "minor-advantage"], "1,2", 6, "MINOR_ADVANTAGE"),
    (["--grant"], "1,2", 6, "MINOR_ADVANTAGE"),                      # seed: on neutral, a minor advantage
    (["--advantage", "minor-advantage", "--grant"], "1,2,3", 6, "MAJOR_ADVANTAGE"),
    (["--advantage", "minor-disadvantage", "--grant"], "1,2", 3, "NEUTRAL"),
    (["--advantage", "minor-disadvantage"], "1,2", 0, "MINOR_DISADVANTAGE"),
    (["--advantage", "major-disadvantage"], "6,2", 8, "MAJOR_DISADVANTAGE"),  # one die, still explodes
    (["--advantage", "major-advantage", "--grant", "--grant"], "1,2,3", 6, "MAJOR_ADVANTAGE"),
])
def test_the_advantage_scale_and_grants_moving_one_step(gate, args, faces, total, rolled_with):
    report = gate.json(*D, "roll", "Billy", "Strength", "--faces", faces, *args)
    assert (report["total"], report["rolled_with"]) == (total, rolled_with)


@pytest.mark.parametrize("args, total", [
    (["--bonus", "2"], 9), (["--bonus", "-2"], 7), (["--penalty", "-2"], 5), (["--penalty", "2"], 7),
    (["--modifier", "-2"], 5), (["--bonus", "-1", "--penalty", "3", "--modifier", "1"], 8),
])
def test_a_negative_bonus_and_a_positive_penalty_count_zero(gate, args, total):
    report = gate.json(*D, "roll", "Billy", "Agility", "--faces", "2,4", *args)
    assert report["total"] == total


def test_a_modifier_that_counts_zero_says_so_in_the_history(gate):
    out = gate(*D, "roll", "Billy", "Agility", "--faces", "2,4", "--bonus", "-2").output
    assert "bonus -2 counts 0" in out


@pytest.mark.parametrize("args, target, label, success", [
    (["--difficulty", "strenuous"], 18, "Strenuous Task", False),
    (["--difficulty", "Challenging Task"], 12, "Challenging Task", True),
    (["--difficulty", "impossible"], 20, "\u201cImpossible\u201d Task", False),
    (["--target", "17"], 17, None, True),                             # a tie with the target succeeds
    (["--target", "6"], 6, "Simple Task", True),
])
def test_targets_and_difficulty_labels(gate, args, target, label, success):
    report = gate.json(*D, "roll", "Billy", "Strength", "--faces", "3,6,6,2", *args)
    assert (report["target"], report["difficulty"], report["success"]) == (target, label, success)


# --- contested rolls ---------------------------------------------------------------------------

def test_a_contest_tie_is_rerolled_and_every_roll_is_kept(gate):
    out = gate(*D, "contest", "Billy:Stealth", "Ogre:Wits", "--grant", "Billy",
               "--faces", "1,3/5,5", "--faces", "6,2,1/4,3", "--for", "slip past the ogre").output
    assert "Billy 1 | 3 = 9, Ogre 5 | 5 = 9 tie, reroll; Billy 6 -> 1 | 2 = 14" in out
    assert "Billy wins (entered)" in out
    rows = db_rows(gate, "d2d6_contests")
    assert [(r["round"], r["first_total"], r["second_total"], r["result"]) for r in rows] == \
        [(1, 9, 9, "tie"), (2, 14, 6, "Billy wins")]


def test_the_program_rerolls_ties_until_a_side_wins(gate, scripted):
    queue, calls = scripted
    queue += [3, 4, 4, 4]                # Billy 3+4+1 = 8 vs Ogre 4+4+3 = 11: won at once
    report = gate.json(*D, "contest", "Billy:Agility", "Ogre:Strength", "--roll")
    assert len(report["rounds"]) == 1 and report["winner"] == "Ogre"
    queue += [3, 4, 2, 3, 5, 1, 1, 2]    # 8 vs 8, a tie; then Billy 5+1+1 = 7 vs Ogre 1+2+3 = 6
    report = gate.json(*D, "contest", "Billy:Agility", "Ogre:Strength")
    assert [(r["first"]["total"], r["second"]["total"]) for r in report["rounds"]] == [(8, 8), (7, 6)]
    assert [(r["first"]["faces"], r["second"]["faces"]) for r in report["rounds"]] == [([3, 4], [2, 3]),
                                                                                       ([5, 1], [1, 2])]
    assert report["winner"] == "Billy" and set(calls) == {(1, 6)}


@pytest.mark.parametrize("args, message", [
    (["--faces", "3,3/4,5"], "Roll 1 is a tie"),
    (["--faces", "6,6/1,1", "--faces", "1,1/1,1"], "still needs"),
    (["--faces", "6,1,2/1,1", "--faces", "1,1/1,1"], "already won on roll 1"),
    (["--faces", "3,3"], "FIRST/SECOND"),
    (["--faces", "3,3/4,5", "--roll"], "not both"),
    (["--grant", "Zed"], "Zed is not one of the two sides"),
    (["--bonus", "Zed=1"], "Zed is not one of the two sides"),
    (["--advantage", "Ogre=minor-disadvantage"], "never disadvantage"),
    (["--advantage", "Ogre"], "NAME=minor or NAME=major"),
])
def test_a_contest_refuses_what_it_cannot_record(gate, args, message):
    assert message in gate.refused(*D, "contest", "Billy:Stealth", "Ogre:Wits", *args)


def test_a_contest_needs_two_characters(gate):
    assert "two different characters" in gate.refused(*D, "contest", "Billy:Stealth", "billy:Agility")
    assert "CHARACTER:STAT" in gate.refused(*D, "contest", "Billy", "Ogre:Wits")


def test_contest_advantage_is_one_position_and_nobody_is_at_disadvantage(gate):
    report = gate.json(*D, "contest", "Billy:Stealth", "Ogre:Wits", "--advantage", "Ogre=major",
                       "--faces", "1,1/1,1,1")
    assert [s["advantage"] for s in report["sides"]] == ["NEUTRAL", "MAJOR_ADVANTAGE"]
    report = gate.json(*D, "contest", "Billy:Stealth", "Ogre:Wits", "--advantage", "Ogre=minor",
                       "--grant", "Billy", "--penalty", "Ogre=-2", "--faces", "1,1/1,1")
    assert [s["advantage"] for s in report["sides"]] == ["NEUTRAL", "NEUTRAL"]
    assert [report["rounds"][0][k]["total"] for k in ("first", "second")] == [4, -1]


# --- characters: the rounding rule, one entry per change ---------------------------------------

@pytest.mark.parametrize("level, will, fort, stress, vitality", [
    (3, 1, 2, 2, 2), (3, 2, 3, 2, 3), (4, 2, 5, 3, 4), (1, 0, 0, 0, 0),
])
def test_stress_and_vitality_round_down_only_at_the_end(empty, level, will, fort, stress, vitality):
    empty("new", "R", "--ruleset", "decision-2d6")
    empty(*D, "pc-add", "Ann", "--level", str(level), "--will", str(will), "--fort", str(fort))
    sheet = empty.json(*D, "sheet", "Ann")
    assert (sheet["stress"], sheet["vitality"]) == (stress, vitality)


def test_changing_a_sheet_appends_one_entry_and_one_row_per_score(gate):
    before = gate.entries()
    gate(*D, "pc-set", "Billy", "--level", "4", "--stat", "Strength=1,Agility=1", "--attribute", "Lore=1",
         "--reason", "levelled up")
    assert gate.entries() == before + 3   # Agility did not change
    rows = [r for r in db_rows(gate, "d2d6_sheet_rows") if r["reason"] == "levelled up"]
    assert [(r["score"], r["before"], r["after"], r["stress"]) for r in rows] == \
        [("Level", 3, 4, 3), ("Strength", 0, 1, 3), ("Lore", None, 1, 3)]
    out = gate(*D, "sheet", "Billy").output
    assert "Level 4" in out and "Stress 3  Vitality 3" in out and "Lore +1" in out


@pytest.mark.parametrize("args, message", [
    (["pc-add", "Billy", "--will", "1", "--fort", "1"], "already a character named Billy"),
    (["pc-add", "Zed", "--will", "1", "--fort", "1", "--level", "-1"], "Level cannot be negative"),
    (["pc-add", "Zed", "--will", "1", "--fort", "1", "--stat", "Will=2"], "set with its own option"),
    (["pc-add", "Zed", "--will", "1", "--fort", "1", "--stat", "Lore=1", "--attribute", "lore=2"], "named twice"),
    (["pc-add", "Zed", "--will", "1", "--fort", "1", "--stat", "Lore=x"], "NAME=NUMBER"),
    (["pc-set", "Billy", "--stat", "Strength=0"], "Nothing changes"),
    (["pc-set", "Billy", "--attribute", "Strength=2"], "Strength is one of the stats, not the attributes"),
    (["pc-set", "Billy", "--stat", "Fort=2"], "Fort is set with its own option, not as a stat"),
    (["pc-set", "Zed", "--level", "2"], "no character named 'Zed'"),
    (["pc-add", "Zed", "--will", "-5", "--fort", "1"], "Will cannot be negative (-5)"),   # Stress -2
    (["pc-add", "Zed", "--will", "1", "--fort", "-8"], "Fort cannot be negative (-8)"),
    (["pc-set", "Billy", "--fort", "-1"], "Fort cannot be negative (-1)"),
    (["pc-set", "Billy", "--will", "-3"], "Will cannot be negative (-3)"),
    (["sheet", "Zed"], "no character named 'Zed'"),
])
def test_sheet_refusals(gate, args, message):
    assert message in gate.refused(*D, *args)


def test_a_negative_level_will_or_fort_is_malformed_input_exit_2(gate):
    """Stress and Vitality are half of Level plus Will or Fort: none of the three goes below 0."""
    for args in (["pc-add", "Zed", "--will", "-1", "--fort", "1"], ["pc-set", "Billy", "--fort", "-1"]):
        result = gate(*D, *args, "--json", ok=False)
        assert result.exit_code == 2 and json.loads(result.stdout)["code"] == 2, result.output


def test_a_score_new_to_the_sheet_reads_in_words_not_as_new(gate):
    gate(*D, "pc-set", "Billy", "--attribute", "Luck=2", "--reason", "a charm")
    line = gate.json("history")[-1]["line"]
    assert line.startswith("Billy's Luck set to 2 (a charm); Stress ") and " new " not in line


# --- supply dice ---------------------------------------------------------------------------------

def test_a_supply_die_steps_down_to_empty_through_the_cli_and_then_refuses(gate):
    gate(*D, "item-add", "Torches", "--die", "D6", "--holder", "billy")
    assert "lowered to D4" in gate(*D, "supply-roll", "Torches", "--faces", "3").output   # 3 or lower
    assert "stays D4" in gate(*D, "supply-roll", "Torches", "--faces", "4").output
    assert "lowered to Empty" in gate(*D, "supply-roll", "Torches", "--faces", "1").output
    message = gate.refused(*D, "supply-roll", "Torches", "--faces", "1")
    assert message == ("Error: Torches is Empty, so it cannot be used for anything that needs a supply roll "
                       "(the GM may allow it with --override REASON).")
    gate.refused(*D, "supply-roll", "Torches")   # the program does not roll an Empty die either
    assert gate.json(*D, "pools")["supplies"] == [{"item": "Torches", "holder": "Billy", "die": "Empty"}]
    rows = gate.json(*D, "pools", "torches")["rows"]
    assert [(r["change"], r["before"], r["face"], r["after"]) for r in rows] == [
        ("added", None, None, "D6"), ("rolled", "D6", 3, "D4"), ("rolled", "D4", 4, "D4"),
        ("rolled", "D4", 1, "Empty")]


def test_the_gm_may_override_an_empty_item_and_the_reason_is_kept(gate):
    gate(*D, "item-add", "Rope", "--die", "Empty")
    out = gate(*D, "supply-roll", "Rope", "--override", "one last knot", "--for", "tie the ogre").output
    assert "Rope used while Empty to tie the ogre, by GM override: one last knot" in out
    assert db_rows(gate, "d2d6_supply_rows")[-1]["note"] == "one last knot"
    gate(*D, "restock", "Rope", "D8", "--reason", "bought in town")
    assert "an override is only for an Empty item" in gate.refused(*D, "supply-roll", "Rope", "--override", "x")
    assert "needs a reason" in gate.refused(*D, "supply-roll", "Rope", "--override", " ")


@pytest.mark.parametrize("args, message", [
    (["item-add", "Rope", "--die", "D8"], "already an item named Rope"),
    (["item-add", "Lamp", "--die", "D7"], "'D7' is not a supply die"),
    (["item-add", "Lamp", "--die", "D6", "--holder", "Zed"], "no character named 'Zed'"),
    (["supply-roll", "Lamp"], "no item named 'Lamp'"),
    (["supply-roll", "Rope", "--faces", "9"], "A d8 shows 1 to 8; 9 is not a face"),
    (["supply-roll", "Rope", "--faces", "1,2"], "rolls 1 die; you entered 2 faces"),
    (["restock", "Rope", "D8"], "already has a D8"),
])
def test_supply_refusals(gate, args, message):
    gate(*D, "item-add", "Rope", "--die", "D8")
    assert message in gate.refused(*D, *args)


def test_the_supply_threshold_is_a_campaign_setting(empty, scripted):
    empty("new", "Low", "--ruleset", "decision-2d6", "--setting", "supply_threshold=1")
    empty(*D, "item-add", "Rope", "--die", "D8")
    assert "stays D8" in empty(*D, "supply-roll", "Rope", "--faces", "2").output
    queue, calls = scripted
    queue.append(1)
    assert "lowered to D6" in empty(*D, "supply-roll", "Rope").output and calls == [(1, 8)]


def test_a_bad_supply_threshold_setting_is_refused_when_the_campaign_is_made(empty):
    result = empty("new", "Odd", "--ruleset", "decision-2d6", "--setting", "supply_threshold=low", ok=False)
    assert result.exit_code == 2 and "supply_threshold must be a whole number" in result.stderr


# --- D100 trackers -------------------------------------------------------------------------------

def test_a_d100_tracker_records_every_roll_and_refuses_at_zero(gate):
    gate(*D, "tracker-add", "Arrows", "--value", "60", "--holder", "Billy")
    assert "60% -> 50%" in gate(*D, "tracker-roll", "Arrows", "--faces", "37").output
    assert "it runs out, now 0%" in gate(*D, "tracker-roll", "Arrows", "--faces", "88").output
    assert "at 0%" in gate.refused(*D, "tracker-roll", "Arrows", "--faces", "5")
    assert "GM override: out of the quiver" in gate(*D, "tracker-roll", "Arrows", "--override",
                                                    "out of the quiver").output
    gate(*D, "tracker-set", "Arrows", "100", "--reason", "new quiver")
    rows = gate.json(*D, "pools", "Arrows")["rows"]
    assert [(r["change"], r["before"], r["face"], r["after"]) for r in rows] == [
        ("added", None, None, 60), ("rolled", 60, 37, 50), ("rolled", 50, 88, 0),
        ("used by GM override", 0, None, 0), ("set", 0, None, 100)]
    assert gate.json(*D, "pools")["trackers"] == [{"tracker": "Arrows", "holder": "Billy", "value": 100, "step": 10}]


@pytest.mark.parametrize("args, message", [
    (["tracker-add", "Arrows"], "already a tracker named Arrows"),
    (["tracker-add", "Bolts", "--value", "101"], "runs from 0 to 100"),
    (["tracker-add", "Bolts", "--step", "-5"], "step cannot be negative"),
    (["tracker-roll", "Arrows", "--faces", "101"], "A d100 shows 1 to 100"),
    (["tracker-roll", "Arrows", "--override", "why not"], "only for a tracker at 0%"),
    (["tracker-set", "Arrows", "100"], "already at 100%"),
    (["tracker-set", "Arrows", "101"], "runs from 0 to 100"),
])
def test_tracker_refusals(gate, args, message):
    gate(*D, "tracker-add", "Arrows")
    assert message in gate.refused(*D, *args)


def test_the_d100_step_is_a_campaign_setting(empty):
    empty("new", "Step", "--ruleset", "decision-2d6", "--setting", "d100_step=25")
    empty(*D, "tracker-add", "Bolts")
    assert "100% -> 75%" in empty(*D, "tracker-roll", "Bolts", "--faces", "100").output


# --- rulesets, projections, demo -----------------------------------------------------------------

def test_decision_2d6_commands_refuse_other_rulesets_and_relics_commands_refuse_this_one(gate, table):
    assert "for decision-2d6 campaigns" in table.refused(*D, "pc-add", "Ann", "--will", "1", "--fort", "1")
    assert "for relics campaigns" in gate.refused("pc", "add", "Kira", "--expertise", "Phantom=3",
                                                   "--primary", "Phantom")


def test_rebuild_equals_incremental_row_for_row(gate):
    gate(*D, "roll", "Billy", "Strength", "--faces", "3,6,6,2", "--difficulty", "challenging")
    gate(*D, "contest", "Billy:Stealth", "Ogre:Wits", "--faces", "3,3/4,5", "--faces", "5,5/1,2")
    gate(*D, "pc-set", "Billy", "--will", "4")
    gate(*D, "item-add", "Rope", "--die", "D4")
    gate(*D, "supply-roll", "Rope", "--faces", "2")
    gate(*D, "supply-roll", "Rope", "--override", "frayed end")
    gate(*D, "restock", "Rope", "D10")
    gate(*D, "tracker-add", "Arrows")
    gate(*D, "tracker-roll", "Arrows", "--faces", "50")
    gate(*D, "tracker-set", "Arrows", "95")
    db = runner.connect(gate.path)
    incremental = list(runner.tables(db))
    gate("rebuild")
    assert list(runner.tables(db)) == incremental
    counts = {name: len(rows) for name, rows in incremental if name.startswith("d2d6_")}
    assert counts == {"d2d6_sheets": 2, "d2d6_sheet_rows": 12, "d2d6_rolls": 1, "d2d6_contests": 2,
                      "d2d6_supplies": 1, "d2d6_supply_rows": 4, "d2d6_trackers": 1, "d2d6_tracker_rows": 3}
    assert dict(incremental)["history"][-1]["entry"] == gate.entries()


def test_the_demo_plays_the_seed_example_with_entered_faces(tmp_path):
    app = open_ledger(str(tmp_path / "demo.db"))
    play_demo(app)
    db = runner.connect(str(tmp_path / "demo.db"))
    runner.catch_up(app, db)
    lines = [r["line"] for r in db["history"].rows_where(order_by="entry")]
    assert DEMO_NAME in lines[0]
    assert any("3 | 6 -> 6 -> 2 = 17 vs 12 (Challenging Task): success (entered)" in line for line in lines)
    assert any("tie, reroll" in line for line in lines)
    assert any("lowered to Empty" in line for line in lines)
    assert "rolled by the program" not in " ".join(lines)


def test_the_application_api_takes_plain_values(tmp_path):
    app = open_ledger(str(tmp_path / "api.db"))
    app.start("API", "decision-2d6", None)
    app.d2d6_add_character("Ann", 2, 3, 1, {"Wits": 2})
    app.d2d6_add_character("Bo", 2, 1, 1, {"Wits": 1})
    report = app.d2d6_roll("Ann", "Wits", modifiers=[Stated("bonus", 1)], faces=(2, 2), target=7)
    assert (report["total"], report["success"], report["entries"]) == (7, True, [4])
    report = app.d2d6_contest(Side("Ann", "Wits"), Side("Bo", "Wits"), rounds=[((3, 3), (2, 2))])
    assert report["winner"] == "Ann"


# --- invariants ----------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from campaign_ledger.ledger.errors import RuleViolation  # noqa: E402
from campaign_ledger.ledger.rulesets.decision_2d6.model import item_id  # noqa: E402
from campaign_ledger.projections.rulesets.decision_2d6 import tables as d2d6_views

ORDER = ["Empty", "D4", "D6", "D8", "D10", "D12"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.sampled_from(ORDER[1:]), threshold=st.integers(0, 6),
       picks=st.lists(st.floats(0, 1, exclude_max=True), min_size=1, max_size=12))
def test_a_supply_die_only_steps_down_and_the_read_model_agrees_with_the_aggregate(
        tmp_path_factory, start, threshold, picks):
    path = str(tmp_path_factory.mktemp("supply") / "c.db")
    app = open_ledger(path)
    app.start("S", "decision-2d6", None, {"supply_threshold": str(threshold)})
    app.d2d6_add_item("Kit", start)
    die = start
    for pick in picks:
        if die == "Empty":
            with pytest.raises(RuleViolation):
                app.d2d6_supply_roll("Kit", (1,))
            break
        face = 1 + int(pick * int(die[1:]))
        report = app.d2d6_supply_roll("Kit", (face,))
        expected = ORDER[ORDER.index(die) - 1] if face <= threshold else die
        assert (report["before"], report["after"]) == (die, expected)
        die = expected
    db = runner.connect(path)
    runner.catch_up(app, db)
    fresh = open_ledger(path)   # a cold process: the item replayed from its events
    replayed = fresh.repository.get(item_id("Kit"))
    assert d2d6_views.pools(db)["supplies"][0]["die"] == replayed.die == die
    assert db["d2d6_supply_rows"].count == app.recorder.max_notification_id() - 1


def test_a_grant_that_brings_a_roll_to_neutral_says_so_in_words(gate):
    """It read `dice 1 | 1,  (1 grant of advantage)`: an empty position and a stray space."""
    line = gate.json(*D, "roll", "Billy", "Strength", "--target", "8", "--advantage", "minor-disadvantage",
                     "--grant", "--faces", "1,1")["history"][0]["line"]
    assert "dice 1 | 1, Neutral from Minor Disadvantage with 1 grant of advantage = 2 vs 8" in line, line
    assert ",  " not in line and "((" not in line


def test_pools_of_an_unknown_name_is_refused_as_sheet_and_rolls_refuse_it(gate):
    """It printed `No item or tracker named 'Nope'.` and exited 0 (`--json`: rows [])."""
    assert gate.refused(*D, "pools", "Nope") == "Error: There is no item or tracker named 'Nope' in this campaign."
    result = gate(*D, "pools", "Nope", "--json", ok=False)
    assert result.exit_code == 1 and json.loads(result.stdout)["rule"] == "unknown-item"


def test_a_tracker_s_changes_read_as_percentages(gate):
    gate(*D, "tracker-add", "Arrows", "--value", "60")
    gate(*D, "tracker-roll", "Arrows", "--faces", "37")
    assert gate(*D, "pools", "Arrows").output.splitlines()[-1].endswith("rolled: 60% -> 50% (rolled 37)")


def test_contest_advantage_given_to_both_sides_is_refused_not_half_kept(gate):
    """`--advantage Billy=major --advantage Ogre=minor` rolled with Ogre's alone (click kept the last)."""
    message = gate.refused(*D, "contest", "Billy:Strength", "Ogre:Wits", "--advantage", "Billy=major",
                           "--advantage", "Ogre=minor", "--faces", "1,1/1,1")
    assert "goes to one side" in message
    line = gate.json(*D, "contest", "Billy:Strength", "Ogre:Wits", "--advantage", "Billy=major",
                     "--faces", "1,1,1/2,3")["history"][0]["line"]
    assert "Ogre Wits -1, Billy Major Advantage (3d6): Billy 1 | 1 | 1 = 3" in line, line


def test_the_export_summary_names_supply_dice_and_percentages_as_the_lines_do(gate):
    """It read `Arrows % 0 -> 50, Torches supply 0 -> 4`: a bare % for a label, a die as a number."""
    gate(*D, "item-add", "Torches", "--die", "D6")
    gate(*D, "supply-roll", "Torches", "--faces", "2")
    gate(*D, "tracker-add", "Arrows", "--value", "60")
    gate(*D, "tracker-roll", "Arrows", "--faces", "37")
    summary = gate("export").output.split("\n\n")[1]
    assert "Arrows 0% -> 50%, Torches supply Empty -> D4." in summary, summary


@pytest.mark.parametrize("setup, use", [
    ([("item-add", "Torches", "--die", "D4"), ("supply-roll", "Torches", "--faces", "1")],
     ("supply-roll", "Torches", "--faces", "2", "--override", "one more")),
    ([("tracker-add", "Arrows", "--value", "0")], ("tracker-roll", "Arrows", "--faces", "5", "--override", "last")),
])
def test_faces_for_a_use_by_override_with_nothing_left_are_refused_not_dropped(gate, setup, use):
    """An Empty item or a 0% tracker used by override rolls nothing: the faces went unrecorded, silently."""
    for args in setup:
        gate(*D, *args)
    assert "no faces to enter" in gate.refused(*D, *use)
    assert gate(*D, *use, ok=False).exit_code == 2
    gate(*D, *[w for w in use if w != "--faces" and not w.isdigit()])   # without them it is allowed


def test_undo_list_does_not_call_a_contest_the_campaign(gate):
    """`contest #1: d2d6 contest; the campaign: made`: a contest has no name, and is not the campaign."""
    unit = gate.json(*D, "contest", "Billy:Strength", "Ogre:Strength", "--faces", "1,1/2,2")["unit"]
    row = next(r for r in gate.json("undo", "--list") if r["unit"] == unit)
    assert row["did"] == "d2d6 contest; made", row
