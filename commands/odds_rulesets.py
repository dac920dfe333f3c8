"""`campaign odds` in the campaigns of the other rulesets: each takes the options its roll takes."""
from __future__ import annotations

from typing import Callable

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.action_dice import roll_options
from campaign_ledger.commands.odds import parser
from campaign_ledger.commands.odds_text import (action_text, beer_run_helping_text, beer_run_text, contest_text, decision_text,
                                supply_text, tracker_text)


# --- decision-2d6 (seed 004) --------------------------------------------------------------------

@parser("decision-2d6", "CHARACTER STAT [decision-2d6 roll's options] | --item ITEM | --tracker TRACKER")
@click.argument("name", metavar="CHARACTER", required=False)
@click.argument("stat", required=False)
@click.option("--target", type=int, default=None, help="The target number (meeting it succeeds).")
@click.option("--difficulty", default=None, help="Or a named one: simple, challenging, strenuous, impossible.")
@click.option("--bonus", "bonuses", type=int, multiple=True, help="A bonus (a negative one counts 0).")
@click.option("--penalty", "penalties", type=int, multiple=True, help="A penalty, with its sign: -2.")
@click.option("--modifier", "modifiers", type=int, multiple=True, help="A plain modifier, either sign.")
@click.option("--advantage", default="neutral", help="major-advantage ... major-disadvantage (default neutral).")
@click.option("--grant", "grants", count=True, help="An effect that grants advantage (one step).")
@click.option("--item", help="Instead: an item's supply die, its step-down chance and uses left.")
@click.option("--tracker", help="Instead: a D100 tracker, the chance its next use goes ahead and the uses left.")
def decision_odds(ctx: click.Context, name: str | None, stat: str | None, target: int | None,
                  difficulty: str | None, bonuses: tuple[int, ...], penalties: tuple[int, ...],
                  modifiers: tuple[int, ...], advantage: str, grants: int, item: str | None,
                  tracker: str | None) -> tuple[dict, Callable]:
    from campaign_ledger.decision_2d6 import stated as d2d6_stated
    from campaign_ledger.ledger.rulesets.decision_2d6 import odds as odds_of
    from campaign_ledger.ledger.rulesets.decision_2d6.odds_pools import decision_score, supply_item, tracker_state
    from campaign_ledger.ledger.rulesets.decision_2d6 import rules as d2
    from campaign_ledger.ledger.rulesets.decision_2d6 import rolls

    app = ctx.obj["app"]
    if tracker is not None:
        if name or stat or item:
            raise BadInput("Give --tracker alone, or a CHARACTER and a STAT for a decision roll.")
        found = tracker_state(app, tracker)
        return {"ruleset": "decision-2d6", **found, **odds_of.tracker_odds(found["value"], found["step"])}, tracker_text
    if item is not None:
        if name or stat:
            raise BadInput("Give --item alone, or a CHARACTER and a STAT for a decision roll.")
        found = supply_item(app, item)
        figures = odds_of.supply_odds(found["die"], found["threshold"])
        die = "Empty" if found["die"] is d2.SupplyDie.EMPTY else found["die"].name
        return {"ruleset": "decision-2d6", "item": found["item"], "die": die,
                "threshold": found["threshold"], **figures}, supply_text
    if not name or not stat:
        raise click.UsageError("Name the CHARACTER and the STAT of the roll (or --item ITEM for a supply die).")
    if grants < 0:
        raise BadInput("Count the effects that grant advantage: 0 or more.")
    stated = d2d6_stated(bonuses, penalties, modifiers)
    level = d2.grant_advantage(rolls.advantage(advantage), grants)
    number, label = rolls.target(target, difficulty)
    found = decision_score(app, name, stat)
    rules_mods = [s.rule() for s in stated]
    figures = odds_of.decision_odds(found["stat_value"], rules_mods, level, number)
    return {"ruleset": "decision-2d6", **found, "modifier_total": d2.counted_modifiers(rules_mods),
            "advantage": level.name.lower().replace("_", "-"), "decision_dice": level.decision_dice,
            "target": number, "difficulty": label, **figures,
            "levels": {k.lower().replace("_", "-"): v for k, v in
                       odds_of.every_level(found["stat_value"], rules_mods, number).items()}}, decision_text


@parser("decision-2d6 contest", "contest FIRST SECOND [decision-2d6 contest's options]")
@click.argument("first", metavar="CHARACTER:STAT")
@click.argument("second", metavar="CHARACTER:STAT")
@click.option("--advantage", "favoured", default=None, metavar="NAME=minor|major", help="The side the GM favours.")
@click.option("--grant", "grants", multiple=True, metavar="NAME", help="An effect that grants NAME advantage.")
@click.option("--bonus", "bonuses", multiple=True, metavar="NAME=N", help="A side's bonus.")
@click.option("--penalty", "penalties", multiple=True, metavar="NAME=N", help="A side's penalty (e.g. Ogre=-2).")
@click.option("--modifier", "modifiers", multiple=True, metavar="NAME=N", help="A side's plain modifier.")
def contest_odds(ctx: click.Context, first: str, second: str, favoured: str | None, grants: tuple[str, ...],
                 bonuses: tuple[str, ...], penalties: tuple[str, ...],
                 modifiers: tuple[str, ...]) -> tuple[dict, Callable]:
    from campaign_ledger.commands.parsing import parse_contest
    from campaign_ledger.ledger.rulesets.decision_2d6 import odds as odds_of
    from campaign_ledger.ledger.rulesets.decision_2d6.odds_pools import contest_sides

    sides, advantage = parse_contest(first, second, favoured, bonuses, penalties, modifiers)
    found = contest_sides(ctx.obj["app"], sides, advantage, list(grants))
    figures = odds_of.contest_odds(*found["people"])
    return {"ruleset": "decision-2d6", "contest": found["sides"],
            "position": found["position"].name.lower().replace("_", "-"), **figures}, contest_text


