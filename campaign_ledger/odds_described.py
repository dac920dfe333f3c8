"""The odds of a pool described in full, with no campaign (`campaign odds --ruleset ID`): one
function per ruleset, taking every figure a campaign's odds would read from its ledger (the Threat,
the PCs, a Challenge's rating). One that is needed and missing is refused by name, never guessed.

The figures are those of a campaign's odds (campaign_ledger/odds_campaign.py), exact Fractions;
each refusal is the CLI's, word for word (it names the CLI's options, as `--json` does).
"""
from __future__ import annotations

from typing import Any, Sequence

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.odds_campaign import level_name, positions_from_one


def _missing(needed: dict[str, object], why: str) -> None:
    """Refuse, naming every option still needed and what for."""
    absent = [name for name, value in needed.items() if value is None]
    if absent:
        raise BadInput(f"Without a campaign {why} need {', '.join(absent)}.")


# --- Relics of the Moon -----------------------------------------------------------------------------

def relics(*, dice: int | None = None, traits: Sequence[str] = (), challenge_turn: bool = False,
           threat: str | None = None, rating: int | None = None, resolved: int = 0, pcs: int | None = None,
           destiny_pool: int = 0, needed: int | None = None, rules_version: str | None = None) -> dict:
    """A Relics pool: `dice` before its traits, each trait a modifier as the rules write it (`+1d6`,
    `A6 / 1d`, `-2 / 1d`, `A1 / 1d=hindering`); a Cohort turn needs `threat`, `rating` and `pcs`,
    a Challenge turn (`challenge_turn`) only its rating as `dice`."""
    from campaign_ledger.ledger.rulesets.relics import odds as odds_of
    from campaign_ledger.ledger.rulesets.relics import rules as relics_rules

    rules = relics_rules.rules_for(rules_version or relics_rules.DEFAULT_VERSION)
    _missing({"--dice": dice}, "a pool's odds")
    for option, value, low, high in (("--dice", dice, 0, relics_rules.MOST_DICE), ("--resolved", resolved, 0, None),
                                     ("--destiny-pool", destiny_pool, 0, None), ("--pcs", pcs, 1, None),
                                     ("--rating", rating, 1, relics_rules.MOST_DICE), ("--needed", needed, 0, None)):
        if value is not None and (value < low or (high is not None and value > high)):
            raise BadInput(f"{option} is {low} or more{f' and at most {high}' if high else ''}, not {value}.")
    if challenge_turn and dice is not None and resolved > dice:  # its pool is the rating: autos past it were dropped
        raise BadInput(f"--resolved is at most --dice ({dice}), the Challenge's rating, not {resolved}.")
    if not challenge_turn and rating is not None and resolved and resolved >= rating:
        raise BadInput(f"--resolved is less than --rating ({rating}), not {resolved}: a Challenge with every "
                       "die resolved is over.")
    threat = relics_rules.canonical(threat, relics_rules.THREATS, "Threat") if threat is not None else None
    mods = [_modifier(relics_rules, text) for text in traits]
    adds = [m for m in mods if m.kind == "add"]
    autos = [m for m in mods if m.kind == "auto"]
    if challenge_turn:
        if adds:
            raise BadInput("The Challenge pool is its rating (--dice); Add Dice do not change it.")
        if resolved:
            _missing({"--threat": threat}, "the Threat's Auto Results on resolved dice")
        size, base = dice, relics_rules.threat_autos(rules, threat, resolved) if resolved else ()
        capped: dict[str, Any] = {}  # a Challenge's pool is its rating: no cap
    else:
        _missing({"--threat": threat, "--rating": rating, "--pcs": pcs},
                 "a Cohort turn's Tides and dice resolved")
        built = relics_rules.build_cohort_pool(dice, adds, 0, 0, rules.pool_cap_per_pc * pcs)  # type: ignore[operator]
        size, base, capped = built.size, (), {"cap": built.cap, "lost_to_cap": built.lost_to_cap}
    placed, _ = relics_rules.place_auto_results(size, [m for m in autos if m.polarity == relics_rules.HINDERING],
                                                [m for m in autos if m.polarity == relics_rules.BENEFICIAL], base)
    simple = [m for m in mods if m.kind == "simple"]
    pool = odds_of.Pool(size - len(placed), placed, tuple(simple))
    if challenge_turn:
        figures = odds_of.challenge_odds(pool)
    else:
        figures = odds_of.cohort_odds(pool, odds_of.CohortContext(rules, threat, pcs, destiny_pool, rating,
                                                                  resolved, needed))
    return {"ruleset": "relics", "challenge": None, "round": None, "side": "challenge" if challenge_turn else "cohort",
            "waiting": False, "threat": threat, "rating": rating if not challenge_turn else dice,
            "already_resolved": resolved,
            "pool": {"roll": pool.rolled, "autos": list(placed), **capped,
                     "simple": [{"label": f"--trait {i + 1}", "modifier": str(m), "polarity": m.polarity}
                                for i, m in enumerate(simple)]}, **figures}


