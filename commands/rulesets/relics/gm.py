"""Relics of the Moon: what the GM calls on around the rounds: Mottos, Check This Out, the Hand of
Doom, Disaster and Agony traits, recovery, downtime and Growth Tests."""
from __future__ import annotations

import click

from campaign_ledger.commands import choices

from campaign_ledger.commands.plumbing import campaign_of, json_option, override_option, show_report
from campaign_ledger.commands.rulesets.relics.group import COMMANDS
from campaign_ledger.commands.parsing import parse_pairs



@COMMANDS.command()
@click.argument("pc_name", metavar="PC")
@click.argument("words")
@json_option
@click.pass_context
def motto(ctx: click.Context, pc_name: str, words: str) -> None:
    """Give a PC its Motto: A6 / 1d while it leads, Destiny or Doom, once a scenario (--trait PC:Motto=doom).

    Example: campaign motto Kira "Nobody gets left behind"
    """
    show_report(ctx, campaign_of(ctx).motto(pc_name, words))


@COMMANDS.command("check-this-out", context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.argument("modifier")
@click.option("--pay", "paid", required=True, type=click.Choice(["destiny", "doom"]))
@click.option("--against", "challenge_name", metavar="CHALLENGE",
              help="Hinder this Challenge instead of helping the Cohort.")
@override_option
@json_option
@click.pass_context
def check_this_out(ctx: click.Context, name: str, modifier: str, paid: str, challenge_name: str | None) -> None:
    """Once a Scene: a temporary rank 1 trait for the Cohort (+1d6, +1 / 1d) or against a Challenge (-1 / 1d).

    Example: campaign check-this-out "Loose grating" "+1 / 1d" --pay destiny
    """
    show_report(ctx, campaign_of(ctx).check_this_out(name, modifier, pay=paid, against=challenge_name))


@COMMANDS.group("hand-of-doom")
def hand_of_doom() -> None:
    """The GM spends 5 Doom during an Event."""


@hand_of_doom.command("stress")
@override_option
@json_option
@click.pass_context
def hand_of_doom_stress(ctx: click.Context) -> None:
    """2 unavoidable Stress for each PC.

    Example: campaign hand-of-doom stress
    """
    show_report(ctx, campaign_of(ctx).hand_of_doom_stress())


@hand_of_doom.command("trait", context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.argument("modifier")
@click.option("--on", "owner", default="Cohort", show_default=True, help="The Cohort or a PC.")
@override_option
@json_option
@click.pass_context
def hand_of_doom_trait(ctx: click.Context, name: str, modifier: str, owner: str) -> None:
    """A Hindering trait on the Cohort or a PC for the rest of the Event.

    Example: campaign hand-of-doom trait "Reinforcements" "-1 / 2d"
    """
    show_report(ctx, campaign_of(ctx).hand_of_doom_trait(name, modifier, on=owner))


@hand_of_doom.command("challenge")
@click.argument("name")
@click.option("--threat", type=choices.THREAT, required=True)
@click.option("--type", "type_", type=choices.CHALLENGE_TYPE, required=True)
@click.option("--rating", required=True, type=int)
@override_option
@json_option
@click.pass_context
def hand_of_doom_challenge(ctx: click.Context, name: str, threat: str, type_: str, rating: int) -> None:
    """A new Challenge in the Event.

    Example: campaign hand-of-doom challenge "The Warden" --threat Major --type Venger --rating 4
    """
    show_report(ctx, campaign_of(ctx).hand_of_doom_challenge(name, threat=threat, type=type_, rating=rating))


@COMMANDS.command("disaster-trait", context_settings={"ignore_unknown_options": True})
@click.argument("challenge_name", metavar="CHALLENGE")
@click.argument("name")
@click.argument("modifier")
@click.option("--on", "owner", required=True, help="Cohort, a PC, or the Challenge.")
@click.option("--lasts", default="event", show_default=True, help="round, challenge, event, scene, scenario.")
@override_option
@json_option
@click.pass_context
def disaster_trait(ctx: click.Context, challenge_name: str, name: str, modifier: str, owner: str, lasts: str) -> None:
    """After a Disaster, the GM's temporary trait: Hindering on the side that suffered it, or Beneficial opposite.

    Example: campaign disaster-trait "Vault Guards" Rattled "-1 / 1d" --on Kira
    """
    show_report(ctx, campaign_of(ctx).disaster_trait(challenge_name, name, modifier, on=owner, lasts=lasts))


@COMMANDS.command("agony-trait", context_settings={"ignore_unknown_options": True})
@click.argument("pc_name", metavar="PC")
@click.argument("name")
@click.argument("modifier")
@override_option
@json_option
@click.pass_context
def agony_trait(ctx: click.Context, pc_name: str, name: str, modifier: str) -> None:
    """The semi-permanent Hindering trait an Agony brings, named by the GM.

    Example: campaign agony-trait Bo "Shaking hands" "-1 / 1d"
    """
    show_report(ctx, campaign_of(ctx).agony_trait(pc_name, name, modifier))


@COMMANDS.group()
def recover() -> None:
    """Stress recovery at a Scene's end (set amount, or a Stallion Test)."""


@recover.command("set")
@click.option("--stress", "removal", required=True, help="Who recovers how much, e.g. Kira=1,Bo=1.")
@override_option
@json_option
@click.pass_context
def recover_set(ctx: click.Context, removal: str) -> None:
    """The set amount: 1 Stress per PC with Stallion rank 2+, distributed by consensus.

    Example: campaign recover set --stress Kira=1
    """
    show_report(ctx, campaign_of(ctx).recover_set(parse_pairs(removal, "recovery")))


@recover.command("test")
@override_option
@json_option
@click.pass_context
def recover_test(ctx: click.Context) -> None:
    """Open the Stallion recovery Test; play it with cohort-turn, then `recover apply`.

    Example: campaign recover test
    """
    show_report(ctx, campaign_of(ctx).recover_test())


@recover.command("apply")
@click.option("--stress", "removal", required=True, help="Who recovers how much, e.g. Kira=2,Bo=1.")
@override_option
@json_option
@click.pass_context
def recover_apply(ctx: click.Context, removal: str) -> None:
    """Each success of the recovery Test removes 1 Stress, distributed by consensus.

    Example: campaign recover apply --stress Kira=2,Bo=1
    """
    show_report(ctx, campaign_of(ctx).recover_apply(parse_pairs(removal, "recovery")))


@COMMANDS.command()
@json_option
@click.pass_context
def downtime(ctx: click.Context) -> None:
    """Extended downtime: 3 Stress off every PC.

    Example: campaign downtime
    """
    show_report(ctx, campaign_of(ctx).downtime())


@COMMANDS.command("growth-test")
@click.argument("pc_name", metavar="PC")
@click.option("--pool", required=True, type=int, help="The dice the GM sets.")
@click.option("--faces", help="Faces from the table; without them the program rolls.")
@click.option("--place", "places", metavar="DICE", help="Where the Agony modifier goes (dice numbered from 1).")
@override_option
@json_option
@click.pass_context
def growth_test(ctx: click.Context, pc_name: str, pool: int, faces: str | None, places: str | None) -> None:
    """A Growth Test after a narrative quest: passing removes 1 Agony; each Agony adds its ranked modifier.

    Example: campaign growth-test Bo --pool 4 --faces 3,4,2,1
    """
    from campaign_ledger.ledger.dice import parse_faces
    place = parse_faces(places) if places else None
    show_report(ctx, campaign_of(ctx).growth_test(pc_name, pool=pool, place=place,
                                                  faces=parse_faces(faces) if faces is not None else None))
