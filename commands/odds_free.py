"""`campaign odds --ruleset ID ...`: the odds of a pool described in full, with no campaign file.

A GM weighing a house rule, or a player between sessions, asks about dice, not about a campaign:
every figure a campaign's odds need from its ledger (the Threat, the PCs, a Challenge's rating) is
an option here, and one that is needed and missing is refused by name (exit 2), never guessed.
No file is opened or made. The figures and their JSON are those of the campaign's `campaign odds`.
"""
from __future__ import annotations

from typing import Callable

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.odds import FREE, parser
from campaign_ledger.commands.odds_rulesets import replace_positions
from campaign_ledger.commands.odds_text import (action_text, beer_run_helping_text, beer_run_text, contest_text, decision_text,
                                relics_text, supply_text, tracker_text)


def _missing(needed: dict[str, object], why: str) -> None:
    """Refuse, naming every option still needed and what for."""
    absent = [name for name, value in needed.items() if value is None]
    if absent:
        raise BadInput(f"Without a campaign {why} need {', '.join(absent)}.")


# --- Relics of the Moon -----------------------------------------------------------------------------

@parser(f"relics {FREE}", "--ruleset relics --dice N [--trait MOD]... (--threat T --rating R --pcs N | "
                          "--challenge-turn)")
@click.option("--dice", type=int, help="The pool's dice before its traits (Expertise and Destiny; the rating "
                                       "on a Challenge turn).")
@click.option("--trait", "traits", multiple=True, metavar="MOD[=hindering]",
              help="A modifier on the pool, as the rules write it: +1d6, A6 / 1d, +1 / 2d, -2 / 1d. Repeatable.")
@click.option("--challenge-turn", is_flag=True, help="The Challenge's pool (each success is a Stress).")
@click.option("--threat", help="The Challenge's Threat (Common ... Ultimate).")
@click.option("--rating", type=int, help="The Challenge's rating (a Cohort turn resolves dice toward it).")
@click.option("--resolved", type=int, default=0, help="Dice of the rating already resolved (default 0).")
@click.option("--pcs", type=int, help="PCs in the game (the Destiny and pool caps are 3 x PCs).")
@click.option("--destiny-pool", type=int, default=0, help="Destiny in the pool now, for the cap (default 0).")
@click.option("--needed", type=int, help="A Test: the successes it needs.")
@click.option("--rules-version", default=None, help="0.6.1 (default) or 0.2.0.")
def relics_free(ctx: click.Context, dice: int | None, traits: tuple[str, ...], challenge_turn: bool,
                threat: str | None, rating: int | None, resolved: int, pcs: int | None, destiny_pool: int,
                needed: int | None, rules_version: str | None) -> tuple[dict, Callable]:
    from campaign_ledger.ledger.rulesets.relics import odds as odds_of
    from campaign_ledger.ledger.rulesets.relics import rules as relics

    rules = relics.rules_for(rules_version or relics.DEFAULT_VERSION)
    _missing({"--dice": dice}, "a pool's odds")
    for option, value, low, high in (("--dice", dice, 0, relics.MOST_DICE), ("--resolved", resolved, 0, None),
                                     ("--destiny-pool", destiny_pool, 0, None), ("--pcs", pcs, 1, None),
                                     ("--rating", rating, 1, relics.MOST_DICE), ("--needed", needed, 0, None)):
        if value is not None and (value < low or (high is not None and value > high)):
            raise BadInput(f"{option} is {low} or more{f' and at most {high}' if high else ''}, not {value}.")
    if challenge_turn and dice is not None and resolved > dice:  # its pool is the rating: autos past it were dropped
        raise BadInput(f"--resolved is at most --dice ({dice}), the Challenge's rating, not {resolved}.")
    if not challenge_turn and rating is not None and resolved and resolved >= rating:
        raise BadInput(f"--resolved is less than --rating ({rating}), not {resolved}: a Challenge with every "
                       "die resolved is over.")
    threat = relics.canonical(threat, relics.THREATS, "Threat") if threat is not None else None
    mods = [_modifier(relics, text) for text in traits]
    adds = [m for m in mods if m.kind == "add"]
    autos = [m for m in mods if m.kind == "auto"]
    if challenge_turn:
        if adds:
            raise BadInput("The Challenge pool is its rating (--dice); Add Dice do not change it.")
        if resolved:
            _missing({"--threat": threat}, "the Threat's Auto Results on resolved dice")
        size, base = dice, relics.threat_autos(rules, threat, resolved) if resolved else ()
        capped = {}  # a Challenge's pool is its rating: no cap
    else:
        _missing({"--threat": threat, "--rating": rating, "--pcs": pcs},
                 "a Cohort turn's Tides and dice resolved")
        built = relics.build_cohort_pool(dice, adds, 0, 0, rules.pool_cap_per_pc * pcs)
        size, base, capped = built.size, (), {"cap": built.cap, "lost_to_cap": built.lost_to_cap}
    placed, _ = relics.place_auto_results(size, [m for m in autos if m.polarity == relics.HINDERING],
                                          [m for m in autos if m.polarity == relics.BENEFICIAL], base)
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
                                for i, m in enumerate(simple)]}, **figures}, relics_text


