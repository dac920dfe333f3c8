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
    return app, runner.connect(path)


def _write(ctx: click.Context, call: Callable[[Any], dict], must_exist: bool = True) -> None:
    """Run one ledger command, catch the read model up, print what was appended."""
    from projections import runner, views

    app, db = _open(ctx, must_exist)
    report = call(app)
    runner.catch_up(app, db)
    report["history"] = views.entries(db, report.get("entries", []))
    _print(ctx, report, _text_report)


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
@json_option
@click.pass_context
def trait_add(ctx: click.Context, owner: str, name: str, modifier: str, polarity: str | None,
              cost: str, target: str, on_challenge: bool) -> None:
    """Give a PC (or, with --challenge, a Challenge) a trait with a modifier in the seeds' notation.

    Example: campaign trait add Kira "Fusiontech Blaster" "+1 / 1d" --cost destiny
    """
    _write(ctx, lambda app: app.add_trait(owner, name, modifier, polarity, cost, target, on_challenge))


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


@cli.group()
def challenge() -> None:
    """Challenges."""


@challenge.command("open")
@click.argument("name")
@click.option("--threat", required=True, help="Common, Minor, Major, Extreme or Ultimate.")
@click.option("--type", "type_", required=True, help="Scav, Venger, Phantom, Stallion or Sparrow.")
@click.option("--rating", required=True, type=int, help="The Challenge's dice.")
@json_option
@click.pass_context
def challenge_open(ctx: click.Context, name: str, threat: str, type_: str, rating: int) -> None:
    """Open a Challenge (Threat Type Rating).

    Example: campaign challenge open "Vault Guards" --threat Major --type Phantom --rating 4
    """
    _write(ctx, lambda app: app.open_challenge(name, threat, type_, rating))


# --- commands: playing a round ----------------------------------------------------------------

@cli.command("cohort-turn")
@click.argument("challenge_name", metavar="CHALLENGE")
@click.option("--leader", help="The PC leading this Challenge (kept until it is resolved).")
@click.option("--assist", "assists", multiple=True, help="An assisting PC (default: every PC able to act).")
@click.option("--trait", "traits", multiple=True, metavar="OWNER:TRAIT[=destiny|doom]",
              help="A trait activated in the Huddle. Repeatable.")
@click.option("--destiny", default=0, type=int, help="Destiny spent 1:1 for extra dice.")
@turn_inputs
@json_option
@click.pass_context
def cohort_turn(ctx: click.Context, challenge_name: str, leader: str | None, assists: tuple[str, ...],
                traits: tuple[str, ...], destiny: int, faces: str | None, roll: bool,
                places: tuple[str, ...], best: bool) -> None:
    """Play the Cohort turn: Huddle and pool, then (if given) the roll and the placements.

    Example: campaign cohort-turn "Vault Guards" --leader Kira --faces 1,3,3,4,5 --best
    """
    _write(ctx, lambda app: app.cohort_turn(challenge_name, leader, list(assists) or None, _trait_uses(traits),
                                            destiny, _throw(faces, roll), _placing(places, best)))


@cli.command("challenge-turn")
@click.argument("challenge_name", metavar="CHALLENGE")
@click.option("--trait", "traits", multiple=True, metavar="OWNER:TRAIT[=destiny|doom]",
              help="A trait activated against (PC) or for (the Challenge) the Challenge pool.")
@turn_inputs
@click.option("--stress", help="Stress distribution, e.g. Kira=2,Bo=1 (must add up to the successes).")
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
@json_option
@click.pass_context
def stress_cmd(ctx: click.Context, challenge_name: str, distribution: str) -> None:
    """Distribute the Challenge's Stress by consensus (or as the leader says).

    Example: campaign stress "Vault Guards" --stress Kira=2,Bo=1
    """
    _write(ctx, lambda app: app.distribute(challenge_name, _pairs(distribution, "Stress")))


@cli.command("push")
@click.argument("name")
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
    applied = runner.rebuild(app, db)
    _print(ctx, {"entries": applied}, lambda r: f"Rebuilt the read model from {r['entries']} ledger entries.")


@cli.command()
@click.option("--system", default="relics", show_default=True,
              type=click.Choice(["relics", "beer-run", "action-dice", "decision-2d6"]), help="The ruleset to demo.")
@json_option
@click.pass_context
def demo(ctx: click.Context, system: str) -> None:
    """Create a sample campaign and play one Challenge to its end with entered faces.

    Run again on the same file, it shows the demo campaign as it stands.

    Example: campaign --db demo.db demo
    """
    from projections.text import history_text, pools_text, sheets_text
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
    result = {"sheets": views.sheets(db), "pools": views.pools(db), "history": views.history(db)}
    _print(ctx, result, lambda r: "\n\n".join([sheets_text(r["sheets"]), pools_text(r["pools"]),
                                                history_text(r["history"])]))


def main() -> None:
    cli(prog_name="campaign")


if __name__ == "__main__":
    main()
