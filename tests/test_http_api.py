"""The HTTP JSON API of `campaign serve` (issue 37), over a real uvicorn on loopback: every write
route refuses a missing, wrong or read-only token and appends nothing; a refused rule is the CLI's
rule; a write through HTTP is in the CLI's history; reads answer what the CLI's --json prints; the
OpenAPI document validates and lists every call of the handle, read or write by one rule."""
from __future__ import annotations

import http.client
import json
import os
from pathlib import Path
from typing import Any, Iterator, Sequence

import pytest

from campaign_ledger.shapes import Report
from campaign_ledger.web.openapi import GM_ONLY
from tests.conftest import Table, heist
from tests.live_server import Served

TURN = {"challenge": "Guards", "leader": "Kira", "faces": [2, 2, 2, 2, 2]}  # Kira's lead 3d6 + Bo's assist 2d6


class Answer:
    def __init__(self, status: int, headers: dict[str, str], body: str) -> None:
        self.status, self.headers, self.body = status, headers, body

    @property
    def json(self) -> Any:
        return json.loads(self.body)


def ask(served: Served, method: str, path: str, body: Any = None, bearer: str | None = None,
        raw: bytes | None = None, host: str | None = None) -> Answer:
    """One request on loopback; `bearer` goes in the Authorization header, never the URL."""
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    try:
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {bearer}"} if bearer else {}),
                   **({"Host": host} if host else {})}
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers=headers)
        got = conn.getresponse()
        return Answer(got.status, {k.lower(): v for k, v in got.getheaders()}, got.read().decode())
    finally:
        conn.close()


def entries(t: Table) -> int:
    return t.entries()


@pytest.fixture(scope="module")
def loopback(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Table]]:
    t = heist(tmp_path_factory.mktemp("loopback"))
    with Served(Path(t.path)) as served:
        yield served, t


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Table]]:
    t = heist(tmp_path_factory.mktemp("shared"))
    with Served(Path(t.path), "--host", "0.0.0.0") as served:
        yield served, t


def _document(served: Served, token: str | None = None) -> dict[str, Any]:
    answer = ask(served, "GET", "/api/openapi.json" + (f"?token={token}" if token else ""))
    assert answer.status == 200, answer.body
    return answer.json


def _writes(document: dict[str, Any]) -> list[str]:
    return sorted(path for path, item in document["paths"].items() if "post" in item and "get" not in item)


def _assert_error(answer: Answer, status: int, code: int, rule: str | None) -> None:
    assert answer.status == status, (answer.status, answer.body)
    assert answer.headers["content-type"] == "application/json"
    assert answer.json == {"error": answer.json["error"], "code": code, "rule": rule}, answer.json
    assert answer.json["error"] and "\n" not in answer.json["error"]


# --- tokens ------------------------------------------------------------------------------------------

def test_serve_makes_and_prints_a_gm_token_and_the_api_address(loopback) -> None:
    served, _ = loopback
    assert len(served.report["gm_token"]) >= 24 and served.report["gm_token"] not in served.url
    assert served.report["api"] == f"http://127.0.0.1:{served.port}/api/"


def test_on_loopback_every_write_route_refuses_a_missing_or_wrong_gm_token_and_appends_nothing(loopback) -> None:
    served, t = loopback
    writes = _writes(_document(served))
    assert {"/api/calls/cohort_turn", "/api/calls/note", "/api/calls/undo"} <= set(writes)
    before = entries(t)
    gm = served.report["gm_token"]
    wrong = ("y" if gm[0] == "x" else "x") + gm[1:]  # one character off (an "x" in front was the token itself 1 in 64 runs)
    for path in writes:
        for body in ({}, TURN if path.endswith("cohort_turn") else {"text": "no"} if path.endswith("note") else {}):
            _assert_error(ask(served, "POST", path, body), 401, 1, "token-missing")
            _assert_error(ask(served, "POST", path, body, bearer=wrong), 401, 1, "token-wrong")
            _assert_error(ask(served, "POST", path, body, bearer=gm[:-1]), 401, 1, "token-wrong")
            in_url = ask(served, "POST", f"{path}?token={gm}", body)       # the URL is no place for it
            _assert_error(in_url, 401, 1, "token-missing")
            assert "never in the URL" in in_url.json["error"]
    assert entries(t) == before
    assert ask(served, "POST", "/api/calls/note", {"text": "yes"}, bearer=gm).status == 200   # the token, not the body
    assert entries(t) == before + 1


