"""The HTTP JSON API under /api/ (`campaign serve`): the calls of a campaign handle, for a bot that
cannot import Python, with the same shapes as the library and the CLI's `--json`.

`POST /api/calls/<method>` with a JSON object of its arguments runs a write; a read is also
`GET /api/calls/<method>?arg=value` (web/openapi.py says which is which and serves the document).
Each call runs on the server's one handle in a worker thread, which keeps the campaign open between
calls (campaign_ledger/calls.py `Kept`) but holds no transaction, so no lock, between requests, and
catches up with every other process's writes first.

Tokens. A write needs the GM token that `serve` prints, in an `Authorization: Bearer` header (never
in the URL, where logs and browser history keep it), compared in constant time. A read needs
nothing on loopback; shared beyond loopback, the outer guard (web/app.py) has already refused
with a bare 401 whatever came without a token; there the read token reads the API only with
--show-gm, because the calls return the GM's data (notes --gm-only, Challenges' own traits) that the
page hides from the table: without it, reads too want the GM token.

On loopback a call is answered only when the request's Host is this computer (127.0.0.1, localhost,
::1), so a web page in the GM's browser cannot run one by pointing its own name at 127.0.0.1 (the
OpenAPI document, which holds nothing of the campaign, is served whatever the Host).

Every refusal of the API's own is the library's error body {"error", "code", "rule"}
(CampaignError.as_json()), with the status `status_of` gives it (the outer guard's bare 401 beyond
loopback is not); a call's warning lines come in an `X-Campaign-Warnings` header (a JSON list).
"""
from __future__ import annotations

import hmac
import json
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route

from campaign_ledger.errors import CampaignError, refused
from campaign_ledger.web import openapi

BODY_LIMIT = 1 << 20  # bytes of a request's JSON: far beyond any call's arguments
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]  # all routed here, refused here
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}

# Rule ids of the API's own refusals (the library's are in campaign_ledger/refusals.py and failures.py).
TOKEN_MISSING = "token-missing"
TOKEN_WRONG = "token-wrong"
TOKEN_READ_ONLY = "token-read-only"
GM_DATA_HIDDEN = "gm-data-hidden"
HOST_NOT_LOOPBACK = "host-not-loopback"


def status_of(error: CampaignError) -> int:
    """The HTTP status of a library refusal: malformed 400; the file or its server failing 500;
    any other rule of the game or the ledger refusing, 409 (the request conflicts with the state)."""
    from campaign_ledger.failures import RULES

    if error.code == 2:
        return 400
    return 500 if error.rule in RULES else 409


@dataclass(frozen=True)
class Access:
    """The tokens of one server: `gm` writes (always made); `read` is None on loopback (reads are
    open there); `show_gm`: the read token may read the API (the GM's data is shown to the table)."""

    gm: str
    read: str | None = None
    show_gm: bool = False

    def accepts(self, conn: HTTPConnection) -> bool:
        """The outer guard's question beyond loopback: the read token (URL or header) or the GM's (header)."""
        given = bearer(conn)
        return (same(conn.query_params.get("token"), self.read) or same(given, self.read)
                or same(given, self.gm))

    def refuses(self, request: Request, write: bool) -> Response | None:
        """The refusal of this request's token for a read or a write, or None."""
        if self.read is None and not _loopback_host(request):
            return refusal(403, "On loopback the API answers only requests addressed to this computer (Host "
                                "127.0.0.1 or localhost); serve with --host to share it.", 1, HOST_NOT_LOOPBACK)
        given = bearer(request)
        if same(given, self.gm) or (not write and (self.read is None or self.show_gm)):
            return None
        if not write:  # beyond loopback, the read token (the guard let nothing else in), GM data hidden
            return refusal(403, "The API's reads show the GM's data, which this server keeps off the shared page: "
                                "send the GM token (Authorization: Bearer), or serve with --show-gm.",
                           1, GM_DATA_HIDDEN)
        challenge = {"WWW-Authenticate": "Bearer"}
        if given is None:
            where = " (never in the URL)" if request.query_params.get("token") else ""
            return refusal(401, "A write needs the GM token that `campaign serve` printed, in an "
                                f"`Authorization: Bearer` header{where}.", 1, TOKEN_MISSING, challenge)
        if same(given, self.read):
            return refusal(403, "The read token only reads; a write needs the GM token that `campaign serve` printed.",
                           1, TOKEN_READ_ONLY)
        return refusal(401, "That is not the GM token this server printed (it makes a new one each time it "
                            "starts, unless given --gm-token).", 1, TOKEN_WRONG, challenge)


def _loopback_host(conn: HTTPConnection) -> bool:
    """The request names this computer: a web page whose own name was pointed at 127.0.0.1 (DNS
    rebinding) would send its own name, and so cannot read the open loopback API from a browser."""
    host = conn.headers.get("host", "")
    return is_loopback(host[1:].partition("]")[0] if host.startswith("[") else host.partition(":")[0])


def is_loopback(name: str) -> bool:
    """A host name or address of this computer alone (`serve`'s default: no token asked)."""
    import ipaddress

    if name.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def bearer(conn: HTTPConnection) -> str | None:
    """The token of an `Authorization: Bearer T` header, or None."""
    scheme, _, token = conn.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def same(given: str | None, token: str | None) -> bool:
    """Constant time: how much of a guess matched never shows in how long the answer took."""
    if not given or not token:
        return False
    return hmac.compare_digest(given.encode(), token.encode())


def refusal(status: int, message: str, code: int, rule: str | None,
            headers: dict[str, str] | None = None) -> Response:
    return answer(CampaignError(message, code, rule).as_json(), status, headers)


