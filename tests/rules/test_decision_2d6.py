"""Tests for the decision-2d6 rules (seed 004 and the RULES.md rulings)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.decision_2d6.rules import (
    Advantage, Contestant, D100Tracker, Difficulty, Modifier, Side, SupplyDie, bonus,
    contest, contested_advantage, d100_use, decision_roll, dice_still_needed, grant_advantage,
    penalty, shift_advantage, split_chains, stress, succeeds, supply_roll, supply_rolls,
    target_number, vitality,
)

A = Advantage


# --- the seed's own example ---------------------------------------------------------------

def test_seed_example_billy_holds_the_gate():
    roll = decision_roll([3, 6, 6, 2], stat=0)
    assert roll.chains == ((3,), (6, 6, 2))
    assert roll.total == 17


@pytest.mark.parametrize("prefix, needed", [
    ([], 2), ([3], 1), ([3, 6], 1), ([3, 6, 6], 1), ([3, 6, 6, 2], 0),
])
def test_seed_example_tells_how_many_dice_are_still_needed(prefix, needed):
    assert dice_still_needed(prefix) == needed


# --- exploding decision dice --------------------------------------------------------------

@pytest.mark.parametrize("faces, advantage, chains", [
    ([1, 2], A.NEUTRAL, ((1,), (2,))),
    ([6, 1, 4], A.NEUTRAL, ((6, 4), (1,))),
    ([6, 6, 1, 2], A.NEUTRAL, ((6, 1), (6, 2))),
    ([6, 6, 6, 1, 2], A.NEUTRAL, ((6, 6, 2), (6, 1))),
    ([6, 1, 2, 3], A.MAJOR_ADVANTAGE, ((6, 3), (1,), (2,))),
    ([6, 6, 4], A.MAJOR_DISADVANTAGE, ((6, 6, 4),)),
    ([5], A.MAJOR_DISADVANTAGE, ((5,),)),
])
def test_split_chains_die_by_die(faces, advantage, chains):
    assert split_chains(faces, advantage) == chains


@pytest.mark.parametrize("faces, advantage", [
    ([1, 2, 3], A.NEUTRAL),             # one face too many
    ([3, 6], A.MAJOR_DISADVANTAGE),     # complete after the 3
    ([1, 2, 3, 4], A.MAJOR_ADVANTAGE),
    ([0, 2], A.NEUTRAL),                # not a d6 face
    ([7, 2], A.NEUTRAL),
    (["3", 2], A.NEUTRAL),
    ([True, 2], A.NEUTRAL),
])
def test_unreadable_or_surplus_faces_are_bad_input(faces, advantage):
    with pytest.raises(BadInput):
        dice_still_needed(faces, advantage)


@pytest.mark.parametrize("faces, advantage", [
    ([3], A.NEUTRAL), ([3, 6], A.NEUTRAL), ([1, 2], A.MAJOR_ADVANTAGE), ([], A.NEUTRAL),
])
def test_an_incomplete_roll_cannot_be_split(faces, advantage):
    with pytest.raises(BadInput, match="still needs"):
        split_chains(faces, advantage)


# --- the advantage scale ------------------------------------------------------------------

@pytest.mark.parametrize("level, dice, flat", [
    (A.MAJOR_ADVANTAGE, 3, 0), (A.MINOR_ADVANTAGE, 2, 3), (A.NEUTRAL, 2, 0),
    (A.MINOR_DISADVANTAGE, 2, -3), (A.MAJOR_DISADVANTAGE, 1, 0),
])
def test_advantage_scale_changes_dice_or_modifier(level, dice, flat):
    assert (level.decision_dice, level.flat_modifier) == (dice, flat)


@pytest.mark.parametrize("faces, level, total", [
    ([1, 2, 3], A.MAJOR_ADVANTAGE, 7),      # all three dice summed, no +3
    ([1, 2], A.MINOR_ADVANTAGE, 7),
    ([1, 2], A.NEUTRAL, 4),
    ([1, 2], A.MINOR_DISADVANTAGE, 1),
    ([4], A.MAJOR_DISADVANTAGE, 5),
    ([6, 6, 1], A.MAJOR_DISADVANTAGE, 14),  # the one die still explodes
])
def test_advantage_scale_in_a_roll(faces, level, total):
    assert decision_roll(faces, stat=1, advantage=level).total == total


@pytest.mark.parametrize("level, faces", [
    (A.MAJOR_ADVANTAGE, [1, 2]), (A.MAJOR_DISADVANTAGE, [1, 2]),
])
def test_wrong_number_of_dice_for_the_advantage_is_refused(level, faces):
    with pytest.raises(BadInput):
        decision_roll(faces, stat=0, advantage=level)


@pytest.mark.parametrize("start, steps, end", [
    (A.NEUTRAL, 1, A.MINOR_ADVANTAGE),           # seed: on a neutral roll, a minor advantage
    (A.MINOR_ADVANTAGE, 1, A.MAJOR_ADVANTAGE),
    (A.MAJOR_ADVANTAGE, 1, A.MAJOR_ADVANTAGE),   # clamped
    (A.MINOR_DISADVANTAGE, 1, A.NEUTRAL),        # no bonus guaranteed
    (A.MAJOR_DISADVANTAGE, 1, A.MINOR_DISADVANTAGE),
    (A.MAJOR_DISADVANTAGE, 3, A.MINOR_ADVANTAGE),
    (A.NEUTRAL, 9, A.MAJOR_ADVANTAGE),
])
def test_grant_advantage_moves_one_step_per_grant(start, steps, end):
    assert grant_advantage(start, steps) == end


@pytest.mark.parametrize("start, steps, end", [
    (A.NEUTRAL, -1, A.MINOR_DISADVANTAGE), (A.MINOR_DISADVANTAGE, -5, A.MAJOR_DISADVANTAGE),
    (A.MAJOR_ADVANTAGE, -4, A.MAJOR_DISADVANTAGE), (A.MINOR_ADVANTAGE, 0, A.MINOR_ADVANTAGE),
])
def test_shift_advantage_clamps_at_both_ends(start, steps, end):
    assert shift_advantage(start, steps) is end


# --- bonus and penalty sign rules ---------------------------------------------------------

@pytest.mark.parametrize("modifier, counted", [
    (bonus(2), 2), (bonus(-2), 0), (bonus(0), 0),
    (penalty(-2), -2), (penalty(2), 0),
    (Modifier(2), 2), (Modifier(-2), -2),
])
def test_sign_rules(modifier, counted):
    assert modifier.counted == counted


def test_sign_rules_apply_inside_a_roll():
    roll = decision_roll([3, 4], stat=1, modifiers=[bonus(-2), penalty(3), -1, bonus(2)])
    assert (roll.modifiers, roll.total) == (1, 9)


def test_a_modifier_that_is_not_a_number_is_bad_input():
    with pytest.raises(BadInput):
        decision_roll([3, 4], stat=0, modifiers=[bonus("two")])


# --- target numbers -----------------------------------------------------------------------

@pytest.mark.parametrize("label, target", [
    (Difficulty.SIMPLE, 6), ("simple", 6), ("Challenging Task", 12),
    ("strenuous", 18), ("“Impossible” Task", 20), ("IMPOSSIBLE", 20),
])
def test_difficulty_labels(label, target):
    assert target_number(label) == target


def test_unknown_difficulty_is_bad_input():
    with pytest.raises(BadInput, match="not a difficulty"):
        target_number("hard")


@pytest.mark.parametrize("total, target, success", [
    (12, 12, True), (13, 12, True), (11, 12, False),
])
def test_meeting_the_target_succeeds(total, target, success):
    assert succeeds(total, target) is success


# --- contested rolls ----------------------------------------------------------------------

@pytest.mark.parametrize("first, second, rounds, winner, count", [
    (Contestant(0), Contestant(0), [([4, 5], [1, 2])], Side.FIRST, 1),
    (Contestant(0), Contestant(0), [([1, 2], [4, 5])], Side.SECOND, 1),
    (Contestant(0), Contestant(0), [([3, 4], [2, 5]), ([1, 1], [2, 3])], Side.SECOND, 2),
    (Contestant(2), Contestant(0), [([1, 1], [2, 2]), ([3, 3], [4, 4]), ([5, 1], [3, 2])],
     Side.FIRST, 3),
    (Contestant(0, (bonus(3),)), Contestant(0, advantage=A.MINOR_ADVANTAGE),
     [([2, 2], [1, 3]), ([6, 1, 1], [4, 3])], Side.FIRST, 2),  # 6 explodes on a reroll too
    (Contestant(0), Contestant(0), [([3, 4], [2, 5])], None, 1),
])
def test_contest_ties_reroll_and_every_reroll_is_kept(first, second, rounds, winner, count):
    result = contest(first, second, rounds)
    assert result.winner is winner
    assert result.needs_reroll is (winner is None)
    assert len(result.rounds) == count
    assert [a.chains for a, _ in result.rounds] == [split_chains(f, first.advantage)
                                                   for f, _ in rounds]


@pytest.mark.parametrize("rounds", [
    [],
    [([4, 5], [1, 2]), ([1, 2], [4, 5])],   # a reroll after a winner
    [([4, 5], [1])],                         # incomplete side
])
def test_contest_refuses_unreadable_rounds(rounds):
    with pytest.raises(BadInput):
        contest(Contestant(0), Contestant(0), rounds)


@pytest.mark.parametrize("position, first, second", [
    (A.MAJOR_ADVANTAGE, A.MAJOR_ADVANTAGE, A.NEUTRAL),
    (A.MINOR_ADVANTAGE, A.MINOR_ADVANTAGE, A.NEUTRAL),
    (A.NEUTRAL, A.NEUTRAL, A.NEUTRAL),
    (A.MINOR_DISADVANTAGE, A.NEUTRAL, A.MINOR_ADVANTAGE),
    (A.MAJOR_DISADVANTAGE, A.NEUTRAL, A.MAJOR_ADVANTAGE),
])
def test_contested_advantage_puts_nobody_at_disadvantage(position, first, second):
    assert contested_advantage(position) == (first, second)


# --- derived stats: round down only at the end --------------------------------------------

@pytest.mark.parametrize("level, other, value", [
    (3, 1, 2),    # 1.5 + 0.5 = 2 (rounding each half first would give 1)
    (3, 2, 2),    # 1.5 + 1 = 2.5 -> 2
    (4, 4, 4), (1, 0, 0), (5, 5, 5), (1, -2, -1),   # -0.5 rounds down to -1
])
def test_stress_and_vitality_round_down_at_the_end(level, other, value):
    assert stress(level, other) == value
    assert vitality(level, other) == value


def test_derived_stats_refuse_non_numbers():
    with pytest.raises(BadInput):
        stress(3, 1.5)


# --- supply dice --------------------------------------------------------------------------

def test_supply_die_steps_from_d12_down_to_empty_then_refuses():
    rolls = supply_rolls(SupplyDie.D12, [3, 2, 1, 3, 1])
    assert [r.after for r in rolls] == [SupplyDie.D10, SupplyDie.D8, SupplyDie.D6,
                                        SupplyDie.D4, SupplyDie.EMPTY]
    assert all(r.lowered for r in rolls)
    with pytest.raises(RuleViolation, match="empty"):
        supply_roll(rolls[-1].after, 1)


def test_supply_rolls_past_empty_are_refused():
    with pytest.raises(RuleViolation):
        supply_rolls(SupplyDie.D4, [1, 2])


@pytest.mark.parametrize("die, face, threshold, after", [
    (SupplyDie.D8, 4, 3, SupplyDie.D8),
    (SupplyDie.D8, 3, 3, SupplyDie.D6),
    (SupplyDie.D8, 4, 4, SupplyDie.D6),    # threshold is a campaign setting
    (SupplyDie.D12, 5, 5, SupplyDie.D10),
    (SupplyDie.D6, 1, 0, SupplyDie.D6),
    (SupplyDie.D4, 4, 3, SupplyDie.D4),
])
def test_supply_threshold(die, face, threshold, after):
    assert supply_roll(die, face, threshold).after is after


def test_supply_default_threshold_is_three():
    assert supply_roll(SupplyDie.D6, 3).lowered and not supply_roll(SupplyDie.D6, 4).lowered


@pytest.mark.parametrize("die, face, threshold", [
    (SupplyDie.D4, 5, 3), (SupplyDie.D6, 0, 3), (SupplyDie.D6, 2, -1),
])
def test_supply_bad_input(die, face, threshold):
    with pytest.raises(BadInput):
        supply_roll(die, face, threshold)


# --- D100 trackers ------------------------------------------------------------------------

@pytest.mark.parametrize("value, face, step, supplied, after", [
    (100, 100, 10, True, 90),
    (60, 60, 10, True, 50),
    (60, 61, 10, False, 0),
    (5, 3, 10, True, 0),
    (50, 10, 25, True, 25),
])
def test_d100_tracker_use(value, face, step, supplied, after):
    use = d100_use(D100Tracker(value, (42,)), face, step)
    assert (use.supplied, use.tracker.value) == (supplied, after)
    assert use.tracker.rolls == (42, face)


def test_d100_tracker_at_zero_refuses_a_use():
    with pytest.raises(RuleViolation):
        d100_use(D100Tracker(0), 1)


@pytest.mark.parametrize("make", [
    lambda: D100Tracker(101), lambda: D100Tracker(-1),
    lambda: d100_use(D100Tracker(50), 0), lambda: d100_use(D100Tracker(50), 101),
])
def test_d100_bad_input(make):
    with pytest.raises(BadInput):
        make()


# --- messages -----------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: split_chains([3]), lambda: supply_roll(SupplyDie.EMPTY, 1),
    lambda: dice_still_needed([9]), lambda: contest(Contestant(0), Contestant(0), []),
])
def test_refusals_are_one_sentence(make):
    with pytest.raises((BadInput, RuleViolation)) as info:
        make()
    message = str(info.value)
    assert message.endswith(".") and "\n" not in message and message.count(". ") == 0


# --- properties ---------------------------------------------------------------------------

faces_stream = st.lists(st.integers(1, 6), min_size=60, max_size=60)


@given(faces_stream, st.sampled_from(list(Advantage)))
def test_faces_consumed_equal_dice_plus_sixes(stream, level):
    length = 0
    while dice_still_needed(stream[:length], level):
        length += 1
        if length > len(stream):
            return  # a run of sixes longer than the stream: nothing to check
    prefix = stream[:length]
    assert len(prefix) == level.decision_dice + prefix.count(6)
    chains = split_chains(prefix, level)
    assert len(chains) == level.decision_dice
    assert all(c[-1] != 6 and set(c[:-1]) <= {6} for c in chains)
    assert sum(map(sum, chains)) == sum(prefix)


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(1, 5)), min_size=2, max_size=2),
       st.integers(-3, 5), st.lists(st.integers(-4, 4), max_size=3))
def test_neutral_total_is_faces_plus_stat_plus_modifiers(shape, stat, mods):
    chains = [[6] * sixes + [last] for sixes, last in shape]
    waiting, flat = [0, 1], []
    while waiting:   # roll the pending dice in the order their sixes came up
        die = waiting.pop(0)
        flat.append(chains[die].pop(0))
        if flat[-1] == 6:
            waiting.append(die)
    roll = decision_roll(flat, stat, mods)
    assert roll.chains == tuple((6,) * s + (last,) for s, last in shape)
    assert roll.total == sum(flat) + stat + sum(mods)


# --- Pinned by mutation testing: each could change unnoticed before ----------------------------

def test_the_first_side_keeps_its_advantage_in_a_contest():
    # Minor Advantage adds +3 to the first side: 3 + 3 + 3 = 9 beats 4 + 4 = 8; without it, 6 loses.
    result = contest(Contestant(0, advantage=A.MINOR_ADVANTAGE), Contestant(0), [([3, 3], [4, 4])])
    assert result.winner is Side.FIRST and result.rounds[0][0].total == 9
    result = contest(Contestant(0), Contestant(0, advantage=A.MINOR_ADVANTAGE), [([4, 4], [3, 3])])
    assert result.winner is Side.SECOND and result.rounds[0][1].total == 9


def test_a_supply_roll_keeps_its_face_and_a_campaigns_threshold():
    assert supply_roll(SupplyDie.D6, 5).face == 5
    assert supply_roll(SupplyDie.D6, 4, threshold=4).after is SupplyDie.D4  # a threshold of 4 lowers a 4
    assert supply_roll(SupplyDie.D6, 3, threshold=2).after is SupplyDie.D6  # a threshold of 2 keeps a 3
    assert supply_roll(SupplyDie.D6, 1, threshold=0).after is SupplyDie.D6  # 0: nothing lowers it
    assert [r.face for r in supply_rolls(SupplyDie.D8, [2, 5], threshold=3)] == [2, 5]


def test_supply_dice_are_the_seeds_sizes_stepping_down_to_empty():
    assert [d.value for d in SupplyDie] == [0, 4, 6, 8, 10, 12]
    chain, die = [], SupplyDie.D12
    for _ in range(6):  # bounded: a wrong chain fails here instead of looping
        die = die.lowered()
        chain.append(die.name)
    assert chain == ["D10", "D8", "D6", "D4", "EMPTY", "EMPTY"]
    assert SupplyDie.EMPTY.lowered() is SupplyDie.EMPTY


@pytest.mark.parametrize("die, top", [(SupplyDie.D4, 4), (SupplyDie.D12, 12)])
def test_a_supply_die_shows_1_to_its_size(die, top):
    assert supply_roll(die, top).face == top and supply_roll(die, 1).lowered
    for face in (0, top + 1):
        with pytest.raises(BadInput):
            supply_roll(die, face)


def test_a_d100_tracker_from_the_largest_accepted_value_to_the_first_refused():
    assert D100Tracker(0).value == 0 and D100Tracker(100).value == 100
    for value in (-1, 101):
        with pytest.raises(BadInput):
            D100Tracker(value)
    assert d100_use(D100Tracker(50), 1).supplied and d100_use(D100Tracker(50), 50).supplied
    assert not d100_use(D100Tracker(50), 51).supplied
    assert d100_use(D100Tracker(100), 100).tracker.value == 90
    for face in (0, 101):
        with pytest.raises(BadInput):
            d100_use(D100Tracker(50), face)


def test_a_d100_step_of_zero_keeps_the_value_and_a_negative_one_is_refused():
    assert d100_use(D100Tracker(40), 10, step=0).tracker == D100Tracker(40, (10,))
    assert d100_use(D100Tracker(40), 10).tracker == D100Tracker(30, (10,))  # the default step is 10
    assert d100_use(D100Tracker(5), 3).tracker.value == 0  # never below 0
    with pytest.raises(BadInput):
        d100_use(D100Tracker(40), 10, step=-1)


def test_one_grant_of_advantage_is_one_step():
    assert grant_advantage(A.NEUTRAL) is A.MINOR_ADVANTAGE
    assert grant_advantage(A.MINOR_DISADVANTAGE) is A.NEUTRAL
    assert grant_advantage(A.NEUTRAL, 2) is A.MAJOR_ADVANTAGE


@pytest.mark.parametrize("faces, advantage, message", [
    ([3, 4, 5], A.NEUTRAL, "This roll was complete after 2 faces, but you entered 3."),
    ([3, 4], A.MAJOR_DISADVANTAGE, "This roll was complete after 1 face, but you entered 2."),
    ([6, 2, 3, 1], A.NEUTRAL, "This roll was complete after 3 faces, but you entered 4."),
])
def test_too_many_faces_says_where_the_roll_was_complete(faces, advantage, message):
    with pytest.raises(BadInput, match=f"^{message}$"):
        dice_still_needed(faces, advantage)


def test_several_supply_rolls_use_the_campaigns_threshold():
    rolls = supply_rolls(SupplyDie.D8, [4, 4], threshold=4)
    assert [r.after for r in rolls] == [SupplyDie.D6, SupplyDie.D4]


@pytest.mark.parametrize("text", ["simplex", "xsimple", "simple task x"])
def test_a_difficulty_name_is_matched_whole(text):
    with pytest.raises(BadInput, match="is not a difficulty; use one of simple, challenging, strenuous, impossible"):
        target_number(text)
