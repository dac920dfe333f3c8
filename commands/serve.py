"""`campaign serve`: the table's live view, a read-only page the players watch on their phones, and
the HTTP JSON API under /api/ (web/api.py), whose writes need the GM token it prints.

Starlette and uvicorn are imported only when the command runs, so `campaign --help` and every
other command start as fast as before.
"""
from __future__ import annotations

import errno
import ipaddress
import os
import secrets
import socket
import sys
from typing import Any

import click

from campaign_ledger.commands.plumbing import json_option, open_campaign

COMMANDS = click.Group()  # added to `campaign` by cli.py


@COMMANDS.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; 0.0.0.0 shares the page on the table's network (with a read token).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port (0: any free one, printed).")
@click.option("--show-gm", is_flag=True, help="Also show the GM's data: Challenges' own traits and GM-only notes.")
@click.option("--token", envvar="CAMPAIGN_READ_TOKEN", metavar="T",
              help="The read token for a shared page (also $CAMPAIGN_READ_TOKEN; default: a new random one).")
@click.option("--gm-token", envvar="CAMPAIGN_GM_TOKEN", metavar="T",
              help="The GM token that writes through the HTTP API (also $CAMPAIGN_GM_TOKEN; default: a new random one).")
@click.option("--players", type=click.Choice(["off", "on", "confirm"]), default="off", show_default=True,
              help="Players' actions from their seats' pages: off; on (recorded when the rules allow); confirm "
                   "(each waits for the GM to accept it at the printed GM panel).")
@click.option("--certfile", type=click.Path(dir_okay=False),
              help="Serve HTTPS with this PEM certificate (and --keyfile).")
@click.option("--keyfile", type=click.Path(dir_okay=False), help="The PEM private key of --certfile.")
@click.option("--qr", is_flag=True, help="Also print each seat's link as a QR code in the terminal.")
@json_option
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, show_gm: bool, token: str | None, gm_token: str | None,
          players: str, certfile: str | None, keyfile: str | None, qr: bool) -> None:
    """Serve a live, read-only page of the campaign: pools, what is in play, the sheets, the last
    rounds and the notes, updated within a second of any command run in another window. The page
    has no way to change the campaign; the HTTP API under /api/ writes only with the GM token this
    prints. Stop it with Ctrl-C.

    On loopback (the default) only this computer can open it. To open it on a phone on the same
    network, run with --host 0.0.0.0 and open the printed URL (it carries the read token; without
    it the page answers 401). A shared page never shows the GM's data unless --show-gm.

    Beside the page, /api/ serves every call of the Python library as JSON (described at
    /api/openapi.json): a bot writes with the printed GM token in an `Authorization: Bearer`
    header, never in a URL; keep it off the table.

    With --players on (or confirm) each seat's invite link (`campaign seat add`) opens the page as
    that player, who acts for their own character; the links are printed here (--qr: as QR codes
    too). --certfile and --keyfile serve it all over HTTPS.

    Example: campaign serve --host 0.0.0.0 --port 8000 --players on
    """
    from campaign_ledger.ledger.errors import RuleViolation

    app, db = open_campaign(ctx, reading=True)  # refuses what is not a campaign file, before listening
    path = ctx.find_root().obj["db"]
    read_only = bool(getattr(app, "read_only", False))
    app.close()
    db.conn.close()
    if read_only:
        raise RuleViolation(f"{path} is on read-only media; the live view keeps its read tables current, so "
                            "copy the file (and its -wal file, if any) to a writable folder and serve the copy.")
    from campaign_ledger.web.api import is_loopback

    shared = not is_loopback(host)
    token = (token or secrets.token_urlsafe(16)) if shared else None
    if gm_token is not None and (len(gm_token) < 16 or gm_token == token):
        from campaign_ledger.ledger.errors import BadInput

        raise BadInput("A GM token needs at least 16 characters and must not be the read token (it writes to the "
                       "campaign, and the read token travels in the table's URL); leave it out for a random one.")
    gm_token = gm_token or secrets.token_urlsafe(24)
    tls = _tls(certfile, keyfile)
    listener = _listen(host, port)
    root = f"{'https' if tls else 'http'}://{shown_host(host, shared)}:{listener.getsockname()[1]}/"
    url = root + (f"?token={token}" if token else "")
    seats = [{"seat": s["seat"], "player": s["player"], "link": root + s["link_path"].lstrip("/")}
             for s in _seat_links(path)]
    report = {"url": url, "host": host, "port": listener.getsockname()[1], "shared": shared, "show_gm": show_gm,
              "api": root + "api/", "gm_token": gm_token, "players": players, "seats": seats}
    if ctx.find_root().obj["json"]:
        import json
        click.echo(json.dumps(report))
    else:
        click.echo(f"Serving {path}'s live page at {url}" + (" (GM data shown)" if show_gm else ""))
        if shared:
            click.echo("Open that URL on a phone on the same network; without the token the page answers 401.")
        _print_seats(seats, players, qr, f"{root}gm?token={gm_token}")
        click.echo(f"HTTP API at {root}api/ (described at {root}api/openapi.json); it writes with the GM token "
                   f"{gm_token} in an `Authorization: Bearer` header: keep it off the table.")
    sys.stdout.flush()  # the URL reaches a pipe (a script, a test) before the server starts
    _run(listener, path, show_gm, token, gm_token, players, tls, say_ready=not ctx.find_root().obj["json"])


