"""The player server (`campaign serve --players on|confirm`): a seat's invite link opens the live
page as that player, who acts for their own character alone.

`GET /join/<token>` puts the seat's token in a cookie (web/seat_auth.py) and sends the browser on to
`/play`, so the token leaves the address bar; `/play` is the page, `/play/stream` its updates (it
closes when the seat is revoked or rotated: the seat is looked up again on every update and every
few seconds), `POST /play/act` an action, `{"action", "fields", "key"}`, with the page's CSRF token.
The server, never the page, decides whose character it is: the seat's. Each action runs through
the library (`campaign_ledger.players`) on the server's one handle, as the seat's actor on the
`page` channel, under the submission's own key (a double tap records once). With `confirm` the
action waits in memory (web/pending.py) until the GM accepts it at /gm (recorded with the GM as
confirmer) or declines it (recorded nowhere). Every refusal appends nothing and is one line.
"""
from __future__ import annotations

import dataclasses
import json
from importlib import resources
from typing import Any, AsyncIterator

from sse_starlette.sse import EventSourceResponse
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from campaign_ledger.errors import CampaignError
from campaign_ledger.web import gm_panel, player_page, seat_auth
from campaign_ledger.web.api import answer, refusal, status_of
from campaign_ledger.web.hub import Hub
from campaign_ledger.web.seating import HEADERS, Players, call, performed, said, text

OFF = "this table does not take players' actions (serve --players on)"
GONE = "This seat's link is no longer valid (revoked or rotated): ask the GM for your current link."
KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
BODY_LIMIT = 1 << 16  # bytes of an action's JSON: far beyond any form's fields
WAITING_MAX = 10  # actions of one seat waiting on the GM at once


def routes(handle: Any, gm_token: str, players: Players, hub: Hub) -> list[Route]:
    """The player server's routes over the server's one library handle (`off`: each refuses)."""
    if players.mode == "off":
        return [Route(path, _off, methods=["GET"]) for path in ("/join/{rest:path}", "/play", "/play/{rest:path}",
                                                                 "/gm", "/gm/{rest:path}")]
    seating, script = players.seating, _script()

    async def seat_of(request: Request) -> tuple[dict[str, Any] | None, str | None]:
        token = seat_auth.cookie_token(request)
        return (await call(seating.seat, handle, token) if token else None), token

    async def join(request: Request) -> Response:
        token = request.path_params["token"]
        if await call(seating.seat, handle, token) is None:
            return text(403, "This invite link is not a seat's current link (revoked, rotated or mistyped): "
                             "ask the GM for your seat's link.")
        response = HTMLResponse(player_page.moved("/play", "Open your page"), headers=HEADERS)
        seat_auth.set_cookie(response, request, seat_auth.SEAT_COOKIE, token)
        return response

    async def play(request: Request) -> Response:
        seat, token = await seat_of(request)
        if seat is None or token is None:
            return text(403, GONE if token else "Open your seat's invite link first (the GM has it).")
        view = await hub.first()
        parts = await sections(seat)
        html = player_page.whole(view, seat, seat_auth.csrf_of(token), parts, players.mode)
        return HTMLResponse(html, headers=HEADERS)

    async def sections(seat: dict[str, Any]) -> dict[str, str]:
        view = await hub.first()
        try:
            actions = await call(seating.actions, handle, seat)
        except CampaignError as e:  # the page still shows the table, and why no action is offered
            actions = []
            view = dataclasses.replace(view, warning=e.message)
        return player_page.sections(view, seat, actions, players.pending.of_seat(seat["seat"]))

    async def stream(request: Request) -> Response:
        seat, token = await seat_of(request)
        if seat is None or token is None:
            return text(403, GONE)

        async def events() -> AsyncIterator[dict[str, Any]]:
            seen, stamp = -1, None
            while True:
                try:
                    now = await call(seating.seat, handle, token)
                except CampaignError:  # the file cannot be read now: end, and the browser asks again
                    return
                if now is None:
                    yield {"event": "closed", "data": json.dumps({"error": GONE})}
                    return
                mine = [(i.id, i.state) for i in players.pending.of_seat(now["seat"])]
                if hub.version != seen or mine != stamp:
                    seen, stamp = hub.version, mine
                    view = await hub.first()
                    yield {"event": "play", "id": str(view.entry), "retry": 1000,
                           "data": json.dumps({"entry": view.entry, "sections": await sections(now)})}
                await hub.wait(seen, players.check_every, players.pending.changed)
        return EventSourceResponse(events(), ping=15, headers=HEADERS)

    async def act(request: Request) -> Response:
        seat, token = await seat_of(request)
        denied = _denied(request, seat, token, players.limit)
        if denied is not None:
            return denied
        assert seat is not None and token is not None
        try:
            action, fields, key = _submission(await _body(request))
        except ValueError as e:
            return refusal(413 if isinstance(e, TooLarge) else 400, str(e), 2, None, HEADERS)
        try:
            if players.mode == "confirm":
                return await _queue(players, handle, seat, token, action, fields, key)
            report = await call(performed, players, handle, seat, action, fields, key, None)
        except CampaignError as e:
            return answer(e.as_json(), status_of(e), HEADERS)
        return answer({"state": "recorded", "said": said(report), "report": report}, 200, HEADERS)

    async def player_js(request: Request) -> Response:
        return Response(script, media_type="text/javascript", headers=HEADERS)

    return [Route("/join/{token}", join, methods=["GET"]), Route("/play", play, methods=["GET"]),
            Route("/play/stream", stream, methods=["GET"]), Route("/play/act", act, methods=["POST"]),
            Route("/play/player.js", player_js, methods=["GET"]),
            *gm_panel.routes(handle, gm_token, players, hub)]


