"""What one warm `campaign shell` saves at the table: the same rounds as whole processes, then as lines.

Run it from the project root:

    python3 bench/shell.py [ROUNDS]

On two scratch copies of one small Relics campaign it plays ROUNDS rounds (default 10) of a Cohort
turn and a Challenge turn with entered faces plus a `status` read: first each command as its own
`campaign` process, then the same lines piped into one `campaign shell` (which then runs each line
in turn, as at a terminal but with no prompt). It prints the milliseconds per command both ways
and, last, `ratio: X`, the shell's over the processes'. The answers are compared: both ways must
record the same number of entries.
"""
from __future__ import annotations

import os
import shlex
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAMPAIGN = [sys.executable, "-c", "from campaign_ledger.cli import main; main()"]
SETUP = ["new Bench", "pc add Kira --expertise Phantom=3 --primary Phantom",
         "pc add Bo --expertise Phantom=2 --primary Phantom", "scenario start Night",
         "challenge open Vault --threat Minor --type Phantom --rating 3"]


def round_lines(i: int) -> list[str]:
    """One round: 4 dice for the Cohort that resolve nothing, 3 for the Challenge: 1 Stress, rotated."""
    pc = ("Kira", "Bo")[i % 2]
    return ["cohort-turn Vault --leader Kira --faces 2,2,2,2", f"challenge-turn Vault --faces 5,2,2 --stress {pc}=1",
            "status"]


def run(args: list[str], text: str | None = None) -> None:
    done = subprocess.run(args, input=text, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"{shlex.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")


def entries(path: str) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT max(entry) FROM history").fetchone()[0]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    lines = [line for i in range(rounds) for line in round_lines(i)]
    with tempfile.TemporaryDirectory() as scratch:
        paths = [os.path.join(scratch, f"{way}.db") for way in ("processes", "shell")]
        for path in paths:
            for line in SETUP:
                run([*CAMPAIGN, "--db", path, *shlex.split(line)])
        start = time.perf_counter()
        for line in lines:
            run([*CAMPAIGN, "--db", paths[0], *shlex.split(line)])
        processes = (time.perf_counter() - start) / len(lines)
        start = time.perf_counter()
        run([*CAMPAIGN, "--db", paths[1], "shell"], "\n".join(lines) + "\n")
        shell = (time.perf_counter() - start) / len(lines)
        if entries(paths[0]) != entries(paths[1]):
            sys.exit(f"the two ways recorded different entries: {entries(paths[0])} and {entries(paths[1])}")
    print(f"{len(lines)} commands ({rounds} rounds of cohort-turn, challenge-turn, status)")
    print(f"each its own process: {processes * 1000:.0f} ms per command")
    print(f"one campaign shell:   {shell * 1000:.0f} ms per command (its start included)")
    print(f"ratio: {shell / processes:.3f}")


if __name__ == "__main__":
    main()
