"""Decision rolls (seed 004): the group, characters and the decision roll and contest. Supply dice
and trackers are in decision_2d6_supplies.py, the sheets and other views in decision_2d6_views.py."""
from __future__ import annotations

from typing import Any

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.plumbing import campaign_of, json_option, show_report
from campaign_ledger.commands.parsing import parse_pairs


COMMANDS = click.Group()  # added to `campaign` by cli.py


@COMMANDS.group("decision-2d6")
def decision_2d6() -> None:
    """Decision rolls (seed 004): 2d6 exploding + stat vs a target, supply dice, D100 trackers."""


def d2d6_show(ctx: click.Context, report: dict) -> None:
    """Print what a write appended, die by die."""
    from campaign_ledger.commands.decision_2d6_views import d2d6_report_text

    show_report(ctx, report, d2d6_report_text)


def d2d6_faces(faces: str | None, roll: bool) -> tuple[int, ...] | None:
    """`--faces 3,6,6,2` as the table's faces (None: the program rolls); not with --roll."""
    from campaign_ledger.ledger.dice import parse_faces

    if faces is not None and roll:
        raise BadInput("Give --faces from the table or --roll, not both.")
    return parse_faces(faces) if faces is not None else None


def d2d6_side(text: str) -> tuple[str, str]:
    """`Billy:Stealth` -> (character, stat)."""
    name, colon, stat = text.rpartition(":")
    if not colon or not name.strip() or not stat.strip():
        raise BadInput(f"Name a side as CHARACTER:STAT, e.g. Billy:Stealth, not '{text}'.")
    return name.strip(), stat.strip()


def d2d6_by_side(given: tuple[str, ...], kind: str) -> list[tuple[str, int]]:
    """Repeated `--bonus Billy=1 --bonus Ogre=2` as (side, value) pairs, in the order given."""
    return [(who.strip(), value) for text in given for who, value in parse_pairs(text, f"a {kind}").items()]


def d2d6_round(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    from campaign_ledger.ledger.dice import parse_faces

    first, slash, second = text.partition("/")
    if not slash:
        raise BadInput(f"Give one roll of a contest as FIRST/SECOND faces, e.g. 3,4/6,2,5, not '{text}'.")
    return parse_faces(first), parse_faces(second)


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


def d2d6_contest_words(first: str, second: str, favoured: tuple[str, ...], bonuses: tuple[str, ...],
                       penalties: tuple[str, ...], modifiers: tuple[str, ...]) -> tuple[Any, Any, dict[str, Any]]:
    """A contest as typed (`Billy:Stealth Ogre:Wits --bonus Ogre=1 --advantage Billy=minor`, for
    `contest` and `odds contest`): its sides (character, stat), the side favoured with the level, and
    the modifiers by side; each refused in the order the GM has always met them."""
    from campaign_ledger.decision_2d6 import contest_sides

    by_side = {plural: d2d6_by_side(given, kind) for kind, plural, given in
               (("bonus", "bonuses", bonuses), ("penalty", "penalties", penalties),
                ("modifier", "modifiers", modifiers))}
    sides = (d2d6_side(first), d2d6_side(second))
    contest_sides(*sides, **by_side)  # a modifier for someone else: refused before the advantage is read
    if len(favoured) > 1:  # given twice, click kept the last one alone, silently
        raise BadInput("Advantage in a contest goes to one side: give --advantage once "
                       "(--grant moves a side one step).")
    advantage = None
    if favoured:
        who, eq, level = favoured[0].partition("=")
        if not eq:
            raise BadInput(f"Give advantage as NAME=minor or NAME=major, not '{favoured[0]}'.")
        advantage = (who.strip(), level.strip())
    return sides, advantage, by_side


from campaign_ledger.commands import decision_2d6_supplies, decision_2d6_views  # noqa: E402,F401  (their commands join the group)
