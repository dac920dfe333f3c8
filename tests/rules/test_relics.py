"""Relics of the Moon (`relics`, seeds 000 v0.2.0 and 001 v0.6.1): the pure rules, table by table."""
from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.relics.rules import (
    BENEFICIAL,
    DEFAULT_VERSION,
    HINDERING,
    THREATS,
    VERSIONS,
    HOUSE_RULES,
    Modifier,
    canonical,
    growth_bonus,
    house_rule,
    ranked_add,
    set_recovery,
    with_house_rules,
    apply_simple,
    assist_dice,
    best_placement,
    build_cohort_pool,
    cap_destiny,
    check_distribution,
    dice_resolved,
    lead_dice,
    out_of_the_game,
    parse_modifier,
    place_auto_results,
    push_the_limit,
    ranked_simple,
    rules_for,
    stressed_out,
    successes_of,
    tally,
    threat_autos,
    tides,
)

V061, V020 = VERSIONS["0.6.1"], VERSIONS["0.2.0"]
BOTH = pytest.mark.parametrize("rules", [V061, V020], ids=["0.6.1", "0.2.0"])


def mod(text: str, polarity: str | None = None) -> Modifier:
    return parse_modifier(text, polarity)


def add(n: int) -> Modifier:
    return mod(f"{'+' if n >= 0 else '-'}{abs(n)}d6")


# --- Versions ---------------------------------------------------------------------------

def test_the_default_version_is_0_6_1():
    assert DEFAULT_VERSION == "0.6.1"
    assert rules_for("0.6.1") is V061 and rules_for("0.2.0") is V020


@pytest.mark.parametrize("version", ["0.6.0", "1.0", "", "latest"])
def test_an_unknown_rules_version_is_bad_input(version):
    with pytest.raises(BadInput, match="no rules version"):
        rules_for(version)


# --- Final result (000 step 6, 001 "Results and Successes") -----------------------------

SUCCESS_TABLE = [
    (-4, -2), (-3, -2), (-2, -2), (-1, -2),  # major botch
    (0, -1), (1, -1),                        # botch
    (2, 0), (3, 0), (4, 0),                  # nothing
    (5, 1), (6, 1),                          # success
    (7, 2), (8, 2),                          # critical
    (9, 3), (10, 3), (11, 3), (12, 3),       # overpowering
]


@pytest.mark.parametrize("result, successes", SUCCESS_TABLE)
def test_each_result_counts_as_the_seeds_table_says(result, successes):
    assert successes_of(result) == successes


@pytest.mark.parametrize("result", [5, 6])
def test_a_result_of_5_or_6_is_one_success(result):
    assert successes_of(result) == 1


@pytest.mark.parametrize("result", [7, 8])
def test_a_result_of_7_or_8_is_a_critical_worth_two(result):
    assert successes_of(result) == 2
    assert tally([result]).criticals == 1


@pytest.mark.parametrize("result", [9, 10, 12])
def test_a_result_of_9_or_more_is_an_overpowering_worth_three(result):
    assert successes_of(result) == 3
    assert tally([result]).overpowering == 1 and tally([result]).criticals == 0


@pytest.mark.parametrize("result", [0, 1])
def test_a_result_of_0_or_1_is_a_botch_removing_one(result):
    assert successes_of(result) == -1
    assert tally([result]).botches == 1 and tally([result]).major_botches == 0


@pytest.mark.parametrize("result", [-1, -2, -4])
def test_a_result_of_minus_1_or_less_is_a_major_botch_removing_two(result):
    assert successes_of(result) == -2
    assert tally([result]).major_botches == 1 and tally([result]).botches == 0


@pytest.mark.parametrize("results, successes, criticals, overpowering, botches, major, disaster", [
    ([2, 3, 3, 5, 7], 3, 1, 0, 0, 0, False),   # 000 step 5, first worked example
    ([1, 3, 3, 4, 7], 1, 1, 0, 1, 0, False),   # 000 step 5, +2 / 1d on the 5 only
    ([3, 3, 3, 4, 5], 1, 0, 0, 0, 0, False),   # 000 step 5, +2 / 1d on the 1 instead
    ([0, 2, 3, 5, 7], 2, 1, 0, 1, 0, False),   # 000 step 5, the Challenge's -2 / 2d
    ([9, 7, 1, -1, 5], 3, 1, 1, 1, 1, False),
    ([0, 5], 0, 0, 0, 1, 0, False),            # zero is not a Disaster
    ([1, 2], -1, 0, 0, 1, 0, True),            # -1 is a Disaster
    ([-2, 5, 6], 0, 0, 0, 0, 1, False),
    ([-1, 4], -2, 0, 0, 0, 1, True),
    ([1, 0, 7], 0, 1, 0, 2, 0, False),
    ([], 0, 0, 0, 0, 0, False),
])
def test_a_tally_counts_each_kind_of_result(results, successes, criticals, overpowering, botches, major,
                                            disaster):
    t = tally(results)
    assert t.results == tuple(results)
    assert (t.successes, t.criticals, t.overpowering, t.botches, t.major_botches) == (
        successes, criticals, overpowering, botches, major)
    assert t.disaster is disaster


@pytest.mark.parametrize("successes, disaster", [(-3, True), (-1, True), (0, False), (1, False)])
def test_a_disaster_is_a_total_of_minus_1_or_less(successes, disaster):
    results = [1] * -successes if successes < 0 else [5] * successes
    assert tally(results).disaster is disaster


@given(st.integers(-20, 20), st.integers(-20, 20))
def test_a_higher_result_never_counts_fewer_successes(a, b):
    lo, hi = sorted((a, b))
    assert successes_of(lo) <= successes_of(hi)


@given(st.lists(st.integers(-6, 14), max_size=12))
def test_a_tally_is_the_sum_of_its_dice_and_a_disaster_below_zero(results):
    t = tally(results)
    assert t.successes == sum(successes_of(r) for r in results)
    assert t.disaster == (t.successes < 0)
    assert t.successes == (sum(1 for r in results if 5 <= r <= 6) + 2 * t.criticals + 3 * t.overpowering
                           - t.botches - 2 * t.major_botches)


# --- Modifier notation (001 "Modifiers") ------------------------------------------------

