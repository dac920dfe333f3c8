"""Relics of the Moon: the rules as pure functions over plain values, one module per part of the rules.

Sources: seed 000 (playtest v0.2.0, the step-by-step procedure) and seed 001 (cheat sheet
v0.6.1), with the rulings in shared/RULES.md. No I/O, no randomness, no eventsourcing: the
aggregates call these and store what they return. Where each rule lives:

- versions.py: the rules versions, house rules, the game's named choices (types, Threats)
- modifiers.py: Add Dice, Auto Results, Simple modifiers, ranks, Motto and Rallying Cry
- pools.py: the Cohort pool (lead, assist, Destiny, the cap) and the Auto Results
- placement.py: Simple modifiers on the dice, and the best placement (--best, the odds)
- results.py: a die's result as successes; a pool's tally and Disaster
- tides.py: dice resolved toward the rating, Destiny and Doom after a Cohort turn
- stress.py: Stress shared out, Stressed Out, Push the Limit, Agony, recovery, growth

This package lists them all, so `rules.tides(...)` reads as the rules say it; each is defined once,
in its module.
"""
from __future__ import annotations

from campaign_ledger.ledger.rulesets.relics.rules.versions import (  # noqa: F401
    TYPES, THREATS, FREQUENCIES, DURATIONS, MOST_DICE, RulesVersion, VERSIONS, DEFAULT_VERSION,
    HOUSE_RULES, house_rule, with_house_rules, rules_for, canonical)
from campaign_ledger.ledger.rulesets.relics.rules.modifiers import (  # noqa: F401
    BENEFICIAL, HINDERING, Modifier, parse_modifier, ranked_simple, ranked_add, MOTTO, GM_MOTTO,
    RALLYING_CRY)
from campaign_ledger.ledger.rulesets.relics.rules.pools import (  # noqa: F401
    lead_dice, assist_dice, CohortPool, build_cohort_pool, place_auto_results, threat_autos)
from campaign_ledger.ledger.rulesets.relics.rules.placement import (  # noqa: F401
    Placement, apply_simple, best_placement)
from campaign_ledger.ledger.rulesets.relics.rules.results import (  # noqa: F401
    successes_of, Tally, tally)
from campaign_ledger.ledger.rulesets.relics.rules.tides import (  # noqa: F401
    HAND_OF_DOOM_COST, dice_resolved, tides, cap_destiny)
from campaign_ledger.ledger.rulesets.relics.rules.stress import (  # noqa: F401
    HAND_OF_DOOM_STRESS, DOWNTIME_STRESS, check_distribution, stressed_out, push_the_limit,
    out_of_the_game, set_recovery, growth_bonus)
