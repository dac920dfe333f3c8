"""Beer Run (`beer-run`): opposed mixed-size pools, Intensity, abilities worn down by pips.

Pure functions over plain values: faces are always passed in, nothing is rolled or stored
here, so a replay reaches the same result as the live command. Seed: `002_82d154e100c0dead.txt`
("Resolution"); rulings from RULES.md "Beer Run" win over it. Sides of a comparison are 0 and 1.
Where each rule lives:

- abilities.py: dice notation, pips, faces, abilities and their categories
- pools.py: the base pool and extra dice, and their Intensity
- compare.py: comparing two rolls: pairs, upper hand, kept successes
- pips.py: landing kept successes as pips, zero, death, Cede
- goals.py: helping and situational goals (situation and penalty dice), Outcome dice

This package lists them all; each is defined once, in its module.
"""
from __future__ import annotations

from campaign_ledger.ledger.rulesets.beer_run.rules.abilities import (  # noqa: F401
    DEFAULT_CATEGORIES, HEALTH, parse_die, format_die, lower, check_faces, Ability, find)
from campaign_ledger.ledger.rulesets.beer_run.rules.pools import (  # noqa: F401
    INTENSITY_MAX, extra_dice_cost, roll_cost, Pool, build_pool)
from campaign_ledger.ledger.rulesets.beer_run.rules.compare import (  # noqa: F401
    Comparison, compare, compare_many)
from campaign_ledger.ledger.rulesets.beer_run.rules.pips import (  # noqa: F401
    Effect, apply_pips, resolve_effects, cede)
from campaign_ledger.ledger.rulesets.beer_run.rules.goals import (  # noqa: F401
    GOAL_DIFFICULTY_DICE, SituationDie, PenaltyDie, goal_difficulty, GoalDice, goal_dice,
    spend_situation_dice, spend_penalty_dice, gain_outcome_die, inflict_outcome_die)
