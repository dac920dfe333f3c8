"""The GM's side of `serve --players confirm`: the players' actions waiting, to accept or decline.

`GET /gm?token=<GM token>` puts the GM token in an HttpOnly, SameSite=Strict cookie for /gm and
sends the browser on to `/gm`, the panel (the token leaves the address bar); the panel follows
`/gm/stream`. `GET /gm/pending` lists the actions waiting as JSON; `POST /gm/pending/<id>/accept`
performs one as its player's actor with the GM as confirmer, `.../decline` drops it (it was only
ever in this server's memory). A script sends the GM token in an `Authorization: Bearer` header; the
panel's own POSTs carry its cookie, its CSRF token and this server's origin.
"""
from __future__ import annotations

import json
from typing import Any, AsyncIterator

from sse_starlette.sse import EventSourceResponse
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from campaign_ledger.errors import CampaignError
from campaign_ledger.web import player_page, seat_auth
from campaign_ledger.web.api import answer, bearer, refusal, same, status_of
from campaign_ledger.web.hub import Hub
from campaign_ledger.web.pending import ACCEPTED, DECLINED, REFUSED
from campaign_ledger.web.seating import HEADERS, Players, call, performed, said, text

GM_ONLY = "gm-token-wrong"


def routes(handle: Any, gm_token: str, players: Players, hub: Hub) -> list[Route]:
    """The GM's routes over the server's handle; accept performs as the player's own action would."""
    pending = players.pending

    def is_gm(request: Request, writing: bool) -> bool:
        if same(bearer(request), gm_token):
            return True
        cookie = same(seat_auth.cookie_token(request, seat_auth.GM_COOKIE), gm_token)
        if not writing:
            return cookie
        return cookie and not seat_auth.cross_origin(request) and seat_auth.csrf_ok(request, gm_token)

    async def panel(request: Request) -> Response:
        given = request.query_params.get("token")
        if given is not None:
            if not same(given, gm_token):
                return text(403, "That is not the GM token this server printed.")
            response = HTMLResponse(player_page.moved("/gm", "Open the GM's panel"), headers=HEADERS)
            seat_auth.set_cookie(response, request, seat_auth.GM_COOKIE, gm_token, path="/gm")
            return response
        if not is_gm(request, False):
            return text(403, "The GM's panel: open /gm?token=<the GM token serve printed> on the GM's device.")
        html = player_page.gm_whole(await hub.first(), seat_auth.csrf_of(gm_token), pending.waiting())
        return HTMLResponse(html, headers=HEADERS)

    async def listed(request: Request) -> Response:
        if not is_gm(request, False):
            return _not_gm()
        return answer([i.shown() for i in pending.items.values()], 200, HEADERS)

    async def stream(request: Request) -> Response:
        if not is_gm(request, False):
            return _not_gm()

        async def events() -> AsyncIterator[dict[str, Any]]:
            while True:
                changed = pending.changed
                yield {"event": "waiting", "data": json.dumps({"html": player_page.gm_panel(pending.waiting())})}
                await changed.wait()
        return EventSourceResponse(events(), ping=15, headers=HEADERS)

    async def decide(request: Request) -> Response:
        if not is_gm(request, True):
            return _not_gm()
        number, decision = request.path_params["id"], request.path_params["decision"]
        if decision not in ("accept", "decline"):
            return refusal(404, f"A waiting action is accepted or declined, not '{decision}'.", 2, None, HEADERS)
        item = pending.take(number)
        if item is None:
            state = pending.items[number].state if number in pending.items else "unknown"
            return refusal(409 if state != "unknown" else 404, f"No action {number} is waiting (it is {state}).",
                           1, "not-pending", HEADERS)
        if decision == "decline":
            pending.settle(item, DECLINED)
            return answer(item.shown(), 200, HEADERS)
        try:
            if await call(players.seating.seat, handle, item.token) is None:
                raise CampaignError("The seat's link was revoked or rotated since; nothing is recorded.", 1,
                                    seat_auth.SEAT_TOKEN_WRONG)
            report = await call(performed, players, handle, item.seat, item.action, item.fields, item.key, "gm")
        except CampaignError as e:
            pending.settle(item, REFUSED, e.message)
            return answer(e.as_json(), status_of(e), HEADERS)
        pending.settle(item, ACCEPTED, said(report))
        return answer({**item.shown(), "report": report}, 200, HEADERS)

    return [Route("/gm", panel, methods=["GET"]), Route("/gm/pending", listed, methods=["GET"]),
            Route("/gm/stream", stream, methods=["GET"]),
            Route("/gm/pending/{id}/{decision:str}", decide, methods=["POST"])]


def _not_gm() -> Response:
    return refusal(401, "This wants the GM token that `campaign serve` printed (an `Authorization: Bearer` header, "
                        "or the GM's panel at /gm).", 1, GM_ONLY, {**HEADERS, "WWW-Authenticate": "Bearer"})