def _modifier(relics_rules: Any, text: str) -> Any:
    """`+1 / 2d`, or `A1 / 1d=hindering` for a hindering Auto Result (a sign says it for the others)."""
    body, _, polarity = text.rpartition("=") if "=" in text else (text, "", "")
    return relics_rules.parse_modifier(body, polarity.strip().lower() or None)


# --- decision-2d6 -----------------------------------------------------------------------------------

def decision(*, stat: int = 0, target: int | None = None, difficulty: str | None = None, bonuses: Sequence[int] = (),
             penalties: Sequence[int] = (), modifiers: Sequence[int] = (), advantage: str = "neutral",
             grants: int = 0, against_stat: int | None = None, die: str | None = None, threshold: int | None = None,
             tracker_value: int | None = None, step: int | None = None) -> dict:
    """A decision roll of `stat` with its modifiers; with `against_stat` a contest (`advantage`: the
    first side's place on the scale); or, instead, a supply `die` or a tracker at `tracker_value`."""
    from campaign_ledger.decision_2d6 import stated
    from campaign_ledger.ledger.rulesets.decision_2d6 import odds as odds_of
    from campaign_ledger.ledger.rulesets.decision_2d6 import rolls
    from campaign_ledger.ledger.rulesets.decision_2d6 import rules as d2

    if sum(x is not None for x in (against_stat, die, tracker_value)) > 1:
        raise BadInput("Ask about one thing: a roll (with --against-stat, a contest), --die or --tracker-value.")
    if tracker_value is not None:
        tracker, points = d2.D100Tracker(tracker_value), d2.DEFAULT_D100_STEP if step is None else step
        if points < 0:
            raise BadInput(f"A tracker's step cannot be negative, and {points} is.")
        return {"ruleset": "decision-2d6", "tracker": None, "value": tracker.value, "step": points,
                **odds_of.tracker_odds(tracker.value, points)}
    if die is not None:
        supply = _supply_die(d2, die)
        limit = d2.DEFAULT_SUPPLY_THRESHOLD if threshold is None else threshold
        if limit < 0:
            raise BadInput(f"The supply threshold cannot be negative, and {limit} is.")
        return {"ruleset": "decision-2d6", "item": None, "die": "Empty" if supply is d2.SupplyDie.EMPTY else supply.name,
                "threshold": limit, **odds_of.supply_odds(supply, limit)}
    rules_mods = [s.rule() for s in stated(bonuses, penalties, modifiers)]
    level = d2.grant_advantage(rolls.advantage(advantage), grants)
    if against_stat is not None:
        if target is not None or difficulty is not None:
            raise BadInput("A contest has no target: the higher total wins.")
        levels = d2.contested_advantage(level)
        people = [d2.Contestant(stat, tuple(rules_mods), levels[0]), d2.Contestant(against_stat, (), levels[1])]
        sides = [{"name": name, "stat": "stat", "stat_value": p.stat, "modifier_total": d2.counted_modifiers(p.modifiers),
                  "advantage": level_name(p.advantage), "decision_dice": p.advantage.decision_dice}
                 for name, p in zip(("First", "Second"), people)]
        return {"ruleset": "decision-2d6", "contest": sides, "position": level_name(level),
                **odds_of.contest_odds(*people)}
    number, label = rolls.target(target, difficulty)
    figures = odds_of.decision_odds(stat, rules_mods, level, number)
    return {"ruleset": "decision-2d6", "character": None, "stat": "stat", "stat_value": stat,
            "modifier_total": d2.counted_modifiers(rules_mods), "advantage": level_name(level),
            "decision_dice": level.decision_dice, "target": number, "difficulty": label, **figures,
            "levels": {k.lower().replace("_", "-"): v for k, v in
                       odds_of.every_level(stat, rules_mods, number).items()}}


