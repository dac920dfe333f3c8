"""The CLI's shared plumbing: open a campaign (commands/opening.py), write a command, read a view,
print text or JSON.

Every command module imports these; none imports another's private names."""
from __future__ import annotations

import itertools
import json
import sys
from typing import Any, Callable, Iterable, Iterator

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.failures import refusal
from campaign_ledger.commands.opening import bind_read_file, current_read_tables, open_campaign  # noqa: F401  (shared here too)


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


def write_command(ctx: click.Context, call: Callable[[Any], dict], must_exist: bool = True,
           text: Callable[[dict], str] | None = None) -> None:
    """Run one ledger command, catch the read model up, print what was appended.

    Catching up first verifies the new entries' chain: nothing is appended to a broken ledger.
    """
    from campaign_ledger.projections import runner, views

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

    from campaign_ledger.ledger import values

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
    from campaign_ledger.ledger.errors import ReadModelStuck

    entries = report.get("entries") or []
    earlier = not entries or failure.entry < entries[0] if isinstance(failure, ReadModelStuck) else False
    if isinstance(failure, ReadModelStuck) and (report.get("repeated") or earlier):
        _warn(failure)
        return
    if not entries:
        raise failure
    named = None if isinstance(failure, ReadModelStuck) else refusal(ctx, failure)
    if named is not None:  # a full disk, a lost server: in the GM's words, with the entries and the key
        raise named
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


def one_or_all(name: str | None, rows: list) -> Any:
    """A read of one named thing answers an object, of all of them a list (the CLI contract)."""
    return rows[0] if name and rows else rows


def as_list(text: Callable[[list], str]) -> Callable[[Any], str]:
    """The text of a list of rows, for a view that answers one row as an object."""
    return lambda value: text(value if isinstance(value, list) else [value])


def sheet_view(ctx: click.Context, ruleset: str, name: str | None, sheets: Callable[[Any, str | None], list],
               text: Callable[[list], str]) -> None:
    """A ruleset's own `sheet [NAME]`: refused on another ruleset's campaign, not found when NAME
    names no one, one object for NAME and a list for all."""
    def query(app: Any, db: Any) -> Any:
        only_ruleset(db, ruleset)
        return one_or_all(name, known_character(name, sheets(db, name), db))
    read_view(ctx, query, as_list(text))


def known_character(name: str | None, rows: list, db: Any = None) -> list:
    """The sheets found for NAME; none found is refused in the GM's words, saying what NAME names
    instead when the campaign has it (`sheet "Vault Guards"`: a Challenge, and where to see it)."""
    from campaign_ledger.ledger.errors import NotFound
    from campaign_ledger.projections.views import named_thing

    if name and not rows:
        other = named_thing(db, name) if db is not None else None
        if other:
            raise NotFound(f"'{name}' is not a character of this campaign but {other}.", rule="unknown-character")
        raise NotFound(f"There is no character named '{name}' in this campaign.")
    return rows


def ruleset_of(db: Any) -> str:
    """The campaign's ruleset, as its read tables say; a ledger with no campaign yet is refused in
    one line (no ruleset's view stands in for it)."""
    from campaign_ledger.ledger.errors import NO_CAMPAIGN, NotFound
    from campaign_ledger.projections import views

    found = views.campaign(db).get("ruleset")
    if not found:
        raise NotFound(NO_CAMPAIGN)
    return found


def only_ruleset(db: Any, ruleset: str) -> None:
    """A ruleset's read view on another ruleset's campaign is refused in one line (by the campaign,
    exit 1, as its commands are: the command itself is well formed)."""
    from campaign_ledger.ledger.errors import RuleViolation

    found = ruleset_of(db)
    if found != ruleset:
        raise RuleViolation(f"This is {'an' if found[0] in 'aeiou' else 'a'} {found} campaign; "
                       f"that command is for {ruleset} campaigns.")


def caught_up(ctx: click.Context) -> tuple[Any, Any]:
    """The ledger and its read tables, caught up as far as they can go (a stuck entry warns). When
    the tables already show every entry, the ledger is opened only if the command asks it something."""
    current = current_read_tables(ctx)
    if current is not None:
        return current
    app, db = open_campaign(ctx, reading=True)
    catch_up_warning(app, db)
    return app, db


def catch_up_warning(app: Any, db: Any, writing: bool = False) -> None:
    """Reads still answer on a broken chain (from what verified) or a stuck read side, with one
    warning line; a write is refused on a broken chain (the ChainBroken error names the entry)."""
    from campaign_ledger.ledger.chain import ChainBroken
    from campaign_ledger.ledger.errors import ReadModelStuck
    from campaign_ledger.projections import runner

    if app.read_only:  # catching up would write: say what the tables show instead
        from campaign_ledger.projections import read_only  # (and its scratch folders: not on every write's path)

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
    from campaign_ledger.projections import notes

    for n in notes.since(db, before):
        click.echo(f"Warning: entry #{n['entry']}: {n['note']}", err=True)


def emit(ctx: click.Context, value: Any, text: Callable[[Any], str]) -> None:
    if ctx.find_root().obj["json"]:
        click.echo(json.dumps(value, indent=2, default=str))
    else:
        click.echo(text(value))


def emit_stream(ctx: click.Context, rows: Iterable[Any], line: Callable[[Any], str], empty: str) -> None:
    """A long list printed as it is read, never held whole (a million-entry history took 2.7 GiB
    as one JSON document): the same bytes `emit` prints for the list, written a few thousand pieces at a time."""
    rows = iter(rows)
    first = next(rows, None)
    if ctx.find_root().obj["json"]:
        chunks = json.JSONEncoder(indent=2, default=str).iterencode(_Streamed(first, rows)) if first is not None \
            else iter(["[]"])
    else:
        chunks = (line(r) + "\n" for r in itertools.chain([first], rows)) if first is not None else iter([empty])
    written = ""
    while text := "".join(itertools.islice(chunks, 4096)):  # a few thousand pieces a write
        if written:
            click.echo(written, nl=False)
        written = text
    click.echo(written.removesuffix("\n"))


class _Streamed(list):
    """A list to json's encoder whose items come from an iterator as it writes them (the encoder
    walks a list by iterating it, after asking whether it is empty: it is not)."""

    def __init__(self, first: Any, rest: Iterator[Any]) -> None:
        super().__init__()
        self._items = itertools.chain([first], rest)

    def __bool__(self) -> bool:
        return True

    def __iter__(self) -> Iterator[Any]:
        return self._items


def text_report(report: dict) -> str:
    from campaign_ledger.projections.text import report_text

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
