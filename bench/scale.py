"""Every whole-ledger operation on long campaigns, each beside its floor measured in the same run.

Run it from the project root:

    python3 bench/scale.py                 # 10,000 and 100,000 entries
    python3 bench/scale.py --max 10000     # a short run
    python3 bench/scale.py --max 1000000   # and 1,000,000 (synthesising it took 61 min here the first time)

Campaigns are synthesised through the application's own commands (bench/latency.py's `build`:
a Relics campaign of null rounds on Challenge after Challenge, entered faces only) and cached
between runs outside git, in ~/.cache/campaign-ledger-bench (or $CAMPAIGN_BENCH_CACHE); each
measurement works on a scratch copy. Every figure is a whole `campaign` process (start-up
included), timed with its peak resident memory (wait4). The floors:

- rebuild, audit: a process that reads every stored event and maps it to its domain event with
  eventsourcing's own mapper (the least any whole-ledger derivation can do);
- import: a process that reads the JSON Lines file, decodes every line and inserts the same rows
  into a fresh SQLite file in one transaction, plus the mapper's floor above (an import checks the
  rows it inserts and then derives the read tables from every event);
- export: a process that reads every stored event, decodes its JSON and writes one line each;
- a turn, replay of an early round and of the latest (`replay` alone), `sheet --at` an early
  entry, and replay of the early round again once a later round was undone: the same command on
  a 1,000-entry campaign (they should not grow with the campaign);
- `undo --dry-run` and `undo --list` (the latest unit, the 20 newest): the same on a 100-entry
  campaign, the median of UNDO_RUNS runs each (they read the ledger from its newest entry back).

The last line is `ratio: X`, the worst operation's ratio to its floor at the largest size run.
An operation that runs longer than --timeout seconds is stopped and shown as `>T`.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class TimedOut(Exception):
    """The operation ran past --timeout."""


# Every measured process is started by this small launcher, itself started before the ledger is
# imported here: a child's peak memory (wait4's ru_maxrss) counts what its parent held when it forked,
# so a child of this process (40 MiB with the ledger loaded) could never show less than that.
LAUNCHER = """
import json, os, subprocess, sys, tempfile, time
for line in sys.stdin:
    args, timeout, cpu = json.loads(line)
    start, errors = time.perf_counter(), tempfile.TemporaryFile()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=errors)
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - start > timeout:
            process.kill()
            os.wait4(process.pid, 0)
            break
        time.sleep(0.01)
    seconds = time.perf_counter() - start
    errors.seek(0)
    print(json.dumps({"timed_out": not pid, "code": pid and os.waitstatus_to_exitcode(status),
                      "seconds": usage.ru_utime + usage.ru_stime if cpu and pid else seconds,
                      "peak": usage.ru_maxrss / 1024 if pid else 0, "errors": errors.read().decode()}), flush=True)
"""
_launcher = subprocess.Popen([sys.executable, "-c", LAUNCHER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

from latency import build, campaign_command, entries, one_round  # noqa: E402

SMALL = 1_000
CACHE = os.environ.get("CAMPAIGN_BENCH_CACHE", os.path.expanduser("~/.cache/campaign-ledger-bench"))
EARLY_ROUND = "Build 1:2"     # the second round of the first Challenge: every later entry follows it
EARLY_ENTRY = "20"            # `sheet --at` this entry
TURNS = 3                     # timed turns per campaign (median), after one warm-up
UNDO_FLOOR = 100              # entries of the campaign whose undo is the floor of undo at every size
UNDO_RUNS = 5                 # runs of each undo measured (median): a fraction of a second each

FLOOR_MAPPER = """
import sys
from campaign_ledger.ledger.application import open_ledger
app = open_ledger(sys.argv[1])
start, count = 0, 0
while batch := app.recorder.select_notifications(start, 2000, inclusive_of_start=False):
    for n in batch:
        app.mapper.to_domain_event(n)
    count += len(batch)
    start = batch[-1].id
print(count)
"""
FLOOR_EXPORT = """
import json, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
with open(sys.argv[2], "w") as out:
    for rowid, topic, state in conn.execute("SELECT rowid, topic, state FROM stored_events ORDER BY rowid"):
        out.write(json.dumps({"entry": rowid, "type": topic, "data": json.loads(state)}) + "\\n")
"""
FLOOR_IMPORT = """
import json, sqlite3, sys
conn = sqlite3.connect(sys.argv[2], isolation_level=None)
conn.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, originator_id TEXT, version INTEGER, topic TEXT, state BLOB)")
conn.execute("BEGIN")
with open(sys.argv[1]) as lines:
    for line in lines:
        row = json.loads(line)
        if "entry" in row and "data" in row:
            conn.execute("INSERT INTO rows VALUES (?, ?, ?, ?, ?)", (row["entry"], row.get("aggregate"), row.get("version"),
                         row.get("type"), json.dumps(row["data"]).encode()))
