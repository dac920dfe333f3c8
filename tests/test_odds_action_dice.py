"""action-dice odds: every face combination through the rules' resolver, a sample, and the table."""
from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from campaign_ledger.ledger.rulesets.action_dice import odds as odds
from campaign_ledger.ledger.rulesets.action_dice import rules
from tests.odds_check import SAMPLE, chi_square_p
from tests.conftest import Table


def _brute_force(assets: list[int], difficulty: int) -> dict[str, Fraction]:
    dice = rules.action_pool(assets)
    grades = {o.value: Fraction(0) for o in rules.Outcome}
    share = Fraction(1, dice[0] * dice[1] * dice[2])
    for faces in itertools.product(*(range(1, d + 1) for d in dice)):
        grades[rules.resolve_action("climb", difficulty, dice, faces).outcome.value] += share
    return grades


@pytest.mark.parametrize("assets", [[], [8], [12, 10], [6, 6, 6], [12, 12, 12], [4, 10, 8]])
@pytest.mark.parametrize("difficulty", [1, 3, 4, 7, 10])
def test_grades_equal_every_face_combination_through_the_rules(assets, difficulty):
    figures = odds.outcome_odds(assets, difficulty)
    assert figures["grades"] == _brute_force(assets, difficulty)
    assert figures["test_passes"] == figures["grades"]["Mostly Success"] + figures["grades"]["Complete Success"]
    assert figures["test_passes_at"][difficulty] == figures["test_passes"]


def test_a_seeded_sample_of_action_rolls_agrees_with_the_odds():
    rng = random.Random(3003)
    dice = rules.action_pool([10, 8])
    graded: dict[tuple[int, ...], str] = {}  # the resolver once per face combination
    seen: Counter = Counter()
    for _ in range(SAMPLE):
        faces = tuple(rng.randint(1, d) for d in dice)
        if faces not in graded:
            graded[faces] = rules.resolve_action("sneak", 4, dice, faces).outcome.value
        seen[graded[faces]] += 1
    assert chi_square_p(seen, odds.outcome_odds([10, 8], 4)["grades"]) > 0.001


def test_a_difficulty_off_the_scale_is_refused_as_the_roll_refuses_it():
    from campaign_ledger.ledger.errors import RuleViolation
    with pytest.raises(RuleViolation):
        odds.outcome_odds([8], 11)


@pytest.fixture
def archive(tmp_path) -> Table:
    t = Table(tmp_path / "archive.db")
    t("new", "The Drowned Archive", "--ruleset", "action-dice")
    t("action-dice", "character", "Mara", "--asset", "Athletics=d8", "--asset", "Nerve=d10", "--feature", "Cat-like")
    return t


def test_an_action_roll_at_the_table_uses_the_sheet_and_records_nothing(archive):
    before = archive.json("history")
    r = archive.json("odds", "Mara", "climb", "--rating", "D8", "--advantage", "--asset", "Nerve")
    assert archive.json("history") == before
    assert (r["dice"], r["difficulty"]) == ([10, 4, 4], 3)  # D8 is 4, one step of advantage
    assert r["grades"] == {k: str(v) for k, v in _brute_force([10], 3).items()}
    assert "Complete Success" in archive("odds", "Mara", "climb", "--rating", "D8").stdout


def test_an_incapacitated_character_gets_the_odds_and_the_refusal_it_would_meet(archive):
    archive("action-dice", "condition", "Mara", "Broken Arm", "--level", "3", "--impacts", "climb")
    r = archive.json("odds", "Mara", "climb", "--rating", "D4")
    assert len(r["refused_without_override"]) == 1 and "incapacitated" in r["refused_without_override"][0]


@pytest.mark.parametrize("args, code, words", [
    (["Mara", "climb", "--rating", "D9"], 2, "A challenge rating is"),
    (["Mara", "climb"], 2, "Give the challenge rating"),
    (["Mara", "climb", "--rating", "XX", "--difficulty", "11"], 2, "only ++ lets you choose"),
    (["Mara", "climb", "--difficulty", "0"], 2, "Difficulty runs from 1 to 10"),
    (["Mara", "climb", "--difficulty", "11"], 2, "Difficulty runs from 1 to 10"),
    (["Mara", "climb", "--rating", "XX", "--asset", "Lockpicks"], 1, "no asset named 'Lockpicks'"),
    (["Tobin", "climb", "--rating", "XX"], 1, "no character named 'Tobin'"),
])
def test_action_refusals_are_one_error_line_and_append_nothing(archive, args, code, words):
    before = archive.json("history")
    result = archive("odds", *args, ok=False)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == code and len(lines) == 1 and lines[0].startswith("Error: ") and words in lines[0], \
        result.stderr
    assert archive.json("history") == before
