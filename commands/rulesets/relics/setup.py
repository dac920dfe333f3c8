"""Setting up a Relics of the Moon campaign: PCs, traits, Scenarios, house rules, Challenges, Scenes
and Events."""
from __future__ import annotations

import click

from campaign_ledger.commands import choices

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.plumbing import campaign_of, json_option, override_option, show_report
from campaign_ledger.commands.parsing import parse_names, parse_pairs
from campaign_ledger.commands.rulesets.relics.group import COMMANDS, POLARITY, challenge, pc, trait


@pc.command("add")
@click.argument("name")
@click.option("--expertise", required=True, help="Ranks by type, e.g. Phantom=3,Venger=1.")
@click.option("--primary", required=True, help="The PC's Primary Expertise.")
@json_option
@click.pass_context
def pc_add(ctx: click.Context, name: str, expertise: str, primary: str) -> None:
    """Add a PC to the Cohort.

    Example: campaign pc add Kira --expertise Phantom=3,Venger=1 --primary Phantom
    """
    show_report(ctx, campaign_of(ctx).pc_add(name, parse_pairs(expertise, "Expertise"), primary))


@trait.command("add", context_settings={"ignore_unknown_options": True})  # "-2 / 2d" is a modifier
@click.argument("owner")
@click.argument("name")
@click.argument("modifier")
@POLARITY
@click.option("--cost", type=choices.COST, default="free", show_default=True, help="What activating it costs.")
@click.option("--target", type=choices.TARGET, default=None,
              help="The pool it modifies (default: Beneficial, its owner's own; Hindering, the opposition's).")
@click.option("--challenge", "on_challenge", is_flag=True, help="OWNER is a Challenge (the GM's trait).")
@click.option("--frequency", type=choices.FREQUENCY, default="always", show_default=True, help="How often it may be used (once a ...).")
@click.option("--types", default="", help="Challenge types it applies to, e.g. Phantom,Sparrow (default: all).")
@json_option
@click.pass_context
def trait_add(ctx: click.Context, owner: str, name: str, modifier: str, polarity: str | None,
              cost: str, target: str | None, on_challenge: bool, frequency: str, types: str) -> None:
    """Give a PC, the Cohort (OWNER `Cohort`) or, with --challenge, a Challenge a trait in the seeds' notation.

    Example: campaign trait add Kira "Fusiontech Blaster" "+1 / 1d" --cost destiny --frequency scene --types Venger
    """
    kinds = [k.strip() for k in types.split(",") if k.strip()]
    show_report(ctx, campaign_of(ctx).trait_add(owner, name, modifier, polarity=polarity, cost=cost, target=target,
                                                challenge=on_challenge, frequency=frequency, types=kinds))


@COMMANDS.group()
def scenario() -> None:
    """Scenarios."""


@scenario.command("start")
@click.argument("title")
@json_option
@click.pass_context
def scenario_start(ctx: click.Context, title: str) -> None:
    """Start a Scenario: Destiny and Doom are each set to the number of PCs.

    Example: campaign scenario start "Night at the Vault"
    """
    show_report(ctx, campaign_of(ctx).scenario_start(title))


@COMMANDS.group("house-rule")
def house_rule() -> None:
    """House rules: amend a rule for this campaign; later entries use it, history shows when."""


@house_rule.command("set")
@click.argument("rule")
@click.argument("value")
@click.option("--reason", default="", help="Why the table changed it.")
@json_option
@click.pass_context
def house_rule_set(ctx: click.Context, rule: str, value: str, reason: str) -> None:
    """Set a house rule: ranked_simple, threat_auto, lead_dice, assist_dice, destiny_per_overpowering,
    stressed_out_at, agony_out_at, pool_cap_per_pc, destiny_cap_per_pc.

    Example: campaign house-rule set ranked_simple 1=1/1,2=1/2,3=2/2 --reason "gentler ranks"
    """
    show_report(ctx, campaign_of(ctx).house_rule_set(rule, value, reason=reason))


