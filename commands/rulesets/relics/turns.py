"""Relics of the Moon at the table: a round's turns, its roll, placements and Stress, and Pushing the
Limit. The named rules the GM calls on around the rounds are in gm.py."""
from __future__ import annotations

import click


from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.plumbing import campaign_of, json_option, override_option, show_report
from campaign_ledger.commands.rulesets.relics.group import COMMANDS
from campaign_ledger.commands.parsing import later_steps, parse_pairs, parse_placing, parse_stress, parse_throw, turn_inputs


# --- commands: playing a round ----------------------------------------------------------------



@COMMANDS.command("cohort-turn")
@click.argument("challenge_name", metavar="CHALLENGE")
@click.option("--leader", help="The PC leading this Challenge (kept until it is resolved).")
@click.option("--assist", "assists", multiple=True, help="An assisting PC (default: every PC able to act).")
@click.option("--trait", "traits", multiple=True, metavar="OWNER:TRAIT[=destiny|doom]",
              help="A trait activated in the Huddle. Repeatable.")
@click.option("--destiny", default=0, type=int, help="Destiny spent 1:1 for extra dice.")
@click.option("--opportunity", metavar="PC", help="This PC creates an opportunity (+1 Destiny at round end).")
@click.option("--supplies", metavar="TYPE:RANK[:trade]", help="Spend Supplies for the whole Challenge.")
@click.option("--buy-time", is_flag=True, help="A timed Challenge: 1 Destiny for one more round.")
@click.option("--gm-motto", metavar="PC", help="The GM spends a Doom: that PC's Motto becomes A1 / 1d.")
@turn_inputs
@override_option
@json_option
@click.pass_context
def cohort_turn(ctx: click.Context, challenge_name: str, leader: str | None, assists: tuple[str, ...],
                traits: tuple[str, ...], destiny: int, opportunity: str | None, supplies: str | None,
                buy_time: bool, gm_motto: str | None, faces: str | None, roll: bool,
                places: tuple[str, ...], best: bool) -> None:
    """Play the Cohort turn: Huddle and pool, then (if given) the roll and the placements.

    Example: campaign cohort-turn "Vault Guards" --leader Kira --supplies Phantom:2 --faces 1,3,3,4,5 --best
    """
    throw = parse_throw(faces, roll)
    show_report(ctx, campaign_of(ctx).cohort_turn(
        challenge_name, leader=leader, assists=list(assists) or None, traits=traits, destiny=destiny,
        opportunity=opportunity, supplies=parse_supplies(supplies), buy_time=buy_time, gm_motto=gm_motto,
        faces=throw.faces, roll=throw.roll, places=parse_placing(places, best).given, best=best))


def parse_supplies(text: str | None) -> tuple[str, int, bool] | None:
    if text is None:
        return None
    parts = text.split(":")
    try:
        traded = len(parts) == 3 and parts[2].strip().lower() == "trade"
        if len(parts) not in (2, 3) or (len(parts) == 3 and not traded):
            raise ValueError(text)
        return parts[0].strip(), int(parts[1]), traded
    except ValueError:
        raise BadInput(f"Write Supplies as TYPE:RANK or TYPE:RANK:trade, e.g. Phantom:2, not '{text}'.") from None


@COMMANDS.command("challenge-turn")
@click.argument("challenge_name", metavar="CHALLENGE")
@click.option("--trait", "traits", multiple=True, metavar="OWNER:TRAIT[=destiny|doom]",
              help="A trait activated against (PC) or for (the Challenge) the Challenge pool.")
@turn_inputs
@click.option("--stress", help="Stress distribution, e.g. Kira=2,Bo=1 (must add up to the successes).")
@override_option
@json_option
@click.pass_context
def challenge_turn(ctx: click.Context, challenge_name: str, traits: tuple[str, ...], faces: str | None,
                   roll: bool, places: tuple[str, ...], best: bool, stress: str | None) -> None:
    """Play the Challenge turn: its pool, then (if given) the roll, placements and Stress.

    Example: campaign challenge-turn "Vault Guards" --faces 2,6 --stress Kira=1,Bo=1
    """
    throw = parse_throw(faces, roll)
    show_report(ctx, campaign_of(ctx).challenge_turn(
        challenge_name, traits=traits, faces=throw.faces, roll=throw.roll, places=parse_placing(places, best).given,
        best=best, stress=parse_stress(stress)))


@COMMANDS.command("roll")
@click.argument("challenge_name", metavar="CHALLENGE")
@click.option("--faces", help="Faces rolled at the table; without it the program rolls.")
@later_steps
@override_option
@json_option
@click.pass_context
def roll_cmd(ctx: click.Context, challenge_name: str, faces: str | None, places: tuple[str, ...],
             best: bool, stress: str | None) -> None:
    """Roll the pool waiting on a Challenge (or enter the table's faces).

    Example: campaign roll "Vault Guards" --faces 1,3,3,4,5
    """
    show_report(ctx, campaign_of(ctx).roll(challenge_name, faces=parse_throw(faces, False).faces,
                                           places=parse_placing(places, best).given, best=best,
                                           stress=parse_stress(stress)))


@COMMANDS.command("place")
@click.argument("challenge_name", metavar="CHALLENGE")
@later_steps
@override_option
@json_option
@click.pass_context
def place_cmd(ctx: click.Context, challenge_name: str, places: tuple[str, ...], best: bool,
              stress: str | None) -> None:
    """Place the Simple modifiers of the rolled pool and tally it.

    Example: campaign place "Vault Guards" --place Keen=5 --place Blaster=1,4
    """
    show_report(ctx, campaign_of(ctx).place(challenge_name, places=parse_placing(places, best).given, best=best,
                                            stress=parse_stress(stress)))


@COMMANDS.command("stress")
@click.argument("challenge_name", metavar="CHALLENGE")
@click.option("--stress", "distribution", required=True, help="e.g. Kira=2,Bo=1")
@override_option
@json_option
@click.pass_context
def stress_cmd(ctx: click.Context, challenge_name: str, distribution: str) -> None:
    """Distribute the Challenge's Stress by consensus (or as the leader says).

    Example: campaign stress "Vault Guards" --stress Kira=2,Bo=1
    """
    show_report(ctx, campaign_of(ctx).stress(challenge_name, parse_pairs(distribution, "Stress")))


@COMMANDS.command("push")
@click.argument("name")
@override_option
@json_option
@click.pass_context
def push(ctx: click.Context, name: str) -> None:
    """A Stressed Out PC Pushes the Limit: Stress rolls over past 10 and the PC gains 1 Agony.

    Example: campaign push Bo
    """
    show_report(ctx, campaign_of(ctx).push(name))
