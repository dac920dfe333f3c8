"""Latency of one round at the table, on a small and on a large campaign.

Run it from the project root:

    python bench/latency.py

It builds two campaigns in temporary files, in-process through the ledger application
(entered faces only, nothing random): one of about 100 ledger entries and one of about
10,000 (rows in `stored_events`), and catches their read models up once. Then it times,
RUNS times on each, one Cohort turn plus one Challenge turn as two whole `campaign`
processes (start-up, import, load, append, catch-up, print), and prints the medians and,
last, `ratio: X` = median at 10,000 / median at 100 (the target is at most 1.2).
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from campaign_ledger.ledger.application import open_ledger  # noqa: E402
from campaign_ledger.ledger.rulesets.relics.turns import Placing, Throw  # noqa: E402
from campaign_ledger.projections import runner  # noqa: E402

SIZES = (100, 10_000)
RUNS = 7                      # timed runs per campaign (after one warm-up run each)
ROUNDS_PER_CHALLENGE = 20     # build: null rounds on each Challenge before it is resolved
PCS = (("Kira", {"Phantom": 3}), ("Bo", {"Phantom": 2}), ("Ash", {"Phantom": 1}))
TIMED = "Timed Target"
# The Cohort pool is Kira's lead 3d6 + Bo's and Ash's assists 1d6 each = 5 dice.
COHORT_NULL = Throw((2, 2, 2, 2, 2))   # 0 successes, no botch: nothing resolved, no Tides
COHORT_WIN = Throw((6, 6, 6, 2, 2))    # 3 successes: a rating-3 Challenge is resolved
CHALLENGE_NULL = Throw((2, 2, 2))      # 0 successes: no Stress, the round ends


def entries(path: str) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT count(*) FROM stored_events").fetchone()[0]


def build(path: str, target: int) -> None:
    """A campaign of about `target` entries, caught up, with TIMED open and untouched."""
    app = open_ledger(path)
    app.start(f"Bench {target}", "relics", "0.6.1")
    for name, ranks in PCS:
        app.add_pc(name, ranks, "Phantom")
    app.start_scenario("Benchmark")
    count, n = 1 + 2 * len(PCS) + 1, 0
    # Leave room for TIMED's Opened entry; each null round appends 10 entries.
    while count + 11 <= target:
        n += 1
        name = f"Build {n}"
        count += len(app.open_challenge(name, "Major", "Phantom", 3)["entries"])
        for r in range(ROUNDS_PER_CHALLENGE):
            if count + 11 > target:
                break
            last = r == ROUNDS_PER_CHALLENGE - 1
            rep = app.cohort_turn(name, "Kira", None, [], 0, COHORT_WIN if last else COHORT_NULL, Placing())
            count += len(rep["entries"])
            if last:
                break
            rep = app.challenge_turn(name, [], CHALLENGE_NULL, Placing(), None)
            count += len(rep["entries"])
    app.open_challenge(TIMED, "Major", "Phantom", 3)
    db = runner.connect(path)
    runner.catch_up(app, db)
    db.conn.close()
    app.close()


def campaign_command() -> list[str]:
    script = shutil.which("campaign")
    return [script] if script else [sys.executable, "-c", "from campaign_ledger.cli import main; main()"]


def one_round(cmd: list[str], path: str, i: int) -> float:
    """One Cohort turn plus one Challenge turn, each a whole `campaign` process."""
    stressed = PCS[i % len(PCS)][0]  # 1 Stress per round, rotated: nobody nears Stressed Out
    cohort = [*cmd, "--db", path, "cohort-turn", TIMED, "--leader", "Kira", "--faces", "2,2,2,2,2"]
    challenge = [*cmd, "--db", path, "challenge-turn", TIMED, "--faces", "5,2,2", "--stress", f"{stressed}=1"]
    start = time.perf_counter()
    for args in (cohort, challenge):
        done = subprocess.run(args, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return time.perf_counter() - start


def main() -> None:
    cmd = campaign_command()
    with tempfile.TemporaryDirectory(prefix="campaign-bench-") as tmp:
        paths = {}
        for size in SIZES:
            paths[size] = os.path.join(tmp, f"campaign-{size}.db")
            began = time.perf_counter()
            build(paths[size], size)
            print(f"built {entries(paths[size])} entries in {time.perf_counter() - began:.1f} s")
        built = {size: entries(paths[size]) for size in SIZES}
        times: dict[int, list[float]] = {size: [] for size in SIZES}
        for i in range(RUNS + 1):  # interleaved, so drift on the machine hits both alike
            for size in SIZES:
                elapsed = one_round(cmd, paths[size], i)
                if i:  # run 0 warms the file cache and the bytecode
                    times[size].append(elapsed)
        medians = {size: statistics.median(times[size]) for size in SIZES}
        print(f"command: {' '.join(cmd)} (cohort-turn + challenge-turn), median of {RUNS} runs")
        for size in SIZES:
            runs = ", ".join(f"{t * 1000:.0f}" for t in times[size])
            print(f"{built[size]:>6} entries (now {entries(paths[size])}): median {medians[size] * 1000:.1f} ms"
                  f"  [runs ms: {runs}]")
    print(f"ratio: {medians[SIZES[1]] / medians[SIZES[0]]:.2f}")


if __name__ == "__main__":
    main()
