"""decision-2d6 odds of contests and D100 trackers: bounded against every face sequence through the
rules (the chains have no end, so the exact figure must sit inside what is enumerated and what is
left), a seeded sample of whole contests and tracker runs, and the CLI (nothing recorded)."""
from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from campaign_ledger.ledger.rulesets.decision_2d6 import odds
from campaign_ledger.ledger.rulesets.decision_2d6 import rules as d2
from tests.conftest import Table
from tests.test_odds_decision_2d6 import gate  # noqa: F401  (extended below as `armed`)
from tests.odds_check import SAMPLE, chi_square_p

BOUND = 52  # the enumeration follows every face sequence until its dice total reaches this


def _totals(side: d2.Contestant) -> tuple[dict[int, Fraction], Fraction]:
    """Every complete face sequence with a dice total under BOUND, through the rules' own roll."""
    found: dict[int, Fraction] = {}

    def walk(faces: tuple[int, ...]) -> None:
        if sum(faces) >= BOUND:
            return
        if faces and d2.dice_still_needed(faces, side.advantage) == 0:
            total = d2.decision_roll(faces, side.stat, side.modifiers, side.advantage).total
            found[total] = found.get(total, 0) + Fraction(1, 6 ** len(faces))
            return
        for face in range(1, 7):
            walk(faces + (face,))
    walk(())
    return found, 1 - sum(found.values())


@pytest.mark.parametrize("first, second", [
    (d2.Contestant(0), d2.Contestant(0)),
    (d2.Contestant(2, (d2.bonus(1),), d2.Advantage.MINOR_ADVANTAGE), d2.Contestant(1)),
    (d2.Contestant(0, (), d2.Advantage.MAJOR_ADVANTAGE), d2.Contestant(3)),
    (d2.Contestant(1), d2.Contestant(0, (d2.penalty(-2),), d2.Advantage.MAJOR_DISADVANTAGE)),
])
def test_a_contests_first_roll_sits_inside_every_enumerated_face_sequence(first, second):
    a, a_left = _totals(first)
    b, b_left = _totals(second)
    higher = sum((p * q for x, p in a.items() for y, q in b.items() if x > y), Fraction(0))
    tie = sum((p * q for x, p in a.items() for y, q in b.items() if x == y), Fraction(0))
    left = a_left + b_left  # a pair that is not enumerated holds at least one sequence left out
    figures = odds.contest_odds(first, second)
    roll = figures["first_roll"]
    assert higher <= roll["first"] <= higher + left and tie <= roll["tie"] <= tie + left
    assert left < Fraction(1, 5000)  # the bound is tight enough to catch a wrong figure
    assert sum(roll.values()) == 1 and sum(figures["wins"].values()) == 1
    assert figures["wins"]["first"] == roll["first"] / (1 - roll["tie"])  # ties reroll only the dice


def test_even_sides_are_exactly_even_and_the_seed_example_decides_a_contest():
    figures = odds.contest_odds(d2.Contestant(1), d2.Contestant(1))
    assert figures["wins"] == {"first": Fraction(1, 2), "second": Fraction(1, 2)}
    assert figures["first_roll"]["first"] == figures["first_roll"]["second"]
    lopsided = odds.contest_odds(d2.Contestant(40), d2.Contestant(0, (), d2.Advantage.MAJOR_DISADVANTAGE))
    assert lopsided["wins"]["first"] < 1 and lopsided["wins"]["second"] > 0  # a chain of sixes can still catch up


def _contest_sample(first: d2.Contestant, second: d2.Contestant, rng: random.Random) -> tuple[str, str]:
    """One whole contest through the rules, rolling until one side wins."""
    def faces(level: d2.Advantage) -> list[int]:
        rolled: list[int] = []
        while not rolled or d2.dice_still_needed(rolled, level):
            rolled.append(rng.randint(1, 6))
        return rolled
    rounds: list = []
    while True:
        rounds.append((faces(first.advantage), faces(second.advantage)))
        result = d2.contest(first, second, rounds)
        if result.winner is not None:
            a, b = result.rounds[0]
            start = "first" if a.total > b.total else "second" if a.total < b.total else "tie"
            return start, result.winner.value


def test_a_seeded_sample_of_whole_contests_agrees_with_the_odds():
    rng = random.Random(4004)
    first, second = d2.Contestant(1, (), d2.Advantage.MAJOR_ADVANTAGE), d2.Contestant(4)
    seen = Counter(_contest_sample(first, second, rng) for _ in range(SAMPLE))
    figures = odds.contest_odds(first, second)
    starts, wins = Counter(), Counter()
    for (start, winner), n in seen.items():
        starts[start] += n
        wins[winner] += n
    assert chi_square_p(starts, figures["first_roll"]) > 0.001
    assert chi_square_p(wins, figures["wins"]) > 0.001


