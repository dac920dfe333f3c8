"""`campaign serve` as the players meet it: a real server process on a free port, and a reader of
its event stream, for tests/test_live*.py."""
from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 20.0


def env() -> dict[str, str]:
    """This tree first on the path, in every process a test starts."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def campaign(db: Path, *args: str) -> subprocess.CompletedProcess:
    """A command run by the GM in another window: its own process."""
    done = subprocess.run([sys.executable, "-m", "campaign_ledger.cli", "--db", str(db), *args], cwd=ROOT, env=env(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


class Served:
    """`campaign --db DB serve --port 0 ARGS` for the length of a `with` block."""

    def __init__(self, db: Path, *args: str) -> None:
        self.db, self.args = db, args

    def __enter__(self) -> "Served":
        self.proc = subprocess.Popen([sys.executable, "-m", "campaign_ledger.cli", "--db", str(self.db), "--json", "serve",
                                      "--port", "0", *self.args], cwd=ROOT, env=env(), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        self.report = json.loads(line)
        self.url = self.report["url"]
        parts = urlsplit(self.url)
        self.port = parts.port
        self.token = dict(p.split("=", 1) for p in parts.query.split("&") if p).get("token")
        deadline = time.monotonic() + DEADLINE
        while True:  # ready once the page answers (the watcher has built the first view)
            try:
                if self.get("/")[0] == 200:
                    return self
            except OSError:
                pass
            assert time.monotonic() < deadline and self.proc.poll() is None, self.proc.stderr.read()
            time.sleep(0.05)

    def __exit__(self, *_: Any) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=15)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.stderr = self.proc.stderr.read()
            self.returncode = self.proc.returncode
            self.proc.stdout.close()
            self.proc.stderr.close()

    def path(self, path: str, token: bool = True) -> str:
        return path + (f"?token={self.token}" if token and self.token else "")

    def get(self, path: str, method: str = "GET", token: bool = True,
            headers: dict[str, str] | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request(method, self.path(path, token), headers=headers or {})
            answer = conn.getresponse()
            return answer.status, answer.read().decode()
        finally:
            conn.close()

    def stream(self, last_event: str | None = None) -> "Stream":
        return Stream(self, last_event)


class Stream:
    """One open /stream: read its events one by one."""

    def __init__(self, served: Served, last_event: str | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        headers = {"Accept": "text/event-stream", **({"Last-Event-ID": last_event} if last_event else {})}
        self.conn.request("GET", served.path("/stream"), headers=headers)
        self.answer = self.conn.getresponse()
        assert self.answer.status == 200, self.answer.status

    def next(self) -> dict[str, Any]:
        """The next `table` event: {"id", "entry", "sections"} (keep-alive comments skipped)."""
        fields: dict[str, str] = {}
        while True:
            line = self.answer.fp.readline().decode()
            assert line, "the stream ended"
            line = line.rstrip("\r\n")
            if not line:
                if fields.get("event") == "table":
                    return {"id": fields["id"], **json.loads(fields["data"])}
                fields = {}
                continue
            if line.startswith(":"):
                continue
            key, _, value = line.partition(":")
            fields[key] = fields.get(key, "") + value.lstrip(" ") if key == "data" else value.lstrip(" ")

    def close(self) -> None:
        self.conn.close()
