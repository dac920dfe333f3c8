"""Decision rolls (seed 004): 2d6 exploding, supply dice, D100 trackers."""
from __future__ import annotations

from typing import Any, Callable

import click

from ledger.errors import BadInput, NotFound
from commands.plumbing import caught_up, emit, json_option, open_campaign, write_command
from commands.parsing import parse_pairs


# --- decision-2d6 (seed 004) ------------------------------------------------------------------


COMMANDS = click.Group()  # added to `campaign` by cli.py


@COMMANDS.group("decision-2d6")
def decision_2d6() -> None:
    """Decision rolls (seed 004): 2d6 exploding + stat vs a target, supply dice, D100 trackers."""


def _d2d6_write(ctx: click.Context, call: Callable[[Any], dict]) -> None:
    """Run one ledger command and print what was appended, die by die."""
    write_command(ctx, call, text=_d2d6_report_text)


def _d2d6_faces(faces: str | None, roll: bool) -> tuple[int, ...] | None:
    from ledger.dice import parse_faces

    if faces is not None and roll:
        raise BadInput("Give --faces from the table or --roll, not both.")
    return parse_faces(faces) if faces is not None else None


def d2d6_stated(bonuses: tuple[int, ...], penalties: tuple[int, ...], modifiers: tuple[int, ...]) -> list:
    from ledger.rulesets.decision_2d6.commands import Stated

    return ([Stated("bonus", v) for v in bonuses] + [Stated("penalty", v) for v in penalties]
            + [Stated("modifier", v) for v in modifiers])


def _d2d6_side(text: str, stated: list) -> Any:
    from ledger.rulesets.decision_2d6.commands import Side

    name, colon, stat = text.rpartition(":")
    if not colon or not name.strip() or not stat.strip():
        raise BadInput(f"Name a side as CHARACTER:STAT, e.g. Billy:Stealth, not '{text}'.")
    return Side(name.strip(), stat.strip(),
                tuple(m for who, m in stated if who.casefold() == name.strip().casefold()))