def _uses_brute_force(value: int, step: int) -> dict[int, Fraction]:
    """Every d100 face of every use, through the rules' d100_use, until the tracker stops."""
    found: dict[int, Fraction] = {}

    def walk(tracker: d2.D100Tracker, p: Fraction, n: int) -> None:
        for face in range(1, 101):
            use = d2.d100_use(tracker, face, step)
            if use.supplied and use.tracker.value > 0:
                walk(use.tracker, p / 100, n + 1)
            else:
                found[n + use.supplied] = found.get(n + use.supplied, 0) + p / 100
    walk(d2.D100Tracker(value), Fraction(1), 0)
    return dict(sorted(found.items()))


@pytest.mark.parametrize("value, step", [(30, 10), (60, 25), (5, 200), (100, 50)])
def test_tracker_odds_equal_every_face_of_every_use_through_the_rules(value, step):
    figures = odds.tracker_odds(value, step)
    exact = _uses_brute_force(value, step)
    assert figures["uses"] == exact and figures["tail"] is None
    assert figures["expected_uses"] == sum(n * p for n, p in exact.items())
    assert figures["next_use"] == Fraction(value, 100)


def test_a_tracker_whose_uses_cost_nothing_runs_out_geometrically_or_never():
    figures = odds.tracker_odds(50, 0)
    assert figures["expected_uses"] == 1 and figures["uses"][3] == Fraction(1, 16)
    assert figures["tail"]["probability"] + sum(figures["uses"].values()) == 1
    assert odds.tracker_odds(100, 0)["expected_uses"] is None
    assert odds.tracker_odds(0, 10)["next_use"] is None


def test_a_seeded_sample_of_tracker_runs_agrees_with_the_odds():
    rng = random.Random(100)
    seen: Counter = Counter()
    for _ in range(SAMPLE):
        tracker, uses = d2.D100Tracker(80), 0
        while tracker.value:
            use = d2.d100_use(tracker, rng.randint(1, 100), 10)
            uses, tracker = uses + use.supplied, use.tracker
        seen[uses] += 1
    assert chi_square_p(seen, odds.tracker_odds(80, 10)["uses"]) > 0.001


@pytest.fixture
def armed(gate: Table) -> Table:
    """Billy's gate of tests/test_odds_decision_2d6.py, with an Ogre to contest and Billy's arrows."""
    gate("decision-2d6", "pc-add", "Ogre", "--level", "5", "--will", "1", "--fort", "5", "--stat", "Wits=1")
    gate("decision-2d6", "tracker-add", "Arrows", "--value", "60", "--holder", "Billy")
    return gate


def test_contest_and_tracker_odds_at_the_table_record_nothing(armed):
    before = armed.json("history")
    r = armed.json("odds", "contest", "Billy:Agility", "Ogre:Wits", "--grant", "Billy", "--bonus", "Ogre=1")
    assert armed.json("history") == before
    exact = odds.contest_odds(d2.Contestant(1, (), d2.Advantage.MINOR_ADVANTAGE),
                              d2.Contestant(1, (d2.bonus(1),)))
    assert r["wins"] == {k: str(v) for k, v in exact["wins"].items()}
    assert [s["advantage"] for s in r["contest"]] == ["minor-advantage", "neutral"]
    favoured = armed.json("odds", "contest", "Billy:Agility", "Ogre:Wits", "--advantage", "Ogre=major")
    assert [s["decision_dice"] for s in favoured["contest"]] == [2, 3]
    t = armed.json("odds", "--tracker", "Arrows")
    assert (t["tracker"], t["value"], t["step"], t["next_use"]) == ("Arrows", 60, 10, "3/5")
    assert t["expected_uses"] == str(odds.tracker_odds(60, 10)["expected_uses"])


@pytest.mark.parametrize("args, code, words", [
    (["contest", "Billy:Agility", "Billy:Strength"], 2, "two different characters"),
    (["contest", "Billy:Agility", "Ogre:Wits", "--bonus", "Cal=1"], 2, "Cal is not one of the two sides"),
    (["contest", "Billy:Agility", "Ogre:Luck"], 1, "Luck"),
    (["contest", "Billy", "Ogre:Wits"], 2, "CHARACTER:STAT"),
    (["--tracker", "Bolts"], 1, "no tracker named 'Bolts'"),
])
def test_contest_and_tracker_refusals_are_one_error_line(armed, args, code, words):
    result = armed("odds", *args, ok=False)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == code and len(lines) == 1 and lines[0].startswith("Error: ") and words in lines[0], \
        result.stderr