@pytest.mark.parametrize("text, kind, amount, dice, polarity", [
    # Add Dice (001 "Add Dice" and the Expertise table)
    ("+2d6", "add", 2, 2, BENEFICIAL),
    ("-1d6", "add", 1, 1, HINDERING),
    ("+1d6", "add", 1, 1, BENEFICIAL),
    ("+3d6", "add", 3, 3, BENEFICIAL),
    ("+5d6", "add", 5, 5, BENEFICIAL),
    ("2d6", "add", 2, 2, BENEFICIAL),
    ("+ 2d6", "add", 2, 2, BENEFICIAL),
    ("- 1 d6", "add", 1, 1, HINDERING),
    ("-1D6", "add", 1, 1, HINDERING),
    # Auto Result (001 "Auto Result", 000 step 3)
    ("A5 / 1d", "auto", 5, 1, BENEFICIAL),
    ("A1 / 2d", "auto", 1, 2, BENEFICIAL),
    ("A6 / 1d", "auto", 6, 1, BENEFICIAL),
    ("A5/1d", "auto", 5, 1, BENEFICIAL),
    ("a6 / 1D", "auto", 6, 1, BENEFICIAL),
    ("A 7 / 3 d", "auto", 7, 3, BENEFICIAL),
    # Simple (001 "Simple", 000 step 5)
    ("+1 / 2d", "simple", 1, 2, BENEFICIAL),
    ("+2 / 1d", "simple", 2, 1, BENEFICIAL),
    ("-2 / 1d", "simple", 2, 1, HINDERING),
    ("- 2 / 1d", "simple", 2, 1, HINDERING),   # 001 writes it with a space
    ("-2 / 2d", "simple", 2, 2, HINDERING),
    ("-1 / 2d", "simple", 1, 2, HINDERING),    # 000 step 10, Stubborn
    ("+1 / 1d", "simple", 1, 1, BENEFICIAL),   # 000 step 10, Fusiontech Blaster
    ("+1/2d", "simple", 1, 2, BENEFICIAL),
    ("  +1  /  2d  ", "simple", 1, 2, BENEFICIAL),
    ("1 / 2d", "simple", 1, 2, BENEFICIAL),
])
def test_every_notation_in_the_seeds_reads_as_its_kind_size_and_polarity(text, kind, amount, dice, polarity):
    assert parse_modifier(text) == Modifier(kind, amount, dice, polarity)


@pytest.mark.parametrize("text, signed", [("+2d6", 2), ("-1d6", -1), ("+1 / 2d", 1), ("-2 / 1d", -2)])
def test_a_hindering_modifier_subtracts_and_a_beneficial_one_adds(text, signed):
    assert parse_modifier(text).signed == signed


@pytest.mark.parametrize("text, polarity", [
    ("+1 / 1d", HINDERING), ("-2 / 1d", BENEFICIAL), ("+2d6", HINDERING), ("-1d6", BENEFICIAL),
    ("1 / 2d", HINDERING),
])
def test_a_sign_that_contradicts_the_stated_polarity_is_refused(text, polarity):
    with pytest.raises(BadInput, match="reads as"):
        parse_modifier(text, polarity)


@pytest.mark.parametrize("text, polarity", [
    ("+1 / 1d", BENEFICIAL), ("-2 / 1d", HINDERING), ("+2d6", BENEFICIAL), ("-1d6", HINDERING),
])
def test_a_sign_that_agrees_with_the_stated_polarity_is_accepted(text, polarity):
    assert parse_modifier(text, polarity).polarity == polarity


@pytest.mark.parametrize("polarity", [BENEFICIAL, HINDERING])
def test_an_auto_result_takes_its_polarity_from_the_trait_not_a_sign(polarity):
    # Motto: A6 / 1d for the Cohort, or the GM's A1 / 1d against it (001 "Motto").
    assert parse_modifier("A1 / 1d", polarity) == Modifier("auto", 1, 1, polarity)


def test_an_auto_result_without_a_stated_polarity_is_beneficial():
    assert parse_modifier("A6 / 1d").polarity == BENEFICIAL


@pytest.mark.parametrize("text", ["A5 / 1d", "+1 / 2d", "+2d6"])
def test_a_polarity_other_than_beneficial_or_hindering_is_bad_input(text):
    with pytest.raises(BadInput):
        parse_modifier(text, "sideways")


@pytest.mark.parametrize("text", [
    "", "   ", "Blaster", "+1 / 1x", "+1 / 2d6", "2d8", "+2d", "d6", "+1", "A5", "A5 / d", "/ 2d",
    "+-1 / 2d", "+1.5 / 2d", "1d6 / 2", "+0d6", "-0d6", "+0 / 1d", "+1 / 0d", "A0 / 1d", "A10 / 1d",
    "A5 / 0d", "A-1 / 1d", "+1 / 2d extra",
])
def test_anything_else_is_not_a_modifier(text):
    with pytest.raises(BadInput):
        parse_modifier(text)


@pytest.mark.parametrize("text, written", [
    ("+2d6", "+2d6"), ("-1d6", "-1d6"), ("2d6", "+2d6"), ("- 1 d6", "-1d6"),
    ("A5 / 1d", "A5 / 1d"), ("A1/2d", "A1 / 2d"),
    ("+1 / 2d", "+1 / 2d"), ("-2 / 1d", "-2 / 1d"), ("- 2 / 1d", "-2 / 1d"), ("1/2d", "+1 / 2d"),
])
def test_a_modifier_is_written_back_in_the_seeds_notation(text, written):
    assert str(parse_modifier(text)) == written


@given(st.sampled_from(["add", "auto", "simple"]), st.integers(1, 9), st.integers(1, 6),
       st.sampled_from([BENEFICIAL, HINDERING]))
def test_a_written_modifier_reads_back_as_itself(kind, amount, dice, polarity):
    m = Modifier(kind, amount, amount if kind == "add" else dice, polarity)
    assert parse_modifier(str(m), m.polarity) == m
    if kind != "auto":
        assert parse_modifier(str(m)) == m  # the sign alone carries the polarity


# --- Ranked modifiers (RULES.md ruling) --------------------------------------------------

@pytest.mark.parametrize("rank, written", [(1, "+1 / 1d"), (2, "+1 / 2d"), (3, "+2 / 2d"), (4, "+2 / 3d"),
                                           (5, "+3 / 3d")])
def test_ranked_simple_modifiers_follow_the_ruling_table(rank, written):
    assert str(ranked_simple(V061, rank)) == written
    assert ranked_simple(V020, rank) == ranked_simple(V061, rank)


def test_a_supplies_trade_at_rank_2_is_plus_1_on_2_dice_as_001_says():
    assert ranked_simple(V061, 2) == Modifier("simple", 1, 2, BENEFICIAL)


def test_a_hindering_ranked_simple_modifier_subtracts():
    m = ranked_simple(V061, 3, HINDERING)
    assert str(m) == "-2 / 2d" and m.signed == -2


@pytest.mark.parametrize("rank", [0, 6, -1])
def test_ranked_modifiers_go_from_rank_1_to_5(rank):
    with pytest.raises(RuleViolation, match="rank 1 to 5"):
        ranked_simple(V061, rank)


# --- Expertise: lead and assist dice (001 Expertise table, 000 step 2) ------------------

@pytest.mark.parametrize("rank, dice", [(5, 5), (4, 4), (3, 3), (2, 2)])
@pytest.mark.parametrize("primary", [False, True])
def test_in_0_6_1_a_leader_adds_dice_equal_to_rank_primary_or_not(rank, dice, primary):
    assert lead_dice(V061, rank, primary) == dice


@pytest.mark.parametrize("rank", [2, 3, 4, 5])
def test_in_0_2_0_a_leader_whose_primary_matches_adds_3d6(rank):
    assert lead_dice(V020, rank, True) == 3


@pytest.mark.parametrize("rank, dice", [(5, 3), (4, 3), (3, 3), (2, 2)])
def test_in_0_2_0_a_leader_whose_primary_differs_uses_the_rank_table_capped_at_3(rank, dice):
    assert lead_dice(V020, rank, False) == dice