def test_beyond_loopback_no_token_is_a_bare_401_and_the_read_token_cannot_write(shared) -> None:
    served, t = shared
    read, gm = served.token, served.report["gm_token"]
    writes = _writes(_document(served, read))
    before = entries(t)
    for path in writes:
        body = TURN if path.endswith("cohort_turn") else {}
        for answer in (ask(served, "POST", path, body), ask(served, "POST", path, body, bearer="wrong-token-1234567"),
                       ask(served, "POST", f"{path}?token=wrong", body), ask(served, "POST", f"{path}?token={gm}", body)):
            assert (answer.status, answer.body) == (401, ""), path
        _assert_error(ask(served, "POST", path, body, bearer=read), 403, 1, "token-read-only")
        _assert_error(ask(served, "POST", f"{path}?token={read}", body), 401, 1, "token-missing")
    assert entries(t) == before
    assert (ask(served, "GET", "/api/calls/pools").status, ask(served, "GET", "/api/openapi.json").body) == (401, "")


def test_beyond_loopback_the_read_token_reads_the_api_only_when_the_gm_data_is_shown(shared, tmp_path) -> None:
    served, t = shared
    hidden = ask(served, "GET", f"/api/calls/history?token={served.token}")
    _assert_error(hidden, 403, 1, "gm-data-hidden")
    _assert_error(ask(served, "GET", "/api/calls/history", bearer=served.token), 403, 1, "gm-data-hidden")
    mine = ask(served, "GET", "/api/calls/pools", bearer=served.report["gm_token"])
    assert mine.status == 200 and mine.json == t.json("pools")
    shown = heist(tmp_path)
    shown("note", "the vault has a second door", "--gm-only")
    with Served(Path(shown.path), "--host", "0.0.0.0", "--show-gm") as open_table:
        answer = ask(open_table, "GET", f"/api/calls/history?token={open_table.token}")
        assert answer.status == 200 and answer.json == shown.json("history")
        _assert_error(ask(open_table, "POST", "/api/calls/note", {"text": "x"}, bearer=open_table.token),
                      403, 1, "token-read-only")


def test_on_loopback_the_api_answers_only_requests_addressed_to_this_computer(loopback) -> None:
    """A page whose own name was pointed at 127.0.0.1 (DNS rebinding) sends its name as the Host."""
    served, t = loopback
    _assert_error(ask(served, "GET", "/api/calls/history", host="evil.example"), 403, 1, "host-not-loopback")
    _assert_error(ask(served, "GET", "/api/calls/pools", host=f"evil.example:{served.port}"), 403, 1,
                  "host-not-loopback")
    for host in (f"localhost:{served.port}", f"127.0.0.1:{served.port}", f"[::1]:{served.port}", "localhost"):
        assert ask(served, "GET", "/api/calls/pools", host=host).json == t.json("pools"), host


def test_writes_sent_at_once_are_each_recorded_once(loopback) -> None:
    """The server's one handle runs each request in a worker thread (each keeping the campaign open);
    the file's lock orders the writes."""
    from concurrent.futures import ThreadPoolExecutor

    served, t = loopback
    before = entries(t)
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda n: ask(served, "POST", "/api/calls/note", {"text": f"at once {n}"},
                                              bearer=served.report["gm_token"]), range(6)))
    assert [a.status for a in answers] == [200] * 6, [a.body for a in answers]
    recorded = sorted(e for a in answers for e in a.json["entries"])
    assert recorded == list(range(before + 1, before + 7)) and entries(t) == before + 6
    assert t("audit").exit_code == 0


def test_a_short_gm_token_is_refused_in_one_line(tmp_path) -> None:
    t = heist(tmp_path)
    line = t.refused("serve", "--port", "0", "--gm-token", "short")
    assert "at least 16 characters" in line
    same = "x" * 20  # the read token travels in the table's URL: it must not write
    line = t.refused("serve", "--host", "0.0.0.0", "--port", "0", "--token", same, "--gm-token", same)
    assert "must not be the read token" in line


# --- the same contract as the CLI -------------------------------------------------------------------

