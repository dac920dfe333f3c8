"""`campaign`: a thin click layer. Parse, call the ledger application, catch up, print.

Every refusal becomes one `Error: ...` line on stderr and a non-zero exit (1 for a
refused command, 2 for a malformed one); no traceback reaches the table.
Heavy modules are imported inside commands so `campaign --help` stays quick.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable

import click

from ledger.errors import BadInput, LedgerError


class LedgerGroup(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:  # output piped into `head` and the like: stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(0) from None
        except LedgerError as e:
            raise click.ClickException(str(e)) from None
        except Exception as e:  # a failure we did not foresee still gets one line, never a traceback
            if os.environ.get("CAMPAIGN_DEBUG"):
                raise
            raise click.ClickException(f"the command failed unexpectedly ({type(e).__name__}: {e}); "
                                       "nothing was recorded unless its entries were printed.") from None

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        try:
            rv = super().main(*args, standalone_mode=False, **kwargs)
        except click.ClickException as e:
            click.echo(f"Error: {e.format_message()}", err=True)
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo("Error: aborted.", err=True)
            sys.exit(1)
        if standalone_mode:
            sys.exit(rv if isinstance(rv, int) else 0)
        return rv


@click.group(cls=LedgerGroup)
@click.option("--db", default="campaign.db", envvar="CAMPAIGN_DB", show_default=True,
              help="The campaign file (also $CAMPAIGN_DB).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def cli(ctx: click.Context, db: str, as_json: bool) -> None:
    """An append-only ledger of a tabletop campaign: every action an entry, every number replayed.

    Example: campaign --db heist.db new "The Moon Heist"
    """
    ctx.obj = {"db": db, "json": as_json}


def override_option(f: Callable) -> Callable:
    """The GM's last word: break a rule the ledger enforces, with the reason kept in the ledger."""
    def callback(ctx: click.Context, _: Any, value: str | None) -> None:
        if value is not None:
            if not value.strip():
                raise BadInput("A GM override needs a reason.")
            ctx.find_root().obj["override"] = value
    return click.option("--gm-override", metavar="REASON", expose_value=False, callback=callback,
                        help="Let this command break a rule; the reason is stored and shown in history.")(f)


def json_option(f: Callable) -> Callable:
    """Every command takes --json (before or after its name)."""
    def callback(ctx: click.Context, _: Any, value: bool) -> None:
        if value:
            ctx.find_root().obj["json"] = True
    return click.option("--json", "as_json", is_flag=True, expose_value=False, callback=callback,
                        help="Print JSON instead of text.")(f)


# --- plumbing -----------------------------------------------------------------------------

def _open(ctx: click.Context, must_exist: bool = True):
    from ledger.application import open_ledger
    from projections import runner

    path = ctx.find_root().obj["db"]
    sqlite_ledger = os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") == "eventsourcing.sqlite"
    if must_exist and sqlite_ledger and not os.path.exists(path):
        raise BadInput(f"No campaign file at {path}; create one with `campaign --db {path} new NAME`.")
    app = open_ledger(path)
    app.gm_override = ctx.find_root().obj.get("override")
    return app, runner.connect(path)


def _write(ctx: click.Context, call: Callable[[Any], dict], must_exist: bool = True,
           text: Callable[[dict], str] | None = None) -> None:
    """Run one ledger command, catch the read model up, print what was appended."""
    from projections import runner, views

    app, db = _open(ctx, must_exist)
    report = call(app)
    runner.catch_up(app, db)
    report["history"] = views.entries(db, report.get("entries", []))
    _print(ctx, report, text or _text_report)


def _read(ctx: click.Context, query: Callable[[Any, Any], Any], text: Callable[[Any], str]) -> None:
    from projections import runner

    app, db = _open(ctx)
    runner.catch_up(app, db)
    _print(ctx, query(app, db), text)


def _print(ctx: click.Context, value: Any, text: Callable[[Any], str]) -> None:
    if ctx.find_root().obj["json"]:
        click.echo(json.dumps(value, indent=2, default=str))
    else:
        click.echo(text(value))


def _text_report(report: dict) -> str:
    from projections.text import report_text
    return report_text(report)


# --- parsing the table's shorthand ---------------------------------------------------------

def _pairs(text: str, what: str) -> dict[str, int]:
    """'Phantom=3,Venger=1' -> {'Phantom': 3, 'Venger': 1}."""
    result: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        try:
            result[name.strip()] = int(value)
        except ValueError:
            raise BadInput(f"Write {what} as NAME=NUMBER,NAME=NUMBER, not '{text}'.") from None
    return result


def _trait_uses(values: tuple[str, ...]):
    from ledger.turns import TraitUse

    uses = []
    for value in values:
        owner, colon, rest = value.partition(":")
        if not colon or not owner.strip() or not rest.strip():
            raise BadInput(f"Name a trait as OWNER:TRAIT (optionally =destiny or =doom), not '{value}'.")
        name, _, paid = rest.partition("=")
        uses.append(TraitUse(owner.strip(), name.strip(), paid.strip().lower() or None))
    return uses


def _throw(faces: str | None, roll: bool):
    from ledger.dice import parse_faces
    from ledger.turns import Throw

    if faces is not None and roll:
        raise BadInput("Give --faces from the table or --roll, not both.")
    return Throw(parse_faces(faces) if faces is not None else None, roll)


def _placing(places: tuple[str, ...], best: bool):
    from ledger.dice import parse_faces
    from ledger.turns import Placing

    given = []
    for value in places:
        label, eq, dice = value.rpartition("=")
        if not eq or not label.strip():
            raise BadInput(f"Place a modifier as TRAIT=DICE (dice numbered from 1), e.g. Blaster=1,4, not '{value}'.")
        given.append((label.strip(), parse_faces(dice)))
    return Placing(tuple(given), best)


def _at(db: Any, at: str | None) -> int | None:
    """`--at 42` is entry 42; `--at 2026-11-22T20:15` the last entry made by then (UTC unless given)."""
    from datetime import datetime, timezone

    from projections import views

    if at is None:
        return None
    if at.strip().isdigit():
        return int(at)
    try:
        when = datetime.fromisoformat(at.strip())
    except ValueError:
        raise BadInput(f"--at takes an entry number or a time like 2026-11-22T20:15, not '{at}'.") from None
    when = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
    return views.last_entry_by(db, when.astimezone(timezone.utc).isoformat(timespec="seconds"))


at_option = click.option("--at", help="Show it as it stood at entry N, or at a time (2026-11-22T20:15).")


def _stress(text: str | None) -> dict[str, int] | None:
    return None if text is None else _pairs(text, "Stress")


turn_options = [
    click.option("--faces", help="Faces rolled at the table, e.g. 1,3,3,4,5."),
    click.option("--roll", is_flag=True, help="Let the program roll the dice."),
    click.option("--place", "places", multiple=True, metavar="TRAIT=DICE",
                 help="Put a Simple modifier on dice (numbered from 1), e.g. Blaster=1,4. Repeatable."),
    click.option("--best", is_flag=True, help="Take the offered placement for every modifier not placed."),
]


def later_steps(f: Callable) -> Callable:
    """The inputs a turn may still be waiting for after its roll."""
    f = click.option("--stress", help="Stress distribution for a Challenge roll, e.g. Kira=2,Bo=1.")(f)
    return turn_options[3](turn_options[2](f))


def turn_inputs(f: Callable) -> Callable:
    for option in reversed(turn_options):
        f = option(f)
    return f