def _tls(certfile: str | None, keyfile: str | None) -> tuple[str, str | None] | None:
    """The certificate and key to serve HTTPS with, checked now: a missing file or a key that is
    not the certificate's is one line, before anything listens."""
    import ssl

    from campaign_ledger.ledger.errors import BadInput

    if certfile is None:
        if keyfile is not None:
            raise BadInput("--keyfile needs --certfile (the certificate the key belongs to).")
        return None
    for option, name in (("--certfile", certfile), ("--keyfile", keyfile)):
        if name is not None and not os.path.isfile(name):
            raise BadInput(f"{option} {name}: no such file.")
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except ssl.SSLError as e:
        if e.reason == "KEY_VALUES_MISMATCH":
            raise BadInput(f"the key in {keyfile or certfile} is not the key of the certificate in "
                           f"{certfile}.") from None
        raise BadInput(f"{certfile}{' and ' + keyfile if keyfile else ''} do not hold a PEM certificate and its "
                       f"private key ({e.reason or e}).") from None
    except OSError as e:
        raise BadInput(f"cannot read {certfile}{' or ' + keyfile if keyfile else ''} ({e.strerror}).") from None
    return certfile, keyfile


def _seat_links(path: str) -> list[dict[str, Any]]:
    """Each active seat's invite link, as the ledger stands (the links are derived, never stored)."""
    from campaign_ledger.campaign import Campaign
    from campaign_ledger.errors import CampaignError

    with Campaign(path) as handle:
        try:
            return list(handle.seat_links())
        except CampaignError as e:  # the seat key unreadable, say: the page is still served, without seats
            click.echo(f"Warning: no seat's link can be made ({e}).", err=True)
            return []


def _print_seats(seats: list[dict[str, Any]], players: str, qr: bool, panel: str) -> None:
    if players == "off":
        if seats:
            click.echo(f"{len(seats)} seat(s); their invite links open a player's page with --players on "
                       "or confirm.")
        return
    where = f"; accept or decline them at {panel}" if players == "confirm" else "."
    click.echo(f"Players' actions: {players}{where}")
    for seat in seats:
        click.echo(f"Seat {seat['seat']} ({seat['player']}): {seat['link']}")
        if qr:
            from campaign_ledger.seats import qr_text

            click.echo(qr_text(seat["link"]))


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the URL is printed (so port 0 prints the real port)."""
    from campaign_ledger.ledger.errors import BadInput, RuleViolation

    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except socket.gaierror:
        raise BadInput(f"'{host}' is not an address of this computer; try 127.0.0.1 or 0.0.0.0.") from None
    except OSError as e:
        if e.errno == errno.EADDRNOTAVAIL:
            raise BadInput(f"'{host}' is not an address of this computer; try 127.0.0.1 or 0.0.0.0.") from None
        raise RuleViolation(f"cannot listen on {host}:{port} ({e.strerror}); is another server using it? "
                            "Try another --port.") from None
    listener.listen(128)
    listener.setblocking(False)
    return listener


def shown_host(host: str, shared: bool) -> str:
    """The address a phone on the same network would use: this computer's own for 0.0.0.0."""
    if host not in ("0.0.0.0", "::"):
        return f"[{host}]" if ":" in host else host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))  # no packet is sent: this only picks the outgoing interface
        return probe.getsockname()[0]
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


def _run(listener: socket.socket, path: str, show_gm: bool, token: str | None, gm_token: str, players: str,
         tls: tuple[str, str | None] | None, say_ready: bool = True) -> None:
    import uvicorn

    class Server(uvicorn.Server):
        """Says "Stop with Ctrl-C." once it listens with its own Ctrl-C handler in place: a Ctrl-C
        sent on reading it (by a GM or a script) stops it. Said earlier, one that came while it was
        starting could fall to asyncio's own handler, cancel the start and be lost: the server then
        ran on until killed (seen under the test suite's load)."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started and say_ready:
                click.echo("Stop with Ctrl-C.")
                sys.stdout.flush()

    from campaign_ledger.web.app import create_app
    from campaign_ledger.web.seating import Players

    def open_file() -> tuple[Any, Any]:
        from campaign_ledger.opening import connect_read
        from campaign_ledger.ledger.application import open_ledger

        return open_ledger(path), connect_read(path)  # the SQLite file, or the schema of CAMPAIGN_READ=postgres

    asgi, _ = create_app(open_file, show_gm=show_gm, token=token, api=(path, gm_token), players=Players(players))
    certfile, keyfile = tls or (None, None)
    config = uvicorn.Config(asgi, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=2, ssl_certfile=certfile, ssl_keyfile=keyfile)
    try:
        Server(config).run(sockets=[listener])
    except KeyboardInterrupt:  # Ctrl-C is how a GM stops it: not an error
        pass
    finally:
        listener.close()
    click.echo("Stopped.", err=True)