@challenge.command("open")
@click.argument("name")
@click.option("--threat", type=choices.THREAT, help="Its Threat (default: the bestiary's, from a roster).")
@click.option("--type", "type_", type=choices.CHALLENGE_TYPE, help="Its type (default: the bestiary's).")
@click.option("--rating", type=int, help="The Challenge's dice (default: the bestiary's).")
@click.option("--group", default="", help="The PCs facing it, e.g. Kira,Bo (default: the whole Cohort).")
@click.option("--rounds", type=int, help="A timed Challenge: the rounds it lasts.")
@click.option("--test", "is_test", is_flag=True, help="A Test: one round, no Buy Time.")
@click.option("--needed", type=int, default=1, show_default=True, help="A Test's successes needed.")
@click.option("--stress-unresolved", is_flag=True, help="A Test whose unresolved dice become Stress.")
@json_option
@click.pass_context
def challenge_open(ctx: click.Context, name: str, threat: str | None, type_: str | None, rating: int | None, group: str,
                   rounds: int | None, is_test: bool, needed: int, stress_unresolved: bool) -> None:
    """Open a Challenge (Threat Type Rating) in the Event going on, if any.

    Example: campaign challenge open "Vault Guards" --threat Major --type Phantom --rating 4 --rounds 3
    """
    if not is_test and (stress_unresolved or needed != 1):
        raise BadInput("--needed and --stress-unresolved are for a Test (--test).")
    show_report(ctx, campaign_of(ctx).challenge_open(name, threat=threat, type=type_, rating=rating,
                                                     group=parse_names(group), rounds=rounds, test=is_test,
                                                     needed=needed, stress_unresolved=stress_unresolved))


@challenge.command("split")
@click.argument("name")
@click.option("--into", required=True, help="The new Challenge's name.")
@click.option("--dice", required=True, type=int, help="How many unresolved dice move to it.")
@click.option("--group", required=True, help="The PCs who face the new Challenge, e.g. Bo,Ash.")
@click.option("--pay", "paid", required=True, type=click.Choice(["destiny", "doom"]), help="Destiny or Doom.")
@override_option
@json_option
@click.pass_context
def challenge_split(ctx: click.Context, name: str, into: str, dice: int, group: str, paid: str) -> None:
    """Split a Challenge between two groups of the Cohort (the pool cap does not shrink).

    Example: campaign challenge split "Vault Guards" --into "Back Stairs" --dice 2 --group Bo --pay doom
    """
    show_report(ctx, campaign_of(ctx).challenge_split(name, into=into, dice=dice, group=parse_names(group), pay=paid))


@COMMANDS.group()
def scene() -> None:
    """Scenes: a Scene holds Events and free-flowing narrative; recovery comes at its end."""


@scene.command("start")
@click.argument("title")
@json_option
@click.pass_context
def scene_start(ctx: click.Context, title: str) -> None:
    """Start a Scene.

    Example: campaign scene start "The vault at midnight"
    """
    show_report(ctx, campaign_of(ctx).scene_start(title))


@scene.command("end")
@click.option("--reason", default="", help="How it ended.")
@json_option
@click.pass_context
def scene_end(ctx: click.Context, reason: str) -> None:
    """End the Scene (and the Event going on); traits that last the Scene end with it.

    Example: campaign scene end --reason "out through the sewers"
    """
    show_report(ctx, campaign_of(ctx).scene_end(reason=reason))


@COMMANDS.group("event")
def event_group() -> None:
    """Events: one or more Challenges, faced one after another or at once."""


@event_group.command("start")
@click.argument("title")
@click.option("--simultaneous", is_flag=True, help="Its Challenges are faced at once (default: serially).")
@json_option
@click.pass_context
def event_start(ctx: click.Context, title: str, simultaneous: bool) -> None:
    """Start an Event; Challenges opened now belong to it.

    Example: campaign event start "The alarm" --simultaneous
    """
    show_report(ctx, campaign_of(ctx).event_start(title, simultaneous=simultaneous))


@event_group.command("end")
@click.option("--reason", default="", help="How it ended.")
@json_option
@click.pass_context
def event_end(ctx: click.Context, reason: str) -> None:
    """End the Event: its unresolved Challenges end with it.

    Example: campaign event end --reason "the guards gave up"
    """
    show_report(ctx, campaign_of(ctx).event_end(reason=reason))