conn.execute("COMMIT")
"""


def run(args: list[str], timeout: float, cpu: bool = False) -> tuple[float, float]:
    """Seconds (wall clock, or with `cpu` the process's own user + system time) and peak resident
    memory (MiB) of one whole process (wait4 gives the child's own)."""
    assert _launcher.stdin is not None and _launcher.stdout is not None
    _launcher.stdin.write(json.dumps([args, timeout, cpu]) + "\n")
    _launcher.stdin.flush()
    done = json.loads(_launcher.stdout.readline())
    if done["timed_out"]:
        raise TimedOut()
    if done["code"] != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done['errors'].strip()}")
    return done["seconds"], done["peak"]


def cached(size: int) -> str:
    """The campaign of about `size` entries, built once and kept in the cache."""
    source = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "latency.py"), "rb").read()
    key = hashlib.sha256(source).hexdigest()[:12]
    path = os.path.join(CACHE, f"relics-{size}-{key}.db")
    if not os.path.exists(path):
        os.makedirs(CACHE, exist_ok=True)
        began = time.perf_counter()
        partial = path + ".building"
        for leftover in (partial, partial + "-wal", partial + "-shm"):
            if os.path.exists(leftover):
                os.remove(leftover)
        build(partial, size)
        _checkpoint(partial)
        os.replace(partial, path)
        for leftover in (partial + "-wal", partial + "-shm"):  # the partial's empty log, now orphaned
            if os.path.exists(leftover):
                os.remove(leftover)
        print(f"# built {entries(path)} entries in {time.perf_counter() - began:.0f} s -> {path}", flush=True)
    return _stamped(path)


