"""The whole table at once: 8 players on their phones and the GM, playing for 30 s (issue 38).

Run it from the project root:

    python3 bench/table_load.py [--seconds 30] [--players 8] [--seed 1]

It makes a Relics campaign in a temporary folder with PLAYERS PCs, seats each (`seat_add`), starts
`campaign serve --players on --port 0` as its own process on loopback, and then, for SECONDS:

- each player (a thread) joins by its invite link, keeps its cookie and its page's CSRF token,
  follows its /play/stream, and again and again picks one of the actions its page offers at
  random (lead a Cohort turn with Destiny and faces or the program's roll, roll a pool waiting on
  it, place, Push the Limit), fills its fields at random and POSTs it with a new key; one tap in
  ten is a double tap: the same submission sent twice at once, which must record once;
- the GM (the HTTP API under /api/, with the GM token `serve` printed) keeps the table moving:
  opens Challenges, builds Cohort pools that then wait on their leader's roll, plays the
  Challenges' turns and spreads their Stress.

The latency of an action is from its POST (the tap) to the moment the player's own stream
delivers the update that shows it (an event at or past the action's last entry): tap to page
update. Afterwards it checks the record: `campaign audit` (the hash chain, and the read tables
equal to a replay of the whole ledger) and the command log (ledger_commands), by the keys sent:
every submission answered as landed is there exactly once, at the entries its answer gave, and
no refused one is. Its last line is

    landed N refused N lost N doubled N p50 X ms p99 Y ms

(a double tap counts as one landed), and it exits 1 when anything was lost or doubled, a refused
action was recorded, a landed one never reached its page, or the audit is not clean.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
sys.path.insert(0, str(ROOT))  # this tree's campaign_ledger, as the server process (PYTHONPATH) runs it
TYPES = ("Phantom", "Venger", "Scav", "Stallion")
SEEN_DEADLINE = 10.0  # seconds a landed action may take to reach its page before it counts as unseen
DOUBLE_TAP = 0.1      # the share of taps sent twice at once


# --- the campaign and its server ----------------------------------------------------------------

def make(folder: Path, players: int) -> Path:
    """A Relics campaign with `players` seated PCs, a Scenario and two Challenges."""
    from campaign_ledger import new_campaign

    db = folder / "table.db"
    with new_campaign(db, "Table load") as camp:
        for i in range(players):
            camp.pc_add(f"PC{i}", {TYPES[i % 4]: 3, TYPES[(i + 1) % 4]: 2}, TYPES[i % 4])
            camp.seat_add(f"PC{i}", f"Player {i}")
        camp.scenario_start("The long night")
        for n, kind in enumerate(TYPES[:2]):
            camp.challenge_open(f"Opening {n + 1}", threat="Minor", type=kind, rating=4)
    return db


class Server:
    """`campaign serve --players on --port 0` as its own process, for a `with` block."""

    def __init__(self, db: Path) -> None:
        self.db = db

    def __enter__(self) -> "Server":
        self.proc = subprocess.Popen([sys.executable, "-m", "campaign_ledger.cli", "--db", str(self.db), "--json",
                                      "serve", "--port", "0", "--players", "on"], cwd=ROOT, env=ENV,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line:
            raise SystemExit(f"campaign serve did not start: {self.proc.stderr.read() if self.proc.stderr else ''}")
        self.report = json.loads(line)
        self.port = int(self.report["port"])
        self.origin = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 20
        while not self._answers():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise SystemExit("campaign serve never answered")
            time.sleep(0.05)
        return self

    def _answers(self) -> bool:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
            conn.request("GET", "/")
            ok = conn.getresponse().status == 200
            conn.close()
            return ok
        except OSError:
            return False

    def __exit__(self, *_: Any) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe:
                pipe.close()


# --- a player's page, as its forms offer actions --------------------------------------------------

@dataclass
class Form:
    action: str
    inputs: list[dict[str, str]] = field(default_factory=list)  # name, kind, placeholder, required
    choices: dict[str, list[str]] = field(default_factory=dict)


class Forms(HTMLParser):
    """The actions a page's `actions` section offers: one form each, its inputs and selects."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and "data-action" in a:
            self.forms.append(Form(a["data-action"]))
        elif tag in ("input", "select") and self.forms and "data-kind" in a:
            self.forms[-1].inputs.append({"name": a.get("name", ""), "kind": a["data-kind"],
                                          "placeholder": a.get("placeholder", ""), "required": str("required" in a)})
            if tag == "select":
                self.select = a.get("name", "")
                self.forms[-1].choices[self.select] = []
        elif tag == "option" and self.select is not None and a.get("value"):
            self.forms[-1].choices[self.select].append(a["value"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None


def offered(html: str) -> list[Form]:
    parser = Forms()
    parser.feed(html)
    return parser.forms


def filled(form: Form, rng: random.Random) -> dict[str, Any]:
    """Values a player might give: a Destiny now and then, their own faces or the program's roll."""
    values: dict[str, Any] = {}
    destiny = 0
    for given in form.inputs:
        name, kind = given["name"], given["kind"]
        if kind == "choice" and form.choices.get(name) and (given["required"] == "True" or rng.random() < 0.5):
            values[name] = rng.choice(form.choices[name])
        elif kind == "int" and name == "destiny":
            destiny = values[name] = rng.choice((0, 0, 1))
        elif kind == "text":
            values[name] = f"trick {rng.randrange(10**6)}"
    for given in form.inputs:
        count = re.match(r"(\d+) faces", given["placeholder"])
        if given["kind"] == "faces" and count and rng.random() < 0.5:
            extra = destiny if given["name"] == "faces" and form.action.endswith("cohort_turn") else 0
            values[given["name"]] = [rng.randint(1, 6) for _ in range(int(count.group(1)) + extra)]
    return values


# --- one player ---------------------------------------------------------------------------------

@dataclass
class Tally:
    landed: list[tuple[str, list[int]]] = field(default_factory=list)   # key, entries its answer gave
    refused: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    unseen: int = 0
    unanswered: list[str] = field(default_factory=list)
    double_taps: int = 0
    double_mismatch: int = 0
    reasons: dict[str, int] = field(default_factory=dict)


class Player(threading.Thread):
    """One phone: joins by its link, follows its stream, taps what its page offers until `until`."""

    def __init__(self, index: int, server: Server, link: str, until: float, seed: int, tally: Tally,
                 lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.index, self.server, self.until, self.rng = index, server, until, random.Random(seed)
        self.tally, self.lock = tally, lock
        self.path = "/" + link.split("/", 3)[3]
        self.updates: list[tuple[float, int]] = []  # (when, entry) of each update the stream delivered
        self.actions_html = ""
        self.heard = threading.Condition()
        self.sent = 0

    def join_table(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        conn.request("GET", self.path)
        answer = conn.getresponse()
        answer.read()
        cookie = answer.getheader("Set-Cookie") or ""
        self.cookie = cookie.split(";", 1)[0]
        conn.request("GET", "/play", headers={"Cookie": self.cookie})
        page = conn.getresponse().read().decode()
        conn.close()
        found = re.search(r'<meta name="csrf-token" content="([^"]+)">', page)
        if not found:
            raise SystemExit(f"player {self.index}: no CSRF token on the page")
        self.csrf = found.group(1)
        threading.Thread(target=self.follow, daemon=True).start()

    def follow(self) -> None:
        """The page's stream: each `play` event's entry and actions, with when it arrived."""
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=None)
        conn.request("GET", "/play/stream", headers={"Cookie": self.cookie, "Accept": "text/event-stream"})
        answer = conn.getresponse()
        event, data = "", ""
        while True:
            line = answer.fp.readline()
            if not line:
                return
            text = line.decode().rstrip("\r\n")
            if text.startswith("event:"):
                event = text[6:].strip()
            elif text.startswith("data:"):
                data += text[5:].strip()
            elif not text:
                if event == "play" and data:
                    update = json.loads(data)
                    with self.heard:
                        self.updates.append((time.monotonic(), int(update["entry"])))
                        self.actions_html = update["sections"].get("actions", "")
                        self.heard.notify_all()
                event, data = "", ""

    def post(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
        try:
            conn.request("POST", "/play/act", body=json.dumps(body),
                         headers={"Cookie": self.cookie, "X-CSRF-Token": self.csrf, "Origin": self.server.origin,
                                  "Content-Type": "application/json"})
            answer = conn.getresponse()
            return answer.status, json.loads(answer.read() or b"{}")
        finally:
            conn.close()

    def run(self) -> None:
        while time.monotonic() < self.until:
            with self.heard:
                html = self.actions_html
            forms = offered(html)
            if not forms:  # nothing for this player now: until the page changes
                with self.heard:
                    self.heard.wait(timeout=0.5)
                continue
            form = self.rng.choice(forms)
            self.tap(form.action, filled(form, self.rng))
            time.sleep(self.rng.uniform(0.1, 0.4))  # a player's thinking time between two taps

    def tap(self, action: str, fields: dict[str, Any]) -> None:
        self.sent += 1
        body = {"action": action, "fields": fields, "key": f"bench-{self.index}-{self.sent}"}
        double = self.rng.random() < DOUBLE_TAP
        second: dict[str, Any] = {}
        twin = threading.Thread(target=lambda: second.update(zip(("status", "answer"), self.answered(body))))
        started = time.monotonic()
        if double:
            twin.start()
        status, answer = self.answered(body)
        if double:
            twin.join()
        if status == 0 and second.get("status", 0) == 0:  # no answer at all, even after a second try
            with self.lock:
                self.tally.unanswered.append(body["key"])
            return
        self.record(body["key"], status, answer, started, second if double else None)

    def answered(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """The server's answer; a connection that failed is tried once more with the same key, as the
        page's player taps again (status 0: no answer)."""
        for _ in range(2):
            try:
                return self.post(body)
            except (OSError, http.client.HTTPException, ValueError):
                continue
        return 0, {}

    def record(self, key: str, status: int, answer: dict[str, Any], started: float,
               second: dict[str, Any] | None) -> None:
        if second is not None and second.get("status") == 200 and status != 200:
            status, answer = second["status"], second["answer"]  # the twin that landed answers for the tap
        if status != 200:
            with self.lock:
                self.tally.refused.append(key)
                reason = str(answer.get("rule") or answer.get("error", status))[:60]
                self.tally.reasons[reason] = self.tally.reasons.get(reason, 0) + 1
            return
        entries = list(answer["report"]["entries"])
        seen = self.seen_at(entries[-1] if entries else 0, started)
        with self.lock:
            self.tally.landed.append((key, entries))
            if second is not None:
                self.tally.double_taps += 1
                if second.get("status") == 200 and second["answer"]["report"]["entries"] != entries:
                    self.tally.double_mismatch += 1
            if seen is None:
                self.tally.unseen += 1
            else:
                self.tally.latencies.append(seen - started)

    def seen_at(self, entry: int, started: float) -> float | None:
        """When this player's stream first delivered an update at or past `entry`, after the tap."""
        deadline = time.monotonic() + SEEN_DEADLINE
        with self.heard:
            while True:
                for when, shown in self.updates:
                    if shown >= entry and when >= started:
                        return when
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.heard.wait(timeout=left)


# --- the GM ------------------------------------------------------------------------------------

class GM(threading.Thread):
    """The GM keeps the table moving through the HTTP API with the GM token (as a GM's own tool or
    bot would): Challenges open, pools built for a leader (then they wait on that player's roll),
    the Challenges' turns played and their Stress spread."""

    def __init__(self, server: Server, players: int, until: float, seed: int) -> None:
        super().__init__(daemon=True)
        self.server, self.players, self.until, self.rng = server, players, until, random.Random(seed)
        self.writes = self.refused = self.opened = 0
        self.types = sorted({TYPES[(i + j) % 4] for i in range(players) for j in (0, 1)})  # some PC leads each

    def call(self, method: str, **arguments: Any) -> Any:
        """One library call at /api/calls/<method>; a refusal raises Refused."""
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
        try:
            conn.request("POST", f"/api/calls/{method}", body=json.dumps(arguments),
                         headers={"Authorization": f"Bearer {self.server.report['gm_token']}",
                                  "Content-Type": "application/json"})
            answer = conn.getresponse()
            body = json.loads(answer.read() or b"null")
        finally:
            conn.close()
        if answer.status != 200:
            raise Refused(str(body))
        return body

    def write(self, method: str, **arguments: Any) -> None:
        self.call(method, **arguments)
        self.writes += 1

    def run(self) -> None:
        pcs = [f"PC{i}" for i in range(self.players)]
        while time.monotonic() < self.until:
            try:
                self.step(pcs)
            except (Refused, OSError, http.client.HTTPException):  # a player moved first: the GM looks again
                self.refused += 1
            time.sleep(0.2)  # the GM's own pace at the table

    def step(self, pcs: list[str]) -> None:
        for ch in self.call("status")["challenges"]:
            if ch["phase"] == "challenge":
                self.write("challenge_turn", challenge=ch["name"], roll=True, best=True)
            elif ch["phase"] == "challenge-place":
                self.write("place", challenge=ch["name"], best=True)
            elif ch["phase"] == "challenge-stress":
                self.write("stress", challenge=ch["name"], spread={ch["leader"]: ch["pending"]["stress"]})
        status = self.call("status")
        if len(status["challenges"]) < 2:
            self.opened += 1
            self.write("challenge_open", name=f"Challenge {self.opened}", threat="Minor",
                       type=self.rng.choice(self.types), rating=self.rng.choice((3, 4, 5)))
        elif status["turn"] is None and self.rng.random() < 0.5:
            ch = self.rng.choice(status["challenges"])
            if ch["phase"] == "cohort":
                leader = ch["leader"] or self.rng.choice(
                    [p for i, p in enumerate(pcs) if ch["type"] in (TYPES[i % 4], TYPES[(i + 1) % 4])])
                self.write("cohort_turn", challenge=ch["name"], leader=leader)  # the pool waits on its leader's roll


class Refused(Exception):
    """The API refused one of the GM's calls (a player got there first)."""


# --- the record, afterwards -------------------------------------------------------------------------

def audited(db: Path) -> tuple[bool, str]:
    done = subprocess.run([sys.executable, "-m", "campaign_ledger.cli", "--db", str(db), "audit"], cwd=ROOT,
                          env=ENV, capture_output=True, text=True, timeout=300)
    return done.returncode == 0, (done.stdout + done.stderr).strip().splitlines()[-1]


def logged(db: Path) -> dict[str, list[tuple[int, int]]]:
    """Each key the players sent, with the command-log rows (first, last entry) that carry it."""
    found: dict[str, list[tuple[int, int]]] = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT json_extract(detail, '$.key'), first_entry, last_entry FROM ledger_commands "
                            "WHERE json_extract(detail, '$.key') LIKE 'bench-%'").fetchall()
    conn.close()
    for key, first, last in rows:
        found.setdefault(key, []).append((first, last))
    return found


def checked(tally: Tally, log: dict[str, list[tuple[int, int]]]) -> tuple[int, int, int]:
    """Lost (answered landed, not in the log at its entries), doubled (a key logged twice, or a
    double tap answered with two different entries) and refused-yet-recorded."""
    lost = sum(1 for key, entries in tally.landed
               if len(log.get(key, [])) < 1 or (entries and log[key][0][0] != entries[0]))
    doubled = sum(1 for rows in log.values() if len(rows) > 1) + tally.double_mismatch
    phantom = sum(1 for key in tally.refused if key in log)
    landed_keys = {key for key, _ in tally.landed}
    phantom += sum(1 for key in log if key not in landed_keys and key not in tally.refused
                   and key not in tally.unanswered)
    return lost, doubled, phantom


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--players", type=int, default=8, choices=range(1, 9))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = make(Path(folder), args.players)
        tally, lock = Tally(), threading.Lock()
        with Server(db) as server:
            links = [s["link"] for s in server.report["seats"]]
            until = time.monotonic() + args.seconds
            players = [Player(i, server, link, until, args.seed * 100 + i, tally, lock) for i, link in enumerate(links)]
            for player in players:
                player.join_table()
            gm = GM(server, args.players, until, args.seed)
            for thread in (*players, gm):
                thread.start()
            for thread in (*players, gm):
                thread.join()
        clean, verdict = audited(db)
        lost, doubled, phantom = checked(tally, logged(db))
    print(f"players {len(links)}, {args.seconds:g} s; the GM wrote {gm.writes} times ({gm.refused} refused)")
    print("refusals by reason: " + (", ".join(f"{r} {n}" for r, n in sorted(tally.reasons.items())) or "none"))
    print(f"double taps {tally.double_taps} (each recorded once); landed but never on the page {tally.unseen}; "
          f"refused yet recorded {phantom}; never answered {len(tally.unanswered)}")
    if tally.latencies:
        print(f"tap to page update: mean {statistics.mean(tally.latencies) * 1000:.0f} ms, "
              f"max {max(tally.latencies) * 1000:.0f} ms")
    print(f"audit: {verdict}")
    print(f"landed {len(tally.landed)} refused {len(tally.refused)} lost {lost} doubled {doubled} "
          f"p50 {percentile(tally.latencies, 0.5) * 1000:.0f} ms p99 {percentile(tally.latencies, 0.99) * 1000:.0f} ms")
    return 0 if clean and not (lost or doubled or phantom or tally.unseen or tally.unanswered) else 1


if __name__ == "__main__":
    sys.exit(main())