@BOTH
@pytest.mark.parametrize("rank", [1, 0])
@pytest.mark.parametrize("primary", [False, True])
def test_rank_1_or_no_rank_cannot_lead_in_either_version(rules, rank, primary):
    with pytest.raises(RuleViolation, match="rank 2 or more"):
        lead_dice(rules, rank, primary)


@BOTH
@pytest.mark.parametrize("rank, dice", [(5, 4), (4, 3), (3, 2), (2, 1), (1, 1), (0, 0)])
def test_an_assist_adds_one_die_less_than_rank_but_rank_1_still_adds_one(rules, rank, dice):
    assert assist_dice(rules, rank) == dice


# --- Building the Cohort pool (000 step 2, RULES.md) ------------------------------------

@pytest.mark.parametrize("expertise, adds, size, hindering, beneficial", [
    (5, [], 5, 0, 0),
    (5, [add(2)], 7, 0, 2),
    (5, [add(-1)], 4, 1, 0),
    (5, [add(2), add(-1)], 6, 1, 2),
    (3, [add(-1), add(-1), add(3)], 4, 2, 3),
    (4, [add(-3), add(1)], 2, 3, 1),
    (0, [add(2)], 2, 0, 2),
])
def test_hindering_add_dice_then_beneficial_ones_change_the_base_pool(expertise, adds, size, hindering,
                                                                       beneficial):
    pool = build_cohort_pool(expertise, adds, 0, 0, 12)
    assert (pool.size, pool.hindering_add, pool.beneficial_add) == (size, hindering, beneficial)
    assert (pool.expertise, pool.destiny, pool.cap, pool.lost_to_cap) == (expertise, 0, 12, 0)


@pytest.mark.parametrize("expertise, adds", [(2, [add(-3)]), (2, [add(-1), add(-1)]), (0, [add(-1)]),
                                             (3, [add(-5), add(1)])])
def test_the_base_pool_never_goes_below_zero(expertise, adds):
    assert build_cohort_pool(expertise, adds, 0, 0, 6).size == 0


def test_the_floor_applies_to_the_whole_sum_as_rules_md_writes_it():
    # base = lead + assist - Hindering + Beneficial; floor at 0 (RULES.md "Building the Cohort pool")
    assert build_cohort_pool(2, [add(-4), add(3)], 0, 0, 9).size == 1


@pytest.mark.parametrize("expertise, destiny, available, size", [
    (3, 1, 2, 4), (3, 2, 2, 5), (0, 3, 3, 3), (4, 2, 5, 6), (5, 0, 0, 5),
])
def test_each_destiny_spent_adds_one_die(expertise, destiny, available, size):
    pool = build_cohort_pool(expertise, [], destiny, available, 6)
    assert (pool.size, pool.destiny, pool.lost_to_cap) == (size, destiny, 0)


def test_destiny_counts_after_the_add_dice_floor():
    assert build_cohort_pool(1, [add(-3)], 2, 2, 6).size == 2


@pytest.mark.parametrize("destiny, available", [(3, 2), (1, 0), (5, 4)])
def test_destiny_beyond_the_pool_is_refused(destiny, available):
    with pytest.raises(RuleViolation, match=f"Destiny pool holds {available}"):
        build_cohort_pool(3, [], destiny, available, 12)


@pytest.mark.parametrize("expertise, adds, destiny, cap", [
    (5, [], 2, 6), (4, [add(2)], 1, 6), (6, [], 1, 6), (2, [], 2, 3), (8, [], 1, 6),
])
def test_destiny_past_3_x_pcs_is_refused(expertise, adds, destiny, cap):
    with pytest.raises(RuleViolation, match=f"may not exceed {cap}"):
        build_cohort_pool(expertise, adds, destiny, 9, cap)


def test_destiny_up_to_exactly_the_cap_is_allowed():
    pool = build_cohort_pool(4, [], 2, 9, 6)
    assert pool.size == 6 and pool.lost_to_cap == 0


@pytest.mark.parametrize("expertise, adds, cap, size, lost", [
    (5, [add(3)], 6, 6, 2), (9, [], 6, 6, 3), (4, [add(1)], 3, 3, 2), (6, [], 6, 6, 0),
])
def test_a_base_pool_above_the_cap_is_clamped_and_the_excess_reported(expertise, adds, cap, size, lost):
    pool = build_cohort_pool(expertise, adds, 0, 0, cap)
    assert (pool.size, pool.lost_to_cap) == (size, lost)


def test_negative_destiny_is_bad_input():
    with pytest.raises(BadInput, match="cannot be negative"):
        build_cohort_pool(3, [], -1, 2, 6)


@given(st.integers(0, 15), st.lists(st.integers(-4, 4).filter(bool), max_size=4), st.integers(0, 6),
       st.integers(0, 6), st.integers(1, 5))
def test_a_built_pool_is_never_negative_nor_above_the_cap(expertise, adds, destiny, available, pcs):
    cap = 3 * pcs
    try:
        pool = build_cohort_pool(expertise, [add(n) for n in adds], destiny, available, cap)
    except RuleViolation:
        assert destiny > available or max(0, expertise + sum(adds)) + destiny > cap
        return
    assert 0 <= pool.size <= cap
    assert pool.size + pool.lost_to_cap == max(0, expertise + sum(adds)) + destiny


# --- Auto Results (000 step 3, 001 "Auto Result", RULES.md) -----------------------------

def test_the_seeds_example_a6_on_one_die_of_5d6_leaves_four_to_roll():
    autos, lost = place_auto_results(5, [], [mod("A6 / 1d")])
    assert autos == (6,) and lost == 0  # 4 dice remain to roll


@pytest.mark.parametrize("size, hindering, beneficial, autos", [
    (5, ["A1 / 1d"], ["A6 / 1d"], (1, 6)),
    (5, ["A1 / 2d"], [], (1, 1)),
    (5, [], ["A6 / 1d", "A5 / 1d"], (5, 6)),
    (3, ["A1 / 1d"], ["A5 / 2d"], (1, 5, 5)),
])
def test_auto_results_take_dice_without_one_first(size, hindering, beneficial, autos):
    placed, lost = place_auto_results(size, [mod(t, HINDERING) for t in hindering],
                                      [mod(t) for t in beneficial])
    assert placed == autos and lost == 0


def test_hindering_auto_results_go_on_before_beneficial_ones():
    # One die: the Hindering A1 takes it, then the Beneficial A6 may only replace it.
    assert place_auto_results(1, [mod("A1 / 1d", HINDERING)], [mod("A6 / 1d")]) == ((6,), 0)


def test_a_beneficial_auto_result_stays_off_a_hindering_one_while_a_free_die_is_left():
    placed, _ = place_auto_results(2, [mod("A1 / 1d", HINDERING)], [mod("A6 / 1d")])
    assert placed == (1, 6)


def test_a_beneficial_a5_goes_on_before_an_a6_so_the_a6_survives_a_small_pool():
    assert place_auto_results(1, [], [mod("A6 / 1d"), mod("A5 / 1d")]) == ((6,), 0)


