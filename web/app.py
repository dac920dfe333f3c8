"""The live view's ASGI application: the page's three GET routes, which write nothing, and, when
`serve` mounts it, the HTTP API under /api/ (web/api.py), whose writes want the GM token, and the
player server (web/players.py: /join/, /play, and the GM's /gm), whose writes want a seat's cookie
and its page's CSRF token, or the GM token.

`/` is the page, `/stream` the server-sent events that update it, `/static/live.js` its script.
Outside /api/ every other method is refused (405) before any route is reached, but for a player's
action (POST /play/act) and the GM's answer to one (POST /gm/pending/<id>/accept|decline) when
players are let in; when the server is shared beyond loopback every request without a token (the
read token, or the GM's in a header) is refused with a bare 401, the API's included. The player
server's routes ask for their own token (a seat's cookie, the invite link's token, the GM's), which
stands in for the read token there.
"""
from __future__ import annotations

import contextlib
import json
from importlib import resources
from typing import Any, AsyncIterator, Callable

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from campaign_ledger.errors import CampaignError
from campaign_ledger.web import page
from campaign_ledger.web.api import Access, answer, status_of
from campaign_ledger.web.hub import Hub
from campaign_ledger.web.seating import Players
from campaign_ledger.web.watcher import Watcher

READ_METHODS = ("GET", "HEAD")
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
PING = 15  # seconds between keep-alive comments on an idle stream
API = "/api/"
OWN_TOKEN = ("/join/", "/play/", "/gm/")  # under these (and /play, /gm) a route asks for its own token


class Guard:
    """Refuses what the page never needs: a method that is not a read (outside the API, which
    answers its own), a request without a token when shared (`access.read` set)."""

    def __init__(self, app: ASGIApp, access: Access, api: bool, players: bool = False) -> None:
        self.app, self.access, self.api, self.players = app, access, api, players

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path = scope["path"]
            own = (path + "/").startswith(OWN_TOKEN)
            if self.access.read is not None and not own and not self.access.accepts(HTTPConnection(scope)):
                return await Response(status_code=401)(scope, receive, send)
            in_api = self.api and (path + "/").startswith(API)
            if scope["method"] not in READ_METHODS and not in_api and not (self.players and _posted(path)):
                return await Response(status_code=405, headers={"Allow": ", ".join(READ_METHODS)})(
                    scope, receive, send)
        await self.app(scope, receive, send)


def _posted(path: str) -> bool:
    """The player server's two writes: a player's action, the GM's answer to one."""
    parts = path.split("/")
    return path == "/play/act" or (len(parts) == 5 and parts[1:3] == ["gm", "pending"]
                                   and parts[4] in ("accept", "decline"))


def create_app(open_campaign: Callable[[], tuple[Any, Any]], show_gm: bool = False, token: str | None = None,
               interval: float | None = None, api: tuple[str, str] | None = None,
               players: Players | None = None) -> tuple[ASGIApp, Hub]:
    """The guarded application over one campaign, and the hub its streams read from. `api`: the
    campaign file's path and the GM token, to serve the HTTP API under /api/ beside the page;
    `players`: how the player server takes players' actions (with `api`; default off)."""
    hub = Hub()
    script = resources.files("campaign_ledger.web").joinpath("static/live.js").read_text(encoding="utf-8")
    access = Access(api[1] if api else "", token, show_gm)

    async def home(request: Request) -> Response:
        return HTMLResponse(page.whole(await hub.first(), token), headers=HEADERS)

    async def stream(request: Request) -> Response:
        async def events() -> AsyncIterator[dict[str, Any]]:
            async for view in hub.views():
                yield {"event": "table", "id": str(view.entry), "retry": 1000,
                       "data": json.dumps({"entry": view.entry, "sections": page.sections(view)})}
        return EventSourceResponse(events(), ping=PING, headers=HEADERS)

    async def live_js(request: Request) -> Response:
        return Response(script, media_type="text/javascript", headers=HEADERS)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        import asyncio

        hub.bind(asyncio.get_running_loop())
        options = {"interval": interval} if interval is not None else {}
        watcher = Watcher(open_campaign, show_gm, hub.publish, **options)
        watcher.start()
        app.state.watcher = watcher
        try:
            yield
        finally:
            watcher.stop()

    routes = [Route("/", home, methods=["GET"]), Route("/stream", stream, methods=["GET"]),
              Route("/static/live.js", live_js, methods=["GET"])]
    players = players or Players()
    if api is not None:
        from campaign_ledger.campaign import Campaign
        from campaign_ledger.web import api as http_api, players as player_server

        handle = Campaign(api[0])  # the server's one: each worker thread keeps the campaign open between calls
        routes += http_api.routes(api[0], access, handle=handle)
        routes += player_server.routes(handle, api[1], players, hub)
    inner = Starlette(routes=routes, lifespan=lifespan, exception_handlers={CampaignError: _refused})
    return Guard(inner, access, api is not None, api is not None and players.mode != "off"), hub


async def _refused(request: Request, error: Exception) -> Response:
    """A library refusal no route answered itself (the file unreadable mid-request): its JSON body."""
    assert isinstance(error, CampaignError)
    return answer(error.as_json(), status_of(error))


def routes_of(app: Any) -> list[Route]:
    """The route table behind the guard (what the no-write-route test walks)."""
    return list(app.app.routes)
