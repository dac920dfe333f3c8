"""The GM's own records (issue 13): `note` appends a note, `history` shows and finds entries."""
from __future__ import annotations

from typing import Any, Iterator

import click

from campaign_ledger.commands.parsing import TIME_HELP, at_option
from campaign_ledger.commands.plumbing import campaign_of, emit, emit_stream, json_option, show_report

COMMANDS = click.Group()  # added to `campaign` by cli.py


@COMMANDS.command()
@click.argument("text")
@click.option("--tag", "tags", multiple=True, metavar="T", help="A tag to find the note by (history --tag). Repeatable.")
@click.option("--about", metavar="NAME", help="The PC, Challenge or other thing of the campaign it is about.")
@click.option("--round", "round_", metavar="NAME:N", help='The round it is about, as undo names it: "Vault Guards:2".')
@click.option("--entry", type=int, metavar="N", help="The ledger entry it is about.")
@click.option("--gm-only", is_flag=True, help="Keep it out of exports (md, html, csv) unless --gm-notes.")
@json_option
@click.pass_context
def note(ctx: click.Context, text: str, tags: tuple[str, ...], about: str | None, round_: str | None,
         entry: int | None, gm_only: bool) -> None:
    """Append a note to the campaign: a ledger entry of its own, shown in history and exports,
    reversed by `campaign undo` like any other command.

    Example: campaign note "Bo got the scar from the guard captain" --about Bo --tag scar
    """
    show_report(ctx, campaign_of(ctx).note(text, tags=tags, about=about, round=round_, entry=entry, gm_only=gm_only))


@COMMANDS.command()
@click.option("--limit", type=int, default=None, help="Only the last N entries (of those the filters let through).")
@at_option
@click.option("--pc", metavar="NAME", help="Entries about a PC (or character): its own, notes about it, lines naming it.")
@click.option("--challenge", metavar="NAME", help="Entries about a Challenge (or conflict, item, tracker), its rounds included.")
@click.option("--round", "round_", metavar="NAME:N", help='One round\'s entries and the notes on it: "Vault Guards:2".')
@click.option("--session", type=int, metavar="N", help="One play session's entries.")
@click.option("--tag", "tags", multiple=True, metavar="T", help="Notes with this tag (all given). Repeatable.")
@click.option("--kind", "kinds", multiple=True, metavar="KIND",
              help="rolls, overrides, reversals, notes (standing ones), house-rules or corrections (any given). "
                   "Repeatable.")
@click.option("--grep", metavar="TEXT", help="Lines holding every word of TEXT (full-text index; notes included); "
                   'FTS5\'s OR, AND, NOT, capt*, "a phrase" and ( ) obeyed.')
@click.option("--scene", metavar="NAME|N", help="One Relics Scene's entries, by its title or number.")
@click.option("--since", metavar="N|TIME", help=f"From entry N, or from a time ({TIME_HELP}).")
@click.option("--until", metavar="N|TIME", help=f"Up to entry N, or up to a time ({TIME_HELP}).")
@json_option
@click.pass_context
def history(ctx: click.Context, limit: int | None, at: str | None, pc: str | None, challenge: str | None,
            round_: str | None, session: int | None, tags: tuple[str, ...], kinds: tuple[str, ...],
            grep: str | None, scene: str | None, since: str | None, until: str | None) -> None:
    """Show the campaign history: one line per ledger entry, with its number and time. Filters
    combine (every one must hold); --json gives the same rows.

    Example: campaign history --pc Bo --kind notes --grep scar --since 2026-11-01
    """
    from campaign_ledger.projections.text import NO_ENTRIES, history_line, history_text

    camp = campaign_of(ctx)
    filters = {"at": at, "pc": pc, "challenge": challenge, "round": round_, "session": session, "tags": tags,
               "kinds": kinds, "grep": grep, "scene": scene, "since": since, "until": until}
    if limit is not None:
        return emit(ctx, camp.history(limit=limit, **filters), history_text)

    def printed(newest: int | None, rows: Iterator[Any]) -> None:  # the whole history: printed as it is read
        width = len(str(newest))
        emit_stream(ctx, rows, lambda r: history_line(r, width), NO_ENTRIES)
    camp.history_each(printed, **filters)