def test_a_write_through_http_is_in_the_clis_history_and_its_reads(tmp_path) -> None:
    t = heist(tmp_path)
    with Served(Path(t.path)) as served:
        gm = served.report["gm_token"]
        answer = ask(served, "POST", "/api/calls/cohort_turn", {**TURN, "key": "http-turn-1"}, bearer=gm)
        assert answer.status == 200, answer.body
        report = answer.json
        assert report["key"] == "http-turn-1" and report["entries"]
        history = t.json("history")
        assert [h for h in history if h["entry"] in report["entries"]] == report["history"]
        again = ask(served, "POST", "/api/calls/cohort_turn", {**TURN, "key": "http-turn-1"}, bearer=gm)
        assert again.json["repeated"] is True and again.json["entries"] == report["entries"]  # a retry appends nothing
        assert t.json("history") == history
        challenge = ask(served, "POST", "/api/calls/challenge_turn", {"challenge": "Guards", "faces": [2, 2, 2, 2]},
                        bearer=gm)
        assert challenge.status == 200, challenge.body
        assert t.json("history")[-len(challenge.json["history"]):] == challenge.json["history"]
        assert ask(served, "GET", "/api/calls/pools").json == t.json("pools")
        assert ask(served, "GET", "/api/calls/sheet?name=Kira").json == t.json("sheet", "Kira")
        assert ask(served, "GET", "/api/calls/undo_list?limit=3").json == t.json("undo", "--list", "--limit", "3")
        assert ask(served, "GET", "/api/calls/sheet").json == t.json("sheet")


@pytest.mark.parametrize("body, args", [
    ({"challenge": "Guards", "leader": "Nobody", "faces": [1, 2, 3]},
     ("cohort-turn", "Guards", "--leader", "Nobody", "--faces", "1,2,3")),
    ({"challenge": "Nowhere", "leader": "Kira"}, ("cohort-turn", "Nowhere", "--leader", "Kira")),
    ({"name": "Kira", "expertise": {"Phantom": 2}, "primary": "Phantom"},
     ("pc", "add", "Kira", "--expertise", "Phantom=2", "--primary", "Phantom")),
    ({"name": "Bo"}, ("push", "Bo")),
])
def test_a_refused_rule_is_the_clis_rule_and_appends_nothing(loopback, body: dict, args: Sequence[str]) -> None:
    served, t = loopback
    method = "/api/calls/" + ("push" if args[0] == "push" else "pc_add" if args[0] == "pc" else "cohort_turn")
    before = entries(t)
    answer = ask(served, "POST", method, body, bearer=served.report["gm_token"])
    cli = json.loads(t(*args, "--json", ok=False).stdout)
    assert cli["code"] == 1 and cli["rule"]
    _assert_error(answer, 409, 1, cli["rule"])
    assert answer.json == cli
    assert entries(t) == before


def test_reads_take_their_arguments_from_the_query_or_a_json_body(loopback) -> None:
    served, t = loopback
    t("note", "a second note", "--tag", "clue")
    cli = t.json("history", "--limit", "2", "--kind", "notes")
    assert cli and ask(served, "GET", "/api/calls/history?limit=2&kinds=notes").json == cli
    assert ask(served, "POST", "/api/calls/history", {"limit": 2, "kinds": ["notes"]}).json == cli
    assert ask(served, "GET", "/api/calls/history?tags=clue").json == t.json("history", "--tag", "clue")
    assert ask(served, "GET", "/api/calls/sheet?name=Kira&at=3").json == t.json("sheet", "Kira", "--at", "3")
    assert ask(served, "GET", "/api/calls/ruleset").json == "relics"


@pytest.mark.parametrize("method, path, body, raw, status", [
    ("POST", "/api/calls/note", None, b"{not json", 400),
    ("POST", "/api/calls/note", None, b"[1, 2]", 400),
    ("POST", "/api/calls/history", None, b"[" * 200_000, 400),  # nested past the parser's depth (was a 500)
    ("POST", "/api/calls/note", {"text": 3}, None, 400),
    ("POST", "/api/calls/note", {}, None, 400),
    ("POST", "/api/calls/note", {"text": "x", "colour": "red"}, None, 400),
    ("POST", "/api/calls/cohort_turn", {**TURN, "faces": ["one"]}, None, 400),
    ("POST", "/api/calls/cohort_turn", {**TURN, "destiny": True}, None, 400),
    ("POST", "/api/calls/note", None, b'{"text": "' + b"x" * (1 << 20) + b'"}', 413),
    ("GET", "/api/calls/note?text=x", None, None, 405),
    ("PUT", "/api/calls/pools", {}, None, 405),
    ("GET", "/api/calls/no_such_call", None, None, 404),
    ("GET", "/api/elsewhere", None, None, 404),
    ("GET", "/api/calls/history?limit=many", None, None, 400),
    ("GET", "/api/calls/history?limit=1&limit=2", None, None, 400),
])
def test_a_malformed_request_is_refused_as_json_code_2_and_appends_nothing(loopback, method, path, body, raw,
                                                                          status) -> None:
    served, t = loopback
    before = entries(t)
    answer = ask(served, method, path, body, bearer=served.report["gm_token"], raw=raw)
    _assert_error(answer, status, 2, None)
    if status == 405:
        assert answer.headers["allow"] in ("POST", "GET, POST")
    assert entries(t) == before