# --- commands: setting up -------------------------------------------------------------------

@cli.command()
@click.argument("name")
@click.option("--ruleset", default="relics", show_default=True, help="relics, beer-run, action-dice or decision-2d6.")
@click.option("--rules-version", default=None, help="Rules version (relics: 0.6.1 default, or 0.2.0).")
@click.option("--setting", "settings", multiple=True, metavar="KEY=VALUE",
              help="A campaign setting of the ruleset (see README), e.g. supply_threshold=3. Repeatable.")
@json_option
@click.pass_context
def new(ctx: click.Context, name: str, ruleset: str, rules_version: str | None, settings: tuple[str, ...]) -> None:
    """Start a campaign in a new file.

    Example: campaign --db heist.db new "The Moon Heist" --rules-version 0.6.1
    """
    path = ctx.find_root().obj["db"]
    if os.path.exists(path) and os.path.getsize(path) and _holds_campaign(ctx):
        raise BadInput(f"{path} already holds a campaign; choose another file with --db.")
    _write(ctx, lambda app: app.start(name, ruleset, rules_version, _settings(settings)), must_exist=False)


def _settings(values: tuple[str, ...]) -> dict[str, str]:
    result = {}
    for value in values:
        key, eq, setting = value.partition("=")
        if not eq or not key.strip():
            raise BadInput(f"Write a setting as KEY=VALUE, not '{value}'.")
        result[key.strip()] = setting.strip()
    return result


def _holds_campaign(ctx: click.Context) -> bool:
    app, _ = _open(ctx)
    try:
        app.campaign()
    except Exception:
        return False
    return True


@cli.group()
def pc() -> None:
    """Player characters."""


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
    _write(ctx, lambda app: app.add_pc(name, _pairs(expertise, "Expertise"), primary))


@cli.group()
def trait() -> None:
    """Traits of PCs and Challenges."""


@trait.command("add", context_settings={"ignore_unknown_options": True})  # "-2 / 2d" is a modifier
@click.argument("owner")
@click.argument("name")
@click.argument("modifier")
@click.option("--polarity", type=click.Choice(["beneficial", "hindering"]), default=None,
              help="Needed only for Auto Results; the sign says it otherwise.")
@click.option("--cost", default="free", show_default=True, help="free, destiny, doom or destiny-or-doom.")
@click.option("--target", default="cohort", show_default=True, help="The pool it modifies: cohort or challenge.")
@click.option("--challenge", "on_challenge", is_flag=True, help="OWNER is a Challenge (the GM's trait).")
@click.option("--frequency", default="always", show_default=True, help="always, round, scene or scenario (once a ...).")
@click.option("--types", default="", help="Challenge types it applies to, e.g. Phantom,Sparrow (default: all).")
@json_option
@click.pass_context
def trait_add(ctx: click.Context, owner: str, name: str, modifier: str, polarity: str | None,
              cost: str, target: str, on_challenge: bool, frequency: str, types: str) -> None:
    """Give a PC, the Cohort (OWNER `Cohort`) or, with --challenge, a Challenge a trait in the seeds' notation.

    Example: campaign trait add Kira "Fusiontech Blaster" "+1 / 1d" --cost destiny --frequency scene --types Venger
    """
    kinds = [k.strip() for k in types.split(",") if k.strip()]
    _write(ctx, lambda app: app.add_trait(owner, name, modifier, polarity, cost, target, on_challenge, frequency, kinds))


@cli.group()
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
    _write(ctx, lambda app: app.start_scenario(title))


@cli.group("house-rule")
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
    _write(ctx, lambda app: app.set_house_rule(rule, value, reason))


@cli.group()
def session() -> None:
    """Play sessions: the real-world sittings of the table."""


@session.command("start")
@click.argument("title")
@json_option
@click.pass_context
def session_start(ctx: click.Context, title: str) -> None:
    """Start a play session; entries until `session end` belong to it.

    Example: campaign session start "Session 12: the vault"
    """
    _write(ctx, lambda app: app.start_session(title))


@session.command("end")
@json_option
@click.pass_context
def session_end(ctx: click.Context) -> None:
    """End the open play session.

    Example: campaign session end
    """
    _write(ctx, lambda app: app.end_session())


@session.command("list")
@json_option
@click.pass_context
def session_list(ctx: click.Context) -> None:
    """List the play sessions and the entries each holds.

    Example: campaign session list
    """
    from projections import sessions

    def text(rows: list) -> str:
        return "\n".join(f"{r['number']}. {r['title']}: entries #{r['first_entry']}-"
                         f"{'#' + str(r['last_entry']) if r['last_entry'] else 'now (open)'}" for r in rows) \
            or "No sessions yet."
    _read(ctx, lambda app, db: sessions.all_sessions(db), text)


@cli.group()
def challenge() -> None:
    """Challenges."""


@challenge.command("open")
@click.argument("name")
@click.option("--threat", required=True, help="Common, Minor, Major, Extreme or Ultimate.")
@click.option("--type", "type_", required=True, help="Scav, Venger, Phantom, Stallion or Sparrow.")
@click.option("--rating", required=True, type=int, help="The Challenge's dice.")
@click.option("--group", default="", help="The PCs facing it, e.g. Kira,Bo (default: the whole Cohort).")
@click.option("--rounds", type=int, help="A timed Challenge: the rounds it lasts.")
@click.option("--test", "is_test", is_flag=True, help="A Test: one round, no Buy Time.")
@click.option("--needed", type=int, default=1, show_default=True, help="A Test's successes needed.")
@click.option("--stress-unresolved", is_flag=True, help="A Test whose unresolved dice become Stress.")
@json_option
@click.pass_context
def challenge_open(ctx: click.Context, name: str, threat: str, type_: str, rating: int, group: str,
                   rounds: int | None, is_test: bool, needed: int, stress_unresolved: bool) -> None:
    """Open a Challenge (Threat Type Rating) in the Event going on, if any.

    Example: campaign challenge open "Vault Guards" --threat Major --type Phantom --rating 4 --rounds 3
    """
    test = {"needed": needed, "stress_unresolved": stress_unresolved} if is_test else None
    if not is_test and (stress_unresolved or needed != 1):
        raise BadInput("--needed and --stress-unresolved are for a Test (--test).")
    _write(ctx, lambda app: app.open_challenge(name, threat, type_, rating, _names(group), rounds, test))


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
    _write(ctx, lambda app: app.split_challenge(name, into, dice, _names(group), paid))


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


@cli.group()
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
    _write(ctx, lambda app: app.start_scene(title))


@scene.command("end")
@click.option("--reason", default="", help="How it ended.")
@json_option
@click.pass_context
def scene_end(ctx: click.Context, reason: str) -> None:
    """End the Scene (and the Event going on); traits that last the Scene end with it.

    Example: campaign scene end --reason "out through the sewers"
    """
    _write(ctx, lambda app: app.end_scene(reason))


@cli.group("event")
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
    _write(ctx, lambda app: app.start_encounter(title, "simultaneous" if simultaneous else "serial"))


@event_group.command("end")
@click.option("--reason", default="", help="How it ended.")
@json_option
@click.pass_context
def event_end(ctx: click.Context, reason: str) -> None:
    """End the Event: its unresolved Challenges end with it.

    Example: campaign event end --reason "the guards gave up"
    """
    _write(ctx, lambda app: app.end_encounter(reason))


# --- commands: playing a round ----------------------------------------------------------------