def _supply_die(d2: Any, text: str) -> Any:
    name = text.strip().upper()
    for die in d2.SupplyDie:
        if die.name == name or (name == "EMPTY" and die.value == 0):
            return die
    raise BadInput(f"A supply die is D12, D10, D8, D6, D4 or Empty, not '{text}'.")


# --- action dice -----------------------------------------------------------------------------------

def action(*, rating: str | None = None, difficulty: int | None = None, advantages: int = 0,
           disadvantages: int = 0, assets: Sequence[str] = ()) -> dict:
    """An action roll against a challenge `rating` (or a `difficulty` 1-10), with asset dice (`d8`)."""
    from campaign_ledger.ledger.rulesets.action_dice import commands as system
    from campaign_ledger.ledger.rulesets.action_dice import odds as odds_of
    from campaign_ledger.ledger.rulesets.action_dice import rules

    rated, base = system.base_difficulty(rating, difficulty)
    target = rules.action_difficulty(base, advantages, disadvantages)
    dice = list(rules.action_pool(list(assets)))
    return {"ruleset": "action-dice", "character": None, "action": None, "rating": rated, "base": base,
            "difficulty": target, "assets": list(assets), "dice": dice, "refused_without_override": [],
            **odds_of.outcome_odds(dice, target)}


# --- Beer Run --------------------------------------------------------------------------------------

def beer_run(*, pool: Sequence[str] | None = None, against: Sequence[str] | None = None, goal: str | None = None,
             goal_against: Sequence[str] = (), replace: Sequence[int] = (), penalty: Sequence[str] = ()) -> dict:
    """A pool of dice (`["d8", "d6"]`) against an opposing pool (`against`), or against a goal's
    difficulty pool (`goal`: the die sought; `replace`: its dice, from 1, that become that die)."""
    from campaign_ledger.ledger.rulesets.beer_run import odds as odds_of
    from campaign_ledger.ledger.rulesets.beer_run import rules

    def dice(given: Sequence[str] | None) -> list[int]:
        return [rules.parse_die(d) for d in given or ()]

    _missing({"--pool": pool}, "a Beer Run roll's odds")
    if (against is None) == (goal is None):
        raise BadInput("Compare --pool with an opposing pool (--against) or with a goal's difficulty (--goal dN).")
    if goal is not None:
        size = rules.parse_die(goal)
        positions = [n - 1 for n in positions_from_one(replace)]
        difficulty = list(rules.goal_difficulty(size, dice(goal_against), positions))
        figures = odds_of.goal_odds(odds_of.Side(tuple(dice(pool))), odds_of.Side(tuple(difficulty + dice(penalty))))
        return {"ruleset": "beer-run", "helping": {"conflict": None, "round": None, "helper": "the roller",
                                                   "ally": "its ally (or itself, later)", "die": size,
                                                   "abilities": [], "dice": dice(pool), "situation": [], "cost": None,
                                                   "intensity": None, "difficulty": difficulty,
                                                   "penalty": dice(penalty), **figures}}
    if goal_against or replace or penalty:
        raise BadInput("--goal-against, --replace and --penalty belong to a goal's roll (--goal dN).")
    sides = [{"side": name, "rolled": False, "abilities": [], "dice": d, "faces": [], "cost": None,
              "intensity": None, "situation": [], "opposing_penalty": {"dice": [], "faces": []}, "sheet": {},
              "goal_ability": None, "strikes": True, "situational_goal": None}
             for name, d in (("first", dice(pool)), ("second", dice(against)))]
    figures = odds_of.opposed_odds(odds_of.Side(tuple(sides[0]["dice"])), odds_of.Side(tuple(sides[1]["dice"])))
    return {"ruleset": "beer-run", "conflict": None, "round": None, "sides": sides, **figures}