def test_a_library_refusal_that_is_malformed_is_400_with_the_clis_words(loopback) -> None:
    served, t = loopback
    answer = ask(served, "GET", "/api/calls/history?limit=0")
    cli = json.loads(t("history", "--limit", "0", "--json", ok=False).stdout)
    _assert_error(answer, 400, 2, None)
    assert answer.json == cli  # the same words, code and rule as the CLI's --json refusal


def test_the_page_still_has_no_route_that_writes(loopback) -> None:
    served, _ = loopback
    for path in ("/", "/stream", "/static/live.js", "/anything"):
        assert ask(served, "POST", path, {}, bearer=served.report["gm_token"]).status == 405, path


# --- the OpenAPI document ---------------------------------------------------------------------------

def test_the_openapi_document_validates_and_lists_every_call_of_the_handle(loopback) -> None:
    import inspect

    from openapi_spec_validator import validate

    from campaign_ledger.campaign import Campaign

    served, _ = loopback
    document = _document(served)
    validate(document)
    assert document["openapi"].startswith("3.1")
    methods = {name for name, f in inspect.getmembers(Campaign, inspect.isfunction) if not name.startswith("_")}
    served_calls = {path.rsplit("/", 1)[1] for path in document["paths"] if path.startswith("/api/calls/")}
    # not served: a file on the server (a roster), a callback (history handed over line by line), and
    # odds, whose options are the ruleset's own (**values); every other call is
    assert methods - served_calls == {"roster_load", "history_each", "odds", "close", "demo", "acting"}
    assert served_calls <= methods and {"undo", "export", "rebuild"} <= served_calls
    methods = served_calls
    for name in methods:
        item = document["paths"][f"/api/calls/{name}"]
        write = "key" in inspect.signature(getattr(Campaign, name)).parameters or name in GM_ONLY
        assert set(item) == ({"post"} if write else {"get", "post"}), name
        assert item["post"]["summary"] and item["post"]["description"] == inspect.getdoc(getattr(Campaign, name))
    cohort = document["paths"]["/api/calls/cohort_turn"]["post"]
    arguments = cohort["requestBody"]["content"]["application/json"]["schema"]
    assert arguments["required"] == ["challenge"] and arguments["properties"]["faces"] == \
        {"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]}
    assert cohort["security"] == [{"gmToken": []}]
    assert cohort["responses"]["200"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Report"}


def test_a_method_added_to_a_mixin_is_a_route_with_no_edit_and_a_file_argument_is_not_served() -> None:
    """The rules of web/openapi.py on a handle of its own: `key` makes a write; a required argument
    that names a file on the server keeps the method off HTTP, an optional one is left at its default."""
    from campaign_ledger.campaign import Campaign
    from campaign_ledger.web import openapi

    class Later(Campaign):
        def tally(self, what: str, *, times: int = 1) -> list[dict[str, Any]]:
            """Count a thing (`campaign tally`)."""
            return []

        def mark(self, what: str, *, key: str | None = None) -> Report:
            """Mark a thing (`campaign mark`)."""
            return {}

        def save_to(self, to: os.PathLike[str] | str) -> None:
            """Write a file (`campaign save`)."""

        def export(self, *, output: str | None = None) -> str:
            """Export (`campaign export`)."""
            return ""

    calls, _ = openapi.served(Later)
    assert calls["tally"].write is False and calls["tally"].required == ("what",)
    assert calls["mark"].write is True and calls["mark"].arguments["key"] == {"anyOf": [{"type": "string"},
                                                                                          {"type": "null"}]}
    assert "save_to" not in calls and "output" not in calls["export"].arguments
    from openapi_spec_validator import validate

    validate(openapi.document(Later, "0"))
