"""`campaign serve`: the table's live view, a read-only page the players watch on their phones, and
the HTTP JSON API under /api/ (web/api.py), whose writes need the GM token it prints.

Starlette and uvicorn are imported only when the command runs, so `campaign --help` and every
other command start as fast as before.
"""
from __future__ import annotations

import errno
import ipaddress
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
@json_option
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, show_gm: bool, token: str | None, gm_token: str | None) -> None:
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

    Example: campaign serve --host 0.0.0.0 --port 8000
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
    listener = _listen(host, port)
    root = f"http://{_shown_host(host, shared)}:{listener.getsockname()[1]}/"
    url = root + (f"?token={token}" if token else "")
    report = {"url": url, "host": host, "port": listener.getsockname()[1], "shared": shared, "show_gm": show_gm,
              "api": root + "api/", "gm_token": gm_token}
    if ctx.find_root().obj["json"]:
        import json
        click.echo(json.dumps(report))
    else:
        click.echo(f"Serving {path}'s live page at {url}" + (" (GM data shown)" if show_gm else ""))
        if shared:
            click.echo("Open that URL on a phone on the same network; without the token the page answers 401.")
        click.echo(f"HTTP API at {root}api/ (described at {root}api/openapi.json); it writes with the GM token "
                   f"{gm_token} in an `Authorization: Bearer` header: keep it off the table.")
        click.echo("Stop with Ctrl-C.")
    sys.stdout.flush()  # the URL reaches a pipe (a script, a test) before the server starts
    _run(listener, path, show_gm, token, gm_token)


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


def _shown_host(host: str, shared: bool) -> str:
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


def _run(listener: socket.socket, path: str, show_gm: bool, token: str | None, gm_token: str) -> None:
    import uvicorn

    from campaign_ledger.web.app import create_app

    def open_file() -> tuple[Any, Any]:
        from campaign_ledger.opening import connect_read
        from campaign_ledger.ledger.application import open_ledger

        return open_ledger(path), connect_read(path)  # the SQLite file, or the schema of CAMPAIGN_READ=postgres

    asgi, _ = create_app(open_file, show_gm=show_gm, token=token, api=(path, gm_token))
    config = uvicorn.Config(asgi, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=2)
    try:
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:  # Ctrl-C is how a GM stops it: not an error
        pass
    finally:
        listener.close()
    click.echo("Stopped.", err=True)
