"""The record itself: undo, replay, audit, anchor, export and import."""
from __future__ import annotations

import itertools
import os
import sys
from typing import Any

import click

from ledger.errors import BadInput, NotFound
from commands.plumbing import bind_read_file, catch_up_warning, caught_up, emit, invocation, json_option, open_campaign, progress_bar, read_view, write_command
from commands.parsing import parse_placing, parse_stress, parse_trait_uses


COMMANDS = click.Group()  # added to `campaign` by cli.py


@COMMANDS.command()
@click.argument("round_name", metavar="[UNIT]", required=False)
@click.option("--cascade", is_flag=True, help="Also reverse the later units that used it, newest first.")
@click.option("--dry-run", is_flag=True, help="Only show what would be reversed.")
@click.option("--list", "list_", is_flag=True, help="List the units that can be undone, newest first.")
@click.option("--limit", type=click.IntRange(1, 10**9), default=20, show_default=True, help="How many --list shows.")
@click.option("--yes", is_flag=True, help="Do not ask before appending (on a terminal it asks).")
@json_option
@click.pass_context
def undo(ctx: click.Context, round_name: str | None, cascade: bool, dry_run: bool, list_: bool, limit: int,
         yes: bool) -> None:
    """Reverse the latest unit (or UNIT: a name from --list, e.g. "Vault Guards:2" or "push Kira #2",
    or its first entry number) with new entries; nothing is deleted.

    Example: campaign undo "Vault Guards:2" --cascade --dry-run
    """
    from ledger.chain import chained
    from projections.text import undo_text

    app, _ = open_campaign(ctx, reading=list_ or dry_run)
    if list_:
        emit(ctx, app.undo_list(limit), _units_text)
        return
    broken = chained(app.recorder).verify_all()  # undo reads the whole command log: check it whole
    if broken is not None:
        raise broken.error().refusing("undo", "run `campaign audit`")
    key = ctx.find_root().obj.get("key")
    app.command_invocation = invocation(ctx)
    if key and not dry_run and app.already_recorded(key, "undo"):  # a retry: no new plan to show
        return write_command(ctx, lambda app: app.undo(round_name, cascade))
    plan = app.undo(round_name, cascade, dry_run=True)
    if dry_run:
        emit(ctx, plan, undo_text)
        return
    if not ctx.find_root().obj["json"] and not yes and _on_a_terminal():
        _confirm(plan)
    write_command(ctx, lambda app: app.undo(round_name, cascade))


def _on_a_terminal() -> bool:
    """Only a GM at a terminal is asked; a script (a pipe, --json, --yes) gets the reversal at once."""
    return sys.stdin.isatty()


def _confirm(plan: dict[str, Any]) -> None:
    """Show what would change and ask before anything is said to be done; declining appends nothing."""
    for r in plan["reversed"]:
        click.echo(f"{r['unit']} (entries #{r['entries'][0]}-#{r['entries'][1]}):")
        click.echo("\n".join(f"  {change}" for change in r["changes"]))
    units = ", ".join(r["unit"] for r in plan["reversed"])
    if not click.confirm(f"Reverse {units}?", default=False):
        raise click.ClickException("nothing was appended: the reversal was not confirmed.")


def _units_text(units: list[dict[str, Any]]) -> str:
    """`undo --list` for a GM: one unit a line, its dependents under it."""
    if not units:
        return "Nothing to undo."
    lines = []
    for u in units:
        lines.append(f"#{u['entries'][0]}-#{u['entries'][1]}  {u['unit']}: {u['did']}")
        if u["dependents"]:
            lines.append(f"    --cascade would also reverse: {', '.join(u['dependents'])}")
    return "\n".join(lines)


@COMMANDS.command()
@click.option("--anchor", metavar="LINE", callback=lambda _c, _p, v: _anchor(v),
              help="An anchor kept outside the file: the ledger must still extend it.")
@click.option("--chain", "chain_only", is_flag=True,
              help="Only the hash chain and command log (and --anchor): a quick check, tables not compared.")
@json_option
@click.pass_context
def audit(ctx: click.Context, anchor: str | None, chain_only: bool) -> None:
    """Verify the hash chain, command log, snapshots and read tables; list overrides, house rules,
    reversals, dice.

    Exit status 0 when the campaign is clean, 1 when anything is broken.
    Example: campaign audit --anchor "campaign-ledger anchor #57 sha256:9f2c..."
    """
    from ledger.audit import audit as audit_ledger
    from projections import compare, notes, runner
    from projections.text import audit_text

    app, db = open_campaign(ctx, reading=True)
    report = audit_ledger(app, anchor, chain_only)
    report["stuck_entry"] = None
    if chain_only:
        if report["broken_entry"] is not None and not app.read_only and not (
                report["broken_by_anchor"] or report["broken_by_key"]):
            runner.record_verdict(db, report["broken_entry"], report["chain"])  # a break locks; a pass clears nothing
        report["clean"] = report["broken_entry"] is None
        emit(ctx, report, audit_text)
        if not report["clean"]:
            ctx.exit(1)
        return
    if app.read_only:  # nothing can be recorded or caught up: the tables are compared as far as they go
        catch_up_warning(app, db)
    else:
        _audit_catch_up(app, db, report)
    if report["broken_entry"] is None and report["stuck_entry"] is None:
        report["read_tables_differ"] = compare.matches_rebuild(app, db, runner.position(db) if app.read_only else None,
                                                               verified=True)
    report["read_notes"] = notes.since(db)  # entries applied by working around them: clean, but said
    report["clean"] = report["broken_entry"] is None and report["stuck_entry"] is None \
        and not report.get("read_tables_differ")
    emit(ctx, report, audit_text)
    if not report["clean"]:
        ctx.exit(1)


