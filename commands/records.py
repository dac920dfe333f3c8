"""The record itself: undo, audit and the anchor (replay: replay.py; export and import: interchange.py)."""
from __future__ import annotations

import sys
from typing import Any

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger.words import who
from campaign_ledger.commands.plumbing import campaign_of, emit, json_option, show_report

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

    camp = campaign_of(ctx)
    if list_:
        return emit(ctx, camp.undo_list(limit), _units_text)
    if dry_run:
        return emit(ctx, camp.undo(round_name, cascade=cascade, dry_run=True), undo_text)
    asking = not ctx.find_root().obj["json"] and not yes and _on_a_terminal()
    show_report(ctx, camp.undo(round_name, cascade=cascade, confirm=_confirm if asking else None))


def _on_a_terminal() -> bool:
    """Only a GM at a terminal is asked; a script (a pipe, --json, --yes) gets the reversal at once."""
    return sys.stdin.isatty()


def _confirm(plan: dict[str, Any]) -> bool:
    """Show what would change and ask before anything is said to be done; declining appends nothing."""
    for r in plan["reversed"]:
        click.echo(f"{r['unit']} (entries #{r['entries'][0]}-#{r['entries'][1]}):")
        click.echo("\n".join(f"  {change}" for change in r["changes"]))
    units = ", ".join(r["unit"] for r in plan["reversed"])
    return click.confirm(f"Reverse {units}?", default=False)


def _units_text(units: list[dict[str, Any]]) -> str:
    """`undo --list` for a GM: one unit a line, its dependents under it."""
    if not units:
        return "Nothing to undo."
    lines = []
    for u in units:
        by = who(u.get("actor"), u.get("channel"), u.get("confirmed_by"))
        lines.append(f"#{u['entries'][0]}-#{u['entries'][1]}  {u['unit']}{f' [{by}]' if by else ''}: {u['did']}")
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
    from campaign_ledger.projections.text import audit_text

    report = campaign_of(ctx).audit(anchor=anchor, chain=chain_only)
    emit(ctx, report, audit_text)
    if not report["clean"]:
        ctx.exit(1)


@COMMANDS.command()
@json_option
@click.pass_context
def anchor(ctx: click.Context) -> None:
    """Print the head of the hash chain as one line to keep outside the file (a chat, a printout).

    Later, `campaign audit --anchor LINE` proves the ledger still extends it.
    Example: campaign anchor
    """
    emit(ctx, campaign_of(ctx).anchor(), lambda r: r["anchor"])


def _anchor(value: str | None) -> str | None:
    """A malformed anchor is a malformed value (exit 2), refused before the ledger is read."""
    from campaign_ledger.ledger.chain import parse_anchor

    if value is not None:
        try:
            parse_anchor(value)
        except BadInput as e:
            raise click.BadParameter(str(e)) from None
    return value
