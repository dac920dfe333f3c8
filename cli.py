"""`campaign`: a thin click layer. Parse, call the ledger application, catch up, print.

Every refusal becomes one `Error: ...` line on stderr and a non-zero exit (1 for a
refused command, 2 for a malformed one); no traceback reaches the table.
Heavy modules are imported inside commands so `campaign --help` stays quick.
"""
from __future__ import annotations

import errno
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
            storage = _storage_message(ctx, e) or _server_message(e)
            if storage:
                raise click.ClickException(storage) from None
            if os.environ.get("CAMPAIGN_DEBUG"):
                raise
            key = (ctx.obj or {}).get("key_used")
            retry = f"; to retry, use --key {key}: nothing is then recorded twice" if key else ""
            raise click.ClickException(f"the command failed unexpectedly ({type(e).__name__}: {e}); "
                                       f"nothing was recorded unless its entries were printed{retry}.") from None

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


def _storage_message(ctx: click.Context, e: BaseException) -> str | None:
    """Disk full and read-only media in the GM's words, with what was and wasn't recorded."""
    import errno

    text = f"{e} {e.__cause__ or ''} {e.__context__ or ''}".lower()
    codes = {getattr(x, "errno", None) for x in (e, e.__cause__, e.__context__)}
    obj = ctx.find_root().obj or {}
    db = obj.get("db", "the campaign file")
    folder = os.path.dirname(os.path.abspath(db))
    entries = obj.get("recorded") or []
    recorded = (f"the command was recorded (entries #{entries[0]}-#{entries[-1]}) but the read tables are behind; "
                "once there is room, any command catches them up" if entries else
                "nothing of this command was recorded")
    if errno.ENOSPC in codes or "disk is full" in text or (
            "disk i/o error" in text and os.path.isdir(folder) and _free_bytes(folder) == 0):
        return f"the disk holding {db} is full: {recorded}; free some space and run it again."
    if errno.EROFS in codes or "readonly database" in text or "read-only file system" in text or (
            "unable to open database file" in text and not os.access(folder, os.W_OK)):
        return (f"{db} is on read-only media (or is read-only) and cannot be opened for writing; {recorded}; "
                "copy it to a writable folder to use it.")
    return None


def _server_message(e: BaseException) -> str | None:
    """An unreachable PostgreSQL ledger, named by host and port (the GM can check the server or the settings)."""
    if os.environ.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        return None
    text = f"{e} {e.__cause__ or ''}".lower()
    if not any(s in text for s in ("couldn't get a connection", "connection refused", "could not connect",
                                   "timeout expired", "connection failed", "could not translate host")):
        return None
    host, port = os.environ.get("POSTGRES_HOST", "localhost"), os.environ.get("POSTGRES_PORT", "5432")
    seconds = os.environ.get("POSTGRES_CONNECT_TIMEOUT", "5")
    return (f"cannot reach the PostgreSQL ledger at {host}:{port} (database "
            f"{os.environ.get('POSTGRES_DBNAME', '?')}) within {seconds} s; is the server running? "
            "Nothing was recorded.")


def _free_bytes(folder: str) -> int:
    import shutil
    return shutil.disk_usage(folder).free


@click.group(cls=LedgerGroup)
@click.option("--db", default="campaign.db", envvar="CAMPAIGN_DB", show_default=True,
              help="The campaign file (also $CAMPAIGN_DB).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--key", default=None, envvar="CAMPAIGN_COMMAND_KEY", metavar="K",
              help="This command's idempotency key (also $CAMPAIGN_COMMAND_KEY): a command run again with "
                   "the key of one already recorded appends nothing. Generated when absent.")
@click.option("--timeout", type=click.IntRange(1, 600), default=None, metavar="SECONDS",
              help="With the ledger on PostgreSQL: how long to try reaching the server (default 5).")
@click.pass_context
def cli(ctx: click.Context, db: str, as_json: bool, key: str | None, timeout: int | None) -> None:
    """An append-only ledger of a tabletop campaign: every action an entry, every number replayed.

    Example: campaign --db heist.db new "The Moon Heist"
    """
    ctx.obj = {"db": db, "json": as_json, "key": key}
    if timeout is not None:
        os.environ["POSTGRES_CONNECT_TIMEOUT"] = str(timeout)


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
    """Every command takes --json and --key (before or after its name)."""
    def callback(ctx: click.Context, _: Any, value: bool) -> None:
        if value:
            ctx.find_root().obj["json"] = True

    def key(ctx: click.Context, _: Any, value: str | None) -> None:
        if value is not None:
            ctx.find_root().obj["key"] = value
    f = click.option("--key", expose_value=False, callback=key, metavar="K",
                     help="This command's idempotency key: run again with it, it appends nothing.")(f)
    return click.option("--json", "as_json", is_flag=True, expose_value=False, callback=callback,
                        help="Print JSON instead of text.")(f)


