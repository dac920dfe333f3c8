"""The CLI's shared plumbing: open a campaign, write a command, read a view, print text or JSON.

Every command module imports these; none imports another's private names."""
from __future__ import annotations

import errno
import json
import os
import sys
from typing import Any, Callable

import click

from ledger.errors import BadInput
from commands.failures import storage_message


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


def open_campaign(ctx: click.Context, must_exist: bool = True, reading: bool = False):
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
        raise click.ClickException(storage_message(ctx, OSError(errno.EROFS, "read-only file system")) or "")
    app = None if sqlite_ledger else open_ledger(path)  # a server that cannot be reached leaves no file
    if not os.path.lexists(path):
        campaign_file.create(path)
    app = app or open_ledger(path)
    app.gm_override = ctx.find_root().obj.get("override")
    db = runner.connect(path)
    campaign_file.stamp(db.conn)
    bind_read_file(path, app, db)
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


def bind_read_file(path: str, app: Any, db: Any) -> None:
    """With the ledger on PostgreSQL: the read file belongs to one ledger (see campaign_file.bind)."""
    from ledger import campaign_file

    if os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") != "eventsourcing.sqlite":
        campaign_file.bind(db.conn, path, _first_hash(app))


def write_command(ctx: click.Context, call: Callable[[Any], dict], must_exist: bool = True,
           text: Callable[[dict], str] | None = None) -> None:
    """Run one ledger command, catch the read model up, print what was appended.

    Catching up first verifies the new entries' chain: nothing is appended to a broken ledger.
    """
    from projections import runner, views

    app, db = open_campaign(ctx, must_exist)
    app.command_key, app.command_invocation = _command_key(ctx), invocation(ctx)
    catch_up_warning(app, db, writing=True)  # a broken chain refuses the write; a stuck read side does not
    report = call(app)
    report.setdefault("key", ctx.find_root().obj["key_used"])
    ctx.find_root().obj["recorded"] = report.get("entries", [])  # what an error after this point must not deny
    try:
        runner.catch_up(app, db)
        bind_read_file(ctx.find_root().obj["db"], app, db)  # a new campaign's file learns its ledger at once
    except Exception as e:  # the entries are in the ledger: say which, whatever failed after
        _recorded_but(ctx, report, e)
    report["history"] = views.entries(db, report.get("entries", []))
    if report.get("repeated"):
        text = _repeated_text
    emit(ctx, report, text or text_report)


def _command_key(ctx: click.Context) -> str:
    """The key this invocation's entries are logged under: the GM's (--key) or a fresh one."""
    import uuid

    from ledger import values

    obj = ctx.find_root().obj
    obj["key_used"] = values.key(obj["key"]) if obj.get("key") is not None else uuid.uuid4().hex[:12]
    return obj["key_used"]


NOT_ASKED = frozenset({"yes"})  # options that change how a command asks, not what it records


def invocation(ctx: click.Context) -> str:
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
    storage = None if isinstance(failure, ReadModelStuck) else storage_message(ctx, failure)
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


def read_view(ctx: click.Context, query: Callable[[Any, Any], Any], text: Callable[[Any], str]) -> None:
    emit(ctx, query(*caught_up(ctx)), text)


def only_ruleset(db: Any, ruleset: str) -> None:
    """A ruleset's read view on another ruleset's campaign is refused in one line."""
    from ledger.errors import BadInput
    from projections import views

    found = views.campaign(db).get("ruleset")
    if found != ruleset:
        raise BadInput(f"This is {'an' if (found or 'x')[0] in 'aeiou' else 'a'} {found} campaign; "
                       f"that command is for {ruleset} campaigns.")


def caught_up(ctx: click.Context) -> tuple[Any, Any]:
    """The ledger and its read tables, caught up as far as they can go (a stuck entry warns). When
    the tables already show every entry, the ledger is opened only if the command asks it something."""
    current = _current_read_tables(ctx)
    if current is not None:
        return current
    app, db = open_campaign(ctx, reading=True)
    catch_up_warning(app, db)
    return app, db


def _current_read_tables(ctx: click.Context) -> tuple[Any, Any] | None:
    """(the ledger on demand, the read tables) of a writable SQLite campaign file whose read tables
    are current (see projections/current.py); None for any other file, which opens as usual."""
    from ledger import campaign_file, read_only

    path = ctx.find_root().obj["db"]
    if os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") != "eventsourcing.sqlite" or \
            not os.path.isfile(path) or read_only.uri(path) is not None:
        return None
    campaign_file.check(path, (), ledger_in_file=True)  # a stamped campaign file, or refused as usual
    from projections import current

    db = current.read_tables_if_current(path)
    return None if db is None else (LedgerOnDemand(path), db)


class LedgerOnDemand:
    """The campaign's ledger, opened the first time a read asks it something (most reads do not)."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._app: Any = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if self._app is None:
            from ledger.application import open_ledger

            self._app = open_ledger(self._path)
        return getattr(self._app, name)


def catch_up_warning(app: Any, db: Any, writing: bool = False) -> None:
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
    noted(db, before)


def noted(db: Any, before: int = 0) -> None:
    """One warning line for each entry just applied by working around it (see projections/notes.py)."""
    from projections import notes

    for n in notes.since(db, before):
        click.echo(f"Warning: entry #{n['entry']}: {n['note']}", err=True)


def emit(ctx: click.Context, value: Any, text: Callable[[Any], str]) -> None:
    if ctx.find_root().obj["json"]:
        click.echo(json.dumps(value, indent=2, default=str))
    else:
        click.echo(text(value))


def text_report(report: dict) -> str:
    from projections.text import report_text

    entries = report.get("entries")
    if entries and not report.get("history"):  # the read tables are stuck before them (warned)
        return f"Recorded entries {_span(entries)}; the read tables cannot show them yet."
    return report_text(report)


def progress_bar(ctx: click.Context, total: int, label: str):
    """A progress bar on a terminal; none when output is piped or --json is given."""
    import contextlib

    if ctx.find_root().obj["json"] or not sys.stdout.isatty() or total < 1:
        return contextlib.nullcontext(None)
    return click.progressbar(length=total, label=label, file=sys.stderr)