@pytest.mark.parametrize("size, hindering, beneficial, base, autos", [
    (1, ["A1 / 2d"], [], (), (1,)),
    (2, ["A2 / 1d", "A1 / 2d"], [], (), (1, 1)),          # a Hindering part replaces the highest
    (3, ["A1 / 2d"], [], (4, 4), (1, 1, 4)),              # the Cohort's A1s on a Challenge pool
    (2, [], ["A5 / 1d", "A6 / 2d"], (), (6, 6)),          # a Beneficial part replaces the lowest
    (2, ["A1 / 1d"], ["A5 / 1d", "A6 / 1d"], (), (5, 6)),
])
def test_with_no_free_die_an_auto_result_replaces_one_that_has_one(size, hindering, beneficial, base, autos):
    placed, lost = place_auto_results(size, [mod(t, HINDERING) for t in hindering],
                                      [mod(t) for t in beneficial], base)
    assert sorted(placed) == sorted(autos) and lost == 0


@pytest.mark.parametrize("hindering, beneficial, lost", [
    (["A1 / 1d"], [], 1), ([], ["A6 / 2d"], 2), (["A1 / 1d"], ["A6 / 2d", "A5 / 1d"], 4),
])
def test_with_no_dice_at_all_an_auto_result_is_lost(hindering, beneficial, lost):
    placed, n = place_auto_results(0, [mod(t, HINDERING) for t in hindering], [mod(t) for t in beneficial])
    assert placed == () and n == lost


@pytest.mark.parametrize("size, base, beneficial, autos", [
    (5, (5, 5, 5), [], (5, 5, 5)),               # 000: 3 resolved dice of a Minor 5 are A5
    (4, (5, 5, 5), ["A6 / 1d"], (5, 5, 5, 6)),
    (4, (4,), ["A6 / 2d"], (4, 6, 6)),
])
def test_the_challenges_threat_autos_come_first_and_other_autos_fill_the_rest(size, base, beneficial, autos):
    assert place_auto_results(size, [], [mod(t) for t in beneficial], base) == (autos, 0)


@given(st.integers(0, 8), st.lists(st.tuples(st.integers(1, 6), st.integers(1, 3)), max_size=3),
       st.lists(st.tuples(st.integers(1, 6), st.integers(1, 3)), max_size=3))
def test_auto_results_never_take_more_dice_than_the_pool_has(size, hindering, beneficial):
    h = [Modifier("auto", a, d, HINDERING) for a, d in hindering]
    b = [Modifier("auto", a, d, BENEFICIAL) for a, d in beneficial]
    placed, lost = place_auto_results(size, h, b)
    parts = sum(d for _, d in hindering + beneficial)
    assert len(placed) == min(size, parts)
    assert lost == (parts if size == 0 else 0)


# --- Simple modifiers (000 step 5, 001 "Simple") -----------------------------------------

def test_worked_example_plus_2_on_the_5_and_plus_1_on_the_1_and_4_makes_three_successes():
    results = apply_simple([1, 3, 3, 4, 5], [mod("+2 / 1d"), mod("+1 / 2d")], {0: [4], 1: [0, 3]})
    assert results == (2, 3, 3, 5, 7)
    t = tally(results)
    assert (t.successes, t.criticals, t.botches + t.major_botches) == (3, 1, 0)
    assert tides(V061, t, "Minor", 2) == (1, 0)  # one Destiny, no Doom


def test_worked_example_plus_2_on_the_5_alone_is_one_success_one_destiny_one_doom():
    results = apply_simple([1, 3, 3, 4, 5], [mod("+2 / 1d")], {0: [4]})
    assert results == (1, 3, 3, 4, 7)
    t = tally(results)
    assert t.successes == 1
    assert tides(V061, t, "Minor", 2) == (1, 1)


def test_worked_example_plus_2_on_the_1_prevents_the_botch_and_the_critical():
    results = apply_simple([1, 3, 3, 4, 5], [mod("+2 / 1d")], {0: [0]})
    assert results == (3, 3, 3, 4, 5)
    assert tally(results).successes == 1 and tides(V061, tally(results), "Minor", 2) == (0, 0)


def test_worked_example_a_cohort_plus_stacks_on_the_challenges_minus():
    results = apply_simple([2, 3, 3, 5, 6], [mod("-2 / 2d"), mod("+1 / 2d")], {0: [0, 1], 1: [1, 4]})
    assert results == (0, 2, 3, 5, 7)


def test_the_challenges_minus_alone_gives_the_seeds_intermediate_set():
    assert apply_simple([2, 3, 3, 5, 6], [mod("-2 / 2d")], {0: [0, 1]}) == (0, 1, 3, 5, 6)


@pytest.mark.parametrize("faces, mods, placement, results", [
    ([4], ["-1 / 1d", "+2 / 1d"], {0: [0], 1: [0]}, (5,)),
    ([3, 3], ["-2 / 2d", "+1 / 2d"], {0: [0, 1], 1: [0, 1]}, (2, 2)),
    ([5, 5], ["-1 / 1d", "+1 / 1d"], {0: [0], 1: [1]}, (4, 6)),
    ([6, 6], ["+1 / 1d", "-1 / 1d"], {0: [0], 1: [0]}, (6, 6)),   # index order does not matter
])
def test_a_beneficial_simple_modifier_may_sit_on_a_die_with_a_hindering_one(faces, mods, placement, results):
    assert apply_simple(faces, [mod(t) for t in mods], placement) == results


def test_simple_modifiers_may_go_on_auto_result_dice():
    # Auto Result dice count as rolled (RULES.md): the pool is the autos then the rolled faces.
    assert apply_simple([6, 2, 4], [mod("+1 / 1d")], {0: [0]}) == (7, 2, 4)


@pytest.mark.parametrize("faces, mods, placement", [
    # two Beneficial on one die
    ([1, 3, 3, 4, 5], ["+2 / 1d", "+1 / 2d"], {0: [4], 1: [4, 0]}),
    ([1, 3, 3, 4, 5], ["+1 / 1d", "+1 / 1d"], {0: [2], 1: [2]}),
    # two Hindering on one die
    ([5, 5, 6], ["-1 / 1d", "-2 / 1d"], {0: [0], 1: [0]}),
    ([5, 5, 6], ["-2 / 2d", "-1 / 1d"], {0: [0, 1], 1: [1]}),
    ([2, 3, 3, 5, 6], ["-2 / 2d", "+1 / 2d", "-1 / 1d"], {0: [0, 1], 1: [1, 4], 2: [1]}),
    # the same modifier twice on one die
    ([1, 3, 3, 4, 5], ["+1 / 2d"], {0: [2, 2]}),
    ([5, 6], ["-1 / 2d"], {0: [1, 1]}),
    ([4], ["+1 / 2d"], {0: [0, 0]}),
    ([3, 4], ["+2 / 1d", "+1 / 2d"], {0: [1], 1: [0, 0]}),
    # more dice than the modifier has
    ([1, 3, 3, 4, 5], ["+2 / 1d"], {0: [0, 4]}),
    ([1, 3, 3, 4, 5], ["+1 / 2d"], {0: [0, 1, 2]}),
    ([5, 6, 6], ["-1 / 1d"], {0: [0, 1]}),
    # a modifier left unplaced while a die could take it
    ([1, 3, 3, 4, 5], ["+1 / 2d"], {0: [0]}),
    ([1, 3, 3, 4, 5], ["+1 / 2d"], {}),
    ([1, 3, 3, 4, 5], ["+2 / 1d", "+1 / 2d"], {0: [4]}),
    ([1, 3, 3, 4, 5], ["+2 / 1d", "+1 / 2d"], {1: [0, 3]}),
    ([5, 6], ["-1 / 1d"], {}),
    ([2, 3, 3, 5, 6], ["-2 / 2d", "+1 / 2d"], {0: [0, 1]}),
    ([2, 3, 3, 5, 6], ["-2 / 2d", "+1 / 2d"], {1: [1, 4]}),
    ([2, 3], ["+2 / 1d", "+1 / 2d"], {0: [0]}),     # the +1 / 2d could still take die 2
])
def test_stacking_and_placing_against_the_rules_is_refused(faces, mods, placement):
    with pytest.raises(RuleViolation):
        apply_simple(faces, [mod(t) for t in mods], placement)


