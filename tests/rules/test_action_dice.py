"""Action dice (`action-dice`, seed 003): every table in the seed, row by row."""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.action_dice.rules import (
    ASSET_SIZES,
    DEFAULT_FEATURES_LIMIT,
    ActionResult,
    ChallengeRating,
    Condition,
    Outcome,
    action_difficulty,
    action_pool,
    base_difficulty,
    change_condition,
    check_faces,
    count_successes,
    net_position,
    outcome_for,
    parse_challenge_rating,
    resolve_action,
    rule_breaks,
)

D8S = (8, 8, 8)


# --- Difficulty ladder (seed "Difficulty" table) ----------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("XX", 1), ("xx", 1), ("D4", 2), ("d4", 2), ("D6", 3), ("d6", 3),
    ("D8", 4), (" d8 ", 4), ("D10", 5), ("d10", 5), ("D12", 6), ("d12", 6),
    (ChallengeRating.D8, 4),
])
def test_challenge_rating_gives_base_difficulty(text, expected):
    assert base_difficulty(text) == expected


@pytest.mark.parametrize("chosen", [7, 8, 9, 10])
def test_almost_impossible_takes_the_gms_choice(chosen):
    assert parse_challenge_rating("++") is ChallengeRating.PLUS
    assert base_difficulty("++", chosen) == chosen


@pytest.mark.parametrize("chosen", [-1, 0, 1, 6, 11, 20])
def test_almost_impossible_refuses_outside_seven_to_ten(chosen):
    with pytest.raises(RuleViolation, match="7 to 10"):
        base_difficulty("++", chosen)


def test_almost_impossible_needs_a_choice():
    with pytest.raises(BadInput, match="choose"):
        base_difficulty("++")


def test_fixed_rating_refuses_a_different_choice_but_accepts_its_own():
    assert base_difficulty("D8", 4) == 4
    with pytest.raises(BadInput, match="only \\+\\+"):
        base_difficulty("D8", 7)


@pytest.mark.parametrize("text", ["D20", "d3", "D", "", "+", "X", "8", "hard"])
def test_unknown_rating_is_unreadable(text):
    with pytest.raises(BadInput, match="challenge rating"):
        parse_challenge_rating(text)


# --- Fictional positioning (seed "Difficulty"; RULES.md clamp to 1-10) ------------------

@pytest.mark.parametrize("adv, dis, net", [
    (0, 0, 0), (1, 0, 1), (0, 1, -1), (1, 1, 0), (3, 0, 1), (0, 3, -1), (3, 1, 1), (1, 4, -1),
    (2, 2, 0),
])
def test_advantages_and_disadvantages_cancel_to_one_step(adv, dis, net):
    assert net_position(adv, dis) == net


@pytest.mark.parametrize("base, adv, dis, expected", [
    (5, 0, 0, 5), (5, 1, 0, 4), (5, 0, 1, 6), (5, 2, 2, 5), (5, 4, 1, 4), (5, 0, 4, 6),
    (1, 1, 0, 1), (1, 3, 0, 1), (1, 0, 1, 2), (2, 1, 0, 1),
    (10, 0, 1, 10), (10, 0, 3, 10), (10, 1, 0, 9), (9, 0, 1, 10),
])
def test_position_moves_difficulty_one_step_within_one_to_ten(base, adv, dis, expected):
    assert action_difficulty(base, adv, dis) == expected


@pytest.mark.parametrize("base", [0, 11, -3])
def test_difficulty_off_the_scale_is_refused(base):
    with pytest.raises(RuleViolation, match="1 to 10"):
        action_difficulty(base)


@pytest.mark.parametrize("adv, dis", [(-1, 0), (0, -2), (1.5, 0), ("1", 0), (True, 0)])
def test_unreadable_counts_are_bad_input(adv, dis):
    with pytest.raises(BadInput):
        action_difficulty(5, adv, dis)


@given(st.integers(1, 10), st.integers(0, 20), st.integers(0, 20))
def test_position_never_leaves_the_scale_nor_moves_more_than_one(base, adv, dis):
    result = action_difficulty(base, adv, dis)
    assert 1 <= result <= 10
    assert abs(result - base) <= 1
    if adv > dis:
        assert result <= base
    if dis > adv:
        assert result >= base


