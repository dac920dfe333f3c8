"""The record itself: undo, audit and the anchor (replay: replay.py; export and import: interchange.py)."""
from __future__ import annotations

import sys
from typing import Any

import click

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.commands.plumbing import catch_up_warning, emit, invocation, json_option, open_campaign, write_command

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
    from campaign_ledger.projections.text import undo_text

    app, db = open_campaign(ctx, reading=list_ or dry_run)
    checked = _verified_head(app, db)  # undo verifies what it reads from there (ledger/undo_reads.py)
    if list_:
        emit(ctx, app.undo_list(limit, checked), _units_text)
        return
    key = ctx.find_root().obj.get("key")
    app.command_invocation = invocation(ctx)
    if key and not dry_run and app.already_recorded(key, "undo"):  # a retry: no new plan to show
        return write_command(ctx, lambda app: app.undo(round_name, cascade, checked=checked))
    if dry_run:
        emit(ctx, _preview(app, round_name, cascade, checked), undo_text)
        return
    if not ctx.find_root().obj["json"] and not yes and _on_a_terminal():
        _confirm(app.undo(round_name, cascade, dry_run=True, checked=checked))  # planned only to be shown
    write_command(ctx, lambda app: app.undo(round_name, cascade, checked=checked))


def _verified_head(app: Any, db: Any) -> tuple | None:
    """Where the read tables last verified the chain (None: nowhere, or a file only read: undo
    verifies the whole chain); a break already known (an audit's verdict, that entry's hash
    changed since) refuses at once."""
    from campaign_ledger.projections.verifying import chain_checked, recorded_break

    if app.read_only:
        return None
    broken = recorded_break(app, db)
    if broken is not None:
        raise broken.error().refusing("undo", "run `campaign audit`")
    return chain_checked(db)


def _preview(app: Any, round_name: str | None, cascade: bool, checked: tuple | None) -> dict[str, Any]:
    """What `--dry-run` shows: the plan; when later play used the unit and --cascade was not given,
    the plan --cascade would carry out, with the refusal the undo itself would meet."""
    from campaign_ledger.ledger.undo import LATER_PLAY_USED_IT

    try:
        return app.undo(round_name, cascade, dry_run=True, checked=checked)
    except RuleViolation as e:
        if cascade or getattr(e, "rule", None) != LATER_PLAY_USED_IT:
            raise
        return {**app.undo(round_name, True, dry_run=True, checked=checked), "needs_cascade": str(e)}


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
        raise RuleViolation("nothing was appended: the reversal was not confirmed.", rule="not-confirmed")


def _units_text(units: list[dict[str, Any]]) -> str:
    """`undo --list` for a GM: one unit a line, its dependents under it."""
    if not units:
        return "Nothing to undo."
    lines = []
    for u in units:
        lines.append(f"#{u['entries'][0]}-#{u['entries'][1]}  {u['unit']}: {u['did']}")
        if u.get("cascade_refused"):
            lines.append(f"    --cascade refused: {u['cascade_refused']}")
        elif u["dependents"]:
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
    from campaign_ledger.projections import schema_repair
    from campaign_ledger.projections.text import audit_text

    app, db = open_campaign(ctx, reading=True)
    schema_repair.refuse_missing(db)  # a dropped read table: named, with what restores it
    if chain_only or app.read_only:
        report = _audit_apart(app, db, anchor, chain_only)
    else:
        report = _audit_in_one_pass(app, db, anchor)
    emit(ctx, report, audit_text)
    if not report["clean"]:
        ctx.exit(1)


def _audit_in_one_pass(app: Any, db: Any, anchor: str | None) -> dict[str, Any]:
    """The ledger read once: a rebuild into a scratch file verifies the chain as it reads the rows,
    and every entry it maps feeds the lists and the snapshot check (ledger.audit.Pass: the events
    the rebuild decoded, each entry decoded once); then the anchor and
    signatures, the read tables caught up, and compared with the scratch file."""
    from campaign_ledger.ledger.audit import Pass, check_snapshots, scan, audit as audit_ledger
    from campaign_ledger.ledger.chain import chained
    from campaign_ledger.projections import compare, notes, runner

    with compare.scratch_rebuild(app, watch=Pass) as scratch:
        report = audit_ledger(app, anchor, lists=False, snapshots=False, verdict=scratch.broken)
        report["stuck_entry"] = None
        _audit_catch_up(app, db, report)
        if report["broken_entry"] is None and report["stuck_entry"] is None and scratch.stuck is not None:
            # the read tables took every entry before it changed; rebuilt now, they cannot
            report["stuck_entry"], report["stuck"] = scratch.stuck.entry, str(scratch.stuck)
        if report["broken_entry"] is None:
            # the pass stopped short at a stuck entry (it saw no more): the snapshots checked on their own
            lists, broken = scratch.watched or (None, check_snapshots(app, chained(app.recorder)))
            if broken is not None:  # as a broken chain is reported: the entry, and nothing listed or compared
                report.update(chain=broken.reason, broken_entry=broken.entry)
                runner.record_verdict(db, broken.entry, broken.reason)
            else:
                if report["stuck_entry"] is None:
                    report["read_tables_differ"] = compare.differing(db, scratch.fresh)
                if lists is None:
                    scan(app, report)
                else:
                    report.update(lists)
    report["read_notes"] = notes.since(db)  # entries applied by working around them: clean, but said
    report["clean"] = report["broken_entry"] is None and report["stuck_entry"] is None \
        and not report.get("read_tables_differ")
    return report


def _audit_apart(app: Any, db: Any, anchor: str | None, chain_only: bool) -> dict[str, Any]:
    """The quick check (`--chain`), or a read-only file's audit (nothing can be caught up or
    recorded): the chain verified on its own, then the tables compared as far as they go."""
    from campaign_ledger.ledger.audit import scan, audit as audit_ledger
    from campaign_ledger.projections import compare, notes, runner

    report = audit_ledger(app, anchor, chain_only, lists=False)
    report["stuck_entry"] = None
    if chain_only:
        if report["broken_entry"] is not None and not app.read_only and not (
                report["broken_by_anchor"] or report["broken_by_key"]):
            runner.record_verdict(db, report["broken_entry"], report["chain"])  # a break locks; a pass clears nothing
        report["clean"] = report["broken_entry"] is None
        return report
    catch_up_warning(app, db)
    if report["broken_entry"] is None:
        report["read_tables_differ"] = compare.matches_rebuild(app, db, runner.position(db))
        scan(app, report)
    report["read_notes"] = notes.since(db)
    report["clean"] = report["broken_entry"] is None and not report.get("read_tables_differ")
    return report


def _audit_catch_up(app: Any, db: Any, report: dict[str, Any]) -> None:
    """Keep the verdict (a broken chain then refuses writes), and catch the read tables up, checking as it goes."""
    from campaign_ledger.ledger.chain import ChainBroken
    from campaign_ledger.ledger.errors import ReadModelStuck
    from campaign_ledger.projections import runner

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
    from campaign_ledger.ledger.chain import anchor_line, chained

    app, _ = open_campaign(ctx, reading=True)
    entry, hash_ = chained(app.recorder).head()
    emit(ctx, {"entry": entry, "hash": hash_, "anchor": anchor_line(entry, hash_)}, lambda r: r["anchor"])


def _anchor(value: str | None) -> str | None:
    """A malformed anchor is a malformed value (exit 2), refused before the ledger is read."""
    from campaign_ledger.ledger.chain import parse_anchor

    if value is not None:
        try:
            parse_anchor(value)
        except BadInput as e:
            raise click.BadParameter(str(e)) from None
    return value