@pytest.mark.parametrize("placement", [{0: [5]}, {0: [-1]}, {0: [9]}])
def test_a_modifier_placed_off_the_pool_is_bad_input(placement):
    with pytest.raises(BadInput, match="placed off it"):
        apply_simple([1, 3, 3, 4, 5], [mod("+2 / 1d")], placement)


@pytest.mark.parametrize("faces, mods, placement, results", [
    ([4], ["+1 / 2d"], {0: [0]}, (5,)),                        # one die: the second part is lost
    ([3, 4], ["+2 / 1d", "+1 / 2d"], {1: [0, 1]}, (4, 5)),     # both dice carry a +: the +2 is lost
    ([3, 4], ["+2 / 1d", "+1 / 2d"], {0: [1], 1: [0]}, (4, 6)),
    ([5, 6], ["-1 / 2d", "-2 / 2d"], {1: [0, 1]}, (3, 4)),
    ([], ["+1 / 2d"], {}, ()),
])
def test_parts_that_find_no_eligible_die_are_lost(faces, mods, placement, results):
    assert apply_simple(faces, [mod(t) for t in mods], placement) == results


# --- Offering the best placement ---------------------------------------------------------

def test_the_best_placement_finds_the_three_success_one_of_the_first_worked_example():
    mods = [mod("+2 / 1d"), mod("+1 / 2d")]
    placement = best_placement([1, 3, 3, 4, 5], mods, {})
    results = apply_simple([1, 3, 3, 4, 5], mods, placement)
    assert sorted(results) == [2, 3, 3, 5, 7]
    assert tally(results).successes == 3
    assert {i: sorted(d) for i, d in placement.items()} == {0: [4], 1: [0, 3]}


def test_the_best_placement_completes_what_was_given():
    mods = [mod("+2 / 1d"), mod("+1 / 2d")]
    placement = best_placement([1, 3, 3, 4, 5], mods, {0: [0]})  # the +2 saves the botch
    assert placement[0] == (0,)
    results = apply_simple([1, 3, 3, 4, 5], mods, placement)
    assert tally(results).successes == 2 and tally(results).botches == 0


def test_the_best_placement_lets_the_challenge_hurt_first_then_the_cohort_repair():
    mods = [mod("-2 / 2d"), mod("+1 / 2d")]
    placement = best_placement([2, 3, 3, 5, 6], mods, {0: (0, 1)})  # the seed's -2s
    assert placement == {0: (0, 1), 1: (1, 4)}  # the seed's choice: the 1 and the 6
    assert apply_simple([2, 3, 3, 5, 6], mods, placement) == (0, 2, 3, 5, 7)
    hindered = best_placement([5, 6, 3, 3], [mod("-1 / 1d")], {})
    assert tally(apply_simple([5, 6, 3, 3], [mod("-1 / 1d")], hindered)).successes == 1


def test_among_equal_net_successes_the_best_placement_avoids_the_botch():
    # +2 on the 1 -> [3, 5] (1 success, no botch); +2 on the 5 -> [1, 7] (1 net, a botch).
    placement = best_placement([1, 5], [mod("+2 / 1d")], {})
    assert placement == {0: (0,)}


@pytest.mark.parametrize("faces, die", [([5, 3], 0), ([3, 5], 1)])
def test_among_equal_net_successes_the_best_placement_makes_the_critical(faces, die):
    # +2 on the 3 -> two successes; +2 on the 5 -> two successes and a critical (a Destiny).
    assert best_placement(faces, [mod("+2 / 1d")], {}) == {0: (die,)}


def _all_placements(mods, n, indices):
    """Every way to put each listed modifier on up to its number of distinct dice."""
    options = [[c for k in range(mods[i].dice + 1) for c in itertools.combinations(range(n), k)]
               for i in indices]
    for combo in itertools.product(*options):
        yield dict(zip(indices, combo))


def _valid_net(faces, mods, placement):
    try:
        return tally(apply_simple(faces, mods, placement)).successes
    except RuleViolation:
        return None


SIMPLE_MODS = st.lists(st.builds(lambda a, d, p: Modifier("simple", a, d, p), st.integers(1, 3),
                                 st.integers(1, 2), st.sampled_from([BENEFICIAL, HINDERING])),
                       min_size=1, max_size=3)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-1, 9), min_size=1, max_size=5), SIMPLE_MODS)
def test_the_best_placement_is_valid_and_no_explicit_cohort_placement_beats_it(faces, mods):
    best = best_placement(faces, mods, {})
    best_net = _valid_net(faces, mods, best)
    assert best_net is not None  # the offer obeys the stacking rules
    # With the Challenge's Hindering parts where the offer put them, no valid Beneficial placement
    # nets more successes than the offer.
    fixed = {i: d for i, d in best.items() if mods[i].polarity == HINDERING}
    plus = [i for i, m in enumerate(mods) if m.polarity == BENEFICIAL]
    nets = [_valid_net(faces, mods, {**fixed, **p}) for p in _all_placements(mods, len(faces), plus)]
    assert best_net >= max(n for n in nets if n is not None)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-1, 9), min_size=1, max_size=5), SIMPLE_MODS)
def test_with_only_hindering_modifiers_the_best_placement_hurts_the_most(faces, mods):
    mods = [Modifier("simple", m.amount, m.dice, HINDERING) for m in mods]
    best_net = _valid_net(faces, mods, best_placement(faces, mods, {}))
    nets = [_valid_net(faces, mods, p) for p in _all_placements(mods, len(faces), range(len(mods)))]
    assert best_net is not None and best_net <= min(n for n in nets if n is not None)


# --- After the Cohort turn: resolving dice and the Tides (000 steps 7-8, 001) -----------

@pytest.mark.parametrize("rating, resolved, successes, newly", [
    (4, 0, 3, 3), (4, 0, 4, 4), (4, 0, 7, 4), (4, 3, 2, 1), (4, 4, 3, 0),
    (5, 2, 0, 0), (5, 2, -2, 0), (1, 0, 1, 1),
])
def test_each_success_resolves_one_die_but_never_past_the_rating(rating, resolved, successes, newly):
    assert dice_resolved(rating, resolved, successes) == newly


