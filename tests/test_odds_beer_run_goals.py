"""Beer Run odds of helping and situational goals: every face combination through the rules'
compare and goal_dice, a seeded sample, and the CLI at the table (nothing recorded)."""
from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from math import prod

import pytest

from campaign_ledger.ledger.rulesets.beer_run import odds
from campaign_ledger.ledger.rulesets.beer_run import rules
from tests.conftest import Table
from tests.test_odds_beer_run import run  # noqa: F401  (extended below as `door`)
from tests.odds_check import SAMPLE, chi_square_p


def _goal_outcome(own: list[int], against: list[int], die: int) -> tuple[int, int]:
    got = rules.goal_dice(die, rules.compare(own, against), 0)
    return (got.situation.uses if got.situation else 0), len(got.penalties)


def _brute_force(own: tuple[int, ...], against: tuple[int, ...], die: int = 8,
                 own_faces: tuple[int, ...] = (), against_faces: tuple[int, ...] = ()) -> tuple[dict, dict]:
    uses: dict[int, Fraction] = {}
    penalties: dict[int, Fraction] = {}
    share = Fraction(1, prod(own + against))
    for fa in itertools.product(*(range(1, d + 1) for d in own)):
        for fb in itertools.product(*(range(1, d + 1) for d in against)):
            u, p = _goal_outcome(list(fa + own_faces), list(fb + against_faces), die)
            uses[u] = uses.get(u, 0) + share
            penalties[p] = penalties.get(p, 0) + share
    return dict(sorted(uses.items())), dict(sorted(penalties.items()))


@pytest.mark.parametrize("own, against, own_faces, against_faces", [
    ((6, 8, 4), rules.goal_difficulty(8), (), ()),                 # three of the die sought (the seed's usual)
    ((8, 4), rules.goal_difficulty(6, (4, 10, 2, 6), (0, 2)), (), ()),  # the GM's pool, two dice replaced
    ((6, 6), (8, 8, 8, 6), (), ()),                                # a penalty d6 joins the difficulty
    ((10,), (4, 4, 4), (), ()),                                    # fewer dice: the rest compare as d1s showing 1
    ((), (6, 6, 6), (5, 2), ()),                                   # a side that rolled: its faces are facts
    ((4, 4), (), (), (3, 3, 1)),                                   # the difficulty already thrown
])
def test_goal_odds_equal_every_face_combination_through_the_rules(own, against, own_faces, against_faces):
    figures = odds.goal_odds(odds.Side(own, own_faces), odds.Side(tuple(against), against_faces))
    uses, penalties = _brute_force(own, tuple(against), 8, own_faces, against_faces)
    assert figures["uses"] == uses and figures["penalties"] == penalties
    assert figures["expected_uses"] == sum(k * p for k, p in uses.items())
    assert figures["uses_at_least"][1] == sum(p for k, p in uses.items() if k >= 1)


def test_a_seeded_sample_of_goal_rolls_agrees_with_the_odds():
    rng = random.Random(2012)
    own, against = (10, 8, 8, 6, 6), (12, 12, 12, 4)
    seen: Counter = Counter()
    for _ in range(SAMPLE):
        seen[_goal_outcome([rng.randint(1, d) for d in own], [rng.randint(1, d) for d in against], 12)] += 1
    joint = odds.comparison(odds.Side(own), odds.Side(against))
    exact: dict = {}
    for (_, uses, penalties), p in joint.items():
        exact[(uses, penalties)] = exact.get((uses, penalties), 0) + p
    assert chi_square_p(seen, exact) > 0.001


@pytest.fixture
def door(run: Table) -> Table:
    """The Back Door of tests/test_odds_beer_run.py, with Cal, who is no side of it and can help."""
    run("beer-run", "character", "add", "Cal",
        "--ability", "Physical:Grit=d6,Physical:Health=d4,Mental:Wits=d8,Social:Charm=d6")
    return run


def test_helping_odds_price_the_helpers_pool_and_record_nothing(door):
    before = door.json("history")
    r = door.json("odds", "Back Door", "Cal", "--helping", "Ann", "--die", "d8", "--extra", "Health")["helping"]
    assert door.json("history") == before
    assert (r["helper"], r["ally"], r["die"], r["dice"], r["cost"], r["difficulty"]) == \
        ("Cal", "Ann", 8, [6, 8, 6, 4], 2, [8, 8, 8])
    exact = odds.goal_odds(odds.Side((6, 8, 6, 4)), odds.Side((8, 8, 8)))  # checked face by face above
    assert r["uses"] == {str(k): str(p) for k, p in exact["uses"].items()}
    assert r["penalties"] == {str(k): str(p) for k, p in exact["penalties"].items()}
    gm = door.json("odds", "Back Door", "Cal", "--helping", "Ann", "--die", "d8", "--goal-against", "d4,d6,d10,d2",
                  "--replace", "1,4")["helping"]
    assert gm["difficulty"] == [8, 6, 10, 8]


def test_the_situation_die_a_help_gives_then_joins_the_allys_pool(door):
    door("beer-run", "helping", "Back Door", "Cal", "Ann", "distract him", "--die", "d8",
        "--faces", "6,8,6", "--difficulty-faces", "1,1,1")
    r = door.json("odds", "Back Door", "Ann")
    assert r["sides"][0]["situation"] == [8] and r["sides"][0]["dice"][-1] == 8


def test_a_situational_goal_shows_its_own_roll_and_lands_no_pips(door):
    described = door.json("odds", "Back Door", "Ann", "--situation", "d6")
    uses = odds.goal_odds(odds.Side((8, 6, 4)), odds.Side((6, 6, 6)))["uses"]
    goal = described["situational_goal"]["first"]
    assert goal["die"] == 6 and goal["uses"] == {str(k): str(p) for k, p in uses.items()}
    assert described["to_zero"]["first"] == {} and described["situational_goal"]["second"] is None
    door("beer-run", "goal", "Back Door", "Ann", "find cover", "--situation", "d6")
    assert door.json("odds", "Back Door", "Ann")["situational_goal"] == described["situational_goal"]
    door("beer-run", "goal", "Back Door", "Bouncer", "throw her out", "--ability", "Brawn")
    door("beer-run", "roll", "Back Door", "Ann", "--faces", "7,5,2", "--difficulty-faces", "6,1,1")
    rolled = door.json("odds", "Back Door", "Bouncer")["situational_goal"]["second"]
    uses, penalties = _goal_outcome([7, 5, 2], [6, 1, 1], 6)  # the faces are facts: one outcome, certain
    assert rolled["uses"] == {str(uses): "1"} and rolled["penalties"] == {str(penalties): "1"}
