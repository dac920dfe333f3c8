"""SIGKILL a `campaign` command at a random moment, many times, and check what it leaves.

    .venv/bin/python bench/attacks/crash.py --runs 150 --seed 1

Each run copies a played Relics campaign, starts one command with its own idempotency key (a
round, a Challenge turn, a session, a note, an undo, a PC, a rebuild, an audit; or a `demo` or an
`import` into a fresh file), kills it after a random delay (up to a little past the command's own
duration, measured first), and then checks the file:
- the command's entries are all there or none (its key's command row spans exactly what it added);
- what the killed command printed as recorded is there (else: lost);
- the same command run again with the same key appends nothing when it was recorded (else: doubled);
- `audit` is clean, or refuses in one clear line that the next command or a retry recovers from
  (else: inconsistent), and no message is a traceback or "failed unexpectedly" (else: crashed);
- a killed `demo` or `import` leaves a file that `demo` (or the import again) can use (else: stuck).
Summary line:

    crash: 150 kills (97 mid-command), 0 inconsistent, 0 lost, 0 doubled, 0 stuck, 0 crashed
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

WRITES = [("cohort-turn", "Guards", "--leader", "Kira", "--roll", "--best"),
          ("challenge-turn", "Guards", "--roll", "--best", "--stress", "Kira=1"),
          ("session", "start", "Crash test"), ("session", "end"), ("note", "killed mid-way?"),
          ("undo", "--yes"), ("pc", "add", "Ash", "--expertise", "Phantom=1", "--primary", "Phantom"),
          ("trait", "add", "Kira", "Keen", "+1 / 1d")]
OTHERS = [("rebuild", "--force"), ("audit",)]
FRESH = ["demo", "import"]  # into a new file


def played(folder: str) -> str:
    """The Relics heist with a few rounds, a session and an export to import."""
    path = os.path.join(folder, "played.db")
    common.heist(path)
    for line in (("session", "start", "One"), WRITES[0], WRITES[1], WRITES[0], WRITES[1], ("session", "end")):
        common.campaign(path, *line)
    common.campaign(path, "export", "--format", "jsonl", "-o", os.path.join(folder, "played.jsonl"))
    return path


def durations(folder: str, template: str) -> dict[str, float]:
    """How long each command takes unkilled here: the kills are drawn over that span."""
    found = {}
    for line in WRITES + OTHERS:
        path = os.path.join(folder, "timing.db")
        common.copy_file(template, path)
        started = time.monotonic()
        common.campaign(path, *line)
        found[" ".join(line)] = time.monotonic() - started
    for kind in FRESH:
        path = os.path.join(folder, f"timing-{kind}.db")
        started = time.monotonic()
        common.campaign(path, *fresh_args(kind, folder))
        found[kind] = time.monotonic() - started
        os.remove(path)
    return found


def fresh_args(kind: str, folder: str) -> tuple[str, ...]:
    return ("demo",) if kind == "demo" else ("import", os.path.join(folder, "played.jsonl"))


def printed_entries(stdout: str) -> set[int]:
    """The entries a command said it recorded (its `#N` lines)."""
    return {int(n) for n in re.findall(r"^#(\d+)\s", stdout, re.M)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=150)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--only", choices=["write", "other", "fresh"], help="kill only these commands")
    parser.add_argument("--verbose", action="store_true", help="a line per run")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rnd = random.Random(seed)
    folder = common.scratch("crash")
    counts = dict.fromkeys(["mid", "inconsistent", "lost", "doubled", "stuck", "crashed"], 0)
    notes: list[str] = []

    def bad(kind: str, text: str) -> None:
        counts[kind] += 1
        if len(notes) < 20:
            notes.append(f"  {kind}: {text}")

    try:
        template = played(folder)
        spans = durations(folder, template)
        for run in range(args.runs):
            kind = args.only or rnd.choice(["write"] * 6 + ["other"] + ["fresh"])
            path = os.path.join(folder, f"run-{run}.db")
            key = f"crash{seed % 10**6}x{run}"
            if kind == "fresh":
                what = rnd.choice(FRESH)
                line = fresh_args(what, folder)
                span = spans[what]
            else:
                line = rnd.choice(WRITES if kind == "write" else OTHERS)
                span = spans[" ".join(line)]
                common.copy_file(template, path)
            before = common.entries(path)
            process = common.start(path, "--key", key, *line)
            time.sleep(rnd.uniform(0, span * 1.1))
            process.send_signal(signal.SIGKILL)
            stdout, _ = process.communicate()
            finished = process.returncode != -signal.SIGKILL
            counts["mid"] += not finished
            label = f"run {run} ({' '.join(line)}, killed {'after it ended' if finished else 'mid-way'})"
            after = common.entries(path)
            if kind == "fresh":
                check_fresh(path, what, line, after, label, bad)
            else:
                check_write(path, line, key, before, after, stdout, finished, label, bad)
            if args.verbose:
                print(f"  {label}: {before} -> {after} entries", flush=True)
            for suffix in ("", "-wal", "-shm", ".importing"):
                Path(path + suffix).unlink(missing_ok=True)
        for note in notes:
            print(note)
        print(f"crash: {args.runs} kills ({counts['mid']} mid-command), {counts['inconsistent']} inconsistent, "
              f"{counts['lost']} lost, {counts['doubled']} doubled, {counts['stuck']} stuck, "
              f"{counts['crashed']} crashed (seed {seed})")
        return 0 if not any(counts[k] for k in counts if k != "mid") else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def check_write(path: str, line: tuple, key: str, before: int, after: int, stdout: str, finished: bool,
                label: str, bad) -> None:
    """All of a command's entries or none; what it printed is there; a retry with its key appends
    nothing once it was recorded; the file audits clean (or says how to recover, and then does)."""
    spans = common.commands_by_key(path).get(key, [])
    if len(spans) > 1:
        bad("doubled", f"{label}: key on {len(spans)} commands")
    if spans:
        first, last = spans[0]
        if (first, last) != (before + 1, after):
            bad("inconsistent", f"{label}: its command spans #{first}-#{last}, the ledger grew #{before + 1}-#{after}")
    elif after != before:
        bad("inconsistent", f"{label}: {after - before} entries with no command of its key")
    if printed_entries(stdout) - set(range(1, after + 1)):
        bad("lost", f"{label}: it printed entries the ledger lacks")
    recorded = common.entries(path)
    retry = common.campaign(path, "--key", key, *line)
    said = retry.stdout + retry.stderr
    if common.crashed(said):
        bad("crashed", f"{label}: the retry said {said.strip()[-200:]}")
    if spans and common.entries(path) != recorded:
        bad("doubled", f"{label}: the retry with its key appended {common.entries(path) - recorded} entries")
    if len(common.commands_by_key(path).get(key, [])) > 1:
        bad("doubled", f"{label}: the retry recorded its key again")
    audited(path, label, bad)


def check_fresh(path: str, what: str, line: tuple, after: int, label: str, bad) -> None:
    """A killed `demo` or `import` leaves a file the same command can finish (or one that is whole)."""
    if os.path.exists(path) or os.path.exists(path + ".importing"):
        again = common.campaign(path, *line)
        said = again.stdout + again.stderr
        if common.crashed(said):
            bad("crashed", f"{label}: running it again said {said.strip()[-200:]}")
        elif again.returncode != 0 and after == 0:
            bad("stuck", f"{label}: left {after} entries, and running it again says {said.strip()[-200:]}")
        elif again.returncode != 0 and what == "demo" and "holds" not in said:
            bad("stuck", f"{label}: running it again says {said.strip()[-200:]}")
    if os.path.exists(path) and common.entries(path):
        audited(path, label, bad)


def audited(path: str, label: str, bad) -> None:
    clean, report, said = common.audit(path)
    if common.crashed(said):
        bad("crashed", f"{label}: audit said {said.strip()[-200:]}")
    elif not clean:
        bad("inconsistent", f"{label}: audit says {common.why_not_clean(report, said)}")


if __name__ == "__main__":
    sys.exit(main())
