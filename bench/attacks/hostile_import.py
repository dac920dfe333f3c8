"""Hostile import files: each is imported into a fresh file; it must be refused in one `Error:` line
with nothing left behind, or (if harmless) imported clean; never a traceback, and never code run.

    .venv/bin/python bench/attacks/hostile_import.py

The files: unknown event types, a `data.originator_topic` (and a `type`) naming a module whose top
level writes a marker file (the module sits on PYTHONPATH, as any installed module would), with
the hashes recomputed so the chain check passes; huge lines, huge names, bad JSON, wrong hashes,
truncated files, /dev/zero. Summary line:

    hostile_import: 14 files, 13 refused cleanly, 1 imported clean (harmless), 0 wrongly imported, 0 crashed,
    0 marker written, 0 left entries behind

Each import runs with its address space capped (2 GiB): a file read whole into memory is a crash here.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

MODULE = "campaign_attack_marker"
HARMLESS = {"originator_topic on a later entry (rehashed)"}  # may import clean: nothing reads that field


def variants(lines: list[str]) -> dict[str, list[str] | str]:
    """Each hostile file's lines (or a path to import as is), by name."""
    header, body, end = lines[0], lines[1:-1], lines[-1]
    last = json.loads(body[-1])

    def edited(index: int, change, rehash: bool = True) -> list[str]:
        rows = [json.loads(line) for line in body]
        change(rows[index])
        out = [header, *(json.dumps(r, ensure_ascii=False) for r in rows), end]
        return common.rehash_export(out) if rehash else out

    def topic(row):
        row["data"]["originator_topic"] = f"{MODULE}:Thing"

    def type_(row):
        row["type"] = f"{MODULE}:Thing.Created"

    def unknown(row):
        row["type"] = "ledger.campaign:Campaign.NoSuchEvent"

    def huge_name(row):
        row["data"]["name"] = "N" * 50_000_000

    def appended(extra: dict) -> list[str]:
        row = dict(last, entry=last["entry"] + 1, version=last["version"] + 1, **extra)
        return common.rehash_export([header, *body, json.dumps(row), end])

    return {  # every one must be refused, but "on a later entry": eventsourcing reads a later entry's topic not
        "unknown topic (rehashed)": edited(-1, unknown),
        "originator_topic names a module (rehashed)": edited(0, topic),
        "originator_topic on a later entry (rehashed)": edited(-1, topic),  # either: only a creation's is read
        "type names a module (rehashed)": edited(-1, type_),
        "an appended entry naming a module (rehashed)": appended({"data": {**last["data"],
                                                                         "originator_topic": f"{MODULE}:X"}}),
        "a 50 MB campaign name (rehashed)": edited(0, huge_name),
        "a 50 MB line of spaces": [header, *body[:-1], body[-1] + " " * 50_000_000, end],
        "bad JSON": [header, *body[:-1], body[-1][:-7], end],
        "a wrong hash": edited(len(body) // 2, lambda r: r.update(hash="0" * 64), rehash=False),
        "an edited entry, hashes kept": edited(0, lambda r: r["data"].update(name="Forged"), rehash=False),
        "truncated": [header, *body[: len(body) // 2]],
        "empty": [],
        "not JSON at all": ["MZ\x90\x00\x03"],
        "/dev/zero": "/dev/zero",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    folder = common.scratch("import")
    try:
        source = os.path.join(folder, "source.db")
        common.heist(source)
        common.campaign(source, "session", "start", "One")
        exported = common.campaign(source, "export", "--format", "jsonl").stdout.strip().split("\n")
        modules = os.path.join(folder, "modules")
        os.makedirs(modules)
        marker = os.path.join(folder, "MARKER")
        Path(modules, f"{MODULE}.py").write_text(f"open({marker!r}, 'a').write('imported\\n')\n")
        counts = dict.fromkeys(["refused cleanly", "imported clean", "wrongly imported", "crashed", "marker written",
                                "left behind"], 0)
        bad: list[str] = []
        for n, (name, content) in enumerate(variants(exported).items()):
            if isinstance(content, str):
                path = content
            else:
                path = os.path.join(folder, f"hostile-{n}.jsonl")
                Path(path).write_text("\n".join(content) + ("\n" if content else ""))
            target = os.path.join(folder, f"target-{n}.db")
            try:
                result = common.campaign(target, "import", path, timeout=120, memory=2 << 30,
                                         PYTHONPATH=modules + os.pathsep + os.environ.get("PYTHONPATH", ""))
                said = result.stdout + result.stderr
            except Exception as error:  # noqa: BLE001 - a hang past the timeout is a crash here
                result, said = None, f"{type(error).__name__}: {error}"
            if os.path.exists(marker):
                counts["marker written"] += 1
                bad.append(f"{name}: marker written")
                os.remove(marker)
            if result is None or common.crashed(said):
                counts["crashed"] += 1
                bad.append(f"{name}: {said.strip()[-200:]}")
            elif result.returncode == 0:
                clean, _, _ = common.audit(target)
                if not clean:
                    counts["crashed"] += 1
                    bad.append(f"{name}: imported, and not clean")
                elif name in HARMLESS:
                    counts["imported clean"] += 1
                else:
                    counts["wrongly imported"] += 1
                    bad.append(f"{name}: imported (the commands would refuse it)")
            elif common.one_error_line(result.stderr):
                counts["refused cleanly"] += 1
                if common.entries(target):
                    counts["left behind"] += 1
                    bad.append(f"{name}: refused but left entries in {target}")
            else:
                counts["crashed"] += 1
                bad.append(f"{name}: exit {result.returncode}: {said.strip()[-200:]}")
            if path != content and os.path.exists(path):
                os.remove(path)
        for line in bad:
            print("  " + line)
        total = n + 1
        print(f"hostile_import: {total} files, {counts['refused cleanly']} refused cleanly, "
              f"{counts['imported clean']} imported clean (harmless), {counts['wrongly imported']} wrongly imported, "
              f"{counts['crashed']} crashed, "
              f"{counts['marker written']} marker written, {counts['left behind']} left entries behind")
        return 0 if not bad else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