async def _queue(players: Players, handle: Any, seat: dict[str, Any], token: str, action: str,
                 fields: dict[str, Any], key: str) -> Response:
    """Confirm mode: the action checked as it would be performed, then kept for the GM."""
    await call(players.seating.check, handle, seat, action, fields)
    mine = [i for i in players.pending.waiting() if i.seat["seat"] == seat["seat"]]
    if len(mine) >= WAITING_MAX and key not in {i.key for i in mine}:
        return refusal(429, f"{len(mine)} of your actions already wait on the GM; wait for them first.", 1,
                       seat_auth.RATE_LIMITED, HEADERS)
    label = offer_label(await call(players.seating.actions, handle, seat), action, fields)
    item = players.pending.add(seat, token, action, label, fields, key)
    said_now = f"{label}: sent to the GM, who accepts or declines it."
    return answer({"state": item.state, "id": item.id, "said": said_now}, 202, HEADERS)


def offer_label(offers: list[dict[str, Any]], action: str, fields: dict[str, Any]) -> str:
    """The words of the offer a submission answers, for the GM's panel: one action may be offered
    twice (a Cohort turn on each Challenge), told apart by what its choice fields offer."""
    for offered in offers:
        choices = [f for f in offered.get("fields", []) if f.get("kind") == "choice"]
        if offered["action"] == action and all(f["name"] not in fields or fields[f["name"]] in f.get("choices", [])
                                               for f in choices):
            return str(offered["label"])
    return action


def _denied(request: Request, seat: dict[str, Any] | None, token: str | None,
            limit: seat_auth.RateLimit) -> Response | None:
    """The refusal of a POST before its body is read: no seat, another origin, no CSRF, too fast."""
    if token is None:
        return refusal(401, "No seat: open your seat's invite link first.", 1, seat_auth.SEAT_TOKEN_MISSING, HEADERS)
    if seat is None:
        return refusal(403, GONE, 1, seat_auth.SEAT_TOKEN_WRONG, HEADERS)
    if seat_auth.cross_origin(request):
        return refusal(403, "This action came from another site's page; act from your own page.", 1,
                       seat_auth.CROSS_ORIGIN, HEADERS)
    if not seat_auth.csrf_ok(request, token):
        return refusal(403, "This action lacks your page's CSRF token; reload your page and try again.", 1,
                       seat_auth.CSRF_WRONG, HEADERS)
    if not limit.allows(seat["seat"]):
        return refusal(429, "Too many actions at once; wait a moment and try again.", 1, seat_auth.RATE_LIMITED,
                       {**HEADERS, "Retry-After": "1"})
    return None


class TooLarge(ValueError):
    """A body past BODY_LIMIT."""


async def _body(request: Request) -> bytes:
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > BODY_LIMIT:
            raise TooLarge(f"An action's body is over {BODY_LIMIT} bytes.")
    return bytes(raw)


def _submission(body: bytes) -> tuple[str, dict[str, Any], str]:
    """The action, its fields and the submission's key from a POST's JSON body (ValueError if not)."""
    try:
        given = json.loads(body or b"null")
    except (ValueError, RecursionError):
        raise ValueError("The action is not JSON; send {\"action\", \"fields\", \"key\"}.") from None
    if not isinstance(given, dict) or not isinstance(given.get("action"), str):
        raise ValueError("An action is a JSON object with \"action\" (its id), \"fields\" and \"key\".")
    fields, key = given.get("fields") or {}, given.get("key")
    if not isinstance(fields, dict):
        raise ValueError("An action's \"fields\" is a JSON object of its fields' values.")
    if not isinstance(key, str) or not 0 < len(key) <= 64 or not set(key) <= KEY_CHARS:
        raise ValueError("Each submission carries its own \"key\": 1 to 64 letters, digits, '-' or '_'.")
    return given["action"], fields, key


async def _off(request: Request) -> Response:
    return text(403, OFF[0].upper() + OFF[1:] + ".")


def _script() -> str:
    return resources.files("campaign_ledger.web").joinpath("static/player.js").read_text(encoding="utf-8")