@given(st.integers(1, 12), st.data(), st.integers(-10, 30))
def test_resolved_dice_never_exceed_the_rating(rating, data, successes):
    resolved = data.draw(st.integers(0, rating))
    newly = dice_resolved(rating, resolved, successes)
    assert 0 <= newly <= max(0, successes)
    assert resolved + newly <= rating


RESULTS = tally([9, 7, 8, 1, 0, -1, 5])  # 1 overpowering, 2 criticals, 2 botches, 1 major botch


@pytest.mark.parametrize("threat", ["Minor", "Major", "Extreme", "Ultimate"])
@pytest.mark.parametrize("pcs", [1, 2, 4])
def test_in_0_6_1_an_overpowering_success_adds_3_destiny_and_1_doom(threat, pcs):
    assert tides(V061, RESULTS, threat, pcs) == (2 + 3, 3 + 1)


@pytest.mark.parametrize("threat", ["Minor", "Major", "Extreme", "Ultimate"])
@pytest.mark.parametrize("pcs", [1, 2, 4])
def test_in_0_2_0_an_overpowering_success_adds_1_destiny_per_pc_and_1_doom(threat, pcs):
    assert tides(V020, RESULTS, threat, pcs) == (2 + pcs, 3 + 1)


@BOTH
@pytest.mark.parametrize("results, destiny, doom", [
    ([7, 8, 3], 2, 0),          # each critical: 1 Destiny
    ([1, 0, -1, -2], 0, 4),     # each botch and major botch: 1 Doom
    ([2, 3, 4, 5, 6], 0, 0),    # plain successes shift nothing
    ([9, 9], None, 2),          # overpowering: per version, and 1 Doom each
])
def test_criticals_add_destiny_and_botches_add_doom(rules, results, destiny, doom):
    pcs = 3
    per_over = 3 if rules is V061 else pcs
    expected_destiny = destiny if destiny is not None else 2 * per_over
    assert tides(rules, tally(results), "Major", pcs) == (expected_destiny, doom)


@BOTH
def test_the_tides_do_not_shift_against_a_common_threat(rules):
    assert tides(rules, RESULTS, "Common", 3) == (0, 0)


@pytest.mark.parametrize("current, gain, cap, applied, lost", [
    (2, 1, 6, 1, 0), (5, 1, 6, 1, 0), (5, 3, 6, 1, 2), (6, 2, 6, 0, 2), (0, 9, 6, 6, 3), (3, 0, 6, 0, 0),
])
def test_destiny_never_exceeds_3_x_pcs_and_the_excess_is_lost(current, gain, cap, applied, lost):
    assert cap_destiny(current, gain, cap) == (applied, lost)


@given(st.integers(1, 6), st.data(), st.integers(0, 20))
def test_capped_destiny_adds_up_and_stays_within_the_cap(pcs, data, gain):
    cap = 3 * pcs
    current = data.draw(st.integers(0, cap))
    applied, lost = cap_destiny(current, gain, cap)
    assert applied + lost == gain and applied >= 0 and lost >= 0
    assert current + applied <= cap
    assert lost == 0 or current + applied == cap


# --- The Challenge turn (000 Challenge Turn, 001 Threat) --------------------------------

@pytest.mark.parametrize("threat, face", list(zip(THREATS, [3, 4, 5, 6, 7])))
def test_in_0_6_1_resolved_dice_become_common_a3_up_to_ultimate_a7(threat, face):
    assert threat_autos(V061, threat, 3) == (face, face, face)


@pytest.mark.parametrize("threat, face", list(zip(THREATS, [4, 5, 6, 7, 8])))
def test_in_0_2_0_resolved_dice_become_common_a4_up_to_ultimate_a8(threat, face):
    assert threat_autos(V020, threat, 2) == (face, face)


def test_the_seeds_minor_5_with_3_resolved_has_three_a5_under_0_2_0():
    assert threat_autos(V020, "Minor", 3) == (5, 5, 5)
    assert place_auto_results(5, [], [], threat_autos(V020, "Minor", 3)) == ((5, 5, 5), 0)


@BOTH
def test_no_resolved_dice_means_no_threat_autos(rules):
    assert threat_autos(rules, "Ultimate", 0) == ()


@pytest.mark.parametrize("stress, distribution", [
    (4, {"Kira": 4}), (4, {"Kira": 2, "Bo": 2}), (3, {"Kira": 0, "Bo": 3}), (0, {}), (0, {"Kira": 0}),
])
def test_a_stress_distribution_adding_up_to_the_successes_is_accepted(stress, distribution):
    assert check_distribution(stress, distribution, ["Kira", "Bo"]) is None


@pytest.mark.parametrize("stress, distribution", [(4, {"Kira": 3}), (4, {"Kira": 3, "Bo": 2}), (2, {})])
def test_a_stress_distribution_must_add_up_to_the_successes(stress, distribution):
    with pytest.raises(RuleViolation, match="adds up to"):
        check_distribution(stress, distribution, ["Kira", "Bo"])


def test_stress_goes_only_to_pcs_facing_the_challenge():
    with pytest.raises(RuleViolation, match="Zed is not facing"):
        check_distribution(2, {"Kira": 1, "Zed": 1}, ["Kira", "Bo"])


def test_stress_given_to_a_pc_cannot_be_negative():
    with pytest.raises(BadInput, match="cannot be negative"):
        check_distribution(2, {"Kira": 3, "Bo": -1}, ["Kira", "Bo"])


# --- Stress and Agony (001 "Stress and Agony") ------------------------------------------

@BOTH
@pytest.mark.parametrize("stress, out", [(0, False), (9, False), (10, True), (14, True)])
def test_a_pc_is_stressed_out_at_10_stress(rules, stress, out):
    assert stressed_out(rules, stress) is out


@BOTH
@pytest.mark.parametrize("stress, after", [(12, 2), (10, 0), (11, 1), (19, 9)])
def test_pushing_the_limit_keeps_only_the_stress_over_10(rules, stress, after):
    assert push_the_limit(rules, stress) == after


@BOTH
@pytest.mark.parametrize("stress", [9, 5, 0])
def test_only_a_stressed_out_pc_can_push_the_limit(rules, stress):
    with pytest.raises(RuleViolation, match="Only a Stressed Out PC"):
        push_the_limit(rules, stress)


@BOTH
@pytest.mark.parametrize("agony, out", [(0, False), (4, False), (5, True), (6, True)])
def test_a_pc_is_out_of_the_game_at_5_agony(rules, agony, out):
    assert out_of_the_game(rules, agony) is out


# --- Every rule number, pinned to the seed line it comes from --------------------------------------
# (mutation testing found that a wrong number here, e.g. a Destiny cap of 4 per PC, passed every test)