@cli.command("cohort-turn")
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
    from ledger.turns import Tactics

    tactics = Tactics(opportunity, _supplies(supplies), buy_time, gm_motto)
    _write(ctx, lambda app: app.cohort_turn(challenge_name, leader, list(assists) or None, _trait_uses(traits),
                                            destiny, _throw(faces, roll), _placing(places, best), tactics))


def _supplies(text: str | None) -> tuple[str, int, bool] | None:
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


@cli.command("challenge-turn")
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
    _write(ctx, lambda app: app.challenge_turn(challenge_name, _trait_uses(traits), _throw(faces, roll),
                                               _placing(places, best), _stress(stress)))


@cli.command("roll")
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
    _write(ctx, lambda app: app.roll(challenge_name, _throw(faces, False), _placing(places, best), _stress(stress)))


@cli.command("place")
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
    _write(ctx, lambda app: app.place(challenge_name, _placing(places, best), _stress(stress)))


@cli.command("stress")
@click.argument("challenge_name", metavar="CHALLENGE")
@click.option("--stress", "distribution", required=True, help="e.g. Kira=2,Bo=1")
@override_option
@json_option
@click.pass_context
def stress_cmd(ctx: click.Context, challenge_name: str, distribution: str) -> None:
    """Distribute the Challenge's Stress by consensus (or as the leader says).

    Example: campaign stress "Vault Guards" --stress Kira=2,Bo=1
    """
    _write(ctx, lambda app: app.distribute(challenge_name, _pairs(distribution, "Stress")))


@cli.command("push")
@click.argument("name")
@override_option
@json_option
@click.pass_context
def push(ctx: click.Context, name: str) -> None:
    """A Stressed Out PC Pushes the Limit: Stress rolls over past 10 and the PC gains 1 Agony.

    Example: campaign push Bo
    """
    _write(ctx, lambda app: app.push_the_limit(name))


@cli.command()
@click.argument("round_name", metavar="[ROUND]", required=False)
@click.option("--cascade", is_flag=True, help="Also reverse every later round, newest first.")
@click.option("--dry-run", is_flag=True, help="Only show what would be reversed.")
@click.option("--yes", is_flag=True, help="Do not ask before appending (on a terminal it asks).")
@json_option
@click.pass_context
def undo(ctx: click.Context, round_name: str | None, cascade: bool, dry_run: bool, yes: bool) -> None:
    """Reverse the latest round (or ROUND, e.g. "Vault Guards:2") with new entries; nothing is deleted.

    Example: campaign undo "Vault Guards:2" --cascade --dry-run
    """
    from projections.text import undo_text

    app, _ = _open(ctx)
    plan = app.undo(round_name, cascade, dry_run=True)
    if dry_run:
        _print(ctx, plan, undo_text)
        return
    if not ctx.find_root().obj["json"]:
        click.echo(undo_text(plan))
        if not yes and sys.stdin.isatty() and not click.confirm("Append this reversal?"):
            raise BadInput("Nothing was appended.")
    _write(ctx, lambda app: app.undo(round_name, cascade))


@cli.command()
@json_option
@click.pass_context
def audit(ctx: click.Context) -> None:
    """Verify the hash chain and the read tables; list overrides, house rules, reversals, dice.

    Exit status 0 when the campaign is clean, 1 when anything is broken.
    Example: campaign audit
    """
    from ledger.audit import audit as audit_ledger
    from projections import runner
    from projections.text import audit_text

    app, db = _open(ctx)
    report = audit_ledger(app)
    if report["broken_entry"] is None:
        runner.catch_up(app, db)
        report["read_tables_differ"] = runner.matches_rebuild(app, db)
    report["clean"] = report["broken_entry"] is None and not report.get("read_tables_differ")
    _print(ctx, report, audit_text)
    if not report["clean"]:
        ctx.exit(1)


@cli.command()
@click.argument("round_name", metavar="[ROUND]", required=False)
@click.option("--leader", help="Another leader.")
@click.option("--assist", "assists", multiple=True, help="Other assisting PCs (repeatable).")
@click.option("--destiny", type=int, help="Other Destiny spent on dice.")
@click.option("--add-trait", "add", multiple=True, metavar="OWNER:TRAIT[=destiny|doom]", help="A trait added.")
@click.option("--drop-trait", "drop", multiple=True, metavar="OWNER:TRAIT", help="A recorded trait removed.")
@click.option("--place", "places", multiple=True, metavar="TRAIT=DICE", help="Other Cohort placements.")
@click.option("--faces", help="Faces for a Cohort pool that now rolls more dice than were recorded.")
@click.option("--challenge-place", "challenge_places", multiple=True, metavar="TRAIT=DICE",
              help="Other Challenge placements.")
@click.option("--challenge-faces", help="Faces for a Challenge pool that now rolls more dice.")
@click.option("--stress", help="Another Stress distribution, e.g. Kira=2,Bo=1.")
@click.option("--commit", is_flag=True, help="Append the correction: a reversal plus the corrected round.")
@click.option("--cascade", is_flag=True, help="With --commit: also reverse every later round.")
@json_option
@click.pass_context
def replay(ctx: click.Context, round_name: str | None, leader: str | None, assists: tuple[str, ...],
           destiny: int | None, add: tuple[str, ...], drop: tuple[str, ...], places: tuple[str, ...],
           faces: str | None, challenge_places: tuple[str, ...], challenge_faces: str | None,
           stress: str | None, commit: bool, cascade: bool) -> None:
    """Re-run a recorded round (default: the latest) on its own faces with other choices, side by side.

    Example: campaign replay "Vault Guards:2" --drop-trait "Bo:Steady Hands" --leader Kira
    """
    from ledger.dice import parse_faces
    from ledger.replay import Changes
    from projections.text import replay_text

    changes = Changes(leader=leader, assists=assists or None, destiny=destiny, add=tuple(_trait_uses(add)),
                      drop=drop, place=_placing(places, False).given,
                      faces=parse_faces(faces) if faces else None,
                      challenge_place=_placing(challenge_places, False).given,
                      challenge_faces=parse_faces(challenge_faces) if challenge_faces else None,
                      stress=_stress(stress))
    if commit:
        _write(ctx, lambda app: app.replay(round_name, changes, commit=True, cascade=cascade))
        return
    _read(ctx, lambda app, db: app.replay(round_name, changes), replay_text)