# --- plumbing -----------------------------------------------------------------------------

def _open(ctx: click.Context, must_exist: bool = True, reading: bool = False):
    """The ledger and its read tables; `reading` (a command that only reads) also opens a file that
    cannot be written, read-only (see ledger/read_only.py)."""
    from ledger import campaign_file, read_only
    from ledger.application import open_ledger
    from projections import runner

    path = ctx.find_root().obj["db"]
    sqlite_ledger = os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") == "eventsourcing.sqlite"
    campaign_file.check(path, runner.READ_TABLES, creating=not (must_exist and sqlite_ledger),
                        ledger_in_file=sqlite_ledger)
    uri = read_only.uri(path) if reading and os.path.lexists(path) else None
    if uri is not None:
        return _open_read_only(ctx, path, uri)
    if not reading and os.path.lexists(path) and not read_only.writable(path):  # before a server ledger appends
        raise click.ClickException(_storage_message(ctx, OSError(errno.EROFS, "read-only file system")) or "")
    app = None if sqlite_ledger else open_ledger(path)  # a server that cannot be reached leaves no file
    if not os.path.lexists(path):
        campaign_file.create(path)
    app = app or open_ledger(path)
    app.gm_override = ctx.find_root().obj.get("override")
    db = runner.connect(path)
    campaign_file.stamp(db.conn)
    _bind(path, app, db)
    return app, db


def _open_read_only(ctx: click.Context, path: str, uri: str):
    """A file that cannot be written, for a read: nothing is created, stamped or caught up."""
    from ledger import campaign_file
    from ledger.application import open_ledger
    from projections import read_only

    app = open_ledger(path, read_only=uri)
    app.read_only = True
    ctx.call_on_close(app.close)  # nothing holds the media once the command is done
    db, done = read_only.connect(app, uri)
    ctx.call_on_close(done)
    if os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") != "eventsourcing.sqlite":
        campaign_file.check_binding(db.conn, path, _first_hash(app))
    return app, db


def _first_hash(app: Any) -> str | None:
    from ledger.chain import chained
    return chained(app.recorder).hash_of(1) if app.recorder.max_notification_id() else None


def _bind(path: str, app: Any, db: Any) -> None:
    """With the ledger on PostgreSQL: the read file belongs to one ledger (see campaign_file.bind)."""
    from ledger import campaign_file

    if os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") != "eventsourcing.sqlite":
        campaign_file.bind(db.conn, path, _first_hash(app))


def _write(ctx: click.Context, call: Callable[[Any], dict], must_exist: bool = True,
           text: Callable[[dict], str] | None = None) -> None:
    """Run one ledger command, catch the read model up, print what was appended.

    Catching up first verifies the new entries' chain: nothing is appended to a broken ledger.
    """
    from projections import runner, views

    app, db = _open(ctx, must_exist)
    app.command_key, app.command_invocation = _command_key(ctx), _invocation(ctx)
    _catch_up_warning(app, db, writing=True)  # a broken chain refuses the write; a stuck read side does not
    report = call(app)
    report.setdefault("key", ctx.find_root().obj["key_used"])
    ctx.find_root().obj["recorded"] = report.get("entries", [])  # what an error after this point must not deny
    try:
        runner.catch_up(app, db)
        _bind(ctx.find_root().obj["db"], app, db)  # a new campaign's file learns its ledger at once
    except Exception as e:  # the entries are in the ledger: say which, whatever failed after
        _recorded_but(ctx, report, e)
    report["history"] = views.entries(db, report.get("entries", []))
    if report.get("repeated"):
        text = _repeated_text
    _print(ctx, report, text or _text_report)


def _command_key(ctx: click.Context) -> str:
    """The key this invocation's entries are logged under: the GM's (--key) or a fresh one."""
    import uuid

    from ledger import values

    obj = ctx.find_root().obj
    obj["key_used"] = values.key(obj["key"]) if obj.get("key") is not None else uuid.uuid4().hex[:12]
    return obj["key_used"]


NOT_ASKED = frozenset({"yes"})  # options that change how a command asks, not what it records


