"""The player server (`serve --players on|confirm`, issue 38) over a real uvicorn on loopback: the
invite link's cookie, the player's page and its stream, and every refusal appending nothing: another's
character, a GM-only action, a forged, revoked or rotated token, a POST without the CSRF token or
from another origin, too many at once; a replayed submission recorded once; confirm mode's accept
and decline; off mode; HTTPS with --certfile/--keyfile. No browser: tests/browser.py drives one.
"""
from __future__ import annotations

import hmac
import http.client
import json
import socket
import ssl
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator

import pytest
import uvicorn

from campaign_ledger import new_campaign
from campaign_ledger.errors import CampaignError
from campaign_ledger.web.app import create_app
from campaign_ledger.web.seat_auth import RateLimit, csrf_of
from campaign_ledger.web.seating import Players, Seating
from tests.conftest import Table
from tests.live_server import DEADLINE

GM = "gm-token-for-the-tests-0123456789"
KIRA, BO = "kira-token-" + "k" * 32, "bo-token-" + "b" * 32


class StandIn(Seating):
    """Seats and a player's actions until the seats (h2) and the catalogue (h4) are merged: a note
    written as the library would write the seat's action, refused as the catalogue refuses."""

    def __init__(self) -> None:
        super().__init__()
        self.tokens = {KIRA: _seat("Kira", "Ana"), BO: _seat("Bo", "Ben")}

    def seat(self, handle: Any, token: str) -> dict[str, Any] | None:
        found = None
        for known, seat in self.tokens.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = seat
        return found

    def actions(self, handle: Any, seat: dict[str, Any]) -> list[dict[str, Any]]:
        text = {"name": "text", "label": "Words", "kind": "text", "choices": [], "required": True, "dice": None}
        faces = {"name": "faces", "label": "Your dice", "kind": "faces", "choices": [], "required": False, "dice": 3}
        return [{"action": "note", "label": "Say it", "fields": [text, faces], "odds": "P(success) = 1/2", "waiting": True}]

    def check(self, handle: Any, seat: dict[str, Any], action: str, fields: dict[str, Any]) -> None:
        if action == "undo":
            raise CampaignError("undo is the GM's to run.", 1, "gm-only")
        if action != "note":
            raise CampaignError(f"there is no action '{action}'.", 2, None)
        if fields.get("pc", seat["pc"]) != seat["pc"]:
            raise CampaignError(f"{seat['seat']} acts for {seat['pc']} alone.", 1, "not-your-character")

    def perform(self, handle: Any, seat: dict[str, Any], action: str, fields: dict[str, Any], key: str,
                confirmed_by: str | None = None) -> dict[str, Any]:
        self.check(handle, seat, action, fields)
        by = f" (confirmed by {confirmed_by})" if confirmed_by else ""
        return handle.note(f"{seat['actor']}{by}: {fields['text']}", key=key)


def _seat(name: str, player: str) -> dict[str, Any]:
    return {"seat": name, "pc": name, "player": player, "state": "active", "generation": 1, "actor": f"seat:{name}"}


