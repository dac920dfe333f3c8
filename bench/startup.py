"""Cold start: the CPU a whole `campaign` process takes, against the floor of importing click.

Run it from the project root:

    python bench/startup.py [RUNS] [--large N]

It prepares one small campaign file per ruleset (the action-dice demo; a Relics campaign of about
100 entries, bench/latency.py's build; a Beer Run conflict after Ann's roll; the decision-2d6 demo)
and, with --large N (default 100,000; 0 leaves it out), the Relics campaign of N entries that
bench/scale.py caches (built once, in ~/.cache/campaign-ledger-bench). Then it times RUNS (default
11) whole processes of each (after one warm-up each), interleaved so a busy machine weighs on all
alike:

- floor: `python -c "import click"` (the interpreter and the one library every command needs);
- help:  `campaign --help`;  read: `campaign pools`;
- each ruleset's heaviest write, with entered faces: `cohort-turn` (the Huddle, pool, roll and
  placement of a Relics round), the Bouncer's `beer-run roll` (it settles the round's comparison),
  `action-dice roll`, `decision-2d6 contest` (a tie and its reroll); and `cohort-turn` again on the
  large campaign. Every write runs on a fresh copy of its prepared file (copied untimed), so each run
  does the same work.

Each figure is the process's own CPU time (user + system, from os.wait4), median of the runs: the
machine is shared, and CPU time is what another process's load changes least. The `campaign`
processes run this tree's cli.py with the same interpreter (`-c "from campaign_ledger import cli; cli.main()"`, what the
installed `campaign` script does, without a shell wrapper in front), with Python's compiled bytecode
kept as an installed program keeps it (PYTHONDONTWRITEBYTECODE is left out of their environment).
Every figure is printed with its ratio to the floor; the last line is `ratio: X`, the largest ratio
of any write (the target is at most 3; help 1.5, a read 2.5).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
CAMPAIGN = [sys.executable, "-c", "from campaign_ledger import cli; cli.main()"]
TARGETS = {"help": 1.5, "read": 2.5}
WRITE_TARGET = 3.0
DOOR = "Back Door"


class Case:
    """One timed command: its arguments, and the prepared file each run copies first (if a write)."""

    def __init__(self, argv: list[str], prepared: str | None = None, work: str | None = None) -> None:
        self.argv, self.prepared, self.work = argv, prepared, work

    def run(self, env: dict[str, str]) -> float:
        if self.prepared and self.work:
            shutil.copyfile(self.prepared, self.work)
        return cpu(self.argv, env)


def cpu(argv: list[str], env: dict[str, str]) -> float:
    """The child's own user + system CPU seconds."""
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {errors.decode().strip()}")
    return usage.ru_utime + usage.ru_stime


def settled(path: str, env: dict[str, str]) -> str:
    """The file as a campaign in use stands: opened once by the CLI (stamped, read tables caught up)
    and its write-ahead log folded in, so a plain copy of it is the whole campaign."""
    cpu([*CAMPAIGN, "--db", path, "pools"], env)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def prepare(folder: str, env: dict[str, str], large: int) -> dict[str, Case]:
    from latency import TIMED, build

    def campaign(path: str, *args: str) -> None:
        cpu([*CAMPAIGN, "--db", path, *args], env)

    def write(name: str, prepared: str, *args: str) -> Case:
        work = os.path.join(folder, f"{name}.work.db")
        return Case([*CAMPAIGN, "--db", work, *args], settled(prepared, env), work)

    action = os.path.join(folder, "action-dice.db")
    campaign(action, "demo", "--system", "action-dice")
    relics = os.path.join(folder, "relics.db")
    build(relics, 100)
    beer = os.path.join(folder, "beer-run.db")
    campaign(beer, "new", "Bench", "--ruleset", "beer-run", "--setting", "categories=Physical,Mental,Social")
    campaign(beer, "beer-run", "character", "add", "Ann", "--ability",
             "Physical:Brawn=d8,Physical:Health=d6,Mental:Wits=d6,Social:Charm=d4", "--intensity", "10")
    campaign(beer, "beer-run", "character", "add", "Bouncer", "--ability",
             "Physical:Muscle=d10,Physical:Health=d8,Mental:Attention=d4,Social:Intimidate=d6", "--intensity", "8")
    campaign(beer, "beer-run", "conflict", "open", DOOR, "--side", "Ann", "--side", "Bouncer")
    campaign(beer, "beer-run", "goal", DOOR, "Ann", "slip past", "--ability", "Attention")
    campaign(beer, "beer-run", "goal", DOOR, "Bouncer", "keep Ann out")
    campaign(beer, "beer-run", "roll", DOOR, "Ann", "--faces", "7,5,4")
    decision = os.path.join(folder, "decision-2d6.db")
    campaign(decision, "demo", "--system", "decision-2d6")
    cohort = ["cohort-turn", TIMED, "--leader", "Kira", "--faces", "2,2,2,2,2"]
    cases = {
        "floor": Case([sys.executable, "-c", "import click"]),
        "help": Case([*CAMPAIGN, "--help"]),
        "read": Case([*CAMPAIGN, "--db", settled(action, env), "pools"]),
        "cohort-turn": write("relics", relics, *cohort),
        "beer-run roll": write("beer-run", beer, "beer-run", "roll", DOOR, "Bouncer", "--faces", "8,1,5"),
        "action-dice roll": write("action-dice", action, "action-dice", "roll", "Mara", "climb", "--rating", "D8",
                                  "--asset", "Athletics", "--faces", "7,3,2"),
        "decision-2d6 contest": write("decision-2d6", decision, "decision-2d6", "contest", "Billy:Stealth",
                                      "Ogre:Wits", "--grant", "Billy", "--faces", "1,3/5,5", "--faces", "6,2,1/4,3"),
    }
    if large:
        import scale  # its cache of large campaigns (and a small launcher process it starts, unused here)

        big = os.path.join(folder, "large.db")
        shutil.copyfile(scale.cached(large), big)
        cases[f"cohort-turn @{large:,}"] = write("large", big, *cohort)
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="?", type=int, default=11)
    parser.add_argument("--large", type=int, default=100_000, help="entries of the large campaign (0: none)")
    options = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="startup-")
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    try:
        cases = prepare(folder, env, options.large)
        times: dict[str, list[float]] = {name: [] for name in cases}
        for case in cases.values():  # warm the disk cache and the bytecode
            case.run(env)
        for _ in range(options.runs):
            for name, case in cases.items():
                times[name].append(case.run(env))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    medians = {name: statistics.median(values) for name, values in times.items()}
    floor = medians["floor"]
    print(f"{options.runs} runs each, CPU (user + sys) medians of whole processes ({sys.executable}; bytecode kept)")
    for name, median in medians.items():
        target = TARGETS.get(name, WRITE_TARGET if name not in ("floor",) else None)
        shown = f"  (target {target}x)" if target else ""
        print(f"{name:22} {median * 1000:7.1f} ms  {median / floor:5.2f}x floor{shown}")
    writes = [medians[name] / floor for name in medians if name not in ("floor", *TARGETS)]
    print(f"ratio: {max(writes):.2f}")


if __name__ == "__main__":
    main()
