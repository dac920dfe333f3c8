"""Cold start: how long a whole `campaign` process takes, against the floor of importing click.

Run it from the project root:

    python bench/startup.py [RUNS]

It plays the action-dice demo into a scratch file, then times RUNS (default 11) whole processes of
each (medians, after one warm-up each), interleaved so a busy machine weighs on all alike:

- floor: `python3 -c "import click"` (the interpreter and the one library every command needs);
- help:  `campaign --help`;
- read:  `campaign --db FILE pools`;
- write: `campaign --db FILE action-dice roll Mara climb --rating D8 --asset Athletics --faces 7,3,2`
  (entered faces: every write appends one roll, so the file grows by one entry a run).

The `campaign` processes run this tree's cli.py with the same interpreter (`-c "import cli;
cli.main()"`, what the installed `campaign` script does, without a shell wrapper in front), with
Python's compiled bytecode kept as an installed program keeps it: PYTHONDONTWRITEBYTECODE is left
out of their environment, so the warm-up run writes the `__pycache__` a first run of an installed
program writes (with it set and no cache yet, every run compiles the project's modules again:
about 0.13 s more). The last line is `ratio: X` = write median / floor median (the target is at
most 4; help 1.5, read 2.5).
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAMPAIGN = [sys.executable, "-c", "import cli; cli.main()"]
TARGETS = {"help": 1.5, "read": 2.5, "write": 4.0}


def commands(path: str) -> dict[str, list[str]]:
    return {
        "floor": [sys.executable, "-c", "import click"],
        "help": [*CAMPAIGN, "--help"],
        "read": [*CAMPAIGN, "--db", path, "pools"],
        "write": [*CAMPAIGN, "--db", path, "action-dice", "roll", "Mara", "climb", "--rating", "D8",
                  "--asset", "Athletics", "--faces", "7,3,2"],
    }


def run(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.decode().strip()}")
    return elapsed


def main(runs: int) -> None:
    folder = tempfile.mkdtemp(prefix="startup-")
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    try:
        path = os.path.join(folder, "demo.db")
        run([*CAMPAIGN, "--db", path, "demo", "--system", "action-dice"], env)
        timed = commands(path)
        times: dict[str, list[float]] = {name: [] for name in timed}
        for name, argv in timed.items():  # warm the disk cache and the bytecode
            run(argv, env)
        for _ in range(runs):
            for name, argv in timed.items():
                times[name].append(run(argv, env))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    medians = {name: statistics.median(values) for name, values in times.items()}
    floor = medians["floor"]
    print(f"{runs} runs each, medians of whole processes ({sys.executable}; bytecode kept)")
    for name, median in medians.items():
        target = f"  (target {TARGETS[name]}x)" if name in TARGETS else ""
        print(f"{name:6} {median * 1000:7.1f} ms  {median / floor:5.2f}x floor{target}")
    print(f"ratio: {medians['write'] / floor:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 11)
