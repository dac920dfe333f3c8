"""Undo over the action-dice and decision-2d6 play the undo oracle plays (issue 33): asset and
feature changes, rolls with assets, features, tests and GM overrides, conditions set, worsened,
eased and treated; decision rolls, contests, supply and tracker rolls (with GM overrides when
empty), restocks, refills and score changes. tests/test_undo_rulesets.py plays rolls and
conditions only. The property and how state is compared: tests/undo_property.py.
"""
from __future__ import annotations

from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_ledger.ledger.rulesets.decision_2d6.rolls import Side
from tests.undo_property import NO_SHRINK, Played, undo_a_unit

ACTIONS = ("climb", "sneak", "run")
DICE = ("d4", "d6", "d8", "d10", "d12")
ASSETS = {"Mara": {"Athletics": "d8", "Lockpicks": "d6"}, "Tobin": {"Lore": "d10"}}


def _action_dice(p: Played) -> Callable[[Played, st.DataObject], None]:
    for name, assets in ASSETS.items():
        p("add_action_character", name, assets, ["Lucky"])
    return _action_dice_move


def _action_dice_move(p: Played, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(("Mara", "Tobin")))
    move = data.draw(st.sampled_from(("roll", "roll", "condition", "worsen", "ease", "treat", "asset", "asset",
                                      "feature")))
    if move == "roll":
        impacted = data.draw(st.booleans())  # a Bruised climb at level 3 needs the GM's override
        p("roll_action", name, "climb" if impacted else data.draw(st.sampled_from(ACTIONS)),
          rating=data.draw(st.sampled_from(("D4", "D6", "D8"))), advantages=data.draw(st.integers(0, 1)),
          assets=data.draw(st.sampled_from(([], ["Athletics"], ["Lore"]))),
          features=data.draw(st.sampled_from(([], ["Lucky"]))),
          faces=data.draw(st.lists(st.integers(1, 4), min_size=3, max_size=3)), test=data.draw(st.booleans()),
          gm_override=data.draw(st.sampled_from((None, "a friend holds the rope"))))
    elif move == "condition":
        p("set_action_condition", name, "Bruised", data.draw(st.integers(1, 3)), ["climb"])
    elif move in ("worsen", "ease"):
        p("change_action_condition", name, "Bruised", 1 if move == "worsen" else -1)
    elif move == "treat":
        p("treat_action_condition", name, "Bruised")
    elif move == "asset":
        p("set_action_asset", name, data.draw(st.sampled_from((*ASSETS[name], "Grit"))),  # a die changed or a new one
          data.draw(st.sampled_from(DICE)))
    else:
        p("add_action_feature", name, data.draw(st.sampled_from(("Cat-like", "Scholar"))))


def _decision_2d6(p: Played) -> Callable[[Played, st.DataObject], None]:
    p("d2d6_add_character", "Billy", 3, 2, 3, {"Strength": 1, "Agility": 2})
    p("d2d6_add_character", "Ogre", 2, 2, 4, {"Strength": 3, "Wits": 0})
    p("d2d6_add_item", "Torches", "D6", "Billy")
    p("d2d6_add_tracker", "Arrows", 40, None, "Billy")
    return _decision_2d6_move


def _two_dice(data: st.DataObject) -> list[int]:
    return data.draw(st.lists(st.integers(1, 5), min_size=2, max_size=2))  # no 6: nothing explodes


def _decision_2d6_move(p: Played, data: st.DataObject) -> None:
    move = data.draw(st.sampled_from(("roll", "contest", "contest", "supply", "tracker", "restock", "refill",
                                      "score")))
    override = data.draw(st.sampled_from((None, "one last torch")))  # refused unless the die or tracker is out
    if move == "roll":
        p("d2d6_roll", "Billy", "Strength", target=8, faces=_two_dice(data))
    elif move == "contest":  # a tie is refused (the table rolls again): nothing is appended
        p("d2d6_contest", Side("Billy", "Agility"), Side("Ogre", "Strength"),
          grants=data.draw(st.sampled_from(((), ("Billy",)))), rounds=[(_two_dice(data), _two_dice(data))],
          purpose="a shoving match")
    elif move == "supply":
        p("d2d6_supply_roll", "Torches", faces=None if override else [data.draw(st.integers(1, 6))],
          override=override)  # a use by override rolls no die
    elif move == "tracker":
        p("d2d6_tracker_roll", "Arrows", faces=None if override else [data.draw(st.integers(1, 100))],
          override=override)
    elif move == "restock":
        p("d2d6_restock", "Torches", data.draw(st.sampled_from(("D4", "D8"))), "bought in town")
    elif move == "refill":
        p("d2d6_tracker_set", "Arrows", data.draw(st.sampled_from((20, 70))), "a new quiver")
    else:
        p("d2d6_change", "Ogre", stats={"Wits": data.draw(st.integers(-1, 2))}, why="training")


SETUPS = {"action-dice": _action_dice, "decision-2d6": _decision_2d6}


@pytest.mark.parametrize("ruleset", sorted(SETUPS))
@settings(max_examples=10, deadline=None, phases=NO_SHRINK,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_undoing_any_unit_leaves_the_ruleset_as_if_it_had_never_been_played(tmp_path_factory, data, ruleset):
    folder = tmp_path_factory.mktemp("undo")
    p = Played(str(folder / "c.db"))
    p("start", "Undo everything", ruleset, None)
    move = SETUPS[ruleset](p)
    set_up = p.entries
    for _ in range(data.draw(st.integers(2, 10))):
        move(p, data)
    undo_a_unit(p, str(folder / "scratch.db"), set_up, data)