def _invocation(ctx: click.Context) -> str:
    """A digest of what this command was asked (its name, arguments and any GM override), kept with
    its key: the same key with other arguments is another command, not a retry."""
    import hashlib

    asked: list[Any] = [["override", ctx.find_root().obj.get("override")]]
    while ctx.parent is not None:
        asked.append([ctx.info_name, sorted((k, v) for k, v in ctx.params.items() if k not in NOT_ASKED)])
        ctx = ctx.parent
    return hashlib.sha256(json.dumps(asked, default=str).encode()).hexdigest()[:16]


def _recorded_but(ctx: click.Context, report: dict, failure: Exception) -> None:
    """After the ledger saved: a read side stuck before these entries only warns; else one Error line."""
    from ledger.errors import ReadModelStuck

    entries = report.get("entries") or []
    earlier = not entries or failure.entry < entries[0] if isinstance(failure, ReadModelStuck) else False
    if isinstance(failure, ReadModelStuck) and (report.get("repeated") or earlier):
        _warn(failure)
        return
    if not entries:
        raise failure
    storage = None if isinstance(failure, ReadModelStuck) else _storage_message(ctx, failure)
    if storage:  # a full disk or read-only media, in the GM's words
        raise click.ClickException(f"{storage} A retry with --key {report['key']} appends nothing.")
    span = _span(entries)
    cause = str(failure) if isinstance(failure, ReadModelStuck) else \
        f"the read tables could not catch up ({type(failure).__name__}: {failure})"
    raise click.ClickException(f"entries {span} were recorded (key {report['key']}), but {cause} "
                               f"Run `campaign audit`; a retry with --key {report['key']} appends nothing.")


def _span(entries: list[int]) -> str:
    return f"#{entries[0]}" + (f"-#{entries[-1]}" if len(entries) > 1 else "")


def _warn(stuck: Exception) -> None:
    click.echo(f"Warning: {stuck}", err=True)


def _repeated_text(report: dict) -> str:
    span = _span(report["entries"]) if report["entries"] else "no entries"
    return f"Already recorded under key {report['key']} ({report['command']}: {span}); nothing appended."


def _read(ctx: click.Context, query: Callable[[Any, Any], Any], text: Callable[[Any], str]) -> None:
    _print(ctx, query(*_caught_up(ctx)), text)


def _caught_up(ctx: click.Context) -> tuple[Any, Any]:
    """The ledger and its read tables, caught up as far as they can go (a stuck entry warns)."""
    app, db = _open(ctx, reading=True)
    _catch_up_warning(app, db)
    return app, db


def _catch_up_warning(app: Any, db: Any, writing: bool = False) -> None:
    """Reads still answer on a broken chain (from what verified) or a stuck read side, with one
    warning line; a write is refused on a broken chain (the ChainBroken error names the entry)."""
    from ledger.chain import ChainBroken
    from ledger.errors import ReadModelStuck
    from projections import read_only, runner

    if app.read_only:  # catching up would write: say what the tables show instead
        line = read_only.warning(app, db, click.get_current_context().find_root().obj["db"])
        if line:
            click.echo(f"Warning: {line}", err=True)
        return
    before = runner.position(db)
    try:
        runner.catch_up(app, db)
    except ReadModelStuck as e:
        if not writing:
            _warn(e)
    except ChainBroken as e:
        if writing:
            raise
        click.echo(f"Warning: the hash chain is broken at entry #{e.entry}: {e.reason}; what follows may "
                   "not match the record; run `campaign audit`.", err=True)
    _noted(db, before)


def _noted(db: Any, before: int = 0) -> None:
    """One warning line for each entry just applied by working around it (see projections/notes.py)."""
    from projections import notes

    for n in notes.since(db, before):
        click.echo(f"Warning: entry #{n['entry']}: {n['note']}", err=True)


def _print(ctx: click.Context, value: Any, text: Callable[[Any], str]) -> None:
    if ctx.find_root().obj["json"]:
        click.echo(json.dumps(value, indent=2, default=str))
    else:
        click.echo(text(value))


def _text_report(report: dict) -> str:
    from projections.text import report_text

    entries = report.get("entries")
    if entries and not report.get("history"):  # the read tables are stuck before them (warned)
        return f"Recorded entries {_span(entries)}; the read tables cannot show them yet."
    return report_text(report)


