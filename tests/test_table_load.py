"""bench/table_load.py runs end to end for a few seconds (issue 38): 8 players and the GM at a real
`serve --players on`, then the record checked by `audit` and the command log's keys. Its last line
has the promised shape and nothing is lost or doubled; no timing is asserted."""
from __future__ import annotations

import re
import subprocess
import sys

from tests.live_server import ROOT, env

LAST = re.compile(r"landed (\d+) refused (\d+) lost (\d+) doubled (\d+) p50 (\d+) ms p99 (\d+) ms")


def test_the_table_load_bench_loses_nothing_and_doubles_nothing() -> None:
    done = subprocess.run([sys.executable, "bench/table_load.py", "--seconds", "3"], cwd=ROOT, env=env(),
                          capture_output=True, text=True, timeout=180)
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr
    shape = LAST.fullmatch(lines[-1])
    assert shape, lines[-1]
    landed, refused, lost, doubled = (int(n) for n in shape.groups()[:4])
    assert (lost, doubled) == (0, 0), done.stdout
    assert landed > 0, done.stdout       # the players did act (a refusal alone proves nothing)
    assert "audit: Clean." in done.stdout and done.returncode == 0, done.stdout + done.stderr
