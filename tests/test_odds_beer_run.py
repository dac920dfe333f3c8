"""Beer Run odds: every face combination of both pools through the rules' compare, a sample, the table."""
from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from math import prod

import pytest

from campaign_ledger.ledger.rulesets.beer_run import odds as odds
from campaign_ledger.ledger.rulesets.beer_run import rules
from tests.conftest import Table
from tests.odds_check import SAMPLE, chi_square_p


def _key(c: rules.Comparison) -> tuple[int, int, int]:
    return (-1 if c.upper_hand is None else c.upper_hand), c.kept[0], c.kept[1]


def _brute_force(a: tuple[int, ...], b: tuple[int, ...], a_faces=(), b_faces=()) -> dict:
    found: dict = {}
    share = Fraction(1, prod(a + b))
    for fa in itertools.product(*(range(1, d + 1) for d in a)):
        for fb in itertools.product(*(range(1, d + 1) for d in b)):
            k = _key(rules.compare(list(fa) + list(a_faces), list(fb) + list(b_faces)))
            found[k] = found.get(k, 0) + share
    return found


@pytest.mark.parametrize("a, b, a_faces, b_faces", [
    ((8, 6, 4), (6, 6, 6), (), ()),
    ((10, 2), (4, 4, 4, 3), (), ()),  # the shorter pool compares as d1s showing 1
    ((1,), (1,), (), ()),
    ((6, 6), (), (), (5, 3, 1)),  # the other side has rolled: its faces are facts
    ((12, 8, 6), (10, 6), (3,), ()),
    ((), (), (), ()),
    ((5, 3, 2), (7, 2, 2), (), ()),  # dice of any size d1 and up
])
def test_comparisons_equal_every_face_combination_through_the_rules(a, b, a_faces, b_faces):
    assert odds.comparison(odds.Side(a, a_faces), odds.Side(b, b_faces)) == _brute_force(a, b, a_faces, b_faces)


def test_the_summary_reads_the_upper_hand_kept_successes_and_what_they_can_zero():
    figures = odds.opposed_odds(odds.Side((8, 6)), odds.Side((6, 4)), {"Brawn": 8}, {"Wits": 1, "Gone": 0})
    joint = _brute_force((8, 6), (6, 4))
    assert figures["upper_hand"]["first"] == sum(p for k, p in joint.items() if k[0] == 0)
    assert sum(figures["upper_hand"].values()) == 1
    assert figures["to_zero"]["first"] == {"Wits": figures["kept_at_least"]["first"][1]}  # gone: nothing to zero
    assert figures["to_zero"]["second"] == {"Brawn": 0}  # two dice never keep 8 successes


def test_a_seeded_sample_of_compared_rolls_agrees_with_the_odds():
    rng = random.Random(2002)
    a, b = (10, 8, 6, 4), (8, 8, 6)
    seen: Counter = Counter()
    for _ in range(SAMPLE):
        seen[_key(rules.compare([rng.randint(1, d) for d in a], [rng.randint(1, d) for d in b]))] += 1
    assert chi_square_p(seen, odds.comparison(odds.Side(a), odds.Side(b))) > 0.001


@pytest.fixture
def run(tmp_path) -> Table:
    t = Table(tmp_path / "run.db")
    t("new", "The Beer Run", "--ruleset", "beer-run")
    t("beer-run", "character", "add", "Ann", "--ability", "Physical:Brawn=d8,Physical:Health=d6,Mental:Wits=d6,Social:Charm=d4")
    t("beer-run", "character", "add", "Bouncer",
      "--ability", "Physical:Muscle=d10,Physical:Health=d8,Mental:Attention=d4,Social:Intimidate=d6")
    t("beer-run", "conflict", "open", "Back Door", "--side", "Ann", "--side", "Bouncer")
    t("beer-run", "goal", "Back Door", "Ann", "slip past", "--ability", "Attention")
    return t


def test_opposed_pools_at_the_table_are_priced_as_the_roll_and_record_nothing(run):
    before = run.json("history")
    assert run.json("odds", "Back Door", "Ann", "--extra", "Health")["sides"][0]["cost"] == 2
    r = run.json("odds", "Back Door", "Ann")
    assert run.json("history") == before
    first, second = r["sides"]
    assert (first["dice"], second["dice"], first["cost"]) == ([8, 6, 4], [10, 4, 6], 1)
    expected = _brute_force((8, 6, 4), (10, 4, 6))
    assert r["upper_hand"]["first"] == str(sum(p for k, p in expected.items() if k[0] == 0))
    assert first["goal_ability"] == "Attention" and set(r["to_zero"]["first"]) == {"Muscle", "Health", "Attention",
                                                                                   "Intimidate"}


def test_a_side_that_has_rolled_is_compared_on_its_faces(run):
    run("beer-run", "goal", "Back Door", "Bouncer", "throw Ann out", "--ability", "Brawn")
    run("beer-run", "roll", "Back Door", "Bouncer", "--faces", "9,2,5")
    r = run.json("odds", "Back Door", "Ann")
    assert r["sides"][1]["rolled"] is True and r["sides"][1]["faces"] == [9, 2, 5]
    assert r["upper_hand"]["first"] == str(sum(p for k, p in _brute_force((8, 6, 4), (), (), (9, 2, 5)).items()
                                               if k[0] == 0))


@pytest.mark.parametrize("args, code, words", [
    (["Back Door"], 2, "Missing argument"),
    (["Back Door", "Ann", "--extra", "Health,Health"], 1, "only once"),
    (["Back Door", "Cal"], 1, "Cal is not a side of Back Door"),
    (["Front Door", "Ann"], 1, "no conflict named 'Front Door'"),
    (["Back Door", "Ann", "--extra", "Brawn,Wits,Charm,Health,Wits"], 1, "only once"),
    (["Back Door", "Ann", "--base", "Brawn,Health"], 1, "one die per category"),
])
def test_beer_run_refusals_are_one_error_line_and_append_nothing(run, args, code, words):
    before = run.json("history")
    result = run("odds", *args, ok=False)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == code and len(lines) == 1 and lines[0].startswith("Error: ") and words in lines[0], \
        result.stderr
    assert run.json("history") == before
