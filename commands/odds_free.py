"""`campaign odds --ruleset ID ...`: the odds of a pool described in full, with no campaign file.

A GM weighing a house rule, or a player between sessions, asks about dice, not about a campaign:
every figure a campaign's odds need from its ledger (the Threat, the PCs, a Challenge's rating) is
an option here, and one that is needed and missing is refused by name (exit 2), never guessed.
No file is opened or made. The figures and their JSON are those of the campaign's `campaign odds`;
the library works them out (campaign_ledger/odds_described.py), these parse the command line.
"""
from __future__ import annotations

import click

from campaign_ledger.commands.odds_parsers import FREE, Parsed, parser
from campaign_ledger.commands.odds_rulesets import replace_positions


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
def relics_free(dice: int | None, traits: tuple[str, ...], challenge_turn: bool, threat: str | None,
                rating: int | None, resolved: int, pcs: int | None, destiny_pool: int, needed: int | None,
                rules_version: str | None) -> Parsed:
    return (), {"dice": dice, "traits": traits, "challenge_turn": challenge_turn, "threat": threat, "rating": rating,
                "resolved": resolved, "pcs": pcs, "destiny_pool": destiny_pool, "needed": needed,
                "rules_version": rules_version}


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
def decision_free(stat: int, target: int | None, difficulty: str | None, bonuses: tuple[int, ...],
                  penalties: tuple[int, ...], modifiers: tuple[int, ...], advantage: str, grants: int,
                  against_stat: int | None, die: str | None, threshold: int | None, tracker_value: int | None,
                  step: int | None) -> Parsed:
    return (), {"stat": stat, "target": target, "difficulty": difficulty, "bonuses": bonuses, "penalties": penalties,
                "modifiers": modifiers, "advantage": advantage, "grants": grants, "against_stat": against_stat,
                "die": die, "threshold": threshold, "tracker_value": tracker_value, "step": step}


# --- action dice -----------------------------------------------------------------------------------

@parser(f"action-dice {FREE}", "--ruleset action-dice (--rating R | --difficulty N) [--asset dN]... "
                               "[--advantage] [--disadvantage]")
@click.option("--rating", help="Challenge rating: XX, D4, D6, D8, D10, D12 or ++ (with --difficulty 7-10).")
@click.option("--difficulty", type=int, help="The difficulty 1-10 itself, or the GM's pick for ++.")
@click.option("--advantage", "advantages", count=True, help="A circumstance in the character's favour.")
@click.option("--disadvantage", "disadvantages", count=True, help="A circumstance against it.")
@click.option("--asset", "assets", multiple=True, metavar="dN", help="An asset's die (up to 3); d4s fill the rest.")
def action_free(rating: str | None, difficulty: int | None, advantages: int, disadvantages: int,
                assets: tuple[str, ...]) -> Parsed:
    return (), {"rating": rating, "difficulty": difficulty, "advantages": advantages,
                "disadvantages": disadvantages, "assets": assets}


# --- Beer Run --------------------------------------------------------------------------------------

@parser(f"beer-run {FREE}", "--ruleset beer-run --pool d8,d6 (--against d10,d4 | --goal dN [--goal-against ...])")
@click.option("--pool", help="The side's dice, e.g. d8,d6,d6 (situation dice included).")
@click.option("--against", help="The opposing pool's dice, e.g. d10,d4 (penalty dice each side suffers included).")
@click.option("--goal", metavar="dN", help="Instead: a helping or situational goal for this die.")
@click.option("--goal-against", help="The goal's difficulty pool (default: three of the die).")
@click.option("--replace", help="Which dice of --goal-against (from 1) become the die sought.")
@click.option("--penalty", help="Penalty dice opposing the roller's goal roll, e.g. d6.")
def beer_run_free(pool: str | None, against: str | None, goal: str | None, goal_against: str | None,
                  replace: str | None, penalty: str | None) -> Parsed:
    from campaign_ledger.commands.rulesets.beer_run.words import br_list

    return (), {"pool": None if pool is None else br_list(pool), "against": None if against is None else br_list(against),
                "goal": goal, "goal_against": br_list(goal_against), "replace": replace_positions(replace),
                "penalty": br_list(penalty)}
