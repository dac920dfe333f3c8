"""decision-2d6 odds: exact against every face sequence through the rules, a sample, and the seed's claims."""
from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from campaign_ledger.ledger.rulesets.decision_2d6 import odds as odds
from campaign_ledger.ledger.rulesets.decision_2d6 import rules as d2
from tests.odds_check import SAMPLE, chi_square_p

BOUND = 26  # the brute force follows every face sequence until its dice total reaches this


def _brute_force(stat: int, mods: list, level: d2.Advantage) -> tuple[dict[int, Fraction], Fraction]:
    """Every complete face sequence whose dice stay under BOUND, through the rules' own roll;
    what is left has a dice total of BOUND or more."""
    totals: dict[int, Fraction] = {}

    def walk(faces: tuple[int, ...]) -> None:
        if sum(faces) >= BOUND:
            return
        if faces and d2.dice_still_needed(faces, level) == 0:
            total = d2.decision_roll(faces, stat, mods, level).total
            totals[total] = totals.get(total, 0) + Fraction(1, 6 ** len(faces))
            return
        for face in range(1, 7):
            walk(faces + (face,))

    walk(())
    return totals, 1 - sum(totals.values())


CASES = [(0, [], level) for level in d2.Advantage] + [
    (2, [d2.bonus(1), d2.penalty(-2)], d2.Advantage.NEUTRAL),
    (-1, [d2.bonus(-3), d2.penalty(2), 4], d2.Advantage.MINOR_DISADVANTAGE),  # both count 0
    (3, [d2.penalty(-1)], d2.Advantage.MAJOR_ADVANTAGE),
]


@pytest.mark.parametrize("stat, mods, level", CASES, ids=lambda c: str(c))
def test_totals_equal_every_face_sequence_through_the_rules(stat, mods, level):
    exact = odds.decision_odds(stat, mods, level, None)
    offset = d2.decision_roll((1,) * level.decision_dice, stat, mods, level).total - level.decision_dice
    found, rest = _brute_force(stat, mods, level)
    below = BOUND + offset
    assert {k: p for k, p in exact["totals"].items() if k < below} == found
    assert exact["at_least"][below] == rest


@pytest.mark.parametrize("target", [2, 8, 12, 16, 18, 20, 22])
@pytest.mark.parametrize("level", list(d2.Advantage))
def test_success_is_meeting_the_target_at_every_level(target, level):
    found, rest = _brute_force(1, [], level)
    expected = sum((p for total, p in found.items() if d2.succeeds(total, target)), Fraction(0))
    offset = d2.decision_roll((1,) * level.decision_dice, 1, [], level).total - level.decision_dice
    assert BOUND + offset >= target  # every total the brute force left out meets the target
    assert odds.success(1, [], level, target) == expected + rest
    assert odds.every_level(1, [], target)[level.name]["success"] == expected + rest


def test_the_mean_is_exact_with_no_depth_cap():
    assert odds.chain_mean() == Fraction(21, 5)
    assert odds.decision_odds(0, [], d2.Advantage.NEUTRAL, None)["mean"] == Fraction(42, 5)
    assert odds.decision_odds(2, [d2.bonus(1)], d2.Advantage.MINOR_ADVANTAGE, None)["mean"] == Fraction(42, 5) + 6


def test_a_seeded_sample_of_decision_rolls_agrees_with_the_odds():
    rng = random.Random(4004)
    level = d2.Advantage.MAJOR_ADVANTAGE
    exact = odds.decision_odds(1, [d2.bonus(2)], level, None)
    bins = {**exact["totals"], exact["tail"]["from"]: exact["tail"]["probability"]}
    seen: Counter = Counter()
    totals: dict[tuple[int, ...], int] = {}  # the rules' total, once per face sequence
    for _ in range(SAMPLE):
        faces: list[int] = []
        while d2.dice_still_needed(faces, level):  # rolled one d6 at a time, as the ledger rolls them
            faces.append(rng.randint(1, 6))
        key = tuple(faces)
        if key not in totals:
            totals[key] = d2.decision_roll(faces, 1, [d2.bonus(2)], level).total
        seen[min(totals[key], exact["tail"]["from"])] += 1
    assert chi_square_p(seen, bins) > 0.001


def test_the_seeds_statements_about_the_curve():
    """Seed 004 "Target Numbers": checked against the exact figures (README says where it is wrong)."""
    plain = odds.decision_odds(0, [], d2.Advantage.NEUTRAL, None)
    plus_one = odds.decision_odds(0, [1], d2.Advantage.NEUTRAL, None)
    # "averaging around 6-7": the mean is 8.4; 7 is the median and 6 the likeliest total.
    assert plain["mean"] == Fraction(42, 5)
    assert max(plain["totals"], key=plain["totals"].get) == 6
    assert plain["at_least"][7] >= Fraction(1, 2) and plain["at_least"][8] < Fraction(1, 2)
    # "the odds of getting higher than a 15 is less than 10%": 11/144, about 7.6%.
    assert plain["at_least"][16] == Fraction(11, 144) < Fraction(1, 10)
    # "+1 ... 12 or higher from 21% to 25%" and "8 or higher ... from 47% to 58%": right.
    assert (plain["at_least"][12], plus_one["at_least"][12]) == (Fraction(23, 108), Fraction(1, 4))
    assert (plain["at_least"][8], plus_one["at_least"][8]) == (Fraction(51, 108), Fraction(7, 12))


