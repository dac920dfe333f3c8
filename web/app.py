"""The live view's ASGI application: the page's three GET routes, which write nothing, and, when
`serve` mounts it, the HTTP API under /api/ (web/api.py), whose writes want the GM token.

`/` is the page, `/stream` the server-sent events that update it, `/static/live.js` its script.
Outside /api/ every other method is refused (405) before any route is reached, and when the server
is shared beyond loopback every request without a token (the read token, or the GM's in a header)
is refused with a bare 401, the API's included.
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

from campaign_ledger.web import page
from campaign_ledger.web.api import Access
from campaign_ledger.web.hub import Hub
from campaign_ledger.web.watcher import Watcher

READ_METHODS = ("GET", "HEAD")
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
PING = 15  # seconds between keep-alive comments on an idle stream
API = "/api/"


class Guard:
    """Refuses what the page never needs: a method that is not a read (outside the API, which
    answers its own), a request without a token when shared (`access.read` set)."""

    def __init__(self, app: ASGIApp, access: Access, api: bool) -> None:
        self.app, self.access, self.api = app, access, api

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            if self.access.read is not None and not self.access.accepts(HTTPConnection(scope)):
                return await Response(status_code=401)(scope, receive, send)
            in_api = self.api and (scope["path"] + "/").startswith(API)
            if scope["method"] not in READ_METHODS and not in_api:
                return await Response(status_code=405, headers={"Allow": ", ".join(READ_METHODS)})(
                    scope, receive, send)
        await self.app(scope, receive, send)


def create_app(open_campaign: Callable[[], tuple[Any, Any]], show_gm: bool = False, token: str | None = None,
               interval: float | None = None, api: tuple[str, str] | None = None) -> tuple[ASGIApp, Hub]:
    """The guarded application over one campaign, and the hub its streams read from. `api`: the
    campaign file's path and the GM token, to serve the HTTP API under /api/ beside the page."""
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
    if api is not None:
        from campaign_ledger.web import api as http_api

        routes += http_api.routes(api[0], access)
    inner = Starlette(routes=routes, lifespan=lifespan)
    return Guard(inner, access, api is not None), hub


def routes_of(app: Any) -> list[Route]:
    """The route table behind the guard (what the no-write-route test walks)."""
    return list(app.app.routes)
