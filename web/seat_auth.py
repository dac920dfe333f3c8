"""Who may write from a page, and how often: the seat's cookie, the CSRF token, the origin check and
the rate limit of the player server (web/players.py).

The invite link's token goes into an HttpOnly, SameSite=Strict cookie (Secure over HTTPS), so the
page's script never sees it and a page of another site never sends it. A write also needs the CSRF
token the page carries (an HMAC of the seat's token: nothing to keep, and it tells nothing of the
token) in an `X-CSRF-Token` header, which a form of another site cannot set, and a request saying it
came from another origin is refused whatever it carries. Every token is compared in constant time.
"""
from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass, field
from typing import Callable

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from campaign_ledger.web.api import same

SEAT_COOKIE = "campaign_seat"
GM_COOKIE = "campaign_gm"
CSRF_HEADER = "x-csrf-token"
COOKIE_AGE = 7 * 24 * 3600  # a week of sessions; a rotate or revoke ends it at once anyway

# Rule ids of the player server's own refusals (the library's are in campaign_ledger/refusals.py).
PLAYERS_OFF = "players-off"
SEAT_TOKEN_MISSING = "seat-token-missing"
SEAT_TOKEN_WRONG = "seat-token-wrong"
CSRF_WRONG = "csrf-wrong"
CROSS_ORIGIN = "cross-origin"
RATE_LIMITED = "rate-limited"


def csrf_of(token: str) -> str:
    """The CSRF token of a seat (or of the GM): derived from its secret, so the server keeps nothing,
    a new token (rotate) gets a new one, and the page's copy cannot be turned back into the secret."""
    return hmac.new(token.encode(), b"campaign-ledger csrf", hashlib.sha256).hexdigest()


def csrf_ok(request: Request, token: str) -> bool:
    return same(request.headers.get(CSRF_HEADER), csrf_of(token))


def cross_origin(request: Request) -> bool:
    """The browser says this request comes from another site: its Origin (or, without one, its
    Referer) is not this server's own, or Sec-Fetch-Site names another site. A client that says
    nothing (a script, not a browser) is no cross-site forgery, and still needs the CSRF token."""
    own = f"{request.url.scheme}://{request.headers.get('host', '')}"
    origin = request.headers.get("origin")
    if origin is not None:
        return origin != own
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return True
    referer = request.headers.get("referer")
    return referer is not None and not (referer + "/").startswith(own + "/")


def cookie_token(conn: HTTPConnection, name: str = SEAT_COOKIE) -> str | None:
    return conn.cookies.get(name) or None


def set_cookie(response: Response, conn: HTTPConnection, name: str, token: str, path: str = "/") -> None:
    """HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure when
    this server speaks HTTPS (never sent in the clear)."""
    response.set_cookie(name, token, max_age=COOKIE_AGE, path=path, httponly=True, samesite="strict",
                        secure=conn.url.scheme == "https")


@dataclass
class RateLimit:
    """A token bucket per seat: `burst` actions at once, then `rate` a second. A phone's double tap
    and a quick sequence pass; a script hammering the server is refused (429) before any work."""

    rate: float = 5.0
    burst: float = 10.0
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)  # seat -> (tokens, when)

    def allows(self, seat: str) -> bool:
        now = self.clock()
        tokens, then = self.buckets.get(seat, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1
        self.buckets[seat] = (tokens - 1 if allowed else tokens, now)
        return allowed
