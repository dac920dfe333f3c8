"""The CLI's shared plumbing: the library's handle for a command (`campaign_of`: its --db, --key,
--gm-override and words), the shared options, and printing a report or a view as text or JSON.

Every command module imports these; none imports another's private names."""
from __future__ import annotations

import itertools
import json
import sys
from typing import Any, Callable, Iterable, Iterator

import click

from campaign_ledger import opening
from campaign_ledger.ledger.errors import BadInput


def opening_of(ctx: click.Context) -> opening.Opening:
    """What this command opens its campaign with: --db, --gm-override, and click's closing."""
    obj = ctx.find_root().obj
    return opening.Opening(obj["db"], obj.get("override"), ctx.call_on_close)


def open_campaign(ctx: click.Context, must_exist: bool = True, reading: bool = False) -> tuple[Any, Any]:
    """The ledger and read tables of --db, closed when the command is done (campaign_ledger/opening.py)."""
    return opening.open_campaign(opening_of(ctx), must_exist, reading)


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


def campaign_of(ctx: click.Context) -> Any:
    """The library's handle on --db for this command: its calls are this command's (its --key,
    --gm-override and the digest of its words), warnings go to stderr, and the library fills in the
    key it used and the entries it recorded, for the one refusal line if something fails after."""
    from campaign_ledger.campaign import Campaign

    obj = ctx.find_root().obj
    obj["invocation"] = invocation(ctx)
    return Campaign(obj["db"], warn=warn, bound=obj)


def show_report(ctx: click.Context, report: dict, text: Callable[[dict], str] | None = None) -> None:
    """Print what a write appended (or, for a repeated key, what it had appended)."""
    emit(ctx, report, _repeated_text if report.get("repeated") else text or text_report)


def warn(line: str) -> None:
    """A warning line on stderr: the read tables are stuck, or the chain is broken (a read still answers)."""
    click.echo(f"Warning: {line}", err=True)


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


def _repeated_text(report: dict) -> str:
    from campaign_ledger.calls import span

    shown = span(report["entries"]) if report["entries"] else "no entries"
    return f"Already recorded under key {report['key']} ({report['command']}: {shown}); nothing appended."


def as_list(text: Callable[[list], str]) -> Callable[[Any], str]:
    """The text of a list of rows, for a view that answers one row as an object."""
    return lambda value: text(value if isinstance(value, list) else [value])


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
        from campaign_ledger.calls import span

        return f"Recorded entries {span(entries)}; the read tables cannot show them yet."
    return report_text(report)


def progress_bar(ctx: click.Context, total: int, label: str):
    """A progress bar on a terminal; none when output is piped or --json is given."""
    import contextlib

    if ctx.find_root().obj["json"] or not sys.stdout.isatty() or total < 1:
        return contextlib.nullcontext(None)
    return click.progressbar(length=total, label=label, file=sys.stderr)