def _modifier(relics: object, text: str) -> object:
    """`+1 / 2d`, or `A1 / 1d=hindering` for a hindering Auto Result (a sign says it for the others)."""
    body, _, polarity = text.rpartition("=") if "=" in text else (text, "", "")
    return relics.parse_modifier(body, polarity.strip().lower() or None)  # type: ignore[attr-defined]


# --- decision-2d6 -----------------------------------------------------------------------------------

@parser(f"decision-2d6 {FREE}", "--ruleset decision-2d6 [--stat N] [roll's options] [--against-stat N] | "
                                "--die D8 | --tracker-value N")
@click.option("--stat", type=int, default=0, help="The stat or attribute added (default 0).")
@click.option("--target", type=int, default=None, help="The target number (meeting it succeeds).")
@click.option("--difficulty", default=None, help="Or a named one: simple, challenging, strenuous, impossible.")
@click.option("--bonus", "bonuses", type=int, multiple=True, help="A bonus (a negative one counts 0).")
@click.option("--penalty", "penalties", type=int, multiple=True, help="A penalty, with its sign: -2.")
@click.option("--modifier", "modifiers", type=int, multiple=True, help="A plain modifier, either sign.")
@click.option("--advantage", default="neutral", help="major-advantage ... major-disadvantage (in a contest: "
                                                     "the first side's place on the scale).")
@click.option("--grant", "grants", count=True, help="An effect that grants advantage (one step).")
@click.option("--against-stat", type=int, default=None, help="A contest: the other side's stat and modifiers.")
@click.option("--die", help="Instead: a supply die (D12 ... D4), its step-down chance and uses left.")
@click.option("--threshold", type=int, default=None, help="The supply threshold (default 3).")
@click.option("--tracker-value", type=int, default=None, help="Instead: a D100 tracker at this value.")
@click.option("--step", type=int, default=None, help="Points a tracker use costs (default 10).")
def decision_free(ctx: click.Context, stat: int, target: int | None, difficulty: str | None,
                  bonuses: tuple[int, ...], penalties: tuple[int, ...], modifiers: tuple[int, ...], advantage: str,
                  grants: int, against_stat: int | None, die: str | None, threshold: int | None,
                  tracker_value: int | None, step: int | None) -> tuple[dict, Callable]:
    from campaign_ledger.decision_2d6 import stated as d2d6_stated
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
                **odds_of.tracker_odds(tracker.value, points)}, tracker_text
    if die is not None:
        supply = _supply_die(d2, die)
        limit = d2.DEFAULT_SUPPLY_THRESHOLD if threshold is None else threshold
        if limit < 0:
            raise BadInput(f"The supply threshold cannot be negative, and {limit} is.")
        return {"ruleset": "decision-2d6", "item": None, "die": "Empty" if supply is d2.SupplyDie.EMPTY else supply.name,
                "threshold": limit, **odds_of.supply_odds(supply, limit)}, supply_text
    rules_mods = [s.rule() for s in d2d6_stated(bonuses, penalties, modifiers)]
    level = d2.grant_advantage(rolls.advantage(advantage), grants)
    if against_stat is not None:
        if target is not None or difficulty is not None:
            raise BadInput("A contest has no target: the higher total wins.")
        levels = d2.contested_advantage(level)
        people = [d2.Contestant(stat, tuple(rules_mods), levels[0]), d2.Contestant(against_stat, (), levels[1])]
        sides = [{"name": name, "stat": "stat", "stat_value": p.stat, "modifier_total": d2.counted_modifiers(p.modifiers),
                  "advantage": p.advantage.name.lower().replace("_", "-"), "decision_dice": p.advantage.decision_dice}
                 for name, p in zip(("First", "Second"), people)]
        return {"ruleset": "decision-2d6", "contest": sides, "position": level.name.lower().replace("_", "-"),
                **odds_of.contest_odds(*people)}, contest_text
    number, label = rolls.target(target, difficulty)
    figures = odds_of.decision_odds(stat, rules_mods, level, number)
    return {"ruleset": "decision-2d6", "character": None, "stat": "stat", "stat_value": stat,
            "modifier_total": d2.counted_modifiers(rules_mods), "advantage": level.name.lower().replace("_", "-"),
            "decision_dice": level.decision_dice, "target": number, "difficulty": label, **figures,
            "levels": {k.lower().replace("_", "-"): v for k, v in
                       odds_of.every_level(stat, rules_mods, number).items()}}, decision_text