def _progress(ctx: click.Context, total: int, label: str):
    """A progress bar on a terminal; none when output is piped or --json is given."""
    import contextlib

    if ctx.find_root().obj["json"] or not sys.stdout.isatty() or total < 1:
        return contextlib.nullcontext(None)
    return click.progressbar(length=total, label=label, file=sys.stderr)


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["md", "html", "jsonl", "csv"]), default="md", show_default=True)
@click.option("--session", "session_number", type=int, help="Only this play session's entries.")
@click.option("--from", "first", type=int, help="First entry (default: the first).")
@click.option("--to", "last", type=int, help="Last entry (default: the newest).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to FILE (default: stdout).")
@json_option
@click.pass_context
def export(ctx: click.Context, fmt: str, session_number: int | None, first: int | None, last: int | None,
           output: str | None) -> None:
    """Export a session, a range of entries or the whole campaign as Markdown, HTML, JSON Lines or CSV.

    JSON Lines carries every entry with its number, time, type, data and hash: `import` reads it.
    Example: campaign export --format html --session 1 -o session1.html
    """
    from projections import runner, sessions

    app, db = _open(ctx)
    runner.catch_up(app, db)
    newest = app.recorder.max_notification_id() or 0
    title = "the whole campaign"
    if session_number is not None:
        span = sessions.entries_of(db, session_number)
        if span is None:
            raise BadInput(f"There is no session {session_number}; see `campaign session list`.")
        first, last = span
        title = next(r["title"] for r in sessions.all_sessions(db) if r["number"] == session_number)
    first, last = first or 1, min(last or newest, newest)
    if first > last:
        raise BadInput(f"The range #{first}-#{last} holds no entries; the ledger has #1-#{newest}.")
    if (first, last) != (1, newest) and session_number is None:
        title = f"entries #{first} to #{last}"
    chunks = _export_chunks(app, db, fmt, first, last, title)
    with _progress(ctx, last - first + 1, f"Exporting {fmt}") as bar:
        target = open(output, "w", encoding="utf-8", newline="") if output else None
        try:
            write = target.write if target else (lambda text: click.echo(text, nl=False))
            for chunk in chunks:
                write(chunk)
                if bar is not None and chunk.startswith(("{\"entry\"", "- #")):
                    bar.update(1)
        finally:
            if target:
                target.close()
    if output:
        _print(ctx, {"format": fmt, "output": output, "first": first, "last": last},
               lambda r: f"Wrote entries #{r['first']}-#{r['last']} as {r['format']} to {r['output']}.")


def _export_chunks(app: Any, db: Any, fmt: str, first: int, last: int, title: str):
    from ledger import interchange
    from projections import export as exporting

    if fmt == "jsonl":
        return (line + "\n" for line in interchange.export_lines(app, first, last))
    if fmt == "csv":
        return exporting.csv_chunks(db, first, last)
    if fmt == "html":
        from projections.export_html import html_chunks
        return html_chunks(db, first, last, title)
    return exporting.markdown_chunks(db, first, last, title)


@cli.command("import")
@click.argument("source", type=click.Path(dir_okay=False))
@json_option
@click.pass_context
def import_cmd(ctx: click.Context, source: str) -> None:
    """Import a JSON Lines export into a new campaign file (--db), checking every line's hash first.

    Example: campaign --db copy.db import heist.jsonl
    """
    from ledger import interchange
    from ledger.application import open_ledger
    from projections import runner

    target = ctx.find_root().obj["db"]
    lines = sum(1 for _ in open(source, encoding="utf-8")) if os.path.exists(source) else 0
    with _progress(ctx, lines, "Importing") as bar:
        report = interchange.import_file(open_ledger, source, target, bar.update if bar is not None else None)
    app, db = _open(ctx)
    with _progress(ctx, report["entries"], "Building the read tables") as bar:
        runner.rebuild(app, db, bar.update if bar is not None else None)
    _print(ctx, report, lambda r: f"Imported {r['entries']} entries into {target}; every hash checked.")


@cli.command()
@click.argument("pc_name", metavar="PC")
@click.argument("words")
@json_option
@click.pass_context
def motto(ctx: click.Context, pc_name: str, words: str) -> None:
    """Give a PC its Motto: A6 / 1d while it leads, Destiny or Doom, once a scenario (--trait PC:Motto=doom).

    Example: campaign motto Kira "Nobody gets left behind"
    """
    _write(ctx, lambda app: app.set_motto(pc_name, words))


@cli.command("check-this-out")
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
    target = "challenge" if challenge_name else "cohort"
    _write(ctx, lambda app: app.check_this_out(name, modifier, paid, target, challenge_name))


@cli.group("hand-of-doom")
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
    _write(ctx, lambda app: app.hand_of_doom("stress"))


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
    _write(ctx, lambda app: app.hand_of_doom("trait", name, modifier, owner))


@hand_of_doom.command("challenge")
@click.argument("name")
@click.option("--threat", required=True)
@click.option("--type", "type_", required=True)
@click.option("--rating", required=True, type=int)
@override_option
@json_option
@click.pass_context
def hand_of_doom_challenge(ctx: click.Context, name: str, threat: str, type_: str, rating: int) -> None:
    """A new Challenge in the Event.

    Example: campaign hand-of-doom challenge "The Warden" --threat Major --type Venger --rating 4
    """
    _write(ctx, lambda app: app.hand_of_doom("challenge", challenge={"name": name, "threat": threat,
                                                                     "type": type_, "rating": rating}))


@cli.command("disaster-trait", context_settings={"ignore_unknown_options": True})
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
    _write(ctx, lambda app: app.disaster_trait(challenge_name, name, modifier, owner, lasts))


@cli.command("agony-trait", context_settings={"ignore_unknown_options": True})
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
    _write(ctx, lambda app: app.agony_trait(pc_name, name, modifier))


@cli.group()
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
    _write(ctx, lambda app: app.recover_set(_pairs(removal, "recovery")))


@recover.command("test")
@override_option
@json_option
@click.pass_context
def recover_test(ctx: click.Context) -> None:
    """Open the Stallion recovery Test; play it with cohort-turn, then `recover apply`.

    Example: campaign recover test
    """
    _write(ctx, lambda app: app.recover_test())


@recover.command("apply")
@click.option("--stress", "removal", required=True, help="Who recovers how much, e.g. Kira=2,Bo=1.")
@override_option
@json_option
@click.pass_context
def recover_apply(ctx: click.Context, removal: str) -> None:
    """Each success of the recovery Test removes 1 Stress, distributed by consensus.

    Example: campaign recover apply --stress Kira=2,Bo=1
    """
    _write(ctx, lambda app: app.recover_apply(_pairs(removal, "recovery")))


@cli.command()
@json_option
@click.pass_context
def downtime(ctx: click.Context) -> None:
    """Extended downtime: 3 Stress off every PC.

    Example: campaign downtime
    """
    _write(ctx, lambda app: app.downtime())


@cli.command("growth-test")
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
    from ledger.dice import parse_faces
    placement = {0: tuple(p - 1 for p in parse_faces(places))} if places else None
    _write(ctx, lambda app: app.growth_test(pc_name, pool, parse_faces(faces) if faces else None, placement))


# --- commands: reading ---------------------------------------------------------------------------

@cli.command()
@json_option
@click.pass_context
def status(ctx: click.Context) -> None:
    """Show the unfinished turn (if any) and where each open Challenge stands.

    Example: campaign status
    """
    from projections.text import status_text
    from ledger.challenge import NEXT_STEP
    from ledger.ids import challenge_id
    from projections import views

    def query(app: Any, db: Any) -> dict:
        camp = app.campaign()
        rows = views.challenges(db, open_only=True)
        for row in rows:
            ch = app.repository.get(challenge_id(row["name"]))
            row.update(phase=ch.phase, waiting_for=NEXT_STEP[ch.phase], pending=ch.pending)
        return {"turn": camp.turn, "challenges": rows, **views.pools(db)}
    _read(ctx, query, status_text)


@cli.command()
@click.argument("name", required=False)
@at_option
@json_option
@click.pass_context
def sheet(ctx: click.Context, name: str | None, at: str | None) -> None:
    """Show the character sheets (or one PC's), now or as they stood --at an entry or time.

    Example: campaign sheet Kira --at 40
    """
    from projections.text import sheets_text
    from projections import views

    def query(app: Any, db: Any) -> list:
        rows = views.sheets(db, name, _at(db, at))
        if name and not rows:
            raise BadInput(f"There is no PC named '{name}' in this campaign.")
        return rows
    _read(ctx, query, sheets_text)


