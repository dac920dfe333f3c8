"""`campaign odds` in the campaigns of the other rulesets: each takes the options its roll takes."""
from __future__ import annotations

import click

from campaign_ledger.commands.rulesets.action_dice.group import roll_options
from campaign_ledger.commands.odds_parsers import Parsed, parser


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
def decision_odds(name: str | None, stat: str | None, target: int | None, difficulty: str | None,
                  bonuses: tuple[int, ...], penalties: tuple[int, ...], modifiers: tuple[int, ...], advantage: str,
                  grants: int, item: str | None, tracker: str | None) -> Parsed:
    return tuple(n for n in (name, stat) if n is not None), {
        "target": target, "difficulty": difficulty, "bonuses": bonuses, "penalties": penalties,
        "modifiers": modifiers, "advantage": advantage, "grants": grants, "item": item, "tracker": tracker}


@parser("decision-2d6 contest", "contest FIRST SECOND [decision-2d6 contest's options]")
@click.argument("first", metavar="CHARACTER:STAT")
@click.argument("second", metavar="CHARACTER:STAT")
@click.option("--advantage", "favoured", default=None, metavar="NAME=minor|major", help="The side the GM favours.")
@click.option("--grant", "grants", multiple=True, metavar="NAME", help="An effect that grants NAME advantage.")
@click.option("--bonus", "bonuses", multiple=True, metavar="NAME=N", help="A side's bonus.")
@click.option("--penalty", "penalties", multiple=True, metavar="NAME=N", help="A side's penalty (e.g. Ogre=-2).")
@click.option("--modifier", "modifiers", multiple=True, metavar="NAME=N", help="A side's plain modifier.")
def contest_odds(first: str, second: str, favoured: str | None, grants: tuple[str, ...], bonuses: tuple[str, ...],
                 penalties: tuple[str, ...], modifiers: tuple[str, ...]) -> Parsed:
    from campaign_ledger.commands.rulesets.decision_2d6.words import d2d6_contest_words

    sides, advantage, by_side = d2d6_contest_words(first, second, (favoured,) if favoured else (), bonuses,
                                                   penalties, modifiers)
    return (), {"contest": sides, "advantage": advantage, "grants": grants, **by_side}


# --- action dice (seed 003) -----------------------------------------------------------------------

@parser("action-dice", "CHARACTER ACTION [action-dice roll's options]")
@roll_options
def action_odds(character: str, action: str, rating: str | None, difficulty: int | None, advantages: int,
                disadvantages: int, assets: tuple[str, ...], features: tuple[str, ...]) -> Parsed:
    return (character, action), {"rating": rating, "difficulty": difficulty, "advantages": advantages,
                                 "disadvantages": disadvantages, "assets": assets, "features": features}


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
def beer_run_odds(conflict: str, side: str, base: str | None, extra: str | None, against: str | None,
                  against_base: str | None, against_extra: str | None, situation: str | None, helping: str | None,
                  die: str | None, goal_against: str | None, replace: str | None) -> Parsed:
    from campaign_ledger.commands.rulesets.beer_run.words import br_list

    return (conflict, side), {
        "replace": replace_positions(replace), "base": br_list(base), "extra": br_list(extra), "against": against,
        "against_base": br_list(against_base), "against_extra": br_list(against_extra), "situation": situation,
        "helping": helping, "die": die, "goal_against": br_list(goal_against)}


def replace_positions(text: str | None) -> list[int]:
    """`--replace 1,3`: dice of the goal's difficulty pool, numbered from 1."""
    from campaign_ledger.commands.rulesets.beer_run.words import br_positions
    return br_positions(text, "--goal-against")
