"""Export and import: the campaign as Markdown, HTML, CSV or JSON Lines, and a JSON Lines file back into a new campaign."""
from __future__ import annotations

import sys

import click

from campaign_ledger.commands.campaign import steps
from campaign_ledger.commands.plumbing import campaign_of, emit, json_option

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
    report = campaign_of(ctx).export(fmt, session=session_number, first=first, last=last,
                                     output=output or (lambda text: click.echo(text, nl=False)), gm_notes=gm_notes,
                                     progress=steps(ctx, f"Exporting {fmt}"))
    if output:
        emit(ctx, report, lambda r: f"Wrote entries #{r['first']}-#{r['last']} as {r['format']} to {r['output']}.")


@COMMANDS.command("import")
@click.argument("source", type=click.Path(dir_okay=False))
@json_option
@click.pass_context
def import_cmd(ctx: click.Context, source: str) -> None:
    """Import a JSON Lines export into a new campaign file (--db), checking every line's hash first.

    Example: campaign --db copy.db import heist.jsonl
    """
    from campaign_ledger.campaign import import_campaign

    target = ctx.find_root().obj["db"]
    # The file is counted for its bar only on a terminal (a bar is drawn only there).
    report = import_campaign(source, campaign_of(ctx), progress=steps(ctx, "Importing") if sys.stdout.isatty() else None
                             ).started
    emit(ctx, report, lambda r: f"Imported {r['entries']} entries into {target}; every hash checked.")