@cli.command()
@at_option
@json_option
@click.pass_context
def pools(ctx: click.Context, at: str | None) -> None:
    """Show the Destiny and Doom pools, now or --at an entry or time.

    Example: campaign pools --at 2026-11-22T20:15
    """
    from projections.text import pools_text
    from projections import views
    _read(ctx, lambda app, db: views.pools(db, _at(db, at)), pools_text)


@cli.command()
@click.argument("balance")
@json_option
@click.pass_context
def statement(ctx: click.Context, balance: str) -> None:
    """Every entry that changed a balance, with the running balance, like a bank statement.

    BALANCE is destiny, doom, or NAME:stress / NAME:agony (and a ruleset's own balances).
    Example: campaign statement doom
    """
    from projections.text import statement_text
    from projections import views

    def query(app: Any, db: Any) -> dict:
        rows = views.statement(db, balance)
        if not rows:
            known = ", ".join(views.balance_names(db)) or "none yet"
            raise BadInput(f"No balance named '{balance}'; balances: {known}.")
        return {"balance": balance, "entries": rows}
    _read(ctx, query, statement_text)


@cli.command()
@click.option("--limit", type=int, default=None, help="Only the last N entries.")
@at_option
@json_option
@click.pass_context
def history(ctx: click.Context, limit: int | None, at: str | None) -> None:
    """Show the campaign history: one line per ledger entry, with its number and time.

    Example: campaign history --limit 20 --at 40
    """
    from projections.text import history_text
    from projections import views
    _read(ctx, lambda app, db: views.history(db, last=_at(db, at), limit=limit), history_text)


@cli.command()
@json_option
@click.pass_context
def rebuild(ctx: click.Context) -> None:
    """Re-derive every read table from the whole ledger.

    Example: campaign rebuild
    """
    from projections import runner

    app, db = _open(ctx)
    with _progress(ctx, app.recorder.max_notification_id() or 0, "Rebuilding") as bar:
        applied = runner.rebuild(app, db, bar.update if bar is not None else None)
    _print(ctx, {"entries": applied}, lambda r: f"Rebuilt the read model from {r['entries']} ledger entries.")


@cli.command()
@click.option("--system", default="relics", show_default=True,
              type=click.Choice(["relics", "beer-run", "action-dice", "decision-2d6"]), help="The ruleset to demo.")
@json_option
@click.pass_context
def demo(ctx: click.Context, system: str) -> None:
    """Create a sample campaign and play a short scene of its ruleset with entered faces.

    Run again on the same file, it shows the demo campaign as it stands.

    Example: campaign --db demo.db demo
    """
    from projections.text import history_text, pools_text
    from ledger.demo import DEMOS
    from projections import runner, views

    path = ctx.find_root().obj["db"]
    existed = os.path.exists(path)
    app, db = _open(ctx, must_exist=False)
    runner.catch_up(app, db)
    if system not in DEMOS:
        raise BadInput(f"There is no {system} demo yet.")
    name, play = DEMOS[system]
    if not existed:
        play(app)
    elif views.campaign(db).get("name") != name:
        raise BadInput(f"{path} holds another campaign; the demo needs a new file, choose one with --db.")
    runner.catch_up(app, db)
    sheets, sheets_as_text = _sheets_of(system, db)
    result = {"sheets": sheets, "pools": views.pools(db), "history": views.history(db)}
    parts = [sheets_as_text(sheets)] + ([pools_text(result["pools"])] if system == "relics" else [])
    _print(ctx, result, lambda r: "\n\n".join(parts + [history_text(r["history"])]))


def _sheets_of(ruleset: str, db: Any) -> tuple[Any, Callable[[Any], str]]:
    """Each ruleset's own sheets, and how to print them."""
    from projections import action_dice, beer_run, decision_2d6, views
    from projections.text import sheets_text

    if ruleset == "action-dice":
        return action_dice.sheets(db), _action_dice_sheets_text
    if ruleset == "decision-2d6":
        return decision_2d6.sheets(db), _d2d6_sheets_text
    if ruleset == "beer-run":
        return beer_run.sheets(db), _br_sheets_text
    return views.sheets(db), sheets_text


# --- action-dice (seed 003): characters, conditions, action rolls -----------------------------

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


def _action_dice_sheets_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No characters yet."
    blocks = []
    for r in rows:
        lines = [f"{r['name']}  ({r['rolls']} {'roll' if r['rolls'] == 1 else 'rolls'})",
                 "  Assets: " + (", ".join(f"{a} d{d}" for a, d in r["assets"].items()) or "none"),
                 "  Features: " + (", ".join(r["features"]) or "none")]
        lines += [f"  Condition {c['name']}: level {c['level']}, impacts {', '.join(c['impacts']) or 'no action'}"
                  for c in r["conditions"]]
        if r["incapacitated_for"]:
            lines.append(f"  Incapacitated for: {', '.join(r['incapacitated_for'])} (until treated)")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def _action_dice_rolls_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No action rolls yet."
    lines = []
    for r in rows:
        dice = " ".join(f"d{d}={f}" for d, f in zip(r["dice"], r["faces"]))
        test = f" (test {'passed' if r['succeeded'] else 'failed'})" if r["test"] else ""
        override = f"  GM override: {r['gm_override']}" if r["gm_override"] is not None else ""
        lines.append(f"#{r['entry']}  {r['character']} {r['action']}  difficulty {r['difficulty']}  {dice}  "
                     f"{r['successes']} -> {r['outcome']}{test}{override}")
    return "\n".join(lines)


def _difficulty_text(rows: list[dict[str, Any]]) -> str:
    def line(r: dict[str, Any]) -> str:
        position = ", ".join(f"{r[k]} {k[:-1] if r[k] == 1 else k}" for k in ("advantages", "disadvantages") if r[k])
        return f"{r['rating']}: base {r['base']}" + (f", {position}" if position else "") \
            + f" -> difficulty {r['difficulty']}"
    return "\n".join(line(r) for r in rows)


def _only_action_dice(db: Any) -> None:
    from projections import views

    ruleset = views.campaign(db).get("ruleset")
    if ruleset != "action-dice":
        raise BadInput(f"This is a {ruleset} campaign; that command is for action-dice campaigns.")


@cli.group("action-dice")
def action_dice() -> None:
    """Action dice (seed 003): three dice against a difficulty 1-10, four outcome grades."""


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
    _write(ctx, lambda app: app.add_action_character(name, _die_pairs(assets), list(features)))


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
    _write(ctx, lambda app: app.set_action_asset(character, asset, die))


@action_dice.command("feature")
@click.argument("character")
@click.argument("feature")
@json_option
@click.pass_context
def action_dice_feature(ctx: click.Context, character: str, feature: str) -> None:
    """Give a character a feature it can invoke on its rolls.

    Example: campaign action-dice feature Mara "Old Debts"
    """
    _write(ctx, lambda app: app.add_action_feature(character, feature))


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
    _write(ctx, lambda app: app.set_action_condition(character, condition, level, _words(impacts)))


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
    _write(ctx, lambda app: app.change_action_condition(character, condition, steps))


@action_dice.command("ease")
@click.argument("character")
@click.argument("condition")
@click.option("--steps", default=1, show_default=True, type=click.IntRange(min=1), help="Levels to lower it.")
@json_option
@click.pass_context
def action_dice_ease(ctx: click.Context, character: str, condition: str, steps: int) -> None:
    """Lower a condition's level; eased below level 1 it is treated and gone.

    Example: campaign action-dice ease Mara "Sprained Ankle" --steps 2
    """
    _write(ctx, lambda app: app.change_action_condition(character, condition, -steps))