# --- The pool: always three dice, d4 padding (seed "Ability") --------------------------

@pytest.mark.parametrize("assets, expected", [
    ((), (4, 4, 4)),
    (("d8",), (8, 4, 4)),
    (("D12", "d6"), (12, 6, 4)),
    (("d6", "d10", "d12"), (6, 10, 12)),
    ((8, "d4"), (8, 4, 4)),
    (("d4", "d4", "d4"), (4, 4, 4)),
])
def test_pool_pads_missing_assets_with_d4(assets, expected):
    assert action_pool(assets) == expected


def test_more_than_three_assets_is_refused():
    with pytest.raises(RuleViolation, match="at most 3 assets"):
        action_pool(("d6", "d8", "d10", "d12"))


@pytest.mark.parametrize("die", ["d7", "d20", "d2", "x", "", "d", "-4", True, 3])
def test_unknown_die_size_is_unreadable(die):
    with pytest.raises(BadInput, match="asset die"):
        action_pool((die,))


# --- Faces against the pool -------------------------------------------------------------

@pytest.mark.parametrize("dice, faces, message", [
    ((4, 4, 4), (1, 2), "3 faces"),
    ((4, 4, 4), (1, 2, 3, 4), "3 faces"),
    ((4, 4, 4), (1, 2, 5), "d4 shows 1 to 4"),
    ((8, 12, 4), (8, 13, 1), "d12 shows 1 to 12"),
    ((6, 6, 6), (0, 1, 1), "d6 shows 1 to 6"),
    ((6, 6, 6), ("3", 1, 1), "whole number"),
    ((6, 6), (1, 1, 1), "exactly 3 dice"),
])
def test_faces_are_checked_die_by_die(dice, faces, message):
    with pytest.raises(BadInput, match=message):
        check_faces(dice, faces)


def test_faces_at_each_dies_top_are_accepted():
    assert check_faces((4, 8, 12), (4, 8, 12)) == (4, 8, 12)


# --- Outcome (seed "Outcome" table and "Binary outcomes") -------------------------------

@pytest.mark.parametrize("successes, outcome, label, binary", [
    (0, Outcome.COMPLETE_FAILURE, "Complete Failure", False),
    (1, Outcome.MOSTLY_FAILURE, "Mostly Failure", False),
    (2, Outcome.MOSTLY_SUCCESS, "Mostly Success", True),
    (3, Outcome.COMPLETE_SUCCESS, "Complete Success", True),
])
def test_outcome_table(successes, outcome, label, binary):
    assert outcome_for(successes) is outcome
    assert outcome.value == label
    assert outcome.succeeded is binary


@pytest.mark.parametrize("successes", [-1, 4])
def test_outcome_for_impossible_success_count(successes):
    with pytest.raises(BadInput):
        outcome_for(successes)


@pytest.mark.parametrize("faces, successes, outcome, binary", [
    ((5, 6, 8), 3, Outcome.COMPLETE_SUCCESS, True),
    ((5, 6, 4), 2, Outcome.MOSTLY_SUCCESS, True),
    ((1, 8, 4), 1, Outcome.MOSTLY_FAILURE, False),
    ((4, 4, 4), 0, Outcome.COMPLETE_FAILURE, False),   # a tie is not a beat
    ((1, 2, 3), 0, Outcome.COMPLETE_FAILURE, False),
])
def test_roll_against_difficulty_four(faces, successes, outcome, binary):
    result = resolve_action("climb", 4, D8S, faces)
    assert (result.successes, result.outcome, result.succeeded) == (successes, outcome, binary)
    assert (result.dice, result.faces, result.difficulty) == (D8S, faces, 4)


@pytest.mark.parametrize("difficulty", range(1, 11))
def test_a_die_must_strictly_beat_every_difficulty(difficulty):
    faces = (difficulty, difficulty + 1, max(1, difficulty - 1))   # tie, beat, below
    assert count_successes(faces, difficulty) == 1
    result = resolve_action("act", difficulty, (12, 12, 12), faces)
    assert result.outcome is Outcome.MOSTLY_FAILURE