def _audit_catch_up(app: Any, db: Any, report: dict[str, Any]) -> None:
    """Keep the verdict (a broken chain then refuses writes), and catch the read tables up, checking as it goes."""
    from ledger.chain import ChainBroken
    from ledger.errors import ReadModelStuck
    from projections import runner

    if not (report["broken_by_anchor"] or report["broken_by_key"]):  # a mistyped anchor or key locks nothing
        runner.record_verdict(db, report["broken_entry"], report["broken_entry"] and report["chain"])
    if report["broken_entry"] is None:
        try:
            runner.catch_up(app, db)
        except ChainBroken as e:
            report.update(chain=e.reason, broken_entry=e.entry)
        except ReadModelStuck as e:
            report["stuck_entry"], report["stuck"] = e.entry, str(e)


@COMMANDS.command()
@json_option
@click.pass_context
def anchor(ctx: click.Context) -> None:
    """Print the head of the hash chain as one line to keep outside the file (a chat, a printout).

    Later, `campaign audit --anchor LINE` proves the ledger still extends it.
    Example: campaign anchor
    """
    from ledger.chain import anchor_line, chained

    app, _ = open_campaign(ctx, reading=True)
    entry, hash_ = chained(app.recorder).head()
    emit(ctx, {"entry": entry, "hash": hash_, "anchor": anchor_line(entry, hash_)}, lambda r: r["anchor"])


@COMMANDS.command()
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
@click.option("--challenge-faces", help="Faces for a Challenge pool that now rolls more dice (or all, for a what-if).")
@click.option("--stress", help="Another Stress distribution, e.g. Kira=2,Bo=1.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
              help="A single roll (action-dice, decision-2d6): change one of its choices, e.g. advantages=1.")
@click.option("--commit", is_flag=True, help="Append the correction: a reversal plus the corrected round.")
@click.option("--cascade", is_flag=True, help="With --commit: also reverse every later round.")
@json_option
@click.pass_context
def replay(ctx: click.Context, round_name: str | None, leader: str | None, assists: tuple[str, ...],
           destiny: int | None, add: tuple[str, ...], drop: tuple[str, ...], places: tuple[str, ...],
           faces: str | None, challenge_places: tuple[str, ...], challenge_faces: str | None,
           stress: str | None, sets: tuple[str, ...], commit: bool, cascade: bool) -> None:
    """Re-run a recorded round or roll (default: the latest) on its own faces with other choices, side by side.

    Example: campaign replay "Vault Guards:2" --drop-trait "Bo:Steady Hands" --leader Kira
    """
    from ledger.dice import parse_faces
    from ledger.rulesets.relics.replay import Changes
    from projections.text import replay_commit_text, replay_text

    changes = Changes(leader=leader, assists=assists or None, destiny=destiny, add=tuple(parse_trait_uses(add)),
                      drop=drop, place=parse_placing(places, False).given,
                      faces=parse_faces(faces) if faces else None,
                      challenge_place=parse_placing(challenge_places, False).given,
                      challenge_faces=parse_faces(challenge_faces) if challenge_faces else None,
                      stress=parse_stress(stress), sets=_sets(sets))
    if commit:
        write_command(ctx, lambda app: app.replay(round_name, changes, commit=True, cascade=cascade), text=replay_commit_text)
        return
    read_view(ctx, lambda app, db: app.replay(round_name, changes), replay_text)


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
    from projections import sessions

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
        emit(ctx, {"format": fmt, "output": output, "first": first, "last": last},
               lambda r: f"Wrote entries #{r['first']}-#{r['last']} as {r['format']} to {r['output']}.")


def _export_chunks(app: Any, db: Any, fmt: str, first: int, last: int, title: str, gm_notes: bool = False):
    """Each format's chunks, ending with the anchor line (the head of the chain when exported)."""
    from ledger import interchange
    from ledger.chain import anchor_line, chained
    from projections import export as exporting

    anchor = anchor_line(*chained(app.recorder).head())
    if fmt == "jsonl":
        return (line + "\n" for line in interchange.export_lines(app, first, last, anchor=anchor))
    if fmt == "csv":
        return itertools.chain(exporting.csv_chunks(db, first, last, gm_notes), [anchor + "\r\n"])
    if fmt == "html":
        from projections.export_html import html_chunks
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
    from ledger import interchange
    from ledger.application import open_ledger
    from projections import import_replay, runner

    target = ctx.find_root().obj["db"]
    lines = sum(1 for _ in open(source, "rb")) if os.path.isfile(source) else 0
    with progress_bar(ctx, lines, "Importing") as bar:
        report = interchange.import_file(open_ledger, source, target, bar.update if bar is not None else None,
                                         import_replay.replay_check)
    app, db = open_campaign(ctx)
    runner.catch_up(app, db)  # the read tables were built while the import was checked
    bind_read_file(ctx.find_root().obj["db"], app, db)
    emit(ctx, report, lambda r: f"Imported {r['entries']} entries into {target}; every hash checked.")


def _anchor(value: str | None) -> str | None:
    """A malformed anchor is a malformed value (exit 2), refused before the ledger is read."""
    from ledger.chain import parse_anchor

    if value is not None:
        try:
            parse_anchor(value)
        except BadInput as e:
            raise click.BadParameter(str(e)) from None
    return value


def _sets(values: tuple[str, ...]) -> dict[str, str]:
    result = {}
    for value in values:
        key, eq, text = value.partition("=")
        if not eq or not key.strip():
            raise BadInput(f"Write a changed choice as KEY=VALUE, e.g. advantages=1, not '{value}'.")
        result[key.strip()] = text.strip()
    return result
