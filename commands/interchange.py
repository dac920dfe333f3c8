"""Export and import: the campaign as Markdown, HTML, CSV or JSON Lines, and a JSON Lines file back into a new campaign."""
from __future__ import annotations

import itertools
import os
import sys
from typing import Any

import click

from campaign_ledger.ledger.errors import BadInput, NotFound
from campaign_ledger.commands.plumbing import bind_read_file, caught_up, emit, json_option, open_campaign, progress_bar

COMMANDS = click.Group()  # added to `campaign` by cli.py


@COMMANDS.command()
@click.option("--format", "fmt", type=click.Choice(["md", "html", "jsonl", "csv"]), default="md", show_default=True)
@click.option("--session", "session_number", type=int, help="Only this play session's entries.")
@click.option("--from", "first", type=int, help="First entry (default: the first).")
@click.option("--to", "last", type=int, help="Last entry (default: the newest).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to FILE (default: stdout).")
@click.option("--gm-notes", is_flag=True, help="Include the notes taken --gm-only (md, html, csv; jsonl always holds them).")
@json_option
@click.pass_context
def export(ctx: click.Context, fmt: str, session_number: int | None, first: int | None, last: int | None,
           output: str | None, gm_notes: bool) -> None:
    """Export a session, a range of entries or the whole campaign as Markdown, HTML, JSON Lines or CSV.

    JSON Lines carries every entry with its number, time, type, data and hash: `import` reads it.
    Example: campaign export --format html --session 1 -o session1.html
    """
    from campaign_ledger.projections import sessions

    app, db = caught_up(ctx)
    newest = app.recorder.max_notification_id() or 0
    title = "the whole campaign"
    if session_number is not None:
        span = sessions.entries_of(db, session_number)
        if span is None:
            raise NotFound(f"There is no session {session_number}; see `campaign session list`.")
        first, last = span
        title = next(r["title"] for r in sessions.all_sessions(db) if r["number"] == session_number)
    first, last = first or 1, min(last or newest, newest)
    if first > last:
        raise NotFound(f"The range #{first}-#{last} holds no entries; the ledger has #1-#{newest}.")
    if (first, last) != (1, newest) and session_number is None:
        title = f"entries #{first} to #{last}"
    chunks = _export_chunks(app, db, fmt, first, last, title, gm_notes)
    with progress_bar(ctx, last - first + 1, f"Exporting {fmt}") as bar:
        target = _opened(output) if output else None
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
        emit(ctx, {"format": fmt, "output": output, "first": first, "last": last},
               lambda r: f"Wrote entries #{r['first']}-#{r['last']} as {r['format']} to {r['output']}.")


def _opened(output: str) -> Any:
    """The export's file; one that cannot be made (no such folder, no permission) is refused in one
    line, as `roster dump` refuses it, not "failed unexpectedly"."""
    try:
        return open(output, "w", encoding="utf-8", newline="")
    except OSError as e:
        raise BadInput(f"Cannot write the export {output}: {e.strerror or e}.") from None


def _export_chunks(app: Any, db: Any, fmt: str, first: int, last: int, title: str, gm_notes: bool = False):
    """Each format's chunks, ending with the anchor line (the head of the chain when exported)."""
    from campaign_ledger.ledger import interchange
    from campaign_ledger.ledger.chain import anchor_line, chained
    from campaign_ledger.projections import export as exporting

    anchor = anchor_line(*chained(app.recorder).head())
    if fmt == "jsonl":
        return (line + "\n" for line in interchange.export_lines(app, first, last, anchor=anchor))
    if fmt == "csv":
        return itertools.chain(exporting.csv_chunks(db, first, last, gm_notes), [anchor + "\r\n"])
    if fmt == "html":
        from campaign_ledger.projections.export_html import html_chunks
        return html_chunks(db, first, last, title, anchor=anchor, gm_notes=gm_notes)
    return itertools.chain(exporting.markdown_chunks(db, first, last, title, gm_notes), [f"\n{anchor}\n"])


@COMMANDS.command("import")
@click.argument("source", type=click.Path(dir_okay=False))
@json_option
@click.pass_context
def import_cmd(ctx: click.Context, source: str) -> None:
    """Import a JSON Lines export into a new campaign file (--db), checking every line's hash first.

    Example: campaign --db copy.db import heist.jsonl
    """
    from campaign_ledger.ledger import interchange
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.projections import import_replay, runner

    target = ctx.find_root().obj["db"]
    # Each entry is counted twice on the bar: written and checked, then through the read tables.
    # The file is counted only for a terminal (a bar is drawn only there).
    steps = 2 * max(_lines_in(source) - 2, 0) if sys.stdout.isatty() and os.path.isfile(source) else 0
    with progress_bar(ctx, steps, "Importing") as bar:
        report = interchange.import_file(open_ledger, source, target, bar.update if bar is not None else None,
                                         import_replay.replay_check)
    app, db = open_campaign(ctx)
    runner.catch_up(app, db)  # the read tables were built while the import was checked
    bind_read_file(ctx.find_root().obj["db"], app, db)
    emit(ctx, report, lambda r: f"Imported {r['entries']} entries into {target}; every hash checked.")


def _lines_in(path: str) -> int:
    """The file's lines (a header, the entries, a closing line), for the bar's length."""
    with open(path, "rb") as f:
        return sum(1 for _ in f)