@pytest.mark.parametrize("die", [d for d in d2.SupplyDie if d is not d2.SupplyDie.EMPTY])
@pytest.mark.parametrize("threshold", [1, 3, 5])
def test_supply_dice_step_down_and_uses_left(die, threshold):
    figures = odds.supply_odds(die, threshold)
    lowered = [face for face in range(1, die.value + 1) if d2.supply_roll(die, face, threshold).lowered]
    assert figures["step_down"] == Fraction(len(lowered), die.value)
    steps = [d for d in d2.SupplyDie if 0 < d.value <= die.value]  # each size is used until it steps down
    chance = {d: Fraction(sum(d2.supply_roll(d, f, threshold).lowered for f in range(1, d.value + 1)), d.value)
              for d in steps}
    assert figures["expected_uses"] == sum(1 / chance[d] for d in steps)


def test_a_supply_die_that_never_steps_down_never_runs_out_and_empty_has_none_left():
    assert odds.supply_odds(d2.SupplyDie.D8, 0) == {"step_down": 0, "expected_uses": None}
    assert odds.supply_odds(d2.SupplyDie.EMPTY, 3) == {"step_down": None, "expected_uses": 0}


# --- at the table -----------------------------------------------------------------------------------

@pytest.fixture
def gate(tmp_path):
    from tests.conftest import Table

    t = Table(tmp_path / "gate.db")
    t("new", "The Heavy Gate", "--ruleset", "decision-2d6", "--setting", "supply_threshold=4")
    t("decision-2d6", "pc-add", "Billy", "--level", "3", "--will", "2", "--fort", "3", "--stat", "Strength=0,Agility=1")
    t("decision-2d6", "item-add", "Torches", "--die", "D6", "--holder", "Billy")
    return t


def test_a_decision_roll_at_the_table_uses_the_sheet_and_records_nothing(gate):
    before = gate.json("history")
    r = gate.json("odds", "Billy", "agility", "--difficulty", "challenging", "--grant", "--penalty", "-2")
    assert gate.json("history") == before
    assert (r["stat"], r["stat_value"], r["advantage"], r["target"]) == ("Agility", 1, "minor-advantage", 12)
    assert r["success"] == str(odds.success(1, [d2.penalty(-2)], d2.Advantage.MINOR_ADVANTAGE, 12))
    assert set(r["levels"]) == {"major-advantage", "minor-advantage", "neutral", "minor-disadvantage",
                                "major-disadvantage"}
    text = gate("odds", "Billy", "Strength", "--target", "16").stdout
    assert "Success (16 or more): 7.6%" in text and "every explosion followed" in text


def test_a_supply_die_at_the_table_uses_the_campaigns_threshold(gate):
    r = gate.json("odds", "--item", "Torches")
    assert (r["die"], r["threshold"], r["step_down"]) == ("D6", 4, "2/3")
    assert Fraction(r["expected_uses"]) == 1 / Fraction(4, 6) + 1  # a D6 at 4 or lower, then a D4 every time


@pytest.mark.parametrize("args, code, words", [
    (["Billy"], 2, "Name the CHARACTER and the STAT"),
    (["Billy", "Strength", "--advantage", "huge"], 2, "not a step of the advantage scale"),
    (["Billy", "Strength", "--difficulty", "hard"], 2, "not a difficulty"),
    (["Billy", "Strength", "--target", "12", "--difficulty", "simple"], 2, "not both"),
    (["Billy", "Strength", "--item", "Torches"], 2, "--item alone"),
    (["Billy", "Luck"], 1, "no stat or attribute named 'Luck'"),
    (["Billy", "Strength", "--target", "1000000"], 2, "more than 300 on the decision dice"),
    (["Nobody", "Strength"], 1, "no character named 'Nobody'"),
    (["--item", "Rope"], 1, "no item named 'Rope'"),
])
def test_decision_refusals_are_one_error_line_and_append_nothing(gate, args, code, words):
    before = gate.json("history")
    result = gate("odds", *args, ok=False)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == code and len(lines) == 1 and lines[0].startswith("Error: ") and words in lines[0], \
        result.stderr
    assert gate.json("history") == before


def test_the_odds_text_names_the_advantage_scale_as_the_seed_does_not_as_typed(tmp_path):
    """It read `+ Strength +0, minor-advantage`: the option as typed, in a line a GM reads."""
    from click.testing import CliRunner
    from campaign_ledger.cli import cli

    out = CliRunner().invoke(cli, ["odds", "--ruleset", "decision-2d6", "--stat", "1", "--target", "9",
                                   "--advantage", "minor-advantage"]).output
    assert ", Minor Advantage, against 9" in out.splitlines()[0], out
    assert "  Major Disadvantage " in out and "minor-" not in out and "major-" not in out
