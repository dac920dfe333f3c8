"""Play until the disk is full (a small tmpfs; and a file-size limit, as `ulimit -f` sets): every
refusal must name the full disk, and the ledger must stay whole once there is room again.

    .venv/bin/python bench/attacks/full_disk.py --room 160     # the tmpfs part needs root (mount)

Each command (rounds, notes, sessions) runs with a key of its own. A refusal that does not say
the disk is full (or the file too large) counts as misnamed; one that also says "unexpectedly"
counts as crashed. When the limit is reached (or --commands run), the tmpfs is grown (or the limit
lifted), every refused command is run again with its key, and the file is audited: a retry that
appends again after its first run had recorded is doubled; an audit not clean is inconsistent.
Without root (no mount), the tmpfs part is skipped with a message. Summary line:

    full_disk: tmpfs 3m: 92 refusals, 0 misnamed, 0 crashed, 0 doubled, 0 inconsistent;
    ulimit -f: 40 refusals, 0 misnamed, ...
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

PLAY = [("cohort-turn", "Guards", "--leader", "Kira", "--roll", "--best"),
        ("challenge-turn", "Guards", "--roll", "--best", "--stress", "Bo=1"),
        ("session", "start", "Long night"), ("session", "end")]  # no undo: concurrent.py's and the machine's
NAMED = re.compile(r"\bfull\b|no space|space left|out of space|file size|too large", re.I)


def play_until_full(path: str, commands: int, rnd: random.Random, limit: int | None = None,
                    stop_after: int = 25, verbose: bool = False) -> dict:
    """Commands until `stop_after` refusals that name no rule (or `commands` run); what each said."""
    refusals, misnamed, crashed, keyed = 0, 0, 0, []
    examples: list[str] = []
    for n in range(commands):
        line = rnd.choice(PLAY) if rnd.random() < 0.4 else ("note", "x" * rnd.randrange(1000, 2000))  # fills it
        key = f"full{n}x{rnd.randrange(10**6)}"
        result = common.campaign(path, "--key", key, *line, fsize=limit)
        said = (result.stdout + result.stderr).strip()
        if result.returncode == 0:
            continue
        if not re.search(r"disk|space|full|I/O|size|busy|changing|unexpectedly|write", said, re.I):
            continue  # a rule's refusal (no session open, nothing to undo): not the disk's
        refusals += 1
        keyed.append((key, line, common.entries(path)))
        if common.crashed(said):
            crashed += 1
        elif not NAMED.search(said):
            misnamed += 1
        if verbose:
            print(f"    {' '.join(line)[:40]}: {said[-160:]}", flush=True)
        if (common.crashed(said) or not NAMED.search(said)) and len(examples) < 3:
            examples.append(said[-220:])
        if refusals >= stop_after:
            break
    return {"refusals": refusals, "misnamed": misnamed, "crashed": crashed, "keyed": keyed, "examples": examples}


def afterwards(path: str, found: dict) -> tuple[int, int, str]:
    """With room again: each refused command retried with its key, then the file audited."""
    doubled = 0
    keys = common.commands_by_key(path)
    for key, line, _ in found["keyed"]:
        before = common.entries(path)
        common.campaign(path, "--key", key, *line)
        if key in keys and common.entries(path) != before:
            doubled += 1
    doubled += sum(1 for spans in common.commands_by_key(path).values() if len(spans) > 1)
    clean, report, said = common.audit(path)
    return doubled, 0 if clean else 1, "" if clean else common.why_not_clean(report, said)


def summary(label: str, found: dict, doubled: int, inconsistent: int, why: str) -> str:
    for example in found["examples"]:
        print(f"  {label}: {example}")
    if why:
        print(f"  {label}: audit: {why}")
    return (f"{label}: {found['refusals']} refusals, {found['misnamed']} misnamed, {found['crashed']} crashed, "
            f"{doubled} doubled, {inconsistent} inconsistent")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--room", type=int, default=160, help="KiB of room past the campaign's file, on the "
                        "tmpfs and under the file-size limit")
    parser.add_argument("--commands", type=int, default=300, help="commands at most in each part")
    parser.add_argument("--refusals", type=int, default=25, help="refusals by the disk that end a part")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--verbose", action="store_true", help="each refusal's message")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rnd = random.Random(seed)
    folder = common.scratch("full")
    parts, bad = [], 0
    try:
        template = os.path.join(folder, "template.db")
        common.heist(template)
        mount = os.path.join(folder, "tmpfs")
        os.makedirs(mount)
        size = f"{(os.path.getsize(template) + 1024 * args.room) // 1024}k"
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", mount],
                                 capture_output=True, text=True)
        if mounted.returncode != 0:
            parts.append(f"tmpfs skipped (cannot mount: {mounted.stderr.strip() or 'not root'})")
        else:
            try:
                path = os.path.join(mount, "full.db")
                common.copy_file(template, path)
                found = play_until_full(path, args.commands, rnd, stop_after=args.refusals, verbose=args.verbose)
                subprocess.run(["mount", "-o", "remount,size=256m", mount], check=True)
                doubled, inconsistent, why = afterwards(path, found)
                parts.append(summary(f"tmpfs of {size}", found, doubled, inconsistent, why))
                bad += found["misnamed"] + found["crashed"] + doubled + inconsistent
            finally:
                subprocess.run(["umount", "-l", mount], capture_output=True)
        path = os.path.join(folder, "limited.db")
        common.copy_file(template, path)
        limit = os.path.getsize(path) + 1024 * args.room
        found = play_until_full(path, args.commands, rnd, limit=limit, stop_after=args.refusals, verbose=args.verbose)
        doubled, inconsistent, why = afterwards(path, found)
        parts.append(summary(f"ulimit -f {limit // 1024} KiB", found, doubled, inconsistent, why))
        bad += found["misnamed"] + found["crashed"] + doubled + inconsistent
        print("full_disk: " + "; ".join(parts) + f" (seed {seed})")
        return 0 if bad == 0 else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
