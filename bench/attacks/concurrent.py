"""N writers and a reader on one campaign file for T seconds: nothing lost, nothing doubled, and no
refusal that calls the chain broken while the final audit is clean (a false alarm).

    .venv/bin/python bench/attacks/concurrent.py --writers 4 --seconds 30

Each writer is a loop of `campaign` processes with keys of their own: rounds (Cohort and
Challenge turns), sessions started and ended, notes, undos. The reader loops `history`, `status`,
`undo --list` and `audit --chain`. Afterwards: every command that exited 0 and printed entries
has its key in the command log (else lost); no key is on two commands (else doubled); any output
saying the chain is broken, an entry is missing or was edited counts as a false alarm when the
final `audit` finds the chain intact (and as found when it does not). Summary line:

    concurrent: 4 writers + 1 reader, 30 s: 412 writes (301 recorded, 111 refused), 230 reads, 0 lost,
    0 doubled, 0 false alarms, 0 crashed; final audit clean
"""
from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

WRITES = [("cohort-turn", "Guards", "--leader", "Kira", "--roll", "--best"),
          ("challenge-turn", "Guards", "--roll", "--best", "--stress", "Bo=1"),
          ("session", "start", "Busy night"), ("session", "end"), ("note", "meanwhile"), ("undo", "--yes")]
READS = [("history", "--limit", "3"), ("status",), ("undo", "--list", "--limit", "3"), ("audit", "--chain")]
ALARM = re.compile(r"chain is broken|broken at entry|forged|was edited|is missing|not in the ledger", re.I)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    folder = common.scratch("concurrent")
    path = f"{folder}/busy.db"
    log: list[tuple[str, str, tuple, int, str]] = []  # (who, key, line, exit code, what it said)
    lock = threading.Lock()
    stop = time.monotonic() + args.seconds

    def writer(n: int) -> None:
        rnd, count = random.Random(seed + n), 0
        while time.monotonic() < stop:
            count += 1
            key, line = f"w{n}x{count}x{seed % 10**6}", rnd.choice(WRITES)
            result = common.campaign(path, "--key", key, *line, timeout=300)
            with lock:
                log.append((f"writer {n}", key, line, result.returncode, result.stdout + result.stderr))

    def reader() -> None:
        rnd = random.Random(seed - 1)
        while time.monotonic() < stop:
            line = rnd.choice(READS)
            result = common.campaign(path, *line, timeout=300)
            with lock:
                log.append(("reader", "", line, result.returncode, result.stdout + result.stderr))

    try:
        common.heist(path)
        threads = [threading.Thread(target=writer, args=(n,)) for n in range(args.writers)]
        threads.append(threading.Thread(target=reader))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        clean, report, said = common.audit(path)
        intact = report is not None and report.get("broken_entry") is None  # a stuck table is no broken chain
        keys = common.commands_by_key(path)
        lost = doubled = alarms = crashed = 0
        notes = []
        for who, key, line, code, text in log:
            if common.crashed(text):
                crashed += 1
                notes.append(f"  crashed: {who} {' '.join(line)}: {text.strip()[-200:]}")
            if ALARM.search(text) and intact:
                alarms += 1
                notes.append(f"  false alarm: {who} {' '.join(line)} (exit {code}): {text.strip()[-200:]}")
            if key and code == 0 and re.search(r"^#\d+\s", text, re.M) and key not in keys:
                lost += 1
                notes.append(f"  lost: {who} {' '.join(line)} printed entries, but its key is not in the log")
        for key, spans in keys.items():
            if len(spans) > 1:
                doubled += 1
                notes.append(f"  doubled: key {key} on {spans}")
        for note in notes[:20]:
            print(note)
        writes = [entry for entry in log if entry[0] != "reader"]
        recorded = sum(1 for _, key, _, _, _ in writes if key in keys)
        verdict = "clean" if clean else f"NOT clean ({common.why_not_clean(report, said)})"
        print(f"concurrent: {args.writers} writers + 1 reader, {args.seconds:.0f} s: {len(writes)} writes "
              f"({recorded} recorded, {len(writes) - recorded} refused), {len(log) - len(writes)} reads, {lost} lost, "
              f"{doubled} doubled, {alarms} false alarms, {crashed} crashed; final audit {verdict} (seed {seed})")
        return 0 if clean and not (lost or doubled or alarms or crashed) else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
