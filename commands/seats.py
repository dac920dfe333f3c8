"""`campaign seat add|list|revoke|rotate`: the players' seats, each with an invite link that opens
the live page as that player (the library's calls: campaign_ledger/seats.py)."""
from __future__ import annotations

from typing import Any

import click

from campaign_ledger.commands.plumbing import campaign_of, emit, json_option, show_report, text_report

COMMANDS = click.Group()  # added to `campaign` by cli.py

DEFAULT_PORT = 8000  # `campaign serve`'s


def url_option(f: Any) -> Any:
    f = click.option("--qr", is_flag=True, help="Print the invite link as a QR code too, for a phone's camera.")(f)
    return click.option("--url", "base", metavar="BASE", default=None,
                        help="The address players open, before the link's path (default: "
                             f"http://<this computer's address on the network>:{DEFAULT_PORT}).")(f)


@COMMANDS.group()
def seat() -> None:
    """Player seats: a player's own link to the live page, acting for their character only."""


@seat.command("add")
@click.argument("pc")
@click.option("--player", required=True, help="Who plays the character (the name the history gives them).")
@url_option
@json_option
@click.pass_context
def seat_add(ctx: click.Context, pc: str, player: str, base: str | None, qr: bool) -> None:
    """Seat a player at their character and print the invite link (the token is kept only as a hash).

    Example: campaign seat add Kira --player "Ana"
    """
    _linked(ctx, campaign_of(ctx).seat_add(pc, player), base, qr)


@seat.command("list")
@json_option
@click.pass_context
def seat_list(ctx: click.Context) -> None:
    """List the seats: each character's player, and whether its link opens it.

    Example: campaign seat list
    """
    def text(rows: list) -> str:
        return "\n".join(f"{r['seat']}{_now(r)}: {r['player']} ({r['state']}, link {r['generation']})" for r in rows) \
            or "No seats yet; `campaign seat add PC --player NAME` gives one."
    emit(ctx, campaign_of(ctx).seat_list(), text)


@seat.command("revoke")
@click.argument("seat_name", metavar="SEAT")
@json_option
@click.pass_context
def seat_revoke(ctx: click.Context, seat_name: str) -> None:
    """Close a seat: its link opens nothing from now on (undo opens it again).

    Example: campaign seat revoke Kira
    """
    show_report(ctx, campaign_of(ctx).seat_revoke(seat_name))


@seat.command("rotate")
@click.argument("seat_name", metavar="SEAT")
@url_option
@json_option
@click.pass_context
def seat_rotate(ctx: click.Context, seat_name: str, base: str | None, qr: bool) -> None:
    """Give a seat a new invite link; the old one opens nothing (a lost phone, a link shared too widely).

    Example: campaign seat rotate Kira
    """
    _linked(ctx, campaign_of(ctx).seat_rotate(seat_name), base, qr)


def _linked(ctx: click.Context, report: dict, base: str | None, qr: bool) -> None:
    """The report, with the invite link (and, asked, its QR code) after it."""
    if "link_path" in report:
        report["link"] = invite_url(base, report["link_path"])
    if ctx.find_root().obj["json"] or report.get("repeated"):
        show_report(ctx, report)
        return
    click.echo(text_report(report))
    click.echo(f"Invite link for {report['player']} ({report['seat']}): {report['link']}")
    if qr:
        from campaign_ledger.seats import qr_text

        click.echo(qr_text(report["link"]), nl=False)
    click.echo("Anyone with the link plays as this seat: hand it to the player alone.")


def invite_url(base: str | None, link_path: str) -> str:
    """The link a player opens: `base` (the address `campaign serve` is reached at) and the seat's path."""
    if base is None:
        from campaign_ledger.commands import serve

        base = f"http://{serve.shown_host('0.0.0.0', True)}:{DEFAULT_PORT}"  # serve's own words for this computer
    return base.rstrip("/") + link_path


def _now(row: dict) -> str:
    """A seat whose character was renamed since keeps its name; the character's name as it stands."""
    return f" (now {row['pc']})" if row["pc"] != row["seat"] else ""