def _progress(ctx: click.Context, total: int, label: str):
    """A progress bar on a terminal; none when output is piped or --json is given."""
    import contextlib

    if ctx.find_root().obj["json"] or not sys.stdout.isatty() or total < 1:
        return contextlib.nullcontext(None)
    return click.progressbar(length=total, label=label, file=sys.stderr)


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
    from ledger.rulesets.relics.turns import TraitUse

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
    from ledger.rulesets.relics.turns import Throw

    if faces is not None and roll:
        raise BadInput("Give --faces from the table or --roll, not both.")
    return Throw(parse_faces(faces) if faces is not None else None, roll)


def _placing(places: tuple[str, ...], best: bool):
    from ledger.dice import parse_faces
    from ledger.rulesets.relics.turns import Placing

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
        from ledger import values
        return values.integer(int(at.strip()), "--at", 0)
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
    fresh = not os.path.exists(path)
    try:
        _write(ctx, lambda app: app.start(name, ruleset, rules_version, _settings(settings)), must_exist=False)
    except Exception:
        if fresh:  # the refused campaign leaves no empty file behind (nothing was ever written to it)
            for leftover in (path, path + "-wal", path + "-shm"):
                if os.path.exists(leftover):
                    os.remove(leftover)
        raise


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


# --- commands: reading ---------------------------------------------------------------------------

@cli.command()
@json_option
@click.pass_context
def status(ctx: click.Context) -> None:
    """Show the unfinished turn (if any) and where each open Challenge stands.

    Example: campaign status
    """
    from projections.text import status_text
    from ledger.rulesets.relics.challenge import NEXT_STEP
    from ledger.ids import challenge_id
    from ledger.rulesets.relics.odds import pool_line
    from projections import views
    from projections.rulesets.relics import state as relics_state

    def query(app: Any, db: Any) -> dict:
        camp = app.campaign()
        if camp.ruleset != "relics":
            raise BadInput(f"This is {'an' if camp.ruleset[0] in 'aeiou' else 'a'} {camp.ruleset} campaign; "
                           f"see `campaign {camp.ruleset} --help` (and `campaign sheet`, `pools`, `history`).")
        rows = views.challenges(db, open_only=True)
        for row in rows:
            ch = app.repository.get(challenge_id(row["name"]))
            row.update(phase=ch.phase, waiting_for=NEXT_STEP[ch.phase], pending=ch.pending,
                       odds=pool_line(ch.pending) if ch.phase.endswith("-roll") else None)
        return {"turn": camp.turn, "challenges": rows, **views.pools(db), **relics_state.status_fields(db)}
    _read(ctx, query, status_text)


@cli.command()
@click.argument("name", required=False)
@at_option
@json_option
@click.pass_context
def sheet(ctx: click.Context, name: str | None, at: str | None) -> None:
    """Show the character sheets (or one character's), now or as they stood --at an entry or time.

    Example: campaign sheet Kira --at 40
    """
    from projections import views

    seen: dict[str, str] = {}  # the ruleset the query found, for the text

    def query(app: Any, db: Any) -> list:
        ruleset = seen["ruleset"] = views.campaign(db).get("ruleset", "relics")
        if ruleset == "relics":
            rows = views.sheets(db, name, _at(db, at))
        else:
            with _as_of(app, db, at) as past:
                rows = [r for r in _sheets_of(ruleset, past)[0] if not name or r["name"].casefold() == name.casefold()]
        if name and not rows:
            raise BadInput(f"There is no character named '{name}' in this campaign.")
        return rows
    _read(ctx, query, lambda rows: _sheets_of(seen["ruleset"], None)[1](rows))


def _as_of(app: Any, db: Any, at: str | None):
    """The read tables now, or rebuilt as they stood --at an entry (for tables without a history)."""
    import contextlib

    from projections import runner
    entry = _at(db, at)
    return contextlib.nullcontext(db) if entry is None else runner.as_of(app, entry)


@cli.command()
@at_option
@json_option
@click.pass_context
def pools(ctx: click.Context, at: str | None) -> None:
    """Show the pools: Destiny and Doom (Relics), Intensity (Beer Run), supply dice and trackers
    (decision-2d6); now or --at an entry or time.

    Example: campaign pools --at 2026-11-22T20:15
    """
    from projections import views

    seen: dict[str, str] = {}  # the ruleset the query found, for the text

    def query(app: Any, db: Any) -> Any:
        ruleset = seen["ruleset"] = views.campaign(db).get("ruleset", "relics")
        if ruleset == "relics":
            return views.pools(db, _at(db, at))
        with _as_of(app, db, at) as past:
            return _pools_of(ruleset, past)[0]
    _read(ctx, query, lambda value: _pools_of(seen["ruleset"], None)[1](value))