class Server:
    """The app `serve` builds, on a uvicorn in a thread on a free port of loopback."""

    def __init__(self, path: Path, players: Players, token: str | None = None) -> None:
        from campaign_ledger.ledger.application import open_ledger
        from campaign_ledger.opening import connect_read

        self.path, self.players = path, players
        app, _ = create_app(lambda: (open_ledger(str(path)), connect_read(str(path))), token=token,
                            interval=0.05, api=(str(path), GM), players=players)
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True)

    def __enter__(self) -> "Server":
        self.thread.start()
        _until(lambda: self.server.started, "the server to start")
        return self

    def __exit__(self, *_: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.listener.close()

    def ask(self, method: str, path: str, seat: str | None = None, body: Any = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            sent = {**({"Cookie": f"campaign_seat={seat}"} if seat else {}), **(headers or {})}
            conn.request(method, path, body=None if body is None else json.dumps(body), headers=sent)
            got = conn.getresponse()
            return got.status, {k.lower(): v for k, v in got.getheaders()}, got.read().decode()
        finally:
            conn.close()

    def act(self, seat: str, action: str = "note", fields: dict[str, Any] | None = None, key: str = "k1",
            csrf: str | None = None, origin: str | None = "own") -> tuple[int, Any]:
        """A player's POST as the page sends it (`csrf` None: the seat's own; `origin` "own": this server)."""
        headers = {"Content-Type": "application/json", "X-CSRF-Token": csrf_of(seat) if csrf is None else csrf,
                   **({"Origin": f"http://127.0.0.1:{self.port}" if origin == "own" else origin} if origin else {})}
        status, _, text = self.ask("POST", "/play/act", seat,
                                   {"action": action, "fields": fields or {"text": "hello"}, "key": key}, headers)
        return status, json.loads(text)

    def entries(self) -> int:
        return Table(self.path).entries()


def _until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"waited too long for {what}"
        time.sleep(0.01)


@pytest.fixture(scope="module")
def heist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("players") / "campaign.db"
    camp = new_campaign(path, "Test Heist")
    camp.pc_add("Kira", {"Phantom": 3, "Venger": 1}, "Phantom")
    camp.pc_add("Bo", {"Phantom": 3, "Venger": 4}, "Venger")
    camp.close()
    return path


@pytest.fixture(scope="module")
def on(heist: Path) -> Iterator[Server]:
    with Server(heist, Players("on", StandIn(), RateLimit(rate=0.001, burst=1000), check_every=0.1)) as server:
        yield server


def test_the_invite_link_sets_a_strict_http_only_cookie_and_leaves_the_address_bar(on: Server) -> None:
    status, headers, body = on.ask("GET", f"/join/{KIRA}")
    assert status == 200 and headers["referrer-policy"] == "no-referrer", (status, body)
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"campaign_seat={KIRA};") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Path=/;" in cookie + ";" and "Secure" not in cookie  # plain HTTP: Secure only over HTTPS
    assert 'http-equiv="refresh" content="0; url=/play"' in body and KIRA not in body
    status, headers, _ = on.ask("GET", "/join/forged-" + "x" * 40)
    assert status == 403 and "set-cookie" not in headers


def test_the_players_page_is_the_seats_own_with_its_csrf_token(on: Server) -> None:
    status, headers, page = on.ask("GET", "/play", KIRA)
    assert status == 200, page
    assert f'<meta name="csrf-token" content="{csrf_of(KIRA)}">' in page and KIRA not in page
    assert 'data-seat="Kira"' in page and 'data-action="note"' in page and "P(success) = 1/2" in page
    assert 'data-kind="faces"' in page and "empty: the program rolls" in page
    assert headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in headers["content-security-policy"]
    assert on.ask("GET", "/play")[0] == 403 and on.ask("GET", "/play", "forged-" + "x" * 40)[0] == 403
    assert on.ask("GET", "/play/player.js")[0] == 200


def test_an_action_lands_once_however_often_it_is_sent(on: Server) -> None:
    before = on.entries()
    status, answer = on.act(KIRA, key="once-1")
    assert status == 200 and answer["state"] == "recorded" and "seat:Kira: hello" in answer["said"], answer
    assert on.entries() == before + 1
    status, answer = on.act(KIRA, key="once-1")  # the double tap: the same submission again
    assert status == 200 and answer["report"]["repeated"] is True and on.entries() == before + 1


@pytest.mark.parametrize("case", ["another's character", "GM-only", "forged token", "no token", "no CSRF",
                                  "another seat's CSRF", "foreign Origin", "cross-site fetch", "foreign Referer",
                                  "not JSON", "no key"])
def test_each_refusal_appends_nothing(on: Server, case: str) -> None:
    before = on.entries()
    if case == "another's character":
        status, answer = on.act(KIRA, fields={"text": "x", "pc": "Bo"}, key="r1")
        assert (status, answer["rule"]) == (409, "not-your-character")
    elif case == "GM-only":
        status, answer = on.act(KIRA, "undo", key="r2")
        assert (status, answer["rule"]) == (409, "gm-only")
    elif case == "forged token":
        status, answer = on.act("forged-" + "x" * 40, key="r3")
        assert (status, answer["rule"]) == (403, "seat-token-wrong")
    elif case == "no token":
        status, _, text = on.ask("POST", "/play/act", None, {"action": "note", "fields": {"text": "x"}, "key": "r4"})
        assert (status, json.loads(text)["rule"]) == (401, "seat-token-missing")
    elif case == "no CSRF":
        status, answer = on.act(KIRA, csrf="", key="r5")
        assert (status, answer["rule"]) == (403, "csrf-wrong")
    elif case == "another seat's CSRF":
        status, answer = on.act(KIRA, csrf=csrf_of(BO), key="r6")
        assert (status, answer["rule"]) == (403, "csrf-wrong")
    elif case == "foreign Origin":
        status, answer = on.act(KIRA, origin="http://evil.example", key="r7")
        assert (status, answer["rule"]) == (403, "cross-origin")
    elif case in ("cross-site fetch", "foreign Referer"):
        header = {"Sec-Fetch-Site": "cross-site"} if case == "cross-site fetch" else {"Referer": "http://evil.example/"}
        status, _, text = on.ask("POST", "/play/act", KIRA, {"action": "note", "fields": {"text": "x"}, "key": "r8"},
                                 {"X-CSRF-Token": csrf_of(KIRA), **header})
        assert (status, json.loads(text)["rule"]) == (403, "cross-origin")
    else:
        body = b"{" if case == "not JSON" else json.dumps({"action": "note", "fields": {"text": "x"}}).encode()
        conn = http.client.HTTPConnection("127.0.0.1", on.port, timeout=30)
        conn.request("POST", "/play/act", body=body, headers={"Cookie": f"campaign_seat={KIRA}",
                                                               "X-CSRF-Token": csrf_of(KIRA)})
        got = conn.getresponse()
        status, answer = got.status, json.loads(got.read())
        conn.close()
        assert (status, answer["code"]) == (400, 2)
    assert "\n" not in answer["error"] if case not in ("no token", "cross-site fetch", "foreign Referer") else True
    assert on.entries() == before


def test_other_writes_than_an_action_are_refused(on: Server) -> None:
    before = on.entries()
    for path in ("/play", "/play/stream", "/join/" + KIRA, "/"):
        assert on.ask("POST", path, KIRA, {}, {"X-CSRF-Token": csrf_of(KIRA)})[0] == 405, path
    assert on.ask("PUT", "/play/act", KIRA, {}, {"X-CSRF-Token": csrf_of(KIRA)})[0] == 405
    assert on.entries() == before


def test_two_players_at_once_both_land(on: Server) -> None:
    before = on.entries()
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda seat: on.act(seat, key=f"both-{seat[:2]}"), [KIRA, BO]))
    assert [status for status, _ in answers] == [200, 200], answers
    assert on.entries() == before + 2