def _checkpoint(path: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _stamped(path: str) -> str:
    """Stamped as a campaign file, as every file the CLI has opened is (the build writes through the
    application, which does not stamp): an unstamped file has its tables checked, which imports
    every ruleset, and is stamped by the first command, so an unstamped copy measures a path only a
    campaign from before the stamp takes, once."""
    from campaign_ledger.ledger import campaign_file

    conn = sqlite3.connect(path)
    try:
        campaign_file.stamp(conn)
        conn.commit()
    finally:
        conn.close()
    return path


def command() -> list[str]:
    """The `campaign` script installed beside this Python, else latency.py's (the first on PATH): a
    version manager's shim found first on PATH (pyenv's is a shell script) adds its own start-up,
    0.05 s CPU here, to every figure, and none to a floor, which this Python runs directly."""
    beside = os.path.join(os.path.dirname(sys.executable), "campaign")
    return [beside] if os.access(beside, os.X_OK) else campaign_command()


def copy(path: str, tmp: str, name: str) -> str:
    target = os.path.join(tmp, name)
    shutil.copyfile(path, target)
    return target


class Bench:
    """One run: the figures of every operation at every size."""

    def __init__(self, tmp: str, timeout: float, cpu: bool = False) -> None:
        self.tmp, self.timeout, self.cmd, self.cpu = tmp, timeout, command(), cpu
        self.rows: list[tuple[int, str, float | None, float | None, float, float | None]] = []
        self.small: dict[str, float] = {}

    def time(self, args: list[str]) -> tuple[float | None, float]:
        try:
            return run(args, self.timeout, self.cpu)
        except TimedOut:
            return None, 0.0

    def campaign(self, path: str, *args: str) -> tuple[float | None, float]:
        return self.time([*self.cmd, "--db", path, *args])

    def python(self, code: str, *args: str) -> float:
        seconds, _ = self.time([sys.executable, "-c", code, *args])
        return seconds if seconds is not None else float("nan")

    def flat(self, source: str) -> dict[str, tuple[float | None, float]]:
        """The operations that must not grow with the campaign: a turn, an early replay, `sheet --at`."""
        figures = {}
        work = copy(source, self.tmp, "flat.db")
        self.campaign(work, "pools")  # once, untimed: the cached file's migrations and first catch-up,
        # which a campaign file in use had long ago (at a million entries, indexes on the command log)
        figures["replay early round"] = self.campaign(work, "replay", EARLY_ROUND)
        figures["replay latest round"] = self.campaign(work, "replay")  # `replay` alone: the newest round
        figures["sheet --at early"] = self.campaign(work, "sheet", "--at", EARLY_ENTRY)
        one_round(self.cmd, work, 0)  # warm-up
        turns = [one_round(self.cmd, work, i) for i in range(1, TURNS + 1)]
        figures["turn"] = (statistics.median(turns), 0.0)
        self.campaign(work, "undo", "--yes")  # untimed: the last turn's round taken back
        figures["replay after an undo"] = self.campaign(work, "replay", EARLY_ROUND)  # a GM who ever undid
        return figures

    def undo(self, source: str) -> dict[str, tuple[float | None, float]]:
        """`undo --dry-run` and `undo --list`, the median of UNDO_RUNS runs each (nothing is appended)."""
        work = copy(source, self.tmp, "undo.db")
        self.campaign(work, "pools")  # untimed, as in `flat`: the cached file's migrations and first catch-up
        figures = {}
        for what in ("undo --dry-run", "undo --list"):
            runs = [self.campaign(work, *what.split()) for _ in range(UNDO_RUNS)]
            timed = [seconds for seconds, _ in runs if seconds is not None]
            figures[what] = (statistics.median(timed) if len(timed) == len(runs) else None,
                             max(peak for _, peak in runs))
        return figures

    def measure(self, size: int) -> None:
        source = cached(size)
        n = entries(source)
        work = copy(source, self.tmp, "work.db")
        mapper = self.python(FLOOR_MAPPER, work)
        seconds, peak = self.campaign(work, "rebuild")
        self.add(n, "rebuild", seconds, mapper, peak)
        seconds, peak = self.campaign(work, "audit")
        self.add(n, "audit", seconds, mapper, peak)
        seconds, peak = self.campaign(work, "audit", "--chain")
        self.add(n, "audit --chain", seconds, mapper, peak)
        jsonl = os.path.join(self.tmp, "export.jsonl")
        seconds, peak = self.campaign(work, "export", "--format", "jsonl", "-o", jsonl)
        self.add(n, "export jsonl", seconds, self.python(FLOOR_EXPORT, work, os.path.join(self.tmp, "floor.jsonl")),
                 peak)
        target = os.path.join(self.tmp, "imported.db")
        floor = self.python(FLOOR_IMPORT, jsonl, os.path.join(self.tmp, "floor-import.db")) + mapper
        seconds, peak = self.campaign(target, "import", jsonl)
        self.add(n, "import jsonl", seconds, floor, peak)
        for leftover in os.listdir(self.tmp):
            os.remove(os.path.join(self.tmp, leftover))
        for what, (seconds, peak) in [*self.flat(source).items(), *self.undo(source).items()]:
            self.add(n, what, seconds, self.small.get(what), peak)

    def add(self, n: int, what: str, seconds: float | None, floor: float | None, peak: float) -> None:
        ratio = seconds / floor if seconds is not None and floor else None
        self.rows.append((n, what, seconds, floor, peak, ratio))
        shown = f"{seconds:8.2f}" if seconds is not None else f"{'>' + str(int(self.timeout)):>8}"
        memory = f"{peak:8.1f}" if peak else f"{'-':>8}"  # a turn is two processes: not measured
        print(f"{n:>8} {what:<20} {shown} {floor if floor is not None else float('nan'):8.2f} {memory} "
              f"{ratio if ratio is not None else float('inf'):7.2f}x", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max", type=int, default=100_000, help="largest campaign (entries); 1000000 adds a million")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before an operation is stopped")
    parser.add_argument("--cpu", action="store_true",
                        help="time each process by its own CPU seconds (a shared machine); a turn stays wall clock")
    options = parser.parse_args()
    sizes = [s for s in (10_000, 100_000, 1_000_000) if s <= options.max] or [options.max]
    with tempfile.TemporaryDirectory(prefix="campaign-scale-") as tmp:
        bench = Bench(tmp, options.timeout, options.cpu)
        small = bench.flat(cached(SMALL))
        undo = bench.undo(cached(UNDO_FLOOR))
        bench.small = {what: seconds for what, (seconds, _) in [*small.items(), *undo.items()]}
        print(f"{'entries':>8} {'operation':<20} {'cpu s' if options.cpu else 'seconds':>8} {'floor':>8} "
              f"{'peak MiB':>8} {'ratio':>8}")
        for what, seconds in bench.small.items():
            size = UNDO_FLOOR if what in undo else SMALL
            print(f"{entries(cached(size)):>8} {what:<20} {seconds:8.2f}       (the floor of the same at every size)")
        for size in sizes:
            bench.measure(size)
    largest = max(r[0] for r in bench.rows)
    worst = max(r[5] if r[5] is not None else float("inf") for r in bench.rows if r[0] == largest)
    print(f"ratio: {worst:.2f}")


if __name__ == "__main__":
    main()
