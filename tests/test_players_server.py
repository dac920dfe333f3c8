"""The player server (`serve --players on|confirm`, issue 38) over a real uvicorn on loopback: the
invite link's cookie, the player's page and its stream, and every refusal appending nothing: another's
character, a GM-only action, a forged, revoked or rotated token, a POST without the CSRF token or
from another origin, too many at once; a replayed submission recorded once; confirm mode's accept
and decline; off mode; HTTPS with --certfile/--keyfile. No browser: tests/browser.py drives one.
"""
from __future__ import annotations

import html
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

from campaign_ledger import new_campaign, open_campaign
from campaign_ledger.web.app import create_app
from campaign_ledger.web.seat_auth import RateLimit, csrf_of
from campaign_ledger.web.seating import Players
from tests.conftest import Table
from tests.live_server import DEADLINE

GM = "gm-token-for-the-tests-0123456789"
ROLL = "action_dice.roll"  # a player's own action roll: the same action lands again and again
CLIMB = {"action": "climb", "rating": "D6"}


class Seats:
    """An action-dice campaign with Kira (Ana) and Bo (Ben) seated: the file and each seat's token."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "campaign.db"
        camp = new_campaign(self.path, "Test Heist", ruleset="action-dice")
        camp.action_dice_character("Kira", assets={"Athletics": 8, "Stealth": 6})
        camp.action_dice_character("Bo", assets={"Athletics": 6})
        self.kira, self.bo = camp.seat_add("Kira", "Ana")["token"], camp.seat_add("Bo", "Ben")["token"]
        camp.close()

    def gm(self) -> Any:
        """The GM's own handle on the file (the CLI's twin)."""
        return open_campaign(self.path)

    def history(self) -> list[dict[str, Any]]:
        return Table(self.path).json("history")


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

    def act(self, seat: str, action: str = ROLL, fields: dict[str, Any] | None = None, key: str = "k1",
            csrf: str | None = None, origin: str | None = "own") -> tuple[int, Any]:
        """A player's POST as the page sends it (`csrf` None: the seat's own; `origin` "own": this server)."""
        headers = {"Content-Type": "application/json", "X-CSRF-Token": csrf_of(seat) if csrf is None else csrf,
                   **({"Origin": f"http://127.0.0.1:{self.port}" if origin == "own" else origin} if origin else {})}
        status, _, text = self.ask("POST", "/play/act", seat,
                                   {"action": action, "fields": fields or CLIMB, "key": key}, headers)
        return status, json.loads(text)

    def entries(self) -> int:
        return Table(self.path).entries()


def _until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"waited too long for {what}"
        time.sleep(0.01)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Seats:
    return Seats(tmp_path_factory.mktemp("players"))


@pytest.fixture(scope="module")
def on(table: Seats) -> Iterator[Server]:
    with Server(table.path, Players("on", limit=RateLimit(rate=0.001, burst=1000), check_every=0.1)) as server:
        yield server


def test_the_invite_link_sets_a_strict_http_only_cookie_and_leaves_the_address_bar(on: Server, table: Seats) -> None:
    status, headers, body = on.ask("GET", f"/join/{table.kira}")
    assert status == 200 and headers["referrer-policy"] == "no-referrer", (status, body)
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"campaign_seat={table.kira};") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Path=/;" in cookie + ";" and "Secure" not in cookie  # plain HTTP: Secure only over HTTPS
    assert 'http-equiv="refresh" content="0; url=/play"' in body and table.kira not in body
    status, headers, _ = on.ask("GET", "/join/forged-" + "x" * 40)
    assert status == 403 and "set-cookie" not in headers


def test_the_players_page_is_the_seats_own_with_its_actions_and_odds(on: Server, table: Seats) -> None:
    from campaign_ledger.players import actions

    gm = table.gm()
    [offered] = actions(gm, gm.seat_by_token(table.kira))
    status, headers, page = on.ask("GET", "/play", table.kira)
    assert status == 200, page
    assert f'<meta name="csrf-token" content="{csrf_of(table.kira)}">' in page and table.kira not in page
    assert 'data-seat="Kira"' in page and f'data-action="{ROLL}"' in page and offered["odds"]
    assert f'<p class="odds">{html.escape(offered["odds"])}</p>' in page
    assert 'data-kind="faces"' in page and "empty: the program rolls" in page
    assert headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in headers["content-security-policy"]
    assert on.ask("GET", "/play")[0] == 403 and on.ask("GET", "/play", "forged-" + "x" * 40)[0] == 403
    assert on.ask("GET", "/play/player.js")[0] == 200


def test_an_action_lands_once_as_the_seats_however_often_it_is_sent(on: Server, table: Seats) -> None:
    before = on.entries()
    status, answer = on.act(table.kira, fields={**CLIMB, "faces": [2, 2, 2]}, key="once-1")
    assert status == 200 and answer["state"] == "recorded" and "Kira rolls climb" in answer["said"], answer
    assert on.entries() == before + 1
    status, answer = on.act(table.kira, fields={**CLIMB, "faces": [2, 2, 2]}, key="once-1")  # a double tap
    assert status == 200 and answer["report"]["repeated"] is True and on.entries() == before + 1
    [row] = [h for h in table.history() if h["entry"] == before + 1]
    assert (row["actor"], row["channel"], row.get("confirmed_by")) == ("seat:Kira", "page", None)


@pytest.mark.parametrize("case", ["another's character", "GM-only", "forged token", "no token", "no CSRF",
                                  "another seat's CSRF", "foreign Origin", "cross-site fetch", "foreign Referer",
                                  "not JSON", "no key", "the same key for other fields"])
def test_each_refusal_appends_nothing(on: Server, table: Seats, case: str) -> None:
    kira, post = table.kira, {"action": ROLL, "fields": CLIMB, "key": "r0"}
    if case == "the same key for other fields":
        assert on.act(kira, key="again")[0] == 200
    before = on.entries()
    if case == "another's character":
        status, answer = on.act(kira, fields={**CLIMB, "pc": "Bo"}, key="r1")
        assert (status, answer["rule"]) == (409, "not-your-character")
    elif case == "GM-only":
        status, answer = on.act(kira, "undo", key="r2")
        assert (status, answer["rule"]) == (409, "gm-only")
    elif case == "forged token":
        status, answer = on.act("forged-" + "x" * 40, key="r3")
        assert (status, answer["rule"]) == (403, "seat-token-wrong")
    elif case == "no token":
        status, _, text = on.ask("POST", "/play/act", None, post)
        answer = json.loads(text)
        assert (status, answer["rule"]) == (401, "seat-token-missing")
    elif case == "no CSRF":
        status, answer = on.act(kira, csrf="", key="r5")
        assert (status, answer["rule"]) == (403, "csrf-wrong")
    elif case == "another seat's CSRF":
        status, answer = on.act(kira, csrf=csrf_of(table.bo), key="r6")
        assert (status, answer["rule"]) == (403, "csrf-wrong")
    elif case == "foreign Origin":
        status, answer = on.act(kira, origin="http://evil.example", key="r7")
        assert (status, answer["rule"]) == (403, "cross-origin")
    elif case in ("cross-site fetch", "foreign Referer"):
        header = {"Sec-Fetch-Site": "cross-site"} if case == "cross-site fetch" else {"Referer": "http://evil.example/"}
        status, _, text = on.ask("POST", "/play/act", kira, post, {"X-CSRF-Token": csrf_of(kira), **header})
        answer = json.loads(text)
        assert (status, answer["rule"]) == (403, "cross-origin")
    elif case == "the same key for other fields":
        status, answer = on.act(kira, fields={**CLIMB, "action": "jump"}, key="again")
        assert status == 409 and "again" in answer["error"], answer
    else:
        body = b"{" if case == "not JSON" else json.dumps({"action": ROLL, "fields": CLIMB}).encode()
        conn = http.client.HTTPConnection("127.0.0.1", on.port, timeout=30)
        conn.request("POST", "/play/act", body=body, headers={"Cookie": f"campaign_seat={kira}",
                                                               "X-CSRF-Token": csrf_of(kira)})
        got = conn.getresponse()
        status, answer = got.status, json.loads(got.read())
        conn.close()
        assert (status, answer["code"]) == (400, 2)
    assert answer["error"] and "\n" not in answer["error"]
    assert on.entries() == before


def test_other_writes_than_an_action_are_refused(on: Server, table: Seats) -> None:
    before, kira = on.entries(), table.kira
    for path in ("/play", "/play/stream", "/join/" + kira, "/"):
        assert on.ask("POST", path, kira, {}, {"X-CSRF-Token": csrf_of(kira)})[0] == 405, path
    assert on.ask("PUT", "/play/act", kira, {}, {"X-CSRF-Token": csrf_of(kira)})[0] == 405
    assert on.entries() == before


def test_two_players_at_once_both_land(on: Server, table: Seats) -> None:
    before = on.entries()
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda seat: on.act(seat, key=f"both-{seat[:6]}"), [table.kira, table.bo]))
    assert [status for status, _ in answers] == [200, 200], answers
    assert on.entries() == before + 2
    assert {h["actor"] for h in table.history()[-2:]} == {"seat:Kira", "seat:Bo"}


def test_too_many_actions_at_once_are_refused_with_429(table: Seats) -> None:
    with Server(table.path, Players("on", limit=RateLimit(rate=0.001, burst=2))) as server:
        before = server.entries()
        statuses = [server.act(table.kira, key=f"fast-{i}")[0] for i in range(3)]
        status, answer = server.act(table.kira, key="fast-3")
        assert statuses == [200, 200, 429] and status == 429 and answer["rule"] == "rate-limited"
        assert server.entries() == before + 2
        assert server.act(table.bo, key="fast-bo")[0] == 200  # per seat: another seat still acts


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


@pytest.mark.parametrize("how", ["revoke", "rotate"])
def test_a_revoked_or_rotated_seat_is_refused_at_once_and_its_open_stream_closes(tmp_path: Path, how: str) -> None:
    table = Seats(tmp_path)
    with Server(table.path, Players("on", check_every=30)) as server:  # the GM's write wakes the stream
        stream = Stream(server, table.kira)
        event, data = stream.next()
        assert event == "play" and "Make an action roll" in data["sections"]["actions"]
        assert "Kira" in data["sections"]["mine"]
        gm = table.gm()
        new = gm.seat_revoke("Kira") if how == "revoke" else gm.seat_rotate("Kira")
        before = server.entries()
        event = stream.next()
        while event is not None and event[0] == "play":  # an update sent before the seat went
            event = stream.next()
        assert event == ("closed", {"error": "This seat's link is no longer valid (revoked or rotated): "
                                             "ask the GM for your current link."})
        assert stream.next() is None
        stream.close()
        assert server.act(table.kira, key="after")[1]["rule"] == "seat-token-wrong"
        assert server.ask("GET", "/play", table.kira)[0] == 403
        assert server.ask("GET", "/play/stream", table.kira)[0] == 403
        assert server.ask("GET", f"/join/{table.kira}")[0] == 403
        assert server.entries() == before
        if how == "rotate":  # the new link is the seat's
            assert server.act(new["token"], key="new-link")[0] == 200


def test_confirm_mode_records_an_accepted_action_and_nothing_of_a_declined_one(table: Seats) -> None:
    with Server(table.path, Players("confirm")) as server:
        before = server.entries()
        status, queued = server.act(table.kira, fields={"action": "sneak", "rating": "D4"}, key="c1")
        assert status == 202 and queued["state"] == "pending", queued
        again = server.act(table.kira, fields={"action": "sneak", "rating": "D4"}, key="c1")[1]
        assert again["id"] == queued["id"]  # the double tap is the same action waiting
        _, declined = server.act(table.bo, fields={"action": "never-happened", "rating": "D4"}, key="c2")
        assert server.act(table.kira, "undo", key="c3")[1]["rule"] == "gm-only"  # checked before it waits
        assert server.act(table.kira, fields={**CLIMB, "pc": "Bo"}, key="c4")[1]["rule"] == "not-your-character"
        assert server.entries() == before
        bearer = {"Authorization": f"Bearer {GM}"}
        status, _, listed = server.ask("GET", "/gm/pending", headers=bearer)
        assert status == 200 and [(i["seat"], i["state"]) for i in json.loads(listed)] == [
            ("Kira", "pending"), ("Bo", "pending")]
        assert server.ask("GET", "/gm/pending")[0] == 401
        assert server.ask("POST", f"/gm/pending/{queued['id']}/accept", table.kira, {},
                          {"X-CSRF-Token": csrf_of(table.kira)})[0] == 401  # a player cannot accept their own
        status, _, accepted = server.ask("POST", f"/gm/pending/{queued['id']}/accept", headers=bearer)
        assert status == 200 and json.loads(accepted)["state"] == "accepted", accepted
        assert server.ask("POST", f"/gm/pending/{queued['id']}/accept", headers=bearer)[0] == 409
        status, _, body = server.ask("POST", f"/gm/pending/{declined['id']}/decline", headers=bearer)
        assert status == 200 and json.loads(body)["state"] == "declined"
        assert server.entries() == before + 1
        history = table.history()
        [row] = [h for h in history if "sneak" in h["line"]]
        assert (row["actor"], row["channel"], row["confirmed_by"]) == ("seat:Kira", "page", "gm")
        assert not [h for h in history if "never-happened" in json.dumps(h)]
        page = server.ask("GET", "/play", table.kira)[2]
        assert "Make an action roll: accepted" in page


def test_the_gm_panel_takes_the_gm_token_once_into_a_cookie_and_answers_with_it(table: Seats) -> None:
    with Server(table.path, Players("confirm")) as server:
        status, headers, body = server.ask("GET", f"/gm?token={GM}")
        assert status == 200 and "url=/gm" in body and GM not in body
        cookie = headers["set-cookie"]
        assert cookie.startswith(f"campaign_gm={GM};") and "HttpOnly" in cookie and "Path=/gm" in cookie
        panel = {"Cookie": f"campaign_gm={GM}"}
        status, _, page = server.ask("GET", "/gm", headers=panel)
        assert status == 200 and f'content="{csrf_of(GM)}"' in page and html.escape("No player's action is waiting.") in page
        assert server.ask("GET", "/gm?token=wrong")[0] == 403 and server.ask("GET", "/gm")[0] == 403
        _, queued = server.act(table.kira, key="panel-1")
        before, path = server.entries(), f"/gm/pending/{queued['id']}/accept"
        origin = {"Origin": f"http://127.0.0.1:{server.port}"}
        assert server.ask("POST", path, headers={**panel, **origin})[0] == 401  # the cookie alone: no CSRF
        assert server.ask("POST", path, headers={**panel, "X-CSRF-Token": csrf_of(GM),
                                                 "Origin": "http://evil.example"})[0] == 401
        assert server.entries() == before
        status, _, body = server.ask("POST", path, headers={**panel, **origin, "X-CSRF-Token": csrf_of(GM)})
        assert status == 200 and json.loads(body)["state"] == "accepted" and server.entries() == before + 1


def test_off_mode_refuses_players_with_one_clear_line(table: Seats) -> None:
    with Server(table.path, Players("off")) as server:
        before = server.entries()
        for path in (f"/join/{table.kira}", "/play", "/play/stream", "/gm"):
            status, headers, body = server.ask("GET", path, table.kira)
            assert status == 403 and body == "This table does not take players' actions (serve --players on).\n"
            assert "set-cookie" not in headers
        assert server.ask("POST", "/play/act", table.kira, {"action": ROLL, "fields": CLIMB, "key": "off-1"},
                          {"X-CSRF-Token": csrf_of(table.kira)})[0] == 405  # no route takes a write
        assert server.entries() == before


def test_beyond_loopback_a_seat_needs_no_read_token(table: Seats) -> None:
    with Server(table.path, Players("on"), token="the-read-token") as server:
        assert server.ask("GET", "/")[0] == 401
        assert server.ask("GET", "/play", table.kira)[0] == 200 and server.ask("GET", f"/join/{table.kira}")[0] == 200
        assert server.act(table.kira, key="shared-1")[0] == 200


def _certificate(folder: Path, name: str) -> tuple[str, str]:
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    return str(cert), str(key)


def _serve(table: Seats, *args: str) -> subprocess.Popen:
    """`campaign serve --port 0 ARGS` in its own process, as the GM starts it."""
    import sys

    from tests.live_server import ROOT, env

    return subprocess.Popen([sys.executable, "-m", "campaign_ledger.cli", "--db", str(table.path), "serve",
                             "--port", "0", *args], cwd=ROOT, env=env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _stop(proc: subprocess.Popen) -> None:
    import signal

    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_serve_over_https_with_a_certificate_sets_a_secure_cookie(table: Seats, tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path, "one")
    proc = _serve(table, "--certfile", cert, "--keyfile", key, "--players", "on", "--json")
    try:
        report = json.loads(proc.stdout.readline())
        root = f"https://127.0.0.1:{report['port']}/"
        assert report["url"] == root and report["players"] == "on"
        assert sorted(report["seats"], key=lambda s: s["seat"]) == [
            {"seat": "Bo", "player": "Ben", "link": f"{root}join/{table.bo}"},
            {"seat": "Kira", "player": "Ana", "link": f"{root}join/{table.kira}"}]
        context = ssl.create_default_context(cafile=cert)
        context.check_hostname = False

        def get(path: str, cookie: str = "") -> tuple[int, dict[str, str], bytes] | None:
            conn = http.client.HTTPSConnection("127.0.0.1", report["port"], context=context, timeout=10)
            try:
                conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
                got = conn.getresponse()
                return got.status, {k.lower(): v for k, v in got.getheaders()}, got.read()
            except OSError:
                return None  # not listening yet
            finally:
                conn.close()
        _until(lambda: proc.poll() is not None or get("/play") is not None, "the HTTPS server")
        status, headers, _ = get(f"/join/{table.kira}") or (0, {}, b"")
        assert status == 200 and "Secure" in headers["set-cookie"] and "HttpOnly" in headers["set-cookie"]
        status, _, page = get("/play", f"campaign_seat={table.kira}") or (0, {}, b"")
        assert status == 200 and b'data-seat="Kira"' in page
    finally:
        _stop(proc)


def test_serve_prints_each_seats_link_and_its_qr_code(table: Seats) -> None:
    proc = _serve(table, "--players", "confirm", "--qr", "--gm-token", GM)
    try:
        lines = []
        while not lines or not lines[-1].startswith("Stop with Ctrl-C"):
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            lines.append(line.rstrip("\n"))
    finally:
        _stop(proc)
    text = "\n".join(lines)
    root = lines[0].split(" at ")[1]
    assert f"Seat Kira (Ana): {root}join/{table.kira}" in lines and f"Seat Bo (Ben): {root}join/{table.bo}" in lines
    assert f"accept or decline them at {root}gm?token={GM}" in text
    from campaign_ledger.seats import qr_text

    assert qr_text(f"{root}join/{table.kira}") in text


def test_serve_refuses_missing_or_mismatched_certificate_files(table: Seats, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from campaign_ledger.cli import cli

    cert, _ = _certificate(tmp_path, "one")
    _, other = _certificate(tmp_path, "two")
    for args, says in ([["--certfile", str(tmp_path / "nope.pem")], "no such file"],
                       [["--keyfile", other], "--keyfile needs --certfile"],
                       [["--certfile", cert, "--keyfile", other], "is not the key of the certificate"],
                       [["--certfile", other], "do not hold a PEM certificate"]):
        result = CliRunner().invoke(cli, ["--db", str(table.path), "serve", "--port", "0", *args])
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and says in lines[0], (args, result.output)


def test_a_pending_action_is_named_by_the_offer_it_answers() -> None:
    """Two offers of one action (a Cohort turn on each Challenge): the GM's panel names the one sent."""
    from campaign_ledger.web.players import offer_label

    def turn(challenge: str) -> dict:
        return {"action": "relics.cohort_turn", "label": f"Lead the Cohort turn on {challenge}",
                "fields": [{"name": "challenge", "kind": "choice", "choices": [challenge]}]}

    offers = [turn("Dogs"), turn("Guards")]
    assert offer_label(offers, "relics.cohort_turn", {"challenge": "Dogs"}) == "Lead the Cohort turn on Dogs"
    assert offer_label(offers, "relics.cohort_turn", {"challenge": "Guards"}) == "Lead the Cohort turn on Guards"
    assert offer_label(offers, "relics.push", {}) == "relics.push"