# --- action dice (seed 003) -----------------------------------------------------------------------

@parser("action-dice", "CHARACTER ACTION [action-dice roll's options]")
@roll_options
def action_odds(ctx: click.Context, character: str, action: str, rating: str | None, difficulty: int | None,
                advantages: int, disadvantages: int, assets: tuple[str, ...],
                features: tuple[str, ...]) -> tuple[dict, Callable]:
    from campaign_ledger.ledger.rulesets.action_dice import odds as odds_of
    from campaign_ledger.ledger.rulesets.action_dice.odds_pools import action_roll

    found = action_roll(ctx.obj["app"], character, action, rating, difficulty, advantages, disadvantages,
                        list(assets), list(features))
    figures = odds_of.outcome_odds(found["dice"], found["difficulty"])
    return {"ruleset": "action-dice", **found, **figures}, action_text


# --- Beer Run (seed 002) ----------------------------------------------------------------------------

@parser("beer-run", "CONFLICT SIDE [beer-run roll's --base/--extra] [--against SIDE --against-base/--against-extra] "
                    "[--situation dN] | CONFLICT HELPER --helping ALLY --die dN")
@click.argument("conflict")
@click.argument("side")
@click.option("--base", help="Base pool abilities, one per category, e.g. Brawn,Wits,Charm (default: the biggest).")
@click.option("--extra", help="Extra dice, e.g. Health.")
@click.option("--against", help="The side compared with (needed when SIDE faces several).")
@click.option("--against-base", help="The opposing side's base pool, if it has not rolled.")
@click.option("--against-extra", help="The opposing side's extra dice, if it has not rolled.")
@click.option("--situation", metavar="dN", help="SIDE takes a situational goal for this die (as `beer-run goal`).")
@click.option("--helping", metavar="ALLY", help="Instead: SIDE helps ALLY (as `beer-run helping`), with --die.")
@click.option("--die", metavar="dN", help="The die a helping goal seeks for the ally.")
@click.option("--goal-against", help="The GM's difficulty pool of the goal, e.g. d4,d6,d10 (default: three of the die).")
@click.option("--replace", help="Which dice of --goal-against (from 1) become the die sought, at most three.")
def beer_run_odds(ctx: click.Context, conflict: str, side: str, base: str | None, extra: str | None,
                  against: str | None, against_base: str | None, against_extra: str | None, situation: str | None,
                  helping: str | None, die: str | None, goal_against: str | None,
                  replace: str | None) -> tuple[dict, Callable]:
    from campaign_ledger.commands.beer_run import br_list
    from campaign_ledger.ledger.rulesets.beer_run import odds as odds_of
    from campaign_ledger.ledger.rulesets.beer_run.odds_pools import Opposed, beer_run_pools, helping_pools

    positions = replace_positions(replace)
    if helping is not None:
        if die is None:
            raise BadInput("A helping goal needs the die it seeks for the ally: --die dN.")
        if situation or against or against_base or against_extra:
            raise BadInput("A helping roll is against the goal's difficulty pool alone; leave out --situation and "
                           "--against (give the GM's pool with --goal-against).")
        found = helping_pools(ctx.obj["app"], conflict, side, helping, die, br_list(goal_against), positions,
                              br_list(base), br_list(extra))
        figures = odds_of.goal_odds(odds_of.Side(tuple(found["dice"])),
                                    odds_of.Side(tuple(found["difficulty"] + found["penalty"])))
        return {"ruleset": "beer-run", "helping": {**found, **figures}}, beer_run_helping_text
    if die is not None:
        raise BadInput("--die is the die a helping goal seeks; with --helping ALLY (a situational goal: --situation dN).")
    found = beer_run_pools(ctx.obj["app"], conflict, Opposed(side, br_list(base), br_list(extra), against,
                                                             br_list(against_base), br_list(against_extra), situation,
                                                             br_list(goal_against), positions))
    first, second = found["sides"]
    pools = [odds_of.Side(tuple(s["dice"] + s["opposing_penalty"]["dice"]),
                          tuple(s["faces"] + s["opposing_penalty"]["faces"])) for s in (first, second)]
    figures = odds_of.opposed_odds(pools[0], pools[1], _live(first, second), _live(second, first))
    figures["situational_goal"] = {key: _situational(s, other) for key, s, other in
                                   (("first", first, second), ("second", second, first))}
    return {"ruleset": "beer-run", **found, **figures}, beer_run_text


def replace_positions(text: str | None) -> list[int]:
    """`--replace 1,3`: dice of the goal's difficulty pool, numbered from 1."""
    from campaign_ledger.commands.beer_run import br_positions
    return br_positions(text, "--goal-against")


def _situational(side: dict, other: dict) -> dict | None:
    """A side with a situational goal rolls the same faces against the goal's difficulty pool and its own
    penalty dice (which sit in the other side's `opposing_penalty`): the uses it gains, the penalties."""
    from campaign_ledger.ledger.rulesets.beer_run import odds as odds_of

    goal = side["situational_goal"]
    if goal is None:
        return None
    own = odds_of.Side(tuple(side["dice"]), tuple(side["faces"]))
    against = odds_of.Side(tuple(goal["difficulty"] + other["opposing_penalty"]["dice"]),
                           tuple(goal["difficulty_faces"] + other["opposing_penalty"]["faces"]))
    return {"die": goal["die"], **odds_of.goal_odds(own, against)}


def _live(side: dict, striker: dict) -> dict[str, int]:
    """The abilities of `side` the other side's pips could reach (none if its goal is situational)."""
    return {name: size for name, size in side["sheet"].items() if size > 0} if striker["strikes"] else {}
