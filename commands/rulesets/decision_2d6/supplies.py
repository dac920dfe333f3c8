"""Decision rolls (seed 004): supply dice that step down, and D100 trackers."""
from __future__ import annotations

import click

from campaign_ledger.commands.rulesets.decision_2d6.group import decision_2d6
from campaign_ledger.commands.rulesets.decision_2d6.views import d2d6_show
from campaign_ledger.commands.rulesets.decision_2d6.words import d2d6_faces
from campaign_ledger.commands.plumbing import campaign_of, json_option


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
    d2d6_show(ctx, campaign_of(ctx).decision_2d6_item_add(name, die=die, holder=holder))


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
    d2d6_show(ctx, campaign_of(ctx).decision_2d6_supply_roll(item, faces=d2d6_faces(faces, roll), purpose=purpose,
                                                             override=override))


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
    d2d6_show(ctx, campaign_of(ctx).decision_2d6_restock(item, die, reason=reason))


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
    d2d6_show(ctx, campaign_of(ctx).decision_2d6_tracker_add(name, value=value, step=step, holder=holder))


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
    d2d6_show(ctx, campaign_of(ctx).decision_2d6_tracker_roll(name, faces=d2d6_faces(faces, roll), purpose=purpose,
                                                              override=override))


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
    d2d6_show(ctx, campaign_of(ctx).decision_2d6_tracker_set(name, value, reason=reason))
