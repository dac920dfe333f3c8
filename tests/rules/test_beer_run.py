"""Beer Run rules, table-driven; every expected number below is worked by hand."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_ledger.ledger.errors import BadInput, NotFound, RuleViolation
from campaign_ledger.ledger.rulesets.beer_run.rules import (
    DEFAULT_CATEGORIES, Ability, Comparison, GoalDice, PenaltyDie, Pool, SituationDie, apply_pips,
    build_pool, cede, check_faces, compare, compare_many, extra_dice_cost, format_die,
    gain_outcome_die, goal_difficulty, goal_dice, inflict_outcome_die, lower, parse_die,
    resolve_effects, roll_cost, spend_penalty_dice, spend_situation_dice,
)

ANN = (Ability("Brawn", "Physical", 8), Ability("Health", "Physical", 6),
       Ability("Wits", "Mental", 6), Ability("Charm", "Social", 4))
BOB = (Ability("Brawn", "Physical", 3), Ability("Health", "Physical", 4),
       Ability("Wits", "Mental", 6), Ability("Charm", "Social", 2))


def sizes(abilities):
    return {a.name: a.size for a in abilities}


# --- dice notation ---

@pytest.mark.parametrize("text, size", [("d8", 8), ("D12", 12), (" d1 ", 1), ("d100", 100)])
def test_reads_an_ability_die(text, size):
    assert parse_die(text) == size


@pytest.mark.parametrize("text", ["8", "d0", "d-1", "dx", "2d6", "", "d"])
def test_refuses_what_is_not_one_ability_die(text):
    with pytest.raises(BadInput):
        parse_die(text)


@pytest.mark.parametrize("size, text", [(8, "d8"), (1, "d1"), (0, "gone")])
def test_writes_a_die_and_a_gone_ability(size, text):
    assert format_die(size) == text


@pytest.mark.parametrize("size, pips, left", [(8, 3, 5), (3, 3, 0), (5, 0, 5), (1, 1, 0)])
def test_a_pip_lowers_a_die_one_size_step(size, pips, left):
    assert lower(size, pips) == left


def test_a_pip_may_not_take_a_die_below_zero():
    with pytest.raises(RuleViolation):
        lower(2, 3)


@pytest.mark.parametrize("dice, faces", [((8, 4), (9, 1)), ((8, 4), (8,)), ((6,), (0,))])
def test_refuses_faces_the_pool_cannot_show(dice, faces):
    with pytest.raises(BadInput):
        check_faces(dice, faces)


def test_accepts_faces_the_pool_can_show():
    assert check_faces((8, 4, 1), [8, 1, 1]) == (8, 1, 1)


# --- Intensity ---

@pytest.mark.parametrize("extra, extra_cost, total",
                         [(0, 0, 1), (1, 1, 2), (2, 3, 4), (3, 6, 7), (4, 10, 11), (5, 15, 16)])
def test_each_extra_die_costs_one_more_than_the_last(extra, extra_cost, total):
    assert extra_dice_cost(extra) == extra_cost
    assert roll_cost(extra) == total


@pytest.mark.parametrize("sheet, base, extra, intensity, pool", [
    (ANN, ("Brawn", "Wits", "Charm"), (), 1, Pool((8, 6, 4), 1)),
    (ANN, ("Health", "Wits", "Charm"), ("Brawn",), 2, Pool((6, 6, 4, 8), 2)),
    (ANN, ("Brawn", "Wits", "Charm"), ("Health",), 9, Pool((8, 6, 4, 6), 2)),
    (ANN[:3], ("Brawn", "Wits"), (), 1, Pool((8, 6), 1)),  # no Social die: rolls with less
    (ANN[:3] + (Ability("Charm", "Social", 0),), ("Brawn", "Wits"), (), 1, Pool((8, 6), 1)),
])
def test_prices_a_pool_and_lists_its_dice(sheet, base, extra, intensity, pool):
    assert build_pool(sheet, base, extra, intensity) == pool


@pytest.mark.parametrize("sheet, base, extra, intensity", [
    (ANN, ("Brawn", "Wits", "Charm"), (), 0),                  # not even the base pool
    (ANN, ("Brawn", "Wits", "Charm"), ("Health",), 1),         # extra die unpaid
    (ANN, ("Brawn", "Health", "Wits", "Charm"), (), 5),        # two Physical in the base
    (ANN, ("Brawn", "Wits"), ("Charm",), 5),                   # Social skipped in the base
    (ANN, ("Brawn", "Wits", "Charm"), ("Wits",), 5),           # Wits twice
    (ANN[:3] + (Ability("Charm", "Social", 0),), ("Brawn", "Wits", "Charm"), (), 5),  # gone
    (ANN + (Ability("Sword", "Gear", 6),), ("Brawn", "Wits", "Charm"), ("Sword",), 5),
])
def test_refuses_a_pool_against_the_rules(sheet, base, extra, intensity):
    with pytest.raises(RuleViolation):
        build_pool(sheet, base, extra, intensity)


def test_refuses_an_ability_the_character_does_not_have():
    with pytest.raises(NotFound):
        build_pool(ANN, ("Brawn", "Wits", "Luck"), (), 5)


def test_campaign_can_name_its_own_categories():
    sheet = (Ability("Sword", "Gear", 6), Ability("Health", "Body", 4))
    assert build_pool(sheet, ("Sword", "Health"), (), 1, ("Gear", "Body")) == Pool((6, 4), 1)
    assert DEFAULT_CATEGORIES == ("Physical", "Mental", "Social")


# --- comparing rolls ---

@pytest.mark.parametrize("a, b, pairs, scored, kept, upper", [
    # upper hand to a on the first pair; b's one success is its first, so it is kept
    ([2, 6, 4], [4, 5, 3], ((6, 5), (4, 4), (2, 3)), (1, 1), (1, 1), 0),
    # the loser keeps its 1st and 3rd success, discards its 2nd and 4th
    ([8, 2, 2, 2, 2], [7, 5, 5, 5, 5], ((8, 7), (2, 5), (2, 5), (2, 5), (2, 5)), (1, 4), (1, 2), 0),
    # 5 successes for the loser: keeps 1st, 3rd, 5th
    ([9, 1, 1, 1, 1, 1], [8, 2, 2, 2, 2, 2], ((9, 8),) + ((1, 2),) * 5, (1, 5), (1, 3), 0),
    # a tie first: the first pair that is not a tie decides the upper hand
    ([9, 8, 1, 1, 1], [9, 2, 5, 5, 5], ((9, 9), (8, 5), (1, 5), (1, 5), (1, 2)), (1, 3), (1, 2), 0),
    # a out of dice compares as a d1 showing 1: loses to 2, ties with 1
    ([3], [4, 2, 1], ((3, 4), (1, 2), (1, 1)), (0, 2), (0, 2), 1),
    # b out of dice: a's low faces still beat the padded 1s
    ([5, 3, 2], [2], ((5, 2), (3, 1), (2, 1)), (3, 0), (3, 0), 0),
    # all ties: nobody has the upper hand, nobody scores
    ([4, 2], [2, 4], ((4, 4), (2, 2)), (0, 0), (0, 0), None),
    ([1], [], ((1, 1),), (0, 0), (0, 0), None),
    ([], [], (), (0, 0), (0, 0), None),
])
def test_compares_pools_pair_by_pair(a, b, pairs, scored, kept, upper):
    assert compare(a, b) == Comparison(pairs, scored, kept, upper)


def test_refuses_a_face_below_one():
    with pytest.raises(BadInput):
        compare([0], [3])


def test_several_sides_compare_against_one_target_one_by_one():
    results = compare_many([5, 3], [[6], [4, 4], [3, 5]])
    assert results == (
        Comparison(((6, 5), (1, 3)), (1, 1), (1, 1), 0),
        Comparison(((4, 5), (4, 3)), (1, 1), (1, 1), 1),
        Comparison(((5, 5), (3, 3)), (0, 0), (0, 0), None),
    )


faces = st.lists(st.integers(1, 20), max_size=8)


@given(faces, faces)
def test_kept_successes_never_exceed_scored_ones(a, b):
    result = compare(a, b)
    assert all(k <= s for k, s in zip(result.kept, result.scored))
    assert sum(result.scored) + sum(x == y for x, y in result.pairs) == max(len(a), len(b))
    if result.upper_hand is not None:
        assert result.kept[result.upper_hand] == result.scored[result.upper_hand] >= 1


@given(faces, faces)
def test_comparing_the_other_way_round_is_the_mirror(a, b):
    assert compare(b, a) == compare(a, b).mirrored()


# --- effects ---

@pytest.mark.parametrize("split, kept, after, zeroed, goal, died", [
    ({"Wits": 2, "Brawn": 1}, 3, {"Brawn": 2, "Health": 4, "Wits": 4, "Charm": 2},
     (), False, False),
    ({"Charm": 2}, 2, {"Brawn": 3, "Health": 4, "Wits": 6, "Charm": 0}, ("Charm",), True, False),
    ({"Health": 4}, 4, {"Brawn": 3, "Health": 0, "Wits": 6, "Charm": 2}, ("Health",), True, True),
    ({"Brawn": 3, "Charm": 2}, 5, {"Brawn": 0, "Health": 4, "Wits": 6, "Charm": 0},
     ("Brawn", "Charm"), True, False),
    ({}, 0, {"Brawn": 3, "Health": 4, "Wits": 6, "Charm": 2}, (), False, False),
])
def test_kept_successes_land_as_pips(split, kept, after, zeroed, goal, died):
    effect = apply_pips(BOB, split, kept, by=1)
    assert sizes(effect.abilities) == after
    assert (effect.zeroed, effect.goal_gained, effect.died, effect.lost, effect.by) == \
        (zeroed, goal, died, 0, 1)
    assert effect.pips == tuple(sorted((n, p) for n, p in split.items()))


BOB_NO_CHARM = BOB[:3] + (Ability("Charm", "Social", 0),)


@pytest.mark.parametrize("sheet, split, kept", [
    (BOB, {"Wits": 1}, 2),                      # pips short of the kept successes
    (BOB, {"Wits": 3}, 2),                      # more pips than successes
    (BOB, {"Charm": 3}, 3),                     # a d2 cannot lose 3 pips
    (BOB_NO_CHARM, {"Charm": 1, "Wits": 1}, 2),  # Charm is already gone
])
def test_refuses_a_split_against_the_rules(sheet, split, kept):
    with pytest.raises(RuleViolation):
        apply_pips(sheet, split, kept)


def test_says_an_ability_is_gone_rather_than_too_small():
    with pytest.raises(RuleViolation, match="Charm is already gone"):
        apply_pips(BOB_NO_CHARM, {"Charm": 1, "Wits": 1}, 2)


def test_an_ability_cannot_be_smaller_than_gone():
    with pytest.raises(BadInput):
        Ability("Wits", "Mental", -1)


def test_refuses_pips_on_an_ability_the_target_lacks_or_negative_pips():
    with pytest.raises(NotFound):
        apply_pips(BOB, {"Luck": 1}, 1)
    with pytest.raises(BadInput):
        apply_pips(BOB, {"Wits": 3, "Charm": -1}, 2)


def test_pips_beyond_everything_the_target_has_are_lost():
    sheet = (Ability("Health", "Physical", 1), Ability("Wits", "Mental", 0))
    effect = apply_pips(sheet, {"Health": 1}, 3)
    assert sizes(effect.abilities) == {"Health": 0, "Wits": 0}
    assert (effect.lost, effect.died) == (2, True)
    with pytest.raises(RuleViolation):
        apply_pips(sheet, {}, 3)  # must still take the last pip


def test_upper_hand_lands_first_then_the_other_side():
    result = compare([8, 2, 2], [7, 5, 5])  # a: 1 kept with upper hand; b: 2 scored, 1 kept
    first, second = resolve_effects(result, (ANN, BOB), ({"Charm": 1}, {"Brawn": 1}))
    assert (first.by, sizes(first.abilities)["Charm"]) == (0, 1)
    assert (second.by, sizes(second.abilities)["Brawn"]) == (1, 7)
    second_first = resolve_effects(result.mirrored(), (BOB, ANN), ({"Brawn": 1}, {"Charm": 1}))
    assert [e.by for e in second_first] == [1, 0]


@pytest.mark.parametrize("dead_strike_back, ann_health, lost", [(True, 5, 0), (False, 6, 1)])
def test_a_side_killed_by_the_upper_hand_strikes_back_only_if_the_campaign_says_so(
        dead_strike_back, ann_health, lost):
    result = compare([9, 9, 9, 9, 1], [8, 8, 8, 8, 5])  # a: 4 kept, upper hand; b: 1 kept
    first, second = resolve_effects(result, (ANN, BOB), ({"Health": 4}, {"Health": 1}),
                                    dead_strike_back)
    assert first.died
    assert (sizes(second.abilities)["Health"], second.lost) == (ann_health, lost)


@pytest.mark.parametrize("goal, health, zeroed, died", [
    (None, 4, (), False), ("Health", 0, ("Health",), True), ("Charm", 4, ("Charm",), False)])
def test_ceding_gives_the_opposition_its_goal(goal, health, zeroed, died):
    effect = cede(BOB, goal)
    assert (sizes(effect.abilities)["Health"], effect.zeroed, effect.died, effect.goal_gained) == \
        (health, zeroed, died, True)


@given(st.lists(st.integers(0, 6), min_size=1, max_size=4), st.integers(0, 30), st.data())
def test_pips_applied_are_the_kept_successes_or_all_that_is_left(dice, kept, data):
    sheet = tuple(Ability(f"A{i}", "Physical", size) for i, size in enumerate(dice))
    left, split = list(dice), {}
    for _ in range(min(kept, sum(dice))):  # one pip at a time, on any ability not yet gone
        i = data.draw(st.sampled_from([i for i, size in enumerate(left) if size]))
        left[i] -= 1
        split[f"A{i}"] = split.get(f"A{i}", 0) + 1
    effect = apply_pips(sheet, split, kept)
    assert [a.size for a in effect.abilities] == left
    assert effect.lost == kept - min(kept, sum(dice))
    assert effect.zeroed == tuple(f"A{i}" for i, size in enumerate(dice) if size and not left[i])


# --- helping and situational goals, penalty and outcome dice ---

@pytest.mark.parametrize("target, pool, replaced, difficulty", [
    (8, (), (), (8, 8, 8)),
    (8, (2, 2, 2, 2), (0, 1, 2), (8, 8, 8, 2)),
    (6, (4, 2, 2), (1,), (4, 6, 2)),
])
def test_builds_the_difficulty_of_a_goal(target, pool, replaced, difficulty):
    assert goal_difficulty(target, pool, replaced) == difficulty


@pytest.mark.parametrize("pool, replaced", [((2, 2, 2, 2), (0, 1, 2, 3)), ((2, 2), (2,))])
def test_refuses_a_goal_difficulty_against_the_rules(pool, replaced):
    with pytest.raises(RuleViolation):
        goal_difficulty(8, pool, replaced)


@pytest.mark.parametrize("mine, theirs, goal", [
    # three kept successes for a d8: the d8 is used three times; no failures
    ([8, 7, 6], [5, 4, 3], GoalDice(SituationDie(8, 3), ())),
    # one kept success (upper hand) and one kept failure (their 1st of 2 scored)
    ([8, 1, 1], [7, 5, 5], GoalDice(SituationDie(8, 1), (PenaltyDie(8),))),
    # all ties: nothing gained, nothing suffered
    ([4, 4, 4], [4, 4, 4], GoalDice(None, ())),
])
def test_a_goal_yields_situation_uses_and_penalty_dice(mine, theirs, goal):
    assert goal_dice(8, compare(mine, theirs)) == goal


def test_a_goal_reads_the_side_it_is_asked_for():
    assert goal_dice(6, compare([5, 4, 3], [8, 7, 6]), side=1) == GoalDice(SituationDie(6, 3), ())


def test_a_situation_die_joins_once_per_roll_while_it_has_uses():
    held = (SituationDie(8, 3), SituationDie(4, 1))
    assert spend_situation_dice(held) == ((8, 4), (SituationDie(8, 2),))
    assert spend_situation_dice((SituationDie(8, 1),)) == ((8,), ())
    assert spend_situation_dice(()) == ((), ())


def test_a_penalty_die_joins_the_next_roll_once_and_an_inflicted_one_stays():
    held = (PenaltyDie(6), PenaltyDie(6), inflict_outcome_die(10))
    assert spend_penalty_dice(held) == ((6, 6, 10), (PenaltyDie(10, lasting=True),))


def test_an_outcome_die_gained_is_a_new_ability():
    sword = Ability("Sword", "Physical", 6)
    assert gain_outcome_die(BOB, sword) == BOB + (sword,)
    gone = BOB[:3] + (Ability("Charm", "Social", 0),)
    assert sizes(gain_outcome_die(gone, Ability("Charm", "Social", 4)))["Charm"] == 4


@pytest.mark.parametrize("gained", [Ability("Wits", "Mental", 8), Ability("Sword", "Physical", 0)])
def test_refuses_an_outcome_die_that_clashes_or_is_no_die(gained):
    with pytest.raises(RuleViolation):
        gain_outcome_die(BOB, gained)
    with pytest.raises(RuleViolation):
        inflict_outcome_die(0)


# --- Pinned by mutation testing: each could change unnoticed before ----------------------------

def test_extra_dice_cost_whole_points_of_intensity():
    assert [extra_dice_cost(k) for k in range(5)] == [0, 1, 3, 6, 10]
    assert all(type(extra_dice_cost(k)) is int and type(roll_cost(k)) is int for k in range(5))


def test_two_base_dice_of_one_category_are_named_in_the_refusal():
    with pytest.raises(RuleViolation, match="^The base pool takes one die per category; Brawn and Health are both "
                                            "Physical.$"):
        build_pool(ANN, ["Brawn", "Health", "Wits", "Charm"], [], 10)


def test_a_d1_still_owes_its_category_a_base_die():
    worn = (Ability("Brawn", "Physical", 8), Ability("Wits", "Mental", 6), Ability("Charm", "Social", 1))
    with pytest.raises(RuleViolation, match="must include a Social die"):
        build_pool(worn, ["Brawn", "Wits"], [], 10)
    assert build_pool(worn, ["Brawn", "Wits", "Charm"], [], 10).dice == (8, 6, 1)


def test_landed_pips_keep_every_ability_in_its_category_and_accept_an_explicit_zero():
    effect = apply_pips(ANN, {"Brawn": 2, "Wits": 0}, 2)
    assert effect.by == 0
    assert effect.abilities == (Ability("Brawn", "Physical", 6), Ability("Health", "Physical", 6),
                                Ability("Wits", "Mental", 6), Ability("Charm", "Social", 4))
    assert effect.pips == (("Brawn", 2),)


def test_by_default_a_side_killed_by_the_upper_hand_still_lands_its_successes():
    comparison = compare([6, 2], [5, 5])  # side 0 has the upper hand; each side keeps 1 success
    frail = (Ability("Health", "Physical", 1), Ability("Wits", "Mental", 4))
    splits = ({"Health": 1}, {"Brawn": 1})  # side 0 kills side 1; side 1 answers on Brawn
    effects = resolve_effects(comparison, (ANN, frail), splits)
    assert [e.by for e in effects] == [0, 1] and effects[0].died
    assert effects[1].pips == (("Brawn", 1),) and effects[1].lost == 0
    strict = resolve_effects(comparison, (ANN, frail), splits, dead_strike_back=False)
    assert [e.by for e in strict] == [0, 1] and strict[0].died
    assert strict[1].pips == () and strict[1].lost == 1 and sizes(strict[1].abilities) == sizes(ANN)


def test_a_cede_is_by_the_ceding_side_and_zeroes_its_goal_ability():
    assert cede(ANN).by == 0 and cede(ANN, by=1).by == 1
    effect = cede(ANN, "Wits", by=1)
    assert effect.goal_gained and effect.zeroed == ("Wits",) and effect.pips == (("Wits", 6),)


def test_a_situation_die_is_spent_one_use_per_roll():
    joined, left = spend_situation_dice([SituationDie(6, 2), SituationDie(4, 1), SituationDie(8, 0)])
    assert joined == (6, 4) and left == (SituationDie(6, 1),)


def test_outcome_dice_from_d1_up():
    assert gain_outcome_die(ANN, Ability("Six-pack", "Social", 1))[-1] == Ability("Six-pack", "Social", 1)
    assert inflict_outcome_die(1) == PenaltyDie(1, lasting=True)
    for size in (0, -1):
        with pytest.raises(RuleViolation, match="d1 or larger"):
            inflict_outcome_die(size)
    with pytest.raises(RuleViolation, match="d1 or larger"):
        gain_outcome_die(ANN, Ability("Six-pack", "Social", 0))


def test_an_outcome_die_may_not_share_a_live_abilitys_name_even_a_d1():
    worn = (*ANN[:3], Ability("Charm", "Social", 1))
    with pytest.raises(RuleViolation, match="^This character already has Charm; give the new die another name.$"):
        gain_outcome_die(worn, Ability("Charm", "Social", 6))
    gone = (*ANN[:3], Ability("Charm", "Social", 0))
    assert gain_outcome_die(gone, Ability("Charm", "Social", 6))[-1].size == 6  # a gone one comes back