def answer(value: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A JSON answer, encoded as the CLI's --json encodes (a value JSON has no word for, as text)."""
    return Response(json.dumps(value, default=str), status_code=status, media_type="application/json",
                    headers={**HEADERS, **(headers or {})})


def routes(path: str, access: Access, cls: type | None = None, handle: Any = None) -> list[Route]:
    """The API's routes over the campaign file at `path` (`cls`: the handle's class, Campaign;
    `handle`: the server's one, shared with the player server, else one of its own)."""
    from campaign_ledger.campaign import Campaign

    handle_class: type = cls or Campaign
    if handle is None:  # one for the server: each worker thread keeps the campaign open between calls
        handle = handle_class(path)
    calls, named = openapi.served(handle_class)
    document = json.dumps(openapi.document(handle_class, _version()))

    async def described(request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return _wrong_method(["GET"])
        return Response(document, media_type="application/json", headers=HEADERS)

    async def call(request: Request) -> Response:
        name = request.path_params["name"]
        found = calls.get(name)
        if found is None:
            return refusal(404, f"There is no call named '{name}' (see /api/openapi.json).", 2, None)
        allowed = ["POST"] if found.write else ["GET", "POST"]
        if request.method not in allowed and not (request.method == "HEAD" and not found.write):
            return _wrong_method(allowed)
        denied = access.refuses(request, found.write)
        if denied is not None:
            return denied
        try:
            given = await _arguments(request, found, named)
        except openapi.Malformed as e:
            return refusal(413 if isinstance(e, TooLarge) else 400, str(e), 2, None)
        try:
            value, lines = await run_in_threadpool(_called, handle, name, given)
        except Refusal as e:  # a handle's refusal; anything else as the one refusal the library would make of it
            error = refused(e.failure, {"db": path})
            return answer(error.as_json(), status_of(error), _warned(e.lines))
        return answer(value, headers=_warned(lines))

    async def nowhere(request: Request) -> Response:
        return refusal(404, f"Nothing is at {request.url.path}; the calls are under {openapi.PREFIX} "
                            "(see /api/openapi.json).", 2, None)

    return [Route("/api/openapi.json", described, methods=METHODS),
            Route(openapi.PREFIX + "{name}", call, methods=METHODS),
            Route("/api/{rest:path}", nowhere, methods=METHODS)]


class TooLarge(openapi.Malformed):
    """A body past BODY_LIMIT."""


async def _arguments(request: Request, call: openapi.Call, named: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The call's arguments: the JSON object of a POST's body, or a GET's query string (a list
    argument repeats its name: ?tags=a&tags=b), each checked against its schema."""
    if request.method == "POST":
        given = await _body(request)
    else:
        given = {}
        for name in request.query_params:
            if name == "token":  # the page's read token, not an argument
                continue
            schema = call.arguments.get(name)
            values = request.query_params.getlist(name)
            if schema is None:
                given[name] = values[0]
            elif "array" in openapi.kinds(schema, named):
                given[name] = [openapi.from_query(v, _items(schema, named), named) for v in values]
            elif len(values) > 1:
                raise openapi.Malformed(f"{name} is given {len(values)} times; it takes one value.")
            else:
                given[name] = openapi.from_query(values[0], schema, named)
    unknown = sorted(set(given) - set(call.arguments))
    if unknown:
        raise openapi.Malformed(f"{call.name} takes no argument {', '.join(unknown)}; it takes "
                                f"{', '.join(call.arguments) or 'none'}.")
    missing = [name for name in call.required if name not in given]
    if missing:
        raise openapi.Malformed(f"{call.name} needs {', '.join(missing)}.")
    return {name: openapi.check(value, call.arguments[name], named, name) for name, value in given.items()}


def _items(schema: dict[str, Any], named: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The schema of one item of the array a (possibly optional) list argument admits."""
    for option in schema.get("anyOf", [schema]):
        if "array" in openapi.kinds(option, named):
            return option.get("items", {})
    return {}


async def _body(request: Request) -> dict[str, Any]:
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > BODY_LIMIT:
            raise TooLarge(f"The request's body is over {BODY_LIMIT} bytes.")
    if not raw.strip():
        return {}
    try:
        given = json.loads(raw)
    except (ValueError, RecursionError) as e:  # nested past the parser's depth is malformed too
        raise openapi.Malformed(f"The request's body is not JSON ({type(e).__name__}).") from None
    if not isinstance(given, dict):
        raise openapi.Malformed("The request's body must be a JSON object of the call's arguments.")
    return given


def _wrong_method(allowed: list[str]) -> Response:
    return refusal(405, f"This route takes {' or '.join(allowed)}.", 2, None, {"Allow": ", ".join(allowed)})


class Refusal(Exception):
    """A call's failure, with the warning lines it gave first (read in the worker thread that ran it)."""

    def __init__(self, failure: Exception, lines: list[str]) -> None:
        super().__init__(str(failure))
        self.failure, self.lines = failure, lines


def _called(handle: Any, name: str, given: dict[str, Any]) -> tuple[Any, list[str]]:
    """Run one call in a worker thread: its answer and its warning lines (the handle keeps them per thread)."""
    try:
        return getattr(handle, name)(**given), list(handle.warnings)
    except Exception as e:
        raise Refusal(e, list(handle.warnings)) from None


def _warned(lines: list[str]) -> dict[str, str]:
    """The call's warning lines (a stuck read table, a broken chain on a read), as a JSON header."""
    return {"X-Campaign-Warnings": json.dumps(lines)} if lines else {}


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("campaign-ledger")
    except metadata.PackageNotFoundError:
        return "0"
