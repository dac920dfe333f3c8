"""Beer Run (seed 002): a round at the table: goals, helping, rolls, pips and ceding."""
from __future__ import annotations

from typing import Callable

import click

from campaign_ledger.commands.rulesets.beer_run.group import beer_run
from campaign_ledger.commands.rulesets.beer_run.views import br_show
from campaign_ledger.commands.rulesets.beer_run.words import br_list, br_positions
from campaign_ledger.commands.parsing import parse_pairs
from campaign_ledger.commands.plumbing import campaign_of, json_option


def br_faces(text: str | None) -> list[int] | None:
    """`--faces 2,4,9` -> [2, 4, 9] (and None when not given: the program rolls)."""
    from campaign_ledger.ledger.dice import parse_faces

    return None if text is None else list(parse_faces(text))


br_roll_options = [
    click.option("--base", help="The base pool, one ability per category, e.g. Brawn,Wits,Charm "
                                "(default: the biggest die left in each category)."),
    click.option("--extra", help="Extra abilities, e.g. Health,Guts: k extra cost k(k+1)/2 Intensity."),
    click.option("--faces", help="Faces rolled at the table, in pool order (abilities, then situation dice)."),
    click.option("--penalty-faces", help="Faces of the penalty dice that oppose this roll."),
    click.option("--difficulty-faces", help="Faces of the difficulty dice of a helping or situational goal."),
    click.option("--roll", is_flag=True, help="Let the program roll every die (also the default without --faces)."),
    click.option("--gm-override", "--override", "override", metavar="REASON",
                 help="The GM's reason to let a pool through that the rules refuse."),
]


def br_roll_inputs(f: Callable) -> Callable:
    for option in reversed(br_roll_options):
        f = option(f)
    return f


@beer_run.command("goal")
@click.argument("conflict")
@click.argument("side")
@click.argument("text")
@click.option("--ability", help="The opposing ability this goal takes to zero (a Cede gives it at once).")
@click.option("--situation", metavar="dN", help="A situational goal: the die to gain for later rolls.")
@click.option("--against", help="The GM's difficulty pool for it, e.g. d4,d6,d10 (default: three of the die).")
@click.option("--replace", help="Which dice of --against (from 1) become the gained die, at most three.")
@json_option
@click.pass_context
def br_goal(ctx: click.Context, conflict: str, side: str, text: str, ability: str | None,
            situation: str | None, against: str | None, replace: str | None) -> None:
    """State a side's goal for the round (it stands until changed or gained).

    Example: campaign beer-run goal "Back Door" Ann "slip past the Bouncer" --ability Attention
    """
    br_show(ctx, campaign_of(ctx).beer_run_goal(conflict, side, text, ability=ability, situation=situation,
                                                against=br_list(against), replace=br_positions(replace)))


@beer_run.command("helping")
@click.argument("conflict")
@click.argument("helper")
@click.argument("ally")
@click.argument("text")
@click.option("--die", required=True, metavar="dN", help="The die the ally gains, once per success.")
@click.option("--against", help="The GM's difficulty pool, e.g. d4,d6,d10 (default: three of the die).")
@click.option("--replace", help="Which dice of --against (from 1) become the die, at most three.")
@br_roll_inputs
@json_option
@click.pass_context
def br_helping(ctx: click.Context, conflict: str, helper: str, ally: str, text: str, die: str,
               against: str | None, replace: str | None, base: str | None, extra: str | None,
               faces: str | None, penalty_faces: str | None, difficulty_faces: str | None, roll: bool,
               override: str | None) -> None:
    """A helping goal, rolled before the round's pools: each success is a use of the die for the ally.

    Example: campaign beer-run helping "Back Door" Cal Ann "distract him" --die d6 --faces 2,4,9 --difficulty-faces 5,5,3
    """
    br_show(ctx, campaign_of(ctx).beer_run_helping(
        conflict, helper, ally, text, die=die, against=br_list(against), replace=br_positions(replace),
        base=br_list(base), extra=br_list(extra), faces=br_faces(faces), penalty_faces=br_faces(penalty_faces),
        difficulty_faces=br_faces(difficulty_faces), roll=roll, override=override))


@beer_run.command("roll")
@click.argument("conflict")
@click.argument("side")
@br_roll_inputs
@json_option
@click.pass_context
def br_roll(ctx: click.Context, conflict: str, side: str, base: str | None, extra: str | None,
            faces: str | None, penalty_faces: str | None, difficulty_faces: str | None, roll: bool,
            override: str | None) -> None:
    """Pay Intensity and roll a side's pool; once every side has rolled, the pools are compared.

    Example: campaign beer-run roll "Back Door" Ann --base Brawn,Wits,Charm --extra Health --faces 8,6,3,2
    """
    br_show(ctx, campaign_of(ctx).beer_run_roll(
        conflict, side, base=br_list(base), extra=br_list(extra), faces=br_faces(faces),
        penalty_faces=br_faces(penalty_faces), difficulty_faces=br_faces(difficulty_faces), roll=roll,
        override=override))


@beer_run.command("pips")
@click.argument("conflict")
@click.argument("by")
@click.argument("split")
@click.option("--on", help="The side the pips land on (a check; the conflict knows it).")
@json_option
@click.pass_context
def br_pips(ctx: click.Context, conflict: str, by: str, split: str, on: str | None) -> None:
    """Land a side's kept successes as pips on opposing abilities, split as it likes; upper hand first.

    Example: campaign beer-run pips "Back Door" Ann Attention=2,Intimidate=1
    """
    br_show(ctx, campaign_of(ctx).beer_run_pips(conflict, by, parse_pairs(split, "pips"), on=on))


@beer_run.command("cede")
@click.argument("conflict")
@click.argument("side")
@json_option
@click.pass_context
def br_cede(ctx: click.Context, conflict: str, side: str) -> None:
    """Cede between rounds: the opposition gains its goal (an ability it aimed at goes to zero).

    Example: campaign beer-run cede "Back Door" Bouncer
    """
    br_show(ctx, campaign_of(ctx).beer_run_cede(conflict, side))