def _supply_die(d2: object, text: str) -> object:
    name = text.strip().upper()
    for die in d2.SupplyDie:  # type: ignore[attr-defined]
        if die.name == name or (name == "EMPTY" and die.value == 0):
            return die
    raise BadInput(f"A supply die is D12, D10, D8, D6, D4 or Empty, not '{text}'.")


# --- action dice -----------------------------------------------------------------------------------

@parser(f"action-dice {FREE}", "--ruleset action-dice (--rating R | --difficulty N) [--asset dN]... "
                               "[--advantage] [--disadvantage]")
@click.option("--rating", help="Challenge rating: XX, D4, D6, D8, D10, D12 or ++ (with --difficulty 7-10).")
@click.option("--difficulty", type=int, help="The difficulty 1-10 itself, or the GM's pick for ++.")
@click.option("--advantage", "advantages", count=True, help="A circumstance in the character's favour.")
@click.option("--disadvantage", "disadvantages", count=True, help="A circumstance against it.")
@click.option("--asset", "assets", multiple=True, metavar="dN", help="An asset's die (up to 3); d4s fill the rest.")
def action_free(ctx: click.Context, rating: str | None, difficulty: int | None, advantages: int,
                disadvantages: int, assets: tuple[str, ...]) -> tuple[dict, Callable]:
    from campaign_ledger.ledger.rulesets.action_dice import commands as system
    from campaign_ledger.ledger.rulesets.action_dice import odds as odds_of
    from campaign_ledger.ledger.rulesets.action_dice import rules

    rated, base = system.base_difficulty(rating, difficulty)
    target = rules.action_difficulty(base, advantages, disadvantages)
    dice = list(rules.action_pool(list(assets)))
    return {"ruleset": "action-dice", "character": None, "action": None, "rating": rated, "base": base,
            "difficulty": target, "assets": list(assets), "dice": dice, "refused_without_override": [],
            **odds_of.outcome_odds(dice, target)}, action_text


# --- Beer Run --------------------------------------------------------------------------------------

@parser(f"beer-run {FREE}", "--ruleset beer-run --pool d8,d6 (--against d10,d4 | --goal dN [--goal-against ...])")
@click.option("--pool", help="The side's dice, e.g. d8,d6,d6 (situation dice included).")
@click.option("--against", help="The opposing pool's dice, e.g. d10,d4 (penalty dice each side suffers included).")
@click.option("--goal", metavar="dN", help="Instead: a helping or situational goal for this die.")
@click.option("--goal-against", help="The goal's difficulty pool (default: three of the die).")
@click.option("--replace", help="Which dice of --goal-against (from 1) become the die sought.")
@click.option("--penalty", help="Penalty dice opposing the roller's goal roll, e.g. d6.")
def beer_run_free(ctx: click.Context, pool: str | None, against: str | None, goal: str | None,
                  goal_against: str | None, replace: str | None, penalty: str | None) -> tuple[dict, Callable]:
    from campaign_ledger.commands.beer_run import br_list
    from campaign_ledger.ledger.rulesets.beer_run import odds as odds_of
    from campaign_ledger.ledger.rulesets.beer_run import rules

    def dice(text: str | None) -> list[int]:
        return [rules.parse_die(d) for d in br_list(text)]

    _missing({"--pool": pool}, "a Beer Run roll's odds")
    if (against is None) == (goal is None):
        raise BadInput("Compare --pool with an opposing pool (--against) or with a goal's difficulty (--goal dN).")
    if goal is not None:
        size = rules.parse_die(goal)
        positions = [n - 1 for n in replace_positions(replace)]
        difficulty = list(rules.goal_difficulty(size, dice(goal_against), positions))
        figures = odds_of.goal_odds(odds_of.Side(tuple(dice(pool))), odds_of.Side(tuple(difficulty + dice(penalty))))
        return {"ruleset": "beer-run", "helping": {"conflict": None, "round": None, "helper": "the roller",
                                                   "ally": "its ally (or itself, later)", "die": size,
                                                   "abilities": [], "dice": dice(pool), "situation": [], "cost": None,
                                                   "intensity": None, "difficulty": difficulty,
                                                   "penalty": dice(penalty), **figures}}, beer_run_helping_text
    if goal_against or replace or penalty:
        raise BadInput("--goal-against, --replace and --penalty belong to a goal's roll (--goal dN).")
    sides = [{"side": name, "rolled": False, "abilities": [], "dice": d, "faces": [], "cost": None,
              "intensity": None, "situation": [], "opposing_penalty": {"dice": [], "faces": []}, "sheet": {},
              "goal_ability": None, "strikes": True, "situational_goal": None}
             for name, d in (("first", dice(pool)), ("second", dice(against)))]
    figures = odds_of.opposed_odds(odds_of.Side(tuple(sides[0]["dice"])), odds_of.Side(tuple(sides[1]["dice"])))
    return {"ruleset": "beer-run", "conflict": None, "round": None, "sides": sides, **figures}, beer_run_text
