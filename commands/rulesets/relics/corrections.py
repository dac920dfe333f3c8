"""Corrections beyond rounds (issue 13), as subcommands of the Relics groups `pc`, `trait` and
`challenge` (group.py): each appends an entry with its reason; `undo` reverses it."""
from __future__ import annotations

import click

from campaign_ledger.commands import choices
from campaign_ledger.commands.parsing import parse_pairs
from campaign_ledger.commands.plumbing import campaign_of, json_option, show_report
from campaign_ledger.commands.rulesets.relics.group import POLARITY, challenge, pc, trait


REASON = click.option("--reason", required=True, help="Why: the history keeps it beside the correction.")


@pc.command("rename")
@click.argument("old")
@click.argument("new")
@json_option
@click.pass_context
def pc_rename(ctx: click.Context, old: str, new: str) -> None:
    """Rename a PC: the same PC (sheet, history, undo) under a new name; the old name still finds it.

    Example: campaign pc rename Kira "Kira Vale"
    """
    show_report(ctx, campaign_of(ctx).pc_rename(old, new))


@pc.command("retire")
@click.argument("name")
@REASON
@json_option
@click.pass_context
def pc_retire(ctx: click.Context, name: str, reason: str) -> None:
    """Retire a PC from play: it no longer leads, assists, takes Stress or counts toward the caps.

    Example: campaign pc retire Bo --reason "the player moved away"
    """
    show_report(ctx, campaign_of(ctx).pc_retire(name, reason=reason))


@pc.command("return")
@click.argument("name")
@json_option
@click.pass_context
def pc_return(ctx: click.Context, name: str) -> None:
    """Bring a retired PC back to the table, as they left it.

    Example: campaign pc return Bo
    """
    show_report(ctx, campaign_of(ctx).pc_return(name))


@pc.command("expertise")
@click.argument("name")
@click.argument("ranks", required=False, default="")
@click.option("--primary", default=None, help="A new Primary Expertise (alone, or with RANKS).")
@REASON
@json_option
@click.pass_context
def pc_expertise(ctx: click.Context, name: str, ranks: str, primary: str | None, reason: str) -> None:
    """Change a PC's Expertise: the ranks given are set (0 takes a type away), the others stay.

    Example: campaign pc expertise Kira Phantom=4,Sparrow=1 --reason "the GM misread the sheet"
    """
    show_report(ctx, campaign_of(ctx).pc_expertise(name, parse_pairs(ranks, "Expertise") if ranks else {},
                                                   primary=primary, reason=reason))


@trait.command("remove")
@click.argument("owner")
@click.argument("name")
@REASON
@json_option
@click.pass_context
def trait_remove(ctx: click.Context, owner: str, name: str, reason: str) -> None:
    """Take a trait off a PC or a Challenge (the history keeps when it was gained).

    Example: campaign trait remove Kira "Keen Eye" --reason "lost her glasses"
    """
    show_report(ctx, campaign_of(ctx).trait_remove(owner, name, reason=reason))


@trait.command("replace", context_settings={"ignore_unknown_options": True})  # "-2 / 2d" is a modifier
@click.argument("owner")
@click.argument("name")
@click.argument("modifier")
@POLARITY
@click.option("--target", type=choices.TARGET, default=None,
              help="The pool it modifies from now on (default: kept, or by its polarity when that flips).")
@click.option("--reason", default="", help="Why (kept in the history).")
@json_option
@click.pass_context
def trait_replace(ctx: click.Context, owner: str, name: str, modifier: str, polarity: str | None,
                  target: str | None, reason: str) -> None:
    """Give a PC's or a Challenge's trait another modifier; its cost and limits stay.

    Example: campaign trait replace Kira "Keen Eye" "+1 / 2d" --reason "ranked up"
    """
    show_report(ctx, campaign_of(ctx).trait_replace(owner, name, modifier, polarity=polarity, target=target,
                                                    reason=reason))


@challenge.command("rate")
@click.argument("name")
@click.argument("rating", type=int)
@REASON
@json_option
@click.pass_context
def challenge_rate(ctx: click.Context, name: str, rating: int, reason: str) -> None:
    """Change a Challenge's rating (its dice) between turns; it stays above the dice already resolved.

    Example: campaign challenge rate "Vault Guards" 5 --reason "reinforcements arrived"
    """
    show_report(ctx, campaign_of(ctx).challenge_rate(name, rating, reason=reason))


def _finishing(verb: str, says: str, example: str) -> None:
    """`challenge close` and `challenge abandon`: one command each, the same shape."""
    @challenge.command(verb, help=f"{says}\n\nExample: {example}")
    @click.argument("name")
    @REASON
    @json_option
    @click.pass_context
    def finish(ctx: click.Context, name: str, reason: str) -> None:
        show_report(ctx, getattr(campaign_of(ctx), f"challenge_{verb}")(name, reason=reason))


_finishing("close", "Close a Challenge before it resolves: the Cohort got past it another way.",
           'campaign challenge close "Vault Guards" --reason "bribed the captain"')
_finishing("abandon", "Abandon a Challenge: the Cohort walks away from it unresolved.",
           'campaign challenge abandon "Vault Guards" --reason "the alarm went off"')
