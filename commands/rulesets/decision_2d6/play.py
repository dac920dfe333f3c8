"""Decision rolls (seed 004) at the table: characters, the decision roll and the contest. Supply dice
and trackers are in supplies.py, the sheets and other views in views.py, the group in group.py."""
from __future__ import annotations

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.parsing import parse_pairs
from campaign_ledger.commands.plumbing import campaign_of, json_option
from campaign_ledger.commands.rulesets.decision_2d6.group import decision_2d6
from campaign_ledger.commands.rulesets.decision_2d6.words import d2d6_contest_words, d2d6_faces, d2d6_round
from campaign_ledger.commands.rulesets.decision_2d6.views import d2d6_show


# --- characters ----------------------------------------------------------------------------------

@decision_2d6.command("pc-add")
@click.argument("name")
@click.option("--level", type=int, default=1, show_default=True, help="The character's Level.")
@click.option("--will", type=int, required=True, help="Will (Stress = (Level + Will) / 2, rounded down).")
@click.option("--fort", type=int, required=True, help="Fort (Vitality = (Level + Fort) / 2, rounded down).")
@click.option("--stat", "stats", default="", help="Stats, e.g. Strength=0,Agility=1.")
@click.option("--attribute", "attributes", default="", help="Attributes, e.g. Stealth=2,Lore=1.")
@json_option
@click.pass_context
def d2d6_pc_add(ctx: click.Context, name: str, level: int, will: int, fort: int, stats: str,
                attributes: str) -> None:
    """Add a character with Level, Will, Fort, stats and attributes.

    Example: campaign decision-2d6 pc-add Billy --level 3 --will 2 --fort 3 --stat Strength=0,Agility=1
    """
    d2d6_show(ctx, campaign_of(ctx).decision_2d6_pc_add(
        name, level=level, will=will, fort=fort, stats=parse_pairs(stats, "stats"),
        attributes=parse_pairs(attributes, "attributes")))


@decision_2d6.command("pc-set")
@click.argument("name")
@click.option("--level", type=int, default=None, help="A new Level.")
@click.option("--will", type=int, default=None, help="A new Will.")
@click.option("--fort", type=int, default=None, help="A new Fort.")
@click.option("--stat", "stats", default="", help="Stats to set (or add), e.g. Strength=1.")
@click.option("--attribute", "attributes", default="", help="Attributes to set (or add), e.g. Lore=2.")
@click.option("--reason", default="", help="Why (kept on every change).")
@json_option
@click.pass_context
def d2d6_pc_set(ctx: click.Context, name: str, level: int | None, will: int | None, fort: int | None,
                stats: str, attributes: str, reason: str) -> None:
    """Change a character's scores: one ledger entry per score that changes.

    Example: campaign decision-2d6 pc-set Billy --level 4 --reason "levelled up"
    """
    d2d6_show(ctx, campaign_of(ctx).decision_2d6_pc_set(
        name, level=level, will=will, fort=fort, stats=parse_pairs(stats, "stats"),
        attributes=parse_pairs(attributes, "attributes"), reason=reason))


# --- rolls ---------------------------------------------------------------------------------------

@decision_2d6.command("roll")
@click.argument("name")
@click.argument("stat")
@click.option("--target", type=int, default=None, help="The target number (meeting it succeeds).")
@click.option("--difficulty", default=None, help="Or a named one: simple 6, challenging 12, strenuous 18, impossible 20.")
@click.option("--bonus", "bonuses", type=int, multiple=True, help="A bonus (a negative one counts 0). Repeatable.")
@click.option("--penalty", "penalties", type=int, multiple=True,
              help="A penalty, with its sign: -2 (a positive one counts 0). Repeatable.")
@click.option("--modifier", "modifiers", type=int, multiple=True, help="A plain modifier, either sign. Repeatable.")
@click.option("--advantage", default="neutral", show_default=True,
              help="major-advantage, minor-advantage, neutral, minor-disadvantage or major-disadvantage.")
@click.option("--grant", "grants", count=True, help="An effect that grants advantage (one step); repeat per effect.")
@click.option("--faces", help="Faces rolled at the table in order, explosions included, e.g. 3,6,6,2.")
@click.option("--roll", is_flag=True, help="Let the program roll (the default without --faces).")
@click.option("--for", "purpose", default="", help="What the roll is for.")
@json_option
@click.pass_context
def d2d6_roll(ctx: click.Context, name: str, stat: str, target: int | None, difficulty: str | None,
              bonuses: tuple[int, ...], penalties: tuple[int, ...], modifiers: tuple[int, ...],
              advantage: str, grants: int, faces: str | None, roll: bool, purpose: str) -> None:
    """A decision roll: 2d6 + stat + modifiers vs a target; every 6 adds a die.

    Example: campaign decision-2d6 roll Billy Strength --difficulty challenging --faces 3,6,6,2
    """
    d2d6_show(ctx, campaign_of(ctx).decision_2d6_roll(
        name, stat, target=target, difficulty=difficulty, bonuses=bonuses, penalties=penalties,
        modifiers=modifiers, advantage=advantage, grants=grants, faces=d2d6_faces(faces, roll), purpose=purpose))


@decision_2d6.command("contest")
@click.argument("first")
@click.argument("second")
@click.option("--advantage", "favoured", multiple=True, metavar="NAME=minor|major",
              help="The side the GM gives advantage to (nobody is at disadvantage in a contest).")
@click.option("--grant", "grants", multiple=True, metavar="NAME",
              help="An effect that grants NAME advantage (one step). Repeatable.")
@click.option("--bonus", "bonuses", multiple=True, metavar="NAME=N", help="A side's bonus. Repeatable.")
@click.option("--penalty", "penalties", multiple=True, metavar="NAME=N", help="A side's penalty (e.g. Ogre=-2).")
@click.option("--modifier", "modifiers", multiple=True, metavar="NAME=N", help="A side's plain modifier.")
@click.option("--faces", "rounds", multiple=True, metavar="FIRST/SECOND",
              help="One roll's faces for both sides, e.g. 3,4/5,2; repeat for each tie reroll.")
@click.option("--roll", is_flag=True, help="Let the program roll, tie rerolls included (the default).")
@click.option("--for", "purpose", default="", help="What the contest is about.")
@json_option
@click.pass_context
def d2d6_contest(ctx: click.Context, first: str, second: str, favoured: tuple[str, ...], grants: tuple[str, ...],
                 bonuses: tuple[str, ...], penalties: tuple[str, ...], modifiers: tuple[str, ...],
                 rounds: tuple[str, ...], roll: bool, purpose: str) -> None:
    """A contested roll between two characters: the higher total wins; ties reroll, each kept.

    Example: campaign decision-2d6 contest Billy:Stealth Ogre:Wits --grant Billy --faces 1,3/3,4 --faces 6,2,1/4,3
    """
    if rounds and roll:
        raise BadInput("Give --faces from the table or --roll, not both.")
    sides, advantage, by_side = d2d6_contest_words(first, second, favoured, bonuses, penalties, modifiers)
    d2d6_show(ctx, campaign_of(ctx).decision_2d6_contest(
        *sides, advantage=advantage, grants=grants, rounds=[d2d6_round(r) for r in rounds] or None,
        purpose=purpose, **by_side))
