"""Rules of the `decision-2d6` ruleset (seed 004), as pure functions over plain values.

Why pure: dice are facts. Every face arrives as a value (rolled by `ledger.dice` or typed
in at the table), so replaying a campaign computes the same result without rolling again.
Nothing here rolls, reads or writes; refusals are `RuleViolation`, unreadable input `BadInput`.
Where each rule lives (each module states its rulings where the seed is silent):

- modifiers.py: bonuses, penalties and modifiers; the advantage scale
- decision.py: exploding decision dice, the roll's total, target numbers and success
- contests.py: contested rolls, tie rerolls, contested advantage
- stats.py: Stress and Vitality (the rounding rule)
- supplies.py: supply dice and D100 trackers

This package lists them all; each is defined once, in its module.
"""
from __future__ import annotations

from campaign_ledger.ledger.rulesets.decision_2d6.rules.modifiers import (  # noqa: F401
    whole, ModifierKind, Modifier, bonus, penalty, counted_modifiers, Advantage, shift_advantage,
    grant_advantage)
from campaign_ledger.ledger.rulesets.decision_2d6.rules.decision import (  # noqa: F401
    DIE_MAX, dice_still_needed, split_chains, DecisionRoll, decision_roll, Difficulty, target_number,
    succeeds)
from campaign_ledger.ledger.rulesets.decision_2d6.rules.contests import (  # noqa: F401
    Side, Contestant, Contest, contested_advantage, contest)
from campaign_ledger.ledger.rulesets.decision_2d6.rules.stats import (  # noqa: F401
    stress, vitality)
from campaign_ledger.ledger.rulesets.decision_2d6.rules.supplies import (  # noqa: F401
    DEFAULT_SUPPLY_THRESHOLD, DEFAULT_D100_STEP, SupplyDie, SupplyRoll, supply_roll, supply_rolls,
    D100Tracker, D100Use, d100_use)