def test_too_many_actions_at_once_are_refused_with_429(heist: Path) -> None:
    with Server(heist, Players("on", StandIn(), RateLimit(rate=0.001, burst=2))) as server:
        before = server.entries()
        statuses = [server.act(KIRA, key=f"fast-{i}")[0] for i in range(3)]
        status, answer = server.act(KIRA, key="fast-3")
        assert statuses == [200, 200, 429] and status == 429 and answer["rule"] == "rate-limited"
        assert server.entries() == before + 2
        assert server.act(BO, key="fast-bo")[0] == 200  # per seat: another seat still acts


class Stream:
    """One open /play/stream: its events one by one."""

    def __init__(self, server: Server, seat: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        self.conn.request("GET", "/play/stream", headers={"Cookie": f"campaign_seat={seat}"})
        self.answer = self.conn.getresponse()
        assert self.answer.status == 200, self.answer.status

    def next(self) -> tuple[str, Any] | None:
        """The next event's name and data; None when the server ended the stream."""
        fields: dict[str, str] = {}
        while True:
            line = self.answer.fp.readline().decode()
            if not line:
                return None
            line = line.rstrip("\r\n")
            if not line and "event" in fields:
                return fields["event"], json.loads(fields["data"])
            key, _, value = line.partition(":")
            if key in ("event", "data"):
                fields[key] = value.lstrip(" ")

    def close(self) -> None:
        self.conn.close()


def test_a_revoked_seat_is_refused_at_once_and_its_open_stream_closes(heist: Path) -> None:
    seating = StandIn()
    with Server(heist, Players("on", seating, check_every=0.1)) as server:
        stream = Stream(server, KIRA)
        event, data = stream.next()
        assert event == "play" and "Say it" in data["sections"]["actions"] and "Kira" in data["sections"]["mine"]
        before = server.entries()
        del seating.tokens[KIRA]  # the GM revokes (or rotates) Kira's seat
        event = stream.next()
        while event is not None and event[0] == "play":  # an update sent before the seat went
            event = stream.next()
        assert event == ("closed", {"error": "This seat's link is no longer valid (revoked or rotated): "
                                                     "ask the GM for your current link."})
        assert stream.next() is None
        stream.close()
        assert server.act(KIRA, key="after-revoke")[1]["rule"] == "seat-token-wrong"
        assert server.ask("GET", "/play", KIRA)[0] == 403 and server.ask("GET", "/play/stream", KIRA)[0] == 403
        assert server.entries() == before


def test_confirm_mode_records_an_accepted_action_and_nothing_of_a_declined_one(heist: Path) -> None:
    with Server(heist, Players("confirm", StandIn())) as server:
        before = server.entries()
        status, queued = server.act(KIRA, fields={"text": "I spend Destiny"}, key="c1")
        assert status == 202 and queued["state"] == "pending", queued
        assert server.act(KIRA, fields={"text": "I spend Destiny"}, key="c1")[1]["id"] == queued["id"]  # double tap
        _, declined = server.act(BO, fields={"text": "never"}, key="c2")
        assert server.act(KIRA, "undo", key="c3")[1]["rule"] == "gm-only"  # checked before it is queued
        assert server.entries() == before
        status, _, listed = server.ask("GET", "/gm/pending", headers={"Authorization": f"Bearer {GM}"})
        assert status == 200 and [(i["seat"], i["state"]) for i in json.loads(listed)] == [
            ("Kira", "pending"), ("Bo", "pending")]
        assert server.ask("GET", "/gm/pending")[0] == 401
        assert server.ask("POST", f"/gm/pending/{queued['id']}/accept", KIRA, {},
                          {"X-CSRF-Token": csrf_of(KIRA)})[0] == 401  # a player cannot accept their own
        bearer = {"Authorization": f"Bearer {GM}"}
        status, _, accepted = server.ask("POST", f"/gm/pending/{queued['id']}/accept", headers=bearer)
        assert status == 200 and json.loads(accepted)["state"] == "accepted", accepted
        assert server.ask("POST", f"/gm/pending/{queued['id']}/accept", headers=bearer)[0] == 409
        status, _, body = server.ask("POST", f"/gm/pending/{declined['id']}/decline", headers=bearer)
        assert status == 200 and json.loads(body)["state"] == "declined"
        assert server.entries() == before + 1
        lines = [h["line"] for h in Table(heist).json("history")]
        assert any("seat:Kira (confirmed by gm): I spend Destiny" in line for line in lines)
        assert not any("never" in line for line in lines)
        page = server.ask("GET", "/play", KIRA)[2]
        assert "Say it: accepted" in page or "note: accepted" in page


def test_the_gm_panel_takes_the_gm_token_once_into_a_cookie(heist: Path) -> None:
    with Server(heist, Players("confirm", StandIn())) as server:
        status, headers, body = server.ask("GET", f"/gm?token={GM}")
        assert status == 200 and "url=/gm" in body and GM not in body
        assert headers["set-cookie"].startswith(f"campaign_gm={GM};") and "HttpOnly" in headers["set-cookie"]
        status, _, page = server.ask("GET", "/gm", headers={"Cookie": f"campaign_gm={GM}"})
        assert status == 200 and f'content="{csrf_of(GM)}"' in page
        assert server.ask("GET", "/gm?token=wrong")[0] == 403 and server.ask("GET", "/gm")[0] == 403


def test_off_mode_refuses_players_with_one_clear_line(heist: Path) -> None:
    with Server(heist, Players("off")) as server:
        before = server.entries()
        for path in (f"/join/{KIRA}", "/play", "/play/stream", "/gm"):
            status, headers, body = server.ask("GET", path, KIRA)
            assert status == 403 and body == "This table does not take players' actions (serve --players on).\n"
            assert "set-cookie" not in headers
        assert server.ask("POST", "/play/act", KIRA, {"action": "note", "fields": {"text": "x"}, "key": "off-1"},
                          {"X-CSRF-Token": csrf_of(KIRA)})[0] == 405  # no route takes a write
        assert server.entries() == before


def test_beyond_loopback_a_seat_needs_no_read_token(heist: Path) -> None:
    with Server(heist, Players("on", StandIn()), token="the-read-token") as server:
        assert server.ask("GET", "/")[0] == 401
        assert server.ask("GET", "/play", KIRA)[0] == 200 and server.ask("GET", f"/join/{KIRA}")[0] == 200
        assert server.act(KIRA, key="shared-1")[0] == 200


def _certificate(folder: Path, name: str) -> tuple[str, str]:
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    return str(cert), str(key)


def test_serve_over_https_with_a_certificate(heist: Path, tmp_path: Path) -> None:
    import signal
    import sys

    from tests.live_server import ROOT, env

    cert, key = _certificate(tmp_path, "one")
    proc = subprocess.Popen([sys.executable, "-m", "campaign_ledger.cli", "--db", str(heist), "--json", "serve",
                             "--port", "0", "--certfile", cert, "--keyfile", key, "--players", "on"],
                            cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        report = json.loads(proc.stdout.readline())
        assert report["url"].startswith("https://") and report["players"] == "on" and report["seats"] == []
        context = ssl.create_default_context(cafile=cert)
        context.check_hostname = False

        def page() -> tuple[int, bytes] | None:
            conn = http.client.HTTPSConnection("127.0.0.1", report["port"], context=context, timeout=10)
            try:
                conn.request("GET", "/play")
                got = conn.getresponse()
                return got.status, got.read()
            except OSError:
                return None  # not listening yet
            finally:
                conn.close()
        _until(lambda: proc.poll() is not None or page() is not None, "the HTTPS server")
        status, body = page() or (0, b"")
        assert status == 403 and b"invite link" in body
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=15)
        proc.stdout.close()
        proc.stderr.close()


def test_serve_refuses_missing_or_mismatched_certificate_files(heist: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from campaign_ledger.cli import cli

    cert, _ = _certificate(tmp_path, "one")
    _, other = _certificate(tmp_path, "two")
    for args, says in ([["--certfile", str(tmp_path / "nope.pem")], "no such file"],
                       [["--keyfile", other], "--keyfile needs --certfile"],
                       [["--certfile", cert, "--keyfile", other], "is not the key of the certificate"],
                       [["--certfile", other], "do not hold a PEM certificate"]):
        result = CliRunner().invoke(cli, ["--db", str(heist), "serve", "--port", "0", *args])
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and says in lines[0], (args, result.output)
