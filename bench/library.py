"""A Relics turn through the library, in one process, on a campaign of 100 and of 100,000 entries;
and the same turn over the HTTP API (`campaign serve`) on loopback.

Run it from the project root:

    python bench/library.py              # RUNS timed turns per campaign, after WARM_UP each
    python bench/library.py --profile    # and where the time of the 100,000-entry turns goes

A turn is what bench/latency.py times as two processes: a Cohort turn on the open Challenge with
entered faces, then its Challenge turn with entered faces and 1 Stress (rotated over the PCs), here
as `camp.cohort_turn(...)` and `camp.challenge_turn(...)` on one handle kept open by a long-lived
process (a bot). The campaigns are bench/latency.py's `build` (100 entries, made here) and
bench/scale.py's cached one (100,000 entries, built once into ~/.cache/campaign-ledger-bench or
$CAMPAIGN_BENCH_CACHE); each run works on a scratch copy. The HTTP figure is the same two calls as
two POSTs on one keep-alive connection to `campaign serve` on 127.0.0.1, the GM token in the header.

The last line is `library turn median ms: 100 entries X, 100000 entries Y` (the target: under 20 ms).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, ROOT)

from latency import PCS, TIMED, build  # noqa: E402

SIZES = (100, 100_000)
RUNS = 15      # timed turns per campaign and way (median); 1 Stress a turn, rotated: nobody nears Stressed Out
WARM_UP = 3    # untimed turns first: imports, the file cache, the first catch-up
CPU: list[float] = []  # this process's CPU seconds of each library turn (a busy machine stretches wall time only)


def turn(i: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The arguments of turn `i`'s two calls (bench/latency.py's one_round, as the library takes them)."""
    cohort = {"challenge": TIMED, "leader": "Kira", "faces": [2, 2, 2, 2, 2]}
    challenge = {"challenge": TIMED, "faces": [5, 2, 2], "stress": {PCS[i % len(PCS)][0]: 1}}
    return cohort, challenge


def campaign_of(size: int, tmp: str) -> str:
    """The campaign of `size` entries, untouched: each way of playing it works on a copy (`fresh`)."""
    if size <= 1_000:
        target = os.path.join(tmp, f"campaign-{size}.db")
        build(target, size)
        return target
    import scale  # its cache of long campaigns (scale.py starts a small launcher process on import)

    return scale.cached(size)


def fresh(source: str, tmp: str, way: str) -> str:
    """A scratch copy of `source` for one way of playing it (every way starts from the same Stress)."""
    target = os.path.join(tmp, f"{way}-{os.path.basename(source)}")
    shutil.copyfile(source, target)
    return target


def through_library(path: str) -> Callable[[int], float]:
    from campaign_ledger import open_campaign

    camp = open_campaign(path)

    def one(i: int) -> float:
        cohort, challenge = turn(i)
        start, cpu = time.perf_counter(), time.process_time()
        camp.cohort_turn(**cohort)
        camp.challenge_turn(**challenge)
        CPU.append(time.process_time() - cpu)
        return time.perf_counter() - start
    return one


class Server:
    """`campaign --db PATH --json serve --port 0` and one keep-alive connection to its API."""

    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "campaign_ledger.cli", "--db", path, "--json", "serve",
                                      "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                                     env={**os.environ, "PYTHONPATH": ROOT})
        assert self.proc.stdout is not None
        report = json.loads(self.proc.stdout.readline())
        self.token = report["gm_token"]
        self.conn = http.client.HTTPConnection("127.0.0.1", report["port"], timeout=120)
        while True:  # ready once the API answers
            try:
                if self.post("ruleset", {})[0] == 200:
                    return
            except OSError:
                self.conn.close()
                time.sleep(0.05)

    def post(self, method: str, body: dict[str, Any]) -> tuple[int, Any]:
        self.conn.request("POST", f"/api/calls/{method}", body=json.dumps(body),
                          headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        answer = self.conn.getresponse()
        return answer.status, json.loads(answer.read())

    def close(self) -> None:
        self.conn.close()
        self.proc.terminate()
        self.proc.wait(timeout=15)


def through_http(server: Server) -> Callable[[int], float]:
    def one(i: int) -> float:
        cohort, challenge = turn(i)
        start = time.perf_counter()
        for method, body in (("cohort_turn", cohort), ("challenge_turn", challenge)):
            status, value = server.post(method, body)
            if status != 200:
                sys.exit(f"{method} over HTTP was refused ({status}): {value}")
        return time.perf_counter() - start
    return one


def timed(one: Callable[[int], float], first: int) -> list[float]:
    for i in range(first, first + WARM_UP):
        one(i)
    return [one(i) for i in range(first + WARM_UP, first + WARM_UP + RUNS)]


def profile(one: Callable[[int], float], first: int) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(first, first + 5):
        one(i)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", action="store_true", help="also profile 5 turns on the largest campaign")
    args = parser.parse_args()
    library: dict[int, list[float]] = {}
    http_ms: dict[int, list[float]] = {}
    cpu: dict[int, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="campaign-bench-library-") as tmp:
        for size in SIZES:
            began = time.perf_counter()
            source = campaign_of(size, tmp)
            print(f"# campaign of {size} entries ready in {time.perf_counter() - began:.1f} s", flush=True)
            library[size] = timed(through_library(fresh(source, tmp, "library")), 0)
            cpu[size] = CPU[-RUNS:]
            if args.profile and size == SIZES[-1]:
                profile(through_library(fresh(source, tmp, "profile")), 0)
            server = Server(fresh(source, tmp, "http"))  # the same turns, played by a bot over HTTP
            try:
                http_ms[size] = timed(through_http(server), 0)
            finally:
                server.close()
    print(f"a turn = cohort_turn + challenge_turn with entered faces; median of {RUNS} after {WARM_UP} warm-up")
    for size in SIZES:
        runs = ", ".join(f"{t * 1000:.1f}" for t in library[size])
        print(f"{size:>7} entries: library median {statistics.median(library[size]) * 1000:.1f} ms "
              f"(CPU {statistics.median(cpu[size]) * 1000:.1f} ms) [{runs}]; "
              f"HTTP round trip median {statistics.median(http_ms[size]) * 1000:.1f} ms")
    medians = [f"{size} entries {statistics.median(library[size]) * 1000:.1f}" for size in SIZES]
    print(f"library turn median ms: {', '.join(medians)}")


if __name__ == "__main__":
    main()
