"""Relics odds: exactly what every face combination gives through the rules, and what a sample shows."""
from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from campaign_ledger.ledger.rulesets.relics import odds as odds
from campaign_ledger.ledger.rulesets.relics import rules
from tests.odds_check import SAMPLE, chi_square_p


def _through_the_rules(dice: tuple[int, ...], simple: tuple[rules.Modifier, ...]) -> tuple[int, ...]:
    """The turn's own steps: the offered placement, applied under the stacking rules, tallied."""
    placement = rules.best_placement(dice, simple, {})
    t = rules.tally(rules.apply_simple(dice, simple, placement))
    return t.successes, t.criticals, t.overpowering, t.botches, t.major_botches


def _brute_force(pool: odds.Pool) -> dict:
    """Every ordered face combination, in the order the dice came up (autos first, as a turn has them)."""
    found: dict = {}
    share = Fraction(1, 6 ** pool.rolled)
    for faces in itertools.product(range(1, 7), repeat=pool.rolled):
        key = _through_the_rules(pool.autos + faces, pool.simple)
        found[key] = found.get(key, 0) + share
    return found


def _mods(*texts: str) -> tuple[rules.Modifier, ...]:
    return tuple(rules.parse_modifier(t) for t in texts)


def _pool(size: int, adds: tuple[str, ...] = (), autos: tuple[tuple[str, str], ...] = (),
          simple: tuple[str, ...] = ()) -> odds.Pool:
    """A pool built as the Huddle builds it: Add Dice on the size, Auto Results placed, Simple left."""
    built = rules.build_cohort_pool(size, _mods(*adds), 0, 0, 99).size
    hindering = [rules.parse_modifier(t, "hindering") for t, p in autos if p == "hindering"]
    beneficial = [rules.parse_modifier(t, "beneficial") for t, p in autos if p == "beneficial"]
    placed, _ = rules.place_auto_results(built, hindering, beneficial)
    return odds.Pool(built - len(placed), placed, _mods(*simple))


SMALL_POOLS = [
    _pool(1),
    _pool(3, simple=("+1 / 2d",)),
    _pool(4, adds=("+2d6", "-1d6"), simple=("+2 / 1d", "-1 / 2d")),
    _pool(4, autos=(("A6 / 1d", "beneficial"), ("A1 / 1d", "hindering")), simple=("+1 / 1d",)),
    _pool(5, autos=(("A5 / 2d", "beneficial"),), simple=("-2 / 2d", "+1 / 2d", "+2 / 1d")),
    _pool(6, autos=(("A6 / 1d", "beneficial"),), simple=("+1 / 2d", "+2 / 1d")),
    _pool(5, adds=("+1d6",)),  # six dice, every combination
    _pool(6, adds=("-1d6",), autos=(("A4 / 1d", "hindering"),), simple=("-1 / 3d", "+3 / 1d")),
    _pool(2, autos=(("A6 / 3d", "beneficial"),), simple=("+2 / 2d",)),  # autos take every die
]


@pytest.mark.parametrize("pool", SMALL_POOLS, ids=lambda p: f"{p.rolled}d6{list(p.autos)}{[str(m) for m in p.simple]}")
def test_small_pools_equal_every_face_combination_through_the_rules(pool):
    assert odds.outcomes(pool) == _brute_force(pool)


def test_the_odds_add_up_and_the_summary_is_read_off_the_distribution():
    figures = odds.summary(odds.outcomes(_pool(3, simple=("+1 / 2d",))))
    assert sum(figures["successes"].values()) == 1
    assert figures["disaster"] == sum(p for k, p in figures["successes"].items() if k <= -1)
    assert figures["at_least"][1] == sum(p for k, p in figures["successes"].items() if k >= 1)


def test_one_die_is_the_success_table_of_the_rules():
    figures = odds.summary(odds.outcomes(odds.Pool(1)))
    assert figures["successes"] == {-1: Fraction(1, 6), 0: Fraction(3, 6), 1: Fraction(2, 6)}
    assert figures["disaster"] == Fraction(1, 6)


def test_tides_follow_the_threat_and_the_destiny_cap():
    pool = _pool(4, simple=("+2 / 1d",))
    rules_ = rules.rules_for("0.6.1")
    minor = odds.cohort_odds(pool, odds.CohortContext(rules_, "Minor", 2, 0, 4, 0))
    common = odds.cohort_odds(pool, odds.CohortContext(rules_, "Common", 2, 0, 4, 0))
    full = odds.cohort_odds(pool, odds.CohortContext(rules_, "Minor", 2, 6, 4, 0))  # Destiny at 3 x PCs
    assert minor["expected_tides"]["destiny"] > 0 and minor["expected_tides"]["doom"] > 0
    assert common["destiny"] == {0: 1} and common["doom"] == {0: 1}
    assert full["destiny"] == {0: 1} and full["expected_tides"]["destiny_lost_to_cap"] \
        == minor["expected_tides"]["destiny"]


def test_dice_resolved_never_pass_the_unresolved_dice():
    figures = odds.cohort_odds(_pool(6), odds.CohortContext(rules.rules_for("0.6.1"), "Minor", 2, 0, 4, 3))
    assert max(figures["resolved"]) == 1
    assert figures["resolves_challenge"] == figures["at_least"][1]


def test_a_challenge_turn_gives_stress_only_for_successes():
    figures = odds.challenge_odds(odds.Pool(2, (4, 4)))
    assert min(figures["stress"]) == 0
    assert figures["stress"][0] == sum(p for k, p in figures["successes"].items() if k <= 0)


@pytest.mark.parametrize("pool", [
    _pool(9, autos=(("A6 / 1d", "beneficial"),), simple=("+1 / 2d", "-1 / 1d")),
    _pool(10, simple=("+2 / 1d", "-2 / 2d")),
], ids=["9 dice, A6, +1/2d, -1/1d", "10 dice, +2/1d, -2/2d"])
def test_a_seeded_sample_of_resolved_rolls_agrees_with_the_odds(pool):
    rng = random.Random(20261122)
    resolved: dict[tuple[int, ...], tuple[int, ...]] = {}  # the resolver once per face multiset (it ignores order)
    seen: Counter = Counter()
    for _ in range(SAMPLE):
        faces = tuple(sorted(rng.choices(range(1, 7), k=pool.rolled)))
        if faces not in resolved:
            resolved[faces] = _through_the_rules(pool.autos + faces, pool.simple)
        seen[resolved[faces][0]] += 1
    exact = odds.summary(odds.outcomes(pool))["successes"]
    assert chi_square_p(seen, exact) > 0.001


def test_the_offered_placement_does_not_depend_on_the_order_the_dice_came_up():
    mods = _mods("-1 / 1d", "+2 / 1d", "+1 / 2d")  # once, 3,3,6,6 gave 5 or 4 successes by order
    results = {_through_the_rules(faces, mods) for faces in set(itertools.permutations((3, 3, 6, 6)))}
    assert len(results) == 1