def test_difficulty_ten_needs_an_eleven_or_twelve_on_a_d12():
    result = resolve_action("leap the chasm", 10, (12, 12, 4), (11, 10, 4))
    assert result.outcome is Outcome.MOSTLY_FAILURE


def test_roll_refuses_difficulty_off_the_scale():
    with pytest.raises(RuleViolation, match="1 to 10"):
        resolve_action("climb", 11, D8S, (8, 8, 8))


@given(st.tuples(*[st.sampled_from(ASSET_SIZES)] * 3).flatmap(
    lambda dice: st.tuples(st.just(dice), st.tuples(*[st.integers(1, d) for d in dice]))),
    st.integers(1, 9))
def test_harder_never_gives_more_successes(dice_and_faces, difficulty):
    dice, faces = dice_and_faces
    easier = resolve_action("act", difficulty, dice, faces)
    harder = resolve_action("act", difficulty + 1, dice, faces)
    assert harder.successes <= easier.successes
    assert easier.successes - harder.successes == faces.count(difficulty + 1)
    assert easier.outcome is outcome_for(easier.successes)


def test_result_is_immutable():
    result = resolve_action("climb", 4, D8S, (5, 5, 5))
    assert isinstance(result, ActionResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.successes = 0  # type: ignore[misc]


# --- Conditions and incapacitation (seed "Incapacitated") -------------------------------

BROKEN_ARM = Condition("Broken arm", 3, frozenset({"Melee", "climb"}))


@pytest.mark.parametrize("level", [0, 4, -1])
def test_condition_level_runs_one_to_three(level):
    with pytest.raises(RuleViolation, match="1 to 3"):
        Condition("Bleeding", level, frozenset({"run"}))


@pytest.mark.parametrize("level, steps, expected", [
    (1, 1, 2), (2, 1, 3), (3, 1, 3), (1, 9, 3), (2, 0, 2),
    (3, -1, 2), (2, -1, 1), (1, -1, None), (3, -5, None),
])
def test_condition_level_changes_are_clamped(level, steps, expected):
    changed = change_condition(Condition("Bleeding", level, frozenset({"run"})), steps)
    assert (changed.level if changed else None) == expected
    if changed:
        assert (changed.name, changed.impacts) == ("Bleeding", frozenset({"run"}))


@pytest.mark.parametrize("action", ["melee", "MELEE", " Melee ", "climb"])
def test_level_three_condition_refuses_the_actions_it_impacts(action):
    with pytest.raises(RuleViolation, match="incapacitated by Broken arm"):
        resolve_action(action, 4, D8S, (5, 5, 5), conditions=[BROKEN_ARM])


@pytest.mark.parametrize("condition, action", [
    (BROKEN_ARM, "persuade"),                                  # not impacted
    (Condition("Broken arm", 2, frozenset({"melee"})), "melee"),  # not yet severe
    (Condition("Broken arm", 1, frozenset({"melee"})), "melee"),
])
def test_other_actions_and_lesser_levels_still_roll(condition, action):
    result = resolve_action(action, 4, D8S, (5, 5, 5), conditions=[condition])
    assert result.overridden == () and result.gm_override is None


def test_gm_override_allows_an_incapacitated_roll_and_records_it():
    result = resolve_action("melee", 4, D8S, (5, 5, 1), conditions=[BROKEN_ARM],
                            gm_override="  Adrenaline: the scene calls for one swing. ")
    assert result.outcome is Outcome.MOSTLY_SUCCESS
    assert result.gm_override == "Adrenaline: the scene calls for one swing."
    assert len(result.overridden) == 1 and "Broken arm" in result.overridden[0]


@pytest.mark.parametrize("reason", ["", "   "])
def test_override_needs_a_reason(reason):
    with pytest.raises(BadInput, match="reason"):
        resolve_action("melee", 4, D8S, (5, 5, 5), conditions=[BROKEN_ARM], gm_override=reason)


def test_rule_breaks_can_be_asked_before_rolling():
    assert rule_breaks("melee", [BROKEN_ARM]) != ()
    assert rule_breaks("persuade", [BROKEN_ARM]) == ()


# --- Features (seed "Ability": features limit) ------------------------------------------

def test_default_features_limit_is_three():
    assert DEFAULT_FEATURES_LIMIT == 3
    ok = resolve_action("climb", 4, D8S, (5, 5, 5), features=["Nimble", "Rope", "Grit"])
    assert ok.features == ("Nimble", "Rope", "Grit")
    with pytest.raises(RuleViolation, match="4 features.*limit of 3"):
        resolve_action("climb", 4, D8S, (5, 5, 5), features=["Nimble", "Rope", "Grit", "Luck"])


@pytest.mark.parametrize("limit, count, allowed", [
    (0, 0, True), (0, 1, False), (1, 1, True), (1, 2, False), (5, 5, True), (5, 6, False),
])
def test_features_limit_is_a_setting(limit, count, allowed):
    features = [f"Feature {n}" for n in range(count)]
    if allowed:
        result = resolve_action("climb", 4, D8S, (5, 5, 5), features=features, features_limit=limit)
        assert result.features == tuple(features)
    else:
        with pytest.raises(RuleViolation, match=f"limit of {limit}"):
            resolve_action("climb", 4, D8S, (5, 5, 5), features=features, features_limit=limit)


def test_gm_override_allows_extra_features_and_records_it():
    result = resolve_action("climb", 4, D8S, (5, 5, 5), features=["A", "B"], features_limit=1,
                            gm_override="Heroic moment.")
    assert result.features == ("A", "B") and "limit of 1" in result.overridden[0]


@pytest.mark.parametrize("features, limit", [([""], 3), (["Nimble"], -1), (["Nimble"], 1.0)])
def test_unreadable_features_or_limit(features, limit):
    with pytest.raises(BadInput):
        resolve_action("climb", 4, D8S, (5, 5, 5), features=features, features_limit=limit)


# --- Messages are one sentence for the GM -----------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: base_difficulty("++", 11),
    lambda: action_pool(("d6", "d8", "d10", "d12")),
    lambda: resolve_action("melee", 4, D8S, (5, 5, 5), conditions=[BROKEN_ARM]),
    lambda: resolve_action("climb", 4, D8S, (5, 5, 5), features=["a", "b"], features_limit=1),
    lambda: check_faces((4, 4, 4), (1, 2, 5)),
    lambda: parse_challenge_rating("D20"),
])
def test_refusals_are_one_sentence(call):
    with pytest.raises((RuleViolation, BadInput)) as info:
        call()
    message = str(info.value)
    assert message.endswith(".") and "\n" not in message
    assert message.count(". ") == 0