@action_dice.command("treat")
@click.argument("character")
@click.argument("condition")
@json_option
@click.pass_context
def action_dice_treat(ctx: click.Context, character: str, condition: str) -> None:
    """Treat a condition: it is gone, and so is any incapacitation it caused.

    Example: campaign action-dice treat Mara "Sprained Ankle"
    """
    _write(ctx, lambda app: app.treat_action_condition(character, condition))


@action_dice.command("roll")
@click.argument("character")
@click.argument("action")
@click.option("--rating", help="Challenge rating: XX, D4, D6, D8, D10, D12 or ++ (with --difficulty 7-10).")
@click.option("--difficulty", type=int, help="The difficulty 1-10 itself, or the GM's pick for ++.")
@click.option("--advantage", "advantages", count=True, help="A circumstance in the character's favour. Repeatable.")
@click.option("--disadvantage", "disadvantages", count=True, help="A circumstance against it. Repeatable.")
@click.option("--asset", "assets", multiple=True, help="An asset from the sheet (up to 3); d4s fill the rest.")
@click.option("--feature", "features", multiple=True, help="A feature from the sheet invoked on this roll.")
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
    from ledger.dice import parse_faces

    if faces is not None and program_rolls:
        raise BadInput("Give --faces from the table or --roll, not both.")
    thrown = parse_faces(faces) if faces is not None else None
    _write(ctx, lambda app: app.roll_action(
        character, action, rating=rating, difficulty=difficulty, advantages=advantages,
        disadvantages=disadvantages, assets=list(assets), features=list(features), faces=thrown,
        test=test, gm_override=gm_override))


@action_dice.command("difficulty")
@click.argument("rating", required=False)
@click.option("--difficulty", type=int, help="The GM's pick for ++ (7-10).")
@click.option("--advantage", "advantages", count=True, help="A circumstance in the character's favour.")
@click.option("--disadvantage", "disadvantages", count=True, help="A circumstance against the character.")
@json_option
@click.pass_context
def action_dice_difficulty(ctx: click.Context, rating: str | None, difficulty: int | None,
                           advantages: int, disadvantages: int) -> None:
    """Show the difficulty a challenge rating gives (without a rating: the whole ladder). Records nothing.

    Example: campaign action-dice difficulty D8 --disadvantage
    """
    from ledger.rules import action_dice as rules
    from ledger.systems.action_dice import base_difficulty

    if rating is None and difficulty is None:
        ladder = [(r.value, None) for r in rules.ChallengeRating if r is not rules.ChallengeRating.PLUS]
        ladder += [("++", d) for d in range(7, rules.MAX_DIFFICULTY + 1)]
    else:
        ladder = [(rating, difficulty)]
    rows = []
    for r, chosen in ladder:
        rated, base = base_difficulty(r, chosen)
        rows.append({"rating": rated or "-", "base": base, "advantages": advantages,
                     "disadvantages": disadvantages,
                     "difficulty": rules.action_difficulty(base, advantages, disadvantages)})
    _print(ctx, rows, _difficulty_text)


@action_dice.command("sheet")
@click.argument("name", required=False)
@json_option
@click.pass_context
def action_dice_sheet(ctx: click.Context, name: str | None) -> None:
    """Show the character sheets (or one): assets, features, conditions, incapacitation.

    Example: campaign action-dice sheet Mara
    """
    from projections import action_dice as read

    def query(app: Any, db: Any) -> list:
        _only_action_dice(db)
        rows = read.sheets(db, name)
        if name and not rows:
            raise BadInput(f"There is no character named '{name}' in this campaign.")
        return rows
    _read(ctx, query, _action_dice_sheets_text)


@action_dice.command("rolls")
@click.argument("name", required=False)
@click.option("--limit", type=int, default=None, help="Only the last N rolls.")
@json_option
@click.pass_context
def action_dice_rolls(ctx: click.Context, name: str | None, limit: int | None) -> None:
    """Show the action rolls (or one character's): dice, faces, difficulty and outcome.

    Example: campaign action-dice rolls Mara --limit 5
    """
    from projections import action_dice as read

    def query(app: Any, db: Any) -> list:
        _only_action_dice(db)
        return read.rolls(db, name, limit)
    _read(ctx, query, _action_dice_rolls_text)


# --- decision-2d6 (seed 004) ------------------------------------------------------------------


@cli.group("decision-2d6")
def decision_2d6() -> None:
    """Decision rolls (seed 004): 2d6 exploding + stat vs a target, supply dice, D100 trackers."""


def _d2d6_write(ctx: click.Context, call: Callable[[Any], dict]) -> None:
    """Run one ledger command and print what was appended, die by die."""
    _write(ctx, call, text=_d2d6_report_text)


def _d2d6_faces(faces: str | None, roll: bool) -> tuple[int, ...] | None:
    from ledger.dice import parse_faces

    if faces is not None and roll:
        raise BadInput("Give --faces from the table or --roll, not both.")
    return parse_faces(faces) if faces is not None else None


def _d2d6_stated(bonuses: tuple[int, ...], penalties: tuple[int, ...], modifiers: tuple[int, ...]) -> list:
    from ledger.systems.decision_2d6 import Stated

    return ([Stated("bonus", v) for v in bonuses] + [Stated("penalty", v) for v in penalties]
            + [Stated("modifier", v) for v in modifiers])


def _d2d6_side(text: str, stated: list) -> Any:
    from ledger.systems.decision_2d6 import Side

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
    from projections.decision_2d6 import chain_text

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


def _d2d6_sheets_text(rows: list[dict]) -> str:
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


def _d2d6_pools_text(p: dict) -> str:
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
    _d2d6_write(ctx, lambda app: app.d2d6_add_character(name, level, will, fort, _pairs(stats, "stats"),
                                                         _pairs(attributes, "attributes")))


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
    _d2d6_write(ctx, lambda app: app.d2d6_change(name, level, will, fort, _pairs(stats, "stats"),
                                                  _pairs(attributes, "attributes"), reason))


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
        name, stat, target=target, difficulty=difficulty, modifiers=_d2d6_stated(bonuses, penalties, modifiers),
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
    from ledger.systems.decision_2d6 import Stated

    if rounds and roll:
        raise BadInput("Give --faces from the table or --roll, not both.")
    stated = [(who.strip(), Stated(kind, value))
              for kind, given in (("bonus", bonuses), ("penalty", penalties), ("modifier", modifiers))
              for text in given for who, value in _pairs(text, f"a {kind}").items()]
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
@click.option("--override", default=None, metavar="REASON", help="The GM allows using an Empty item, and why.")
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
@click.option("--override", default=None, metavar="REASON", help="The GM allows a use at 0%, and why.")
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
    from projections import decision_2d6 as read, runner

    app, db = _open(ctx)
    runner.catch_up(app, db)
    rows = read.sheets(db, name)
    if name and not rows:
        raise BadInput(f"There is no character named '{name}' in this campaign.")
    _print(ctx, rows, _d2d6_sheets_text)


@decision_2d6.command("pools")
@click.argument("name", required=False)
@json_option
@click.pass_context
def d2d6_pools(ctx: click.Context, name: str | None) -> None:
    """Show supply dice and trackers; with a NAME, every change of that item or tracker.

    Example: campaign decision-2d6 pools Torches
    """
    from projections import decision_2d6 as read, runner

    app, db = _open(ctx)
    runner.catch_up(app, db)
    _print(ctx, {"name": name, "rows": read.statement(db, name)} if name else read.pools(db), _d2d6_pools_text)