def test_0_6_1_numbers_are_the_cheat_sheets():
    assert dict(V061.threat_auto) == {"Common": 3, "Minor": 4, "Major": 5, "Extreme": 6, "Ultimate": 7}  # 001 "Threat"
    assert dict(V061.lead_dice) == {5: 5, 4: 4, 3: 3, 2: 2}  # 001 "Expertise": Lead Add Dice
    assert dict(V061.assist_dice) == {5: 4, 4: 3, 3: 2, 2: 1, 1: 1}  # 001 "Expertise": Assist Add Dice
    assert V061.primary_lead_dice is None
    assert V061.destiny_per_overpowering == 3  # 001: "each overpowering success adds three points"
    assert V061.pool_cap_per_pc == 3  # 001 "Cohort Dice Pool Maximum": 3 x number of PCs
    assert V061.destiny_cap_per_pc == 3  # 001: "The maximum Destiny Pool size is 3 x number of PCs"
    assert V061.stressed_out_at == 10  # 001 "Stress and Agony": ten (10) Stress
    assert V061.agony_out_at == 5  # 001 "Stress and Agony": five (5) Agony
    assert dict(V061.ranked_simple) == {1: (1, 1), 2: (1, 2), 3: (2, 2), 4: (2, 3), 5: (3, 3)}  # RULES.md ruling


def test_0_2_0_numbers_are_the_playtests():
    assert dict(V020.threat_auto) == {"Common": 4, "Minor": 5, "Major": 6, "Extreme": 7, "Ultimate": 8}  # 000 step 3
    assert dict(V020.lead_dice) == {5: 3, 4: 3, 3: 3, 2: 2}  # 000 step 2: "+3d6 is the highest possible"
    assert V020.primary_lead_dice == 3  # 000 step 2: a matching Primary Expertise leads with +3d6
    assert V020.destiny_per_overpowering is None  # 000 step 7: one Destiny per PC
    assert (V020.pool_cap_per_pc, V020.destiny_cap_per_pc, V020.stressed_out_at, V020.agony_out_at) == (3, 3, 10, 5)


@pytest.mark.parametrize("text, accepted", [("A9 / 1d", True), ("A10 / 1d", False), ("A1 / 1d", True),
                                            ("A0 / 1d", False), ("+1 / 0d", False), ("+0d6", False)])
def test_modifier_sizes_from_the_largest_accepted_to_the_first_refused(text, accepted):
    if accepted:
        assert str(parse_modifier(text)) == text
    else:
        with pytest.raises(BadInput, match="size the game does not use"):
            parse_modifier(text)


# --- Best placement: explicit expected placements, pieces already placed included ------------------

def test_the_best_placement_of_a_lone_plus_two_makes_the_critical():
    # [2, 4, 6]: +2 on the 2 gains nothing; on the 4 or the 6 one success, and 6 -> 8 is a critical.
    assert best_placement([2, 4, 6], [mod("+2 / 1d")], {}) == {0: (2,)}
    # [1, 4, 6]: on the 1 or the 4 one success either way (a botch saved, a 6 made): fewer botches win.
    assert best_placement([1, 4, 6], [mod("+2 / 1d")], {}) == {0: (0,)}


def test_dice_already_taken_by_a_placed_piece_of_the_same_side_are_not_offered_again():
    mods = [mod("+1 / 1d"), mod("+1 / 1d")]
    # The first +1 is placed on the 4 (die 2); the open one goes on the other 4, never the same die.
    assert best_placement([2, 4, 4], mods, {0: (1,)}) == {0: (1,), 1: (2,)}


def test_the_hindering_pass_ignores_beneficial_pieces_already_placed():
    mods = [mod("-1 / 1d"), mod("+2 / 1d")]
    # The GM's -1 goes where it costs most as the dice fall ([5, 3]: the 5), not after the +2 lifted the 3.
    assert best_placement([5, 3], mods, {1: (1,)}) == {1: (1,), 0: (0,)}


def test_the_beneficial_pass_sees_hindering_pieces_already_placed():
    mods = [mod("-2 / 1d"), mod("+2 / 1d")]
    # The GM's -2 turned the 6 into a 4: the +2 no longer makes a critical there, so it is offered
    # on the last die (as the dice now stand both are 4s, and ties take the later die).
    assert best_placement([6, 4], mods, {0: (0,)}) == {0: (0,), 1: (1,)}
    assert best_placement([6, 4], [mod("+2 / 1d")], {}) == {0: (0,)}  # unhindered, the 6 becomes an 8


def test_an_open_piece_with_no_die_left_to_take_is_placed_nowhere():
    mods = [mod("+1 / 2d"), mod("+1 / 1d")]
    # Two dice, both carrying the +1 / 2d: the +1 / 1d has no die left and is lost (not stacked).
    assert best_placement([4, 4], mods, {0: (0, 1)}) == {0: (0, 1), 1: ()}


def test_a_gm_override_allows_stacking_but_never_dice_off_the_pool():
    mods = [mod("+1 / 1d"), mod("+1 / 1d")]
    assert apply_simple([4, 4], mods, {0: [0], 1: [0]}, strict=False) == (6, 4)
    with pytest.raises(BadInput, match="placed off it"):
        apply_simple([4, 4], mods, {0: [2]}, strict=False)
    with pytest.raises(RuleViolation):
        apply_simple([4, 4], mods, {0: [0], 1: [0]})


# --- Functions no rules test reached before --------------------------------------------------------

@pytest.mark.parametrize("key, text, value", [
    ("ranked_simple", "3=2/3", {"3": [2, 3]}),
    ("ranked_simple", " 1 = 1/1 , 2=1/2 ", {"1": [1, 1], "2": [1, 2]}),
    ("threat_auto", "minor=5", {"Minor": 5}),
    ("lead_dice", "5=6,4=4", {"5": 6, "4": 4}),
    ("assist_dice", "1=0", {"1": 0}),
    ("destiny_per_overpowering", "per-pc", None),
    ("destiny_per_overpowering", " PER-PC ", None),
    ("destiny_per_overpowering", "2", 2),
    ("stressed_out_at", "6", 6),
    ("agony_out_at", "0", 0),
    ("pool_cap_per_pc", "4", 4),
    ("destiny_cap_per_pc", "2", 2),
])
def test_a_house_rule_is_read_as_the_gm_types_it(key, text, value):
    assert house_rule(key, text) == value


@pytest.mark.parametrize("key, text", [
    ("ranked_simple", "3=2"), ("ranked_simple", "3=2/3/4"), ("ranked_simple", "x=1/1"), ("ranked_simple", ""),
    ("ranked_simple", "3"), ("threat_auto", "Huge=5"), ("lead_dice", "5=five"), ("lead_dice", ","),
    ("stressed_out_at", "ten"), ("stressed_out_at", "-1"), ("destiny_per_overpowering", "per-gm"),
])
def test_an_unreadable_house_rule_is_bad_input(key, text):
    with pytest.raises(BadInput):
        house_rule(key, text)


def test_only_the_listed_rules_can_be_house_rules():
    assert set(HOUSE_RULES) == {"ranked_simple", "threat_auto", "lead_dice", "assist_dice",
                                "destiny_per_overpowering", "stressed_out_at", "agony_out_at",
                                "pool_cap_per_pc", "destiny_cap_per_pc"}
    with pytest.raises(BadInput, match="not a rule a house rule can change"):
        house_rule("version", "1")


