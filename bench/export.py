"""Export (and import) time and peak memory on long campaigns: memory must not grow with length.

Run it from the project root (building the 100,000-entry campaign takes a few minutes):

    python bench/export.py

For campaigns of about 10,000 and 100,000 ledger entries (built as in bench/latency.py),
it runs `campaign export --format F -o FILE` for every format, and `campaign import` of
the JSON Lines file, each as its own process, and prints seconds, the process's peak
resident memory (from wait4) and the file's size.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from latency import build, campaign_command, entries  # noqa: E402

SIZES = (10_000, 100_000)
FORMATS = ("jsonl", "md", "csv", "html")


def run(args: list[str]) -> tuple[float, float]:
    """Seconds and peak resident memory (MB) of one whole process."""
    start = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed: {process.stderr.read().decode().strip()}")
    return seconds, usage.ru_maxrss / 1024


def main() -> None:
    command = campaign_command()
    print(f"{'entries':>8} {'what':>12} {'seconds':>8} {'peak MB':>8} {'file MB':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in SIZES:
            path = os.path.join(tmp, f"c{size}.db")
            started = time.perf_counter()
            build(path, size)
            print(f"{entries(path):>8} {'build':>12} {time.perf_counter() - started:>8.1f}")
            for fmt in FORMATS:
                out = os.path.join(tmp, f"c{size}.{fmt}")
                seconds, peak = run([*command, "--db", path, "export", "--format", fmt, "-o", out])
                print(f"{entries(path):>8} {'export ' + fmt:>12} {seconds:>8.2f} {peak:>8.1f} "
                      f"{os.path.getsize(out) / 2**20:>8.1f}")
            copy = os.path.join(tmp, f"copy{size}.db")
            seconds, peak = run([*command, "--db", copy, "import", os.path.join(tmp, f"c{size}.jsonl")])
            print(f"{entries(copy):>8} {'import jsonl':>12} {seconds:>8.2f} {peak:>8.1f}")


if __name__ == "__main__":
    main()