def _pools_of(ruleset: str, db: Any) -> tuple[Any, Callable[[Any], str]]:
    """Each ruleset's own pools (read from `db` when given), and how to print them."""
    from projections.rulesets.beer_run import tables as beer_run
    from projections.rulesets.decision_2d6 import tables as decision_2d6
    from projections.text import pools_text
    from projections import views

    if ruleset == "beer-run":
        from commands.beer_run import _br_pools_text
        return (beer_run.pools(db) if db is not None else None), _br_pools_text
    if ruleset == "decision-2d6":
        from commands.decision_2d6 import _d2d6_pools_text
        return (decision_2d6.pools(db) if db is not None else None), _d2d6_pools_text
    if ruleset == "action-dice":
        return [], lambda _: "An action-dice campaign keeps no pools; see `campaign action-dice sheet`."
    return (views.pools(db) if db is not None else None), pools_text


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
    from ledger import values
    from projections.text import history_text
    from projections import views

    if limit is not None:
        values.integer(limit, "--limit", 0)
    _read(ctx, lambda app, db: views.history(db, last=_at(db, at), limit=limit), history_text)


@cli.command()
@click.option("--force", is_flag=True, help="Rebuild even from a ledger whose hash chain is broken.")
@json_option
@click.pass_context
def rebuild(ctx: click.Context, force: bool) -> None:
    """Re-derive every read table from the whole ledger, after verifying its hash chain.

    Example: campaign rebuild
    """
    from ledger.chain import chained
    from projections import runner

    app, db = _open(ctx)
    broken = chained(app.recorder).verify_all() or runner.recorded_break(app, db)
    if broken is not None and not force:
        raise broken.error().refusing("rebuild", "`campaign rebuild --force` copies it into the tables anyway")
    with _progress(ctx, app.recorder.max_notification_id() or 0, "Rebuilding") as bar:
        applied = runner.rebuild(app, db, bar.update if bar is not None else None, check=broken is None)
    runner.record_verdict(db, broken and broken.entry, broken and broken.reason)
    _noted(db)
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
    from projections.text import history_text
    from ledger import rulesets
    from projections import runner, views

    path = ctx.find_root().obj["db"]
    existed = os.path.exists(path)
    app, db = _open(ctx, must_exist=False, reading=existed)  # shown again, a read-only copy will do
    demos = rulesets.demos()
    if system not in demos:
        raise BadInput(f"There is no {system} demo yet.")
    name, play = demos[system]
    if existed:
        _catch_up_warning(app, db)
        if views.campaign(db).get("name") != name:
            raise BadInput(f"{path} holds another campaign; the demo needs a new file, choose one with --db.")
    else:
        play(app)
        runner.catch_up(app, db)
        _bind(path, app, db)
    sheets, sheets_as_text = _sheets_of(system, db)
    pools, pools_as_text = _pools_of(system, db)
    result = {"sheets": sheets, "pools": pools, "history": views.history(db)}
    parts = [sheets_as_text(sheets)] + ([pools_as_text(pools)] if system != "action-dice" else [])
    _print(ctx, result, lambda r: "\n\n".join(parts + [history_text(r["history"])]))


def _sheets_of(ruleset: str, db: Any) -> tuple[Any, Callable[[Any], str]]:
    """Each ruleset's own sheets (read from `db` when given), and how to print them."""
    from projections import views
    from projections.rulesets.action_dice import tables as action_dice
    from projections.rulesets.beer_run import tables as beer_run
    from projections.rulesets.decision_2d6 import tables as decision_2d6
    from projections.text import sheets_text

    if ruleset == "action-dice":
        from commands.action_dice import _action_dice_sheets_text
        return (action_dice.sheets(db) if db is not None else None), _action_dice_sheets_text
    if ruleset == "decision-2d6":
        from commands.decision_2d6 import _d2d6_sheets_text
        return (decision_2d6.sheets(db) if db is not None else None), _d2d6_sheets_text
    if ruleset == "beer-run":
        from commands.beer_run import _br_sheets_text
        return (beer_run.sheets(db) if db is not None else None), _br_sheets_text
    return (views.sheets(db) if db is not None else None), sheets_text


import commands  # noqa: E402,F401  (registers the rest of the commands)


def main() -> None:
    cli(prog_name="campaign")


if __name__ == "__main__":
    main()