def _d2d6_round(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    from ledger.dice import parse_faces

    first, slash, second = text.partition("/")
    if not slash:
        raise BadInput(f"Give one roll of a contest as FIRST/SECOND faces, e.g. 3,4/6,2,5, not '{text}'.")
    return parse_faces(first), parse_faces(second)


# --- formatting --------------------------------------------------------------------------------

def _d2d6_dice_lines(chains: list[list[int]]) -> list[str]:
    """Each decision die on its own line, its explosions after it: 'Die 2: 6 -> 6 -> 2 = 14'."""
    from projections.rulesets.decision_2d6.tables import chain_text

    lines = []
    for number, chain in enumerate(chains, 1):
        boom = len(chain) - 1
        exploded = f" (exploded {({1: 'once', 2: 'twice'}).get(boom, f'{boom} times')})" if boom else ""
        lines.append(f"  Die {number}: {chain_text(chain)} = {sum(chain)}{exploded}")
    return lines


def _d2d6_report_text(report: dict) -> str:
    lines = [f"#{r['entry']}  {r['line']}" for r in report.get("history", [])]
    if "chains" in report:
        lines += _d2d6_dice_lines(report["chains"])
        parts = [f"dice {report['dice_total']}", f"{report['stat']} {report['stat_value']:+d}"]
        if report["modifiers"]:
            parts.append(f"modifiers {report['modifier_total']:+d}")
        if report["advantage_modifier"]:
            parts.append(f"advantage {report['advantage_modifier']:+d}")
        lines.append(f"  Total: {', '.join(parts)} = {report['total']}")
    for number, r in enumerate(report.get("rounds", []), 1):
        for side, key in zip(report["sides"], ("first", "second")):
            lines.append(f"  Roll {number}, {side['name']}: total {r[key]['total']}")
            lines += ["  " + line for line in _d2d6_dice_lines(r[key]["chains"])]
    return "\n".join(lines) or "Nothing to record."


def d2d6_sheets_text(rows: list[dict]) -> str:
    if not rows:
        return "No characters yet."
    blocks = []
    for r in rows:
        stats = ", ".join(f"{k} {v:+d}" for k, v in r["stats"].items()) or "none"
        attributes = ", ".join(f"{k} {v:+d}" for k, v in r["attributes"].items()) or "none"
        blocks.append(f"{r['name']}  Level {r['level']}  Will {r['will']}  Fort {r['fort']}\n"
                      f"  Stress {r['stress']}  Vitality {r['vitality']}\n"
                      f"  Stats: {stats}\n  Attributes: {attributes}")
    return "\n".join(blocks)


def d2d6_pools_text(p: dict) -> str:
    if "rows" in p:
        if not p["rows"]:
            return f"No item or tracker named '{p['name']}'."
        return "\n".join(f"#{r['entry']}  {r['change']}: {'' if r['before'] is None else str(r['before']) + ' -> '}"
                         f"{r['after']}{'' if r['face'] is None else ' (rolled ' + str(r['face']) + ')'}"
                         f"{'  ' + r['note'] if r['note'] else ''}" for r in p["rows"])
    lines = [f"{s['item']}: {s['die']}" + (f"  (held by {s['holder']})" if s["holder"] else "")
             for s in p["supplies"]]
    lines += [f"{t['tracker']}: {t['value']}%  (a use costs {t['step']})"
              + (f"  (held by {t['holder']})" if t["holder"] else "") for t in p["trackers"]]
    return "\n".join(lines) or "No supply dice or trackers yet."


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
    _d2d6_write(ctx, lambda app: app.d2d6_add_character(name, level, will, fort, parse_pairs(stats, "stats"),
                                                         parse_pairs(attributes, "attributes")))


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
    _d2d6_write(ctx, lambda app: app.d2d6_change(name, level, will, fort, parse_pairs(stats, "stats"),
                                                  parse_pairs(attributes, "attributes"), reason))


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
    _d2d6_write(ctx, lambda app: app.d2d6_roll(
        name, stat, target=target, difficulty=difficulty, modifiers=d2d6_stated(bonuses, penalties, modifiers),
        advantage=advantage, grants=grants, faces=_d2d6_faces(faces, roll), purpose=purpose))


@decision_2d6.command("contest")
@click.argument("first")
@click.argument("second")
@click.option("--advantage", "favoured", default=None, metavar="NAME=minor|major",
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
def d2d6_contest(ctx: click.Context, first: str, second: str, favoured: str | None, grants: tuple[str, ...],
                 bonuses: tuple[str, ...], penalties: tuple[str, ...], modifiers: tuple[str, ...],
                 rounds: tuple[str, ...], roll: bool, purpose: str) -> None:
    """A contested roll between two characters: the higher total wins; ties reroll, each kept.

    Example: campaign decision-2d6 contest Billy:Stealth Ogre:Wits --grant Billy --faces 1,3/5,5 --faces 6,2,1/4,3
    """
    from ledger.rulesets.decision_2d6.commands import Stated

    if rounds and roll:
        raise BadInput("Give --faces from the table or --roll, not both.")
    stated = [(who.strip(), Stated(kind, value))
              for kind, given in (("bonus", bonuses), ("penalty", penalties), ("modifier", modifiers))
              for text in given for who, value in parse_pairs(text, f"a {kind}").items()]
    sides = (_d2d6_side(first, stated), _d2d6_side(second, stated))
    named = {s.name.casefold() for s in sides}
    for who, _ in stated:
        if who.casefold() not in named:
            raise BadInput(f"{who} is not one of the two sides of this contest.")
    advantage = None
    if favoured is not None:
        who, eq, level = favoured.partition("=")
        if not eq:
            raise BadInput(f"Give advantage as NAME=minor or NAME=major, not '{favoured}'.")
        advantage = (who.strip(), level.strip())
    _d2d6_write(ctx, lambda app: app.d2d6_contest(
        sides[0], sides[1], favoured=advantage, grants=grants,
        rounds=[_d2d6_round(r) for r in rounds] or None, purpose=purpose))


# --- supply dice and trackers ------------------------------------------------------------------------

@decision_2d6.command("item-add")
@click.argument("name")
@click.option("--die", required=True, help="Its supply die: D12, D10, D8, D6, D4 or Empty.")
@click.option("--holder", default=None, help="The character carrying it.")
@json_option
@click.pass_context
def d2d6_item_add(ctx: click.Context, name: str, die: str, holder: str | None) -> None:
    """Add an item whose supplies are a die.

    Example: campaign decision-2d6 item-add Torches --die D6 --holder Billy
    """
    _d2d6_write(ctx, lambda app: app.d2d6_add_item(name, die, holder))


@decision_2d6.command("supply-roll")
@click.argument("item")
@click.option("--faces", help="The face rolled at the table.")
@click.option("--roll", is_flag=True, help="Let the program roll (the default without --faces).")
@click.option("--for", "purpose", default="", help="What the item is used for.")
@click.option("--gm-override", "--override", "override", default=None, metavar="REASON",
              help="The GM allows using an Empty item, and why.")
@json_option
@click.pass_context
def d2d6_supply_roll(ctx: click.Context, item: str, faces: str | None, roll: bool, purpose: str,
                     override: str | None) -> None:
    """Use an item that needs a supply roll: 3 or lower (the campaign's threshold) lowers its die.

    Example: campaign decision-2d6 supply-roll Torches --faces 2 --for "light the tunnel"
    """
    _d2d6_write(ctx, lambda app: app.d2d6_supply_roll(item, _d2d6_faces(faces, roll), purpose, override))


@decision_2d6.command("restock")
@click.argument("item")
@click.argument("die")
@click.option("--reason", default="", help="How it was resupplied.")
@json_option
@click.pass_context
def d2d6_restock(ctx: click.Context, item: str, die: str, reason: str) -> None:
    """Set an item's supply die (resupplied as its description says).

    Example: campaign decision-2d6 restock Torches D8 --reason "bought in town"
    """
    _d2d6_write(ctx, lambda app: app.d2d6_restock(item, die, reason))


@decision_2d6.command("tracker-add")
@click.argument("name")
@click.option("--value", type=int, default=100, show_default=True, help="The starting percentage.")
@click.option("--step", type=int, default=None, help="Points a use costs (default: the d100_step setting, 10).")
@click.option("--holder", default=None, help="The character it belongs to.")
@json_option
@click.pass_context
def d2d6_tracker_add(ctx: click.Context, name: str, value: int, step: int | None, holder: str | None) -> None:
    """Add a D100 percentage tracker (ammunition).

    Example: campaign decision-2d6 tracker-add Arrows --value 60 --holder Billy
    """
    _d2d6_write(ctx, lambda app: app.d2d6_add_tracker(name, value, step, holder))


@decision_2d6.command("tracker-roll")
@click.argument("name")
@click.option("--faces", help="The d100 rolled at the table (00 is 100).")
@click.option("--roll", is_flag=True, help="Let the program roll (the default without --faces).")
@click.option("--for", "purpose", default="", help="What it is used for.")
@click.option("--gm-override", "--override", "override", default=None, metavar="REASON",
              help="The GM allows a use at 0%, and why.")
@json_option
@click.pass_context
def d2d6_tracker_roll(ctx: click.Context, name: str, faces: str | None, roll: bool, purpose: str,
                      override: str | None) -> None:
    """Use a tracker: a d100 at or under its value goes ahead and costs its step; over it, it runs out.

    Example: campaign decision-2d6 tracker-roll Arrows --faces 37 --for "cover the retreat"
    """
    _d2d6_write(ctx, lambda app: app.d2d6_tracker_roll(name, _d2d6_faces(faces, roll), purpose, override))


@decision_2d6.command("tracker-set")
@click.argument("name")
@click.argument("value", type=int)
@click.option("--reason", default="", help="Why (a refill, a correction).")
@json_option
@click.pass_context
def d2d6_tracker_set(ctx: click.Context, name: str, value: int, reason: str) -> None:
    """Set a tracker's percentage (a refill).

    Example: campaign decision-2d6 tracker-set Arrows 100 --reason "new quiver"
    """
    _d2d6_write(ctx, lambda app: app.d2d6_tracker_set(name, value, reason))


# --- reading -------------------------------------------------------------------------------------------

@decision_2d6.command("sheet")
@click.argument("name", required=False)
@json_option
@click.pass_context
def d2d6_sheet(ctx: click.Context, name: str | None) -> None:
    """Show the character sheets (or one), with Stress and Vitality.

    Example: campaign decision-2d6 sheet Billy
    """
    from projections.rulesets.decision_2d6 import tables as read

    app, db = caught_up(ctx)
    rows = read.sheets(db, name)
    if name and not rows:
        raise NotFound(f"There is no character named '{name}' in this campaign.")
    emit(ctx, rows, d2d6_sheets_text)


@decision_2d6.command("pools")
@click.argument("name", required=False)
@json_option
@click.pass_context
def d2d6_pools(ctx: click.Context, name: str | None) -> None:
    """Show supply dice and trackers; with a NAME, every change of that item or tracker.

    Example: campaign decision-2d6 pools Torches
    """
    from projections.rulesets.decision_2d6 import tables as read

    app, db = caught_up(ctx)
    emit(ctx, {"name": name, "rows": read.statement(db, name)} if name else read.pools(db), d2d6_pools_text)