# --- beer-run (seed 002): plumbing and the table's shorthand --------------------------------------------------------

def _br_write(ctx: click.Context, call: Callable[[Any], dict]) -> None:
    """Like _write, but the text says what the conflict waits for next."""
    _write(ctx, call, text=_br_report_text)


_br_read = _read


def _br_list(text: str | None) -> list[str]:
    """'Brawn,Wits' -> ['Brawn', 'Wits']."""
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def _br_abilities(values: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """'Physical:Brawn=d8,Physical:Health=d6' (repeatable) -> [(category, name, die), ...]."""
    result = []
    for value in values:
        for part in _br_list(value):
            head, eq, die = part.rpartition("=")
            category, colon, name = head.partition(":")
            if not eq or not colon or not category.strip() or not name.strip():
                raise BadInput(f"Write an ability as CATEGORY:NAME=dN, e.g. Physical:Brawn=d8, not '{part}'.")
            result.append((category.strip(), name.strip(), die.strip()))
    return result


def _br_dice(text: str) -> list[tuple[str | None, str]]:
    """'d8,Lock=d10' -> [(None, 'd8'), ('Lock', 'd10')]."""
    return [(n.strip() or None, d.strip()) if eq else (None, n.strip())
            for n, eq, d in (p.partition("=") for p in _br_list(text))]


def _br_numbers(text: str | None) -> list[int]:
    from ledger.dice import parse_faces
    return list(parse_faces(text)) if text else []


def _br_faces(faces: str | None, penalty: str | None, difficulty: str | None, roll: bool):
    from ledger.dice import parse_faces
    from ledger.systems.beer_run_play import Faces

    def read(text: str | None) -> tuple[int, ...] | None:
        return None if text is None else parse_faces(text)
    return Faces(read(faces), read(penalty), read(difficulty), roll)


_br_roll_options = [
    click.option("--base", help="The base pool, one ability per category, e.g. Brawn,Wits,Charm "
                                "(default: the biggest die left in each category)."),
    click.option("--extra", help="Extra abilities, e.g. Health,Guts: k extra cost k(k+1)/2 Intensity."),
    click.option("--faces", help="Faces rolled at the table, in pool order (abilities, then situation dice)."),
    click.option("--penalty-faces", help="Faces of the penalty dice that oppose this roll."),
    click.option("--difficulty-faces", help="Faces of the difficulty dice of a helping or situational goal."),
    click.option("--roll", is_flag=True, help="Let the program roll every die (also the default without --faces)."),
    click.option("--override", help="The GM's reason to let a pool through that the rules refuse."),
]


def _br_roll_inputs(f: Callable) -> Callable:
    for option in reversed(_br_roll_options):
        f = option(f)
    return f


# --- text ------------------------------------------------------------------------------------------

def _br_die(size: int) -> str:
    return f"d{size}" if size > 0 else "gone"


def _br_held(dice: list[dict], lasting_word: bool = False) -> str:
    if lasting_word:
        return ", ".join(f"d{d['size']} ({'lasting' if d['lasting'] else 'next roll'})" for d in dice) or "none"
    return ", ".join(f"d{d['size']} x{d['uses']}" for d in dice) or "none"


def _br_waiting(c: dict[str, Any]) -> list[str]:
    q = f'"{c["conflict"]}"' if " " in c["conflict"] else c["conflict"]
    if c["phase"] == "ended":
        return [f"{c['conflict']} is over."]
    if c["phase"] == "effects":
        due = c["next_pips"]
        return [f"{c['conflict']} round {c['round']} waits for {c['waiting_for'][0]}.",
                f"  Next: campaign beer-run pips {q} {due['by']} ABILITY=PIPS,... (on {due['on']})"]
    lines = [f"{c['conflict']} round {c['round']} waits for {', '.join(c['waiting_for']) or 'nothing'}."]
    if any("goal" in w for w in c["waiting_for"]):
        lines.append(f"  Next: campaign beer-run goal {q} SIDE \"GOAL\" (for a side with none)")
    return lines + [f"  Next: campaign beer-run roll {q} SIDE --faces ... (or without --faces to let the program roll)"]


def _br_report_text(report: dict[str, Any]) -> str:
    lines = [f"#{r['entry']}  {r['line']}" for r in report.get("history", [])]
    if isinstance(report.get("conflict"), dict):
        lines += _br_waiting(report["conflict"])
    return "\n".join(lines) or "Nothing to record."


def _br_sheets_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No beer-run characters yet."
    blocks = []
    for r in rows:
        head = f"{r['name']}  ({r['status']})" + (f"  Intensity {r['intensity']}" if r["intensity"] is not None else "")
        lines = [head]
        for category, abilities in r["abilities"].items():
            dice = ", ".join(f"{a['name']} {_br_die(a['size'])}" + (f" (of d{a['start']})" if a["size"] != a["start"] else "")
                             for a in abilities)
            lines.append(f"  {category}: {dice}")
        if r["situation"]:
            lines.append(f"  Situation dice: {_br_held(r['situation'])}")
        if r["penalties"]:
            lines.append(f"  Penalty dice: {_br_held(r['penalties'], True)}")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def _br_pools_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No beer-run characters yet."
    width = max(len(r["name"]) for r in rows + [{"name": "Character"}])
    lines = [f"{'Character':<{width}}  Intensity  Situation dice  Penalty dice"]
    lines += [f"{r['name']:<{width}}  {r['intensity']:>9}  {_br_held(r['situation']):<14}  "
              f"{_br_held(r['penalties'], True)}" + ("  (dead)" if r["status"] == "dead" else "") for r in rows]
    return "\n".join(lines)


def _br_statement_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No Intensity changes yet."
    width = max(len(r["character"]) for r in rows)
    return "\n".join(f"#{r['entry']:<4} {r['character']:<{width}}  {r['change']:+4d}  = {r['balance']:<3}  {r['reason']}"
                     for r in rows)


def _br_status_text(states: list[dict[str, Any]]) -> str:
    if not states:
        return "No conflict is open."
    lines = []
    for c in states:
        lines.append(f"{c['conflict']}, round {c['round']} (target {c['target']}):")
        for side, s in c["sides"].items():
            goal = s["goal"]
            what = "no goal" if not goal else f"{goal['kind']} goal '{goal['text']}'" \
                + (f" ({goal['ability']} to zero)" if goal.get("ability") else "")
            state = f"out ({s['out']})" if s["out"] else "rolled" if s["rolled"] else "to roll"
            lines.append(f"  {side}: {what}; {state}")
        lines += ["  " + line for line in _br_waiting(c)]
    return "\n".join(lines)


def _br_demo_result(db: Any) -> dict[str, Any]:
    """What `campaign demo --system beer-run` shows: beer-run sheets and pools, and the history."""
    from projections import beer_run as br_views
    from projections import views
    return {"sheets": br_views.sheets(db), "pools": br_views.pools(db), "history": views.history(db)}


def _br_demo_text(result: dict[str, Any]) -> str:
    from projections.text import history_text
    return "\n\n".join([_br_sheets_text(result["sheets"]), _br_pools_text(result["pools"]),
                        history_text(result["history"])])


# --- commands --------------------------------------------------------------------------------------

@cli.group("beer-run")
def beer_run() -> None:
    """Beer Run campaigns: ability dice in categories, Intensity, opposed pools worn down by pips."""


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
    _br_write(ctx, lambda app: app.beer_run_add_character(name, _br_abilities(abilities), intensity))


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
    _br_write(ctx, lambda app: app.beer_run_add_difficulty(name, _br_dice(dice)))


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
    if gain < 0 or lose < 0:
        raise BadInput("Give --gain and --lose as positive numbers.")
    _br_write(ctx, lambda app: app.beer_run_intensity(name, gain - lose, reason))


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
    _br_write(ctx, lambda app: app.beer_run_open_conflict(name, list(sides), target))


@br_conflict.command("end")
@click.argument("name")
@click.option("--reason", required=True, help="How it ended.")
@json_option
@click.pass_context
def br_conflict_end(ctx: click.Context, name: str, reason: str) -> None:
    """End a conflict (the GM's call, e.g. once a side has its goal and wants nothing more).

    Example: campaign beer-run conflict end "Back Door" --reason "Ann is inside"
    """
    _br_write(ctx, lambda app: app.beer_run_end_conflict(name, reason))


@beer_run.command("goal")
@click.argument("conflict")
@click.argument("side")
@click.argument("text")
@click.option("--ability", help="The opposing ability this goal takes to zero (a Cede gives it at once).")
@click.option("--situation", metavar="dN", help="A situational goal: the die to gain for later rolls.")
@click.option("--against", help="The GM's difficulty pool for it, e.g. d4,d6,d10 (default: three of the die).")
@click.option("--replace", help="Which dice of --against (from 1) become the gained die, at most three.")
@json_option
@click.pass_context
def br_goal(ctx: click.Context, conflict: str, side: str, text: str, ability: str | None,
            situation: str | None, against: str | None, replace: str | None) -> None:
    """State a side's goal for the round (it stands until changed or gained).

    Example: campaign beer-run goal "Back Door" Ann "slip past the Bouncer" --ability Attention
    """
    _br_write(ctx, lambda app: app.beer_run_goal(conflict, side, text, ability, situation,
                                                 _br_list(against), _br_numbers(replace)))


@beer_run.command("helping")
@click.argument("conflict")
@click.argument("helper")
@click.argument("ally")
@click.argument("text")
@click.option("--die", required=True, metavar="dN", help="The die the ally gains, once per success.")
@click.option("--against", help="The GM's difficulty pool, e.g. d4,d6,d10 (default: three of the die).")
@click.option("--replace", help="Which dice of --against (from 1) become the die, at most three.")
@_br_roll_inputs
@json_option
@click.pass_context
def br_helping(ctx: click.Context, conflict: str, helper: str, ally: str, text: str, die: str,
               against: str | None, replace: str | None, base: str | None, extra: str | None,
               faces: str | None, penalty_faces: str | None, difficulty_faces: str | None, roll: bool,
               override: str | None) -> None:
    """A helping goal, rolled before the round's pools: each success is a use of the die for the ally.

    Example: campaign beer-run helping "Back Door" Cal Ann "distract him" --die d6 --faces 2,4,9 --difficulty-faces 5,5,3
    """
    _br_write(ctx, lambda app: app.beer_run_help(
        conflict, helper, ally, text, die, _br_list(against), _br_numbers(replace), _br_list(base),
        _br_list(extra), _br_faces(faces, penalty_faces, difficulty_faces, roll), override))


@beer_run.command("roll")
@click.argument("conflict")
@click.argument("side")
@_br_roll_inputs
@json_option
@click.pass_context
def br_roll(ctx: click.Context, conflict: str, side: str, base: str | None, extra: str | None,
            faces: str | None, penalty_faces: str | None, difficulty_faces: str | None, roll: bool,
            override: str | None) -> None:
    """Pay Intensity and roll a side's pool; once every side has rolled, the pools are compared.

    Example: campaign beer-run roll "Back Door" Ann --base Brawn,Wits,Charm --extra Health --faces 8,6,3,2
    """
    _br_write(ctx, lambda app: app.beer_run_roll(conflict, side, _br_list(base), _br_list(extra),
                                                 _br_faces(faces, penalty_faces, difficulty_faces, roll), override))


@beer_run.command("pips")
@click.argument("conflict")
@click.argument("by")
@click.argument("split")
@click.option("--on", help="The side the pips land on (a check; the conflict knows it).")
@json_option
@click.pass_context
def br_pips(ctx: click.Context, conflict: str, by: str, split: str, on: str | None) -> None:
    """Land a side's kept successes as pips on opposing abilities, split as it likes; upper hand first.

    Example: campaign beer-run pips "Back Door" Ann Attention=2,Intimidate=1
    """
    _br_write(ctx, lambda app: app.beer_run_pips(conflict, by, _pairs(split, "pips"), on))


@beer_run.command("cede")
@click.argument("conflict")
@click.argument("side")
@json_option
@click.pass_context
def br_cede(ctx: click.Context, conflict: str, side: str) -> None:
    """Cede between rounds: the opposition gains its goal (an ability it aimed at goes to zero).

    Example: campaign beer-run cede "Back Door" Bouncer
    """
    _br_write(ctx, lambda app: app.beer_run_cede(conflict, side))


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
    parsed = _br_abilities((ability,))
    if len(parsed) != 1:
        raise BadInput(f"Give one outcome die as CATEGORY:NAME=dN, not '{ability}'.")
    [(category, ability_name, die)] = parsed
    _br_write(ctx, lambda app: app.beer_run_gain_outcome(name, category, ability_name, die, reason))


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
    _br_write(ctx, lambda app: app.beer_run_inflict_outcome(name, die, reason))


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
    _br_write(ctx, lambda app: app.beer_run_lift_penalty(name, die, reason))


@beer_run.command("sheet")
@click.argument("name", required=False)
@json_option
@click.pass_context
def br_sheet(ctx: click.Context, name: str | None) -> None:
    """Show the character sheets (or one): ability dice by category, Intensity, held dice.

    Example: campaign beer-run sheet Ann
    """
    from projections import beer_run as views

    def query(app: Any, db: Any) -> list:
        rows = views.sheets(db, name)
        if name and not rows:
            raise BadInput(f"There is no character named '{name}' in this campaign.")
        return rows
    _br_read(ctx, query, _br_sheets_text)


@beer_run.command("pools")
@json_option
@click.pass_context
def br_pools(ctx: click.Context) -> None:
    """Show each character's Intensity and the situation and penalty dice it holds.

    Example: campaign beer-run pools
    """
    from projections import beer_run as views
    _br_read(ctx, lambda app, db: views.pools(db), _br_pools_text)


@beer_run.command("statement")
@click.argument("name", required=False)
@json_option
@click.pass_context
def br_statement(ctx: click.Context, name: str | None) -> None:
    """Show every change of Intensity with the balance after it (one character's, or all).

    Example: campaign beer-run statement Ann
    """
    from projections import beer_run as views
    _br_read(ctx, lambda app, db: views.statement(db, name), _br_statement_text)


@beer_run.command("status")
@click.argument("conflict", required=False)
@json_option
@click.pass_context
def br_status(ctx: click.Context, conflict: str | None) -> None:
    """Show the open conflicts (or one): goals, who has rolled, and what the round waits for.

    Example: campaign beer-run status "Back Door"
    """
    from projections import beer_run as views

    def query(app: Any, db: Any) -> list:
        names = [conflict] if conflict else [c["name"] for c in views.conflicts(db, open_only=True)]
        return [app.beer_run_conflict_state(n) for n in names]
    _br_read(ctx, query, _br_status_text)


def main() -> None:
    cli(prog_name="campaign")


if __name__ == "__main__":
    main()