# --- Defaults, names and recorded words (each pinned: mutation testing found them unguarded) ------

def test_position_and_difficulty_default_to_no_advantage_either_way():
    assert net_position() == 0
    assert net_position(1) == 1 and net_position(disadvantages=1) == -1
    assert action_difficulty(5) == 5
    assert action_difficulty(5, 1) == 4 and action_difficulty(5, disadvantages=1) == 6


@pytest.mark.parametrize("name", ["", "   "])
def test_a_condition_needs_a_name(name):
    with pytest.raises(BadInput, match="needs a name"):
        Condition(name, 1)


def test_a_conditions_impacts_are_read_as_the_gm_types_them():
    condition = Condition("Sprained Ankle", 3, frozenset({" Climb ", "RUN"}))
    assert condition.impacts == frozenset({"climb", "run"})
    assert condition.incapacitates("climb") and condition.incapacitates(" Run")


def test_an_incapacitation_names_the_action_as_recorded():
    breaks = rule_breaks(" Climb ", [Condition("Sprained Ankle", 3, frozenset({"climb"}))])
    assert breaks == ("The character is incapacitated by Sprained Ankle (level 3) and cannot attempt "
                      "climb until it is treated.",)


def test_a_roll_records_its_action_as_matched():
    result = resolve_action(" Climb ", 4, action_pool(["d8"]), [5, 1, 1])
    assert result.action == "climb"