def test_house_rules_amend_only_what_they_name():
    amended = with_house_rules(V061, {"ranked_simple": {"3": [2, 3]}, "threat_auto": {"Minor": 5},
                                      "lead_dice": {"5": 6}, "stressed_out_at": 6,
                                      "destiny_per_overpowering": None})
    assert amended.ranked_simple == {**V061.ranked_simple, 3: (2, 3)}
    assert amended.threat_auto == {**V061.threat_auto, "Minor": 5}
    assert amended.lead_dice == {5: 6, 4: 4, 3: 3, 2: 2}
    assert amended.assist_dice == V061.assist_dice
    assert (amended.stressed_out_at, amended.destiny_per_overpowering) == (6, None)
    assert ranked_simple(amended, 3) == Modifier("simple", 2, 3, BENEFICIAL)
    assert with_house_rules(V061, {}) is V061


def test_house_rules_as_stored_round_trip_into_the_rules():
    stored = {key: house_rule(key, text) for key, text in [("ranked_simple", "2=2/2"), ("assist_dice", "1=0"),
                                                           ("agony_out_at", "4")]}
    amended = with_house_rules(V020, stored)
    assert amended.ranked_simple[2] == (2, 2) and amended.assist_dice[1] == 0 and amended.agony_out_at == 4
    assert amended.version == "0.2.0"


@pytest.mark.parametrize("rank", [1, 2, 3, 4, 5])
def test_ranked_add_dice_are_rank_d6(rank):
    assert ranked_add(rank) == Modifier("add", rank, rank, BENEFICIAL)
    assert ranked_add(rank, HINDERING).signed == -rank


@pytest.mark.parametrize("rank", [0, 6, -1])
def test_ranked_add_dice_go_from_rank_1_to_5(rank):
    with pytest.raises(RuleViolation, match="rank 1 to 5"):
        ranked_add(rank)


@pytest.mark.parametrize("name, expected", [("phantom", "Phantom"), (" VENGER ", "Venger"), ("Scav", "Scav")])
def test_names_are_matched_ignoring_case_and_spaces(name, expected):
    assert canonical(name, ("Scav", "Venger", "Phantom"), "type") == expected


def test_an_unknown_name_is_refused_with_the_choices():
    with pytest.raises(BadInput, match="'Ghost' is not a type; choose one of Scav, Venger"):
        canonical("Ghost", ("Scav", "Venger"), "type")


@pytest.mark.parametrize("ranks, stress", [([], 0), ([2, 3, 1, 0], 2), ([1, 1], 0), ([5], 1)])
def test_set_recovery_is_one_stress_per_pc_with_stallion_2_or_more(ranks, stress):
    assert set_recovery(ranks) == stress  # 001 "Removing Stress"; RULES.md recovery


@pytest.mark.parametrize("agony, modifier", [(0, None), (1, "+1 / 1d"), (2, "+1 / 2d"), (3, "+2 / 2d"),
                                             (5, "+3 / 3d"), (7, "+3 / 3d")])
def test_a_growth_test_gains_one_ranked_simple_modifier_of_rank_agony(agony, modifier):
    assert [str(m) for m in growth_bonus(V061, agony)] == ([modifier] if modifier else [])


def test_an_unknown_version_names_the_known_ones():
    with pytest.raises(BadInput, match=r"Relics has no rules version '9\.9'; known versions: 0\.2\.0, 0\.6\.1\."):
        rules_for("9.9")


@pytest.mark.parametrize("text, polarity, implied", [("-1d6", BENEFICIAL, "hindering"),
                                                     ("+1 / 2d", HINDERING, "beneficial")])
def test_a_sign_that_contradicts_the_polarity_names_the_modifier(text, polarity, implied):
    with pytest.raises(BadInput, match=f"^'{re.escape(text)}' reads as {implied}, not {polarity}\\.$"):
        parse_modifier(text, polarity)


def test_stress_given_to_a_stranger_names_the_first_stranger():
    with pytest.raises(RuleViolation, match="^Zed is not facing this Challenge and cannot take its Stress.$"):
        check_distribution(2, {"Kira": 1, "Zed": 1, "Yan": 0}, ["Kira"])
    with pytest.raises(RuleViolation, match="^Zed is not among the PCs in play.$"):
        check_distribution(2, {"Zed": 1, "Yan": 1}, ["Kira"], what="The Cohort recovers 2 Stress")


def test_a_distribution_that_does_not_add_up_says_what_it_should_be():
    with pytest.raises(RuleViolation, match="^The Challenge scored 3 Stress; the distribution adds up to 1.$"):
        check_distribution(3, {"Kira": 1}, ["Kira"])
    with pytest.raises(RuleViolation, match="^The Cohort recovers 2 Stress; the distribution adds up to 1.$"):
        check_distribution(2, {"Kira": 1}, ["Kira"], what="The Cohort recovers 2 Stress")


def test_a_pair_with_two_equals_signs_is_unreadable_as_a_whole():
    with pytest.raises(BadInput, match=r"^threat_auto is written as .*, not 'Minor=5=6'\.$"):
        house_rule("threat_auto", "Minor=5=6")


# --- best placement: what the search must weigh (mutation survivors of relics.placement) ---------------

def _offered_faces(faces: tuple[int, ...], mod: Modifier) -> list[int]:
    placement = best_placement(faces, (mod,), {})
    return sorted(faces[d] for d in placement[0])


def test_the_offered_placement_depends_on_the_faces_not_their_order():
    plus_one = Modifier("simple", 1, 1, BENEFICIAL)  # on a 2 or a 3 it changes nothing: a tie either way
    assert _offered_faces((3, 2), plus_one) == _offered_faces((2, 3), plus_one) == [3]
    assert _offered_faces((2, 3, 2, 3), plus_one) == _offered_faces((3, 2, 3, 2), plus_one)


def test_a_hindering_modifier_costs_net_successes_before_it_makes_botches():
    # -3 on the 9 (an A9) leaves 1 net success; on the 3 it makes a botch but leaves 2.
    assert best_placement((9, 3), (Modifier("simple", 3, 1, HINDERING),), {}) == {0: (0,)}


def test_among_equal_net_successes_a_critical_is_preferred():
    # +2 on the 5 makes a critical (7), on the 3 a plain success (5): one more success either way.
    assert best_placement((5, 3), (Modifier("simple", 2, 1, BENEFICIAL),), {}) == {0: (0,)}
    assert best_placement((3, 5), (Modifier("simple", 2, 1, BENEFICIAL),), {}) == {0: (1,)}
    # On the 5 it makes a critical; on the 8 (an A8, already a critical) an overpowering success:
    # one more success either way, and the critical counts (an overpowering one was one already).
    assert best_placement((5, 8), (Modifier("simple", 2, 1, BENEFICIAL),), {}) == {0: (0,)}


def test_three_different_simple_modifiers_are_placed_as_well_as_any_placement_could():
    faces = (3, 1, 5, 5, 5)
    mods = (Modifier("simple", 2, 1, BENEFICIAL), Modifier("simple", 1, 1, BENEFICIAL),
            Modifier("simple", 3, 1, BENEFICIAL))

    def score(placement: dict) -> tuple[int, int, int]:
        t = tally(apply_simple(faces, mods, placement))
        return t.successes, -(t.botches + t.major_botches), t.criticals + t.overpowering

    every = [{0: (a,), 1: (b,), 2: (c,)} for a, b, c in itertools.permutations(range(len(faces)), 3)]
    assert score(best_placement(faces, mods, {})) == max(score(p) for p in every)
