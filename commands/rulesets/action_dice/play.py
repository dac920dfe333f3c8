"""Action dice (seed 003) at the table: characters, assets, features, conditions, action rolls
(what a GM reads: views.py)."""
from __future__ import annotations

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.plumbing import campaign_of, json_option, show_report
from campaign_ledger.commands.rulesets.action_dice.group import action_dice, roll_options


def _die_pairs(values: tuple[str, ...]) -> dict[str, str]:
    """('Athletics=d8', 'Rope=d6,Nerve=d10') -> {'Athletics': 'd8', 'Rope': 'd6', 'Nerve': 'd10'}."""
    result: dict[str, str] = {}
    for value in values:
        for part in filter(None, (p.strip() for p in value.split(","))):
            name, eq, die = part.rpartition("=")
            if not eq or not name.strip() or not die.strip():
                raise BadInput(f"Write an asset as NAME=DIE, e.g. Athletics=d8, not '{part}'.")
            if name.strip() in result:
                raise BadInput(f"The asset {name.strip()} is named twice.")
            result[name.strip()] = die.strip()
    return result


def _words(text: str | None) -> list[str] | None:
    return None if text is None else [w.strip() for w in text.split(",") if w.strip()]


@action_dice.command("character")
@click.argument("name")
@click.option("--asset", "assets", multiple=True, metavar="NAME=DIE",
              help="An asset and its die (d4-d12), e.g. Athletics=d8. Repeatable.")
@click.option("--feature", "features", multiple=True, help="A feature the character can invoke. Repeatable.")
@json_option
@click.pass_context
def action_dice_character(ctx: click.Context, name: str, assets: tuple[str, ...], features: tuple[str, ...]) -> None:
    """Add a character with its assets (die sizes) and features.

    Example: campaign action-dice character Mara --asset Athletics=d8 --asset Nerve=d10 --feature Cat-like
    """
    show_report(ctx, campaign_of(ctx).action_dice_character(name, assets=_die_pairs(assets), features=list(features)))


@action_dice.command("asset")
@click.argument("character")
@click.argument("asset")
@click.argument("die")
@json_option
@click.pass_context
def action_dice_asset(ctx: click.Context, character: str, asset: str, die: str) -> None:
    """Give a character an asset, or change an asset's die size.

    Example: campaign action-dice asset Mara Athletics d10
    """
    show_report(ctx, campaign_of(ctx).action_dice_asset(character, asset, die))


@action_dice.command("feature")
@click.argument("character")
@click.argument("feature")
@json_option
@click.pass_context
def action_dice_feature(ctx: click.Context, character: str, feature: str) -> None:
    """Give a character a feature it can invoke on its rolls.

    Example: campaign action-dice feature Mara "Old Debts"
    """
    show_report(ctx, campaign_of(ctx).action_dice_feature(character, feature))


@action_dice.command("condition")
@click.argument("character")
@click.argument("condition")
@click.option("--level", required=True, type=int, help="1 to 3; at 3 it incapacitates the actions it impacts.")
@click.option("--impacts", help="The actions it impacts, e.g. climb,run (kept as they were if omitted).")
@json_option
@click.pass_context
def action_dice_condition(ctx: click.Context, character: str, condition: str, level: int,
                          impacts: str | None) -> None:
    """Give a character a condition, or set a condition's level (and the actions it impacts).

    Example: campaign action-dice condition Mara "Sprained Ankle" --level 2 --impacts climb,run
    """
    show_report(ctx, campaign_of(ctx).action_dice_condition(character, condition, level=level, impacts=_words(impacts)))


@action_dice.command("worsen")
@click.argument("character")
@click.argument("condition")
@click.option("--steps", default=1, show_default=True, type=click.IntRange(min=1), help="Levels to raise it.")
@json_option
@click.pass_context
def action_dice_worsen(ctx: click.Context, character: str, condition: str, steps: int) -> None:
    """Raise a condition's level; it stops at 3, where it incapacitates the actions it impacts.

    Example: campaign action-dice worsen Mara "Sprained Ankle"
    """
    show_report(ctx, campaign_of(ctx).action_dice_worsen(character, condition, steps=steps))


@action_dice.command("ease")
@click.argument("character")
@click.argument("condition")
@click.option("--steps", default=1, show_default=True, type=click.IntRange(min=1), help="Levels to lower it.")
@json_option
@click.pass_context
def action_dice_ease(ctx: click.Context, character: str, condition: str, steps: int) -> None:
    """Lower a condition's level; eased below level 1 it is gone.

    Example: campaign action-dice ease Mara "Sprained Ankle" --steps 2
    """
    show_report(ctx, campaign_of(ctx).action_dice_ease(character, condition, steps=steps))


@action_dice.command("treat")
@click.argument("character")
@click.argument("condition")
@json_option
@click.pass_context
def action_dice_treat(ctx: click.Context, character: str, condition: str) -> None:
    """Treat a condition: it is gone, and so is any incapacitation it caused.

    Example: campaign action-dice treat Mara "Sprained Ankle"
    """
    show_report(ctx, campaign_of(ctx).action_dice_treat(character, condition))


@action_dice.command("roll")
@roll_options
@click.option("--faces", help="Faces rolled at the table, in pool order (assets first, then d4s), e.g. 7,3,2.")
@click.option("--roll", "program_rolls", is_flag=True, help="Let the program roll (the default without --faces).")
@click.option("--test", is_flag=True, help="A simple pass/fail test: passes on Mostly or Complete Success.")
@click.option("--gm-override", help="The GM allows a roll the rules refuse; the reason is kept on the entry.")
@json_option
@click.pass_context
def action_dice_roll(ctx: click.Context, character: str, action: str, rating: str | None,
                     difficulty: int | None, advantages: int, disadvantages: int, assets: tuple[str, ...],
                     features: tuple[str, ...], faces: str | None, program_rolls: bool, test: bool,
                     gm_override: str | None) -> None:
    """Make an action roll: three dice against the challenge's difficulty for this character.

    Example: campaign action-dice roll Mara climb --rating D8 --advantage --asset Athletics --faces 7,3,2
    """
    from campaign_ledger.ledger.dice import parse_faces

    # with --roll too, --faces is not read: the library refuses the pair before a face is parsed
    thrown = None if faces is None else [] if program_rolls else list(parse_faces(faces))
    show_report(ctx, campaign_of(ctx).action_dice_roll(
        character, action, rating=rating, difficulty=difficulty, advantages=advantages,
        disadvantages=disadvantages, assets=list(assets), features=list(features), faces=thrown,
        roll=program_rolls, test=test, override=gm_override))
