"""Relics odds by counts: the rules' placement worked on counts offers what `best_placement` offers on
every multiset, and the counted distribution is the one every face multiset gives through the rules."""
from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger.rulesets.relics import odds
from campaign_ledger.ledger.rulesets.relics import rules
from campaign_ledger.ledger.rulesets.relics.rules import placement_counts

TEXTS = ["+1 / 1d", "+1 / 2d", "+2 / 1d", "+3 / 1d", "-1 / 1d", "-1 / 2d", "-2 / 1d", "-3 / 2d", "+4 / 2d",
         "-5 / 1d", "+1 / 3d", "-1 / 3d", "+2 / 2d", "+6 / 1d", "-2 / 2d"]


def _through_the_rules(dice: tuple[int, ...], simple: tuple[rules.Modifier, ...]) -> tuple[int, ...]:
    placement = rules.best_placement(dice, simple, {})
    t = rules.tally(rules.apply_simple(dice, simple, placement))
    return t.successes, t.criticals, t.overpowering, t.botches, t.major_botches


def _random_mods(rng: random.Random) -> tuple[rules.Modifier, ...]:
    return tuple(rules.parse_modifier(t) for t in rng.sample(TEXTS, rng.randint(1, 4)))


def test_the_search_by_counts_offers_what_best_placement_offers_on_every_multiset():
    rng = random.Random(20261128)
    for _ in range(60):
        simple = _random_mods(rng)
        autos = tuple(rng.choice([1, 4, 5, 6, 7, 8, 9]) for _ in range(rng.randint(0, 2)))
        for faces in itertools.combinations_with_replacement(range(1, 7), rng.randint(0, 5)):
            dice = autos + faces
            assert placement_counts.resolve(placement_counts.counts_of(dice), simple) == \
                _through_the_rules(dice, simple), (dice, [str(m) for m in simple])


def _every_multiset(pool: odds.Pool) -> dict:
    """Each face multiset once, weighted by the face sequences that show it, through the rules."""
    found: dict = {}
    for faces in itertools.combinations_with_replacement(range(1, 7), pool.rolled):
        ways = math.factorial(pool.rolled)
        for f in set(faces):
            ways //= math.factorial(faces.count(f))
        key = _through_the_rules(pool.autos + faces, pool.simple)
        found[key] = found.get(key, 0) + Fraction(ways, 6 ** pool.rolled)
    return found


@pytest.mark.parametrize("seed", range(12))
def test_counted_odds_equal_every_face_multiset_through_the_rules(seed):
    rng = random.Random(seed)
    pool = odds.Pool(rng.randint(0, 7), tuple(rng.choice([1, 5, 6, 9]) for _ in range(rng.randint(0, 2))),
                     _random_mods(rng))
    assert odds.outcomes(pool) == _every_multiset(pool)


def test_a_pool_past_the_bound_is_refused_before_any_work_and_names_the_bound():
    pool = odds.Pool(100, (), (rules.parse_modifier("+1 / 100d"),))
    assert odds.placements(pool) > odds.MOST_PLACEMENTS
    with pytest.raises(BadInput, match=f"at most {odds.MOST_PLACEMENTS:,}"):
        odds.outcomes(pool)


def test_status_line_of_a_pool_past_the_bound_says_so_instead_of_working_it_out():
    pending = {"pool": {"size": 100}, "autos": [], "side": "cohort",
               "simple": [{"label": "Kira: Keen Eye", "modifier": "+1 / 100d", "polarity": "beneficial"}]}
    line = odds.pool_line(pending)
    assert line.startswith("Pool: 100d6 to roll.") and "not worked out" in line
