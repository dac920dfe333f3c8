"""Beer Run (seed 002) at the table: characters, difficulty pools, Intensity, conflicts and outcome
dice. A round's play is in rounds.py, the sheets and other views in views.py, the group in group.py."""
from __future__ import annotations

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.plumbing import campaign_of, json_option
from campaign_ledger.commands.rulesets.beer_run.group import beer_run
from campaign_ledger.commands.rulesets.beer_run.views import br_show
from campaign_ledger.commands.rulesets.beer_run.words import br_abilities, br_dice

# --- commands --------------------------------------------------------------------------------------

@beer_run.group("character")
def br_character() -> None:
    """Characters of a beer-run campaign (PCs and the GM's participants alike)."""


@br_character.command("add")
@click.argument("name")
@click.option("--ability", "abilities", multiple=True, required=True, metavar="CATEGORY:NAME=dN,...",
              help="Ability dice, e.g. Physical:Brawn=d8,Physical:Health=d6. Repeatable. Health is required.")
@click.option("--intensity", type=int, default=None,
              help="Starting Intensity (default: the campaign's intensity setting, else 10).")
@json_option
@click.pass_context
def br_character_add(ctx: click.Context, name: str, abilities: tuple[str, ...], intensity: int | None) -> None:
    """Add a character with ability dice grouped in the campaign's categories.

    Example: campaign beer-run character add Ann --ability Physical:Brawn=d8,Physical:Health=d6,Mental:Wits=d6,Social:Charm=d4
    """
    br_show(ctx, campaign_of(ctx).beer_run_character_add(name, br_abilities(abilities), intensity=intensity))


@beer_run.group("difficulty")
def br_difficulty() -> None:
    """The GM's static difficulty pools."""


@br_difficulty.command("add")
@click.argument("name")
@click.option("--dice", required=True, help="Its dice, e.g. d8,d6,d6 or Lock=d8,Bars=d6.")
@json_option
@click.pass_context
def br_difficulty_add(ctx: click.Context, name: str, dice: str) -> None:
    """Add a static difficulty pool: it rolls all its dice each round and pays no Intensity.

    Example: campaign beer-run difficulty add "Locked Door" --dice Lock=d8,Bars=d6
    """
    br_show(ctx, campaign_of(ctx).beer_run_difficulty_add(name, br_dice(dice)))


@beer_run.command("intensity")
@click.argument("name")
@click.option("--gain", type=int, default=0, help="Intensity the character gains.")
@click.option("--lose", type=int, default=0, help="Intensity the character loses.")
@click.option("--reason", default="", help="Why, for the statement.")
@json_option
@click.pass_context
def br_intensity(ctx: click.Context, name: str, gain: int, lose: int, reason: str) -> None:
    """Give or take Intensity (the GM's word; every change is a line of the statement).

    Example: campaign beer-run intensity Ann --gain 3 --reason "a night's sleep"
    """
    br_show(ctx, campaign_of(ctx).beer_run_intensity(name, gain=gain, lose=lose, reason=reason))


@beer_run.group("conflict")
def br_conflict() -> None:
    """Conflicts: sides, rounds, and their end."""


@br_conflict.command("open")
@click.argument("name")
@click.option("--side", "sides", multiple=True, required=True, help="A side (a character or difficulty). Repeatable.")
@click.option("--target", help="With more than two sides: the side every other side opposes.")
@json_option
@click.pass_context
def br_conflict_open(ctx: click.Context, name: str, sides: tuple[str, ...], target: str | None) -> None:
    """Open a conflict; several sides against one target compare against it one by one.

    Example: campaign beer-run conflict open "Back Door" --side Ann --side Bouncer
    """
    br_show(ctx, campaign_of(ctx).beer_run_conflict_open(name, list(sides), target=target))


@br_conflict.command("end")
@click.argument("name")
@click.option("--reason", required=True, help="How it ended.")
@json_option
@click.pass_context
def br_conflict_end(ctx: click.Context, name: str, reason: str) -> None:
    """End a conflict (the GM's call, e.g. once a side has its goal and wants nothing more).

    Example: campaign beer-run conflict end "Back Door" --reason "Ann is inside"
    """
    br_show(ctx, campaign_of(ctx).beer_run_conflict_end(name, reason=reason))


@beer_run.group("outcome")
def br_outcome() -> None:
    """Outcome dice: gained or inflicted for good."""


@br_outcome.command("gain")
@click.argument("name")
@click.argument("ability", metavar="CATEGORY:NAME=dN")
@click.option("--reason", default="", help="What was won.")
@json_option
@click.pass_context
def br_outcome_gain(ctx: click.Context, name: str, ability: str, reason: str) -> None:
    """A character gains a die for good: a new ability (or a gone one back).

    Example: campaign beer-run outcome gain Ann Social:Six-pack=d6 --reason "bought the beer"
    """
    parsed = br_abilities((ability,))
    if len(parsed) != 1:
        raise BadInput(f"Give one outcome die as CATEGORY:NAME=dN, not '{ability}'.")
    [(category, ability_name, die)] = parsed
    br_show(ctx, campaign_of(ctx).beer_run_outcome_gain(name, category, ability_name, die, reason=reason))


@br_outcome.command("inflict")
@click.argument("name")
@click.argument("die", metavar="dN")
@click.option("--reason", default="", help="What it stands for.")
@json_option
@click.pass_context
def br_outcome_inflict(ctx: click.Context, name: str, die: str, reason: str) -> None:
    """Inflict a die for good: it joins the pool against every roll of the character until lifted.

    Example: campaign beer-run outcome inflict Bouncer d4 --reason "laughed at by the queue"
    """
    br_show(ctx, campaign_of(ctx).beer_run_outcome_inflict(name, die, reason=reason))


@br_outcome.command("lift")
@click.argument("name")
@click.argument("die", metavar="dN")
@click.option("--reason", default="", help="Why it is lifted.")
@json_option
@click.pass_context
def br_outcome_lift(ctx: click.Context, name: str, die: str, reason: str) -> None:
    """Lift a lasting penalty die.

    Example: campaign beer-run outcome lift Bouncer d4 --reason "the queue forgot"
    """
    br_show(ctx, campaign_of(ctx).beer_run_outcome_lift(name, die, reason=reason))
