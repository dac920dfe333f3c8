"""Every kind of tamper with a campaign file, and whether `audit` catches it.

    .venv/bin/python bench/attacks/tamper.py

The kinds: tests/test_tamper.py's matrix (edit, delete, insert, reorder in the entries, the chain,
the command log and the snapshots), each also with every hash recomputed (a re-chained forgery:
README says only the anchor, or the key, can catch those), the same with the read tables' stored
head (`chain_checked`) recomputed too, a signed file's forgery with its signatures stripped (and
one with them kept), a read position moved past the ledger's end, dropped read tables, and an
edited snapshot. Each is audited as README says it is caught: plain, with the anchor taken before
(`--anchor`), or with the key (`CAMPAIGN_KEY`); a kind also audited without them shows whether it
needs them. Summary line:

    tamper: 37 kinds, 37 caught, 0 missed; 7 need the anchor, 3 the key; 0 crashed
"""
from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from tests import test_tamper as matrix  # noqa: E402

KEY = "attack-kit-key"


def pristine(folder: str, signed: bool) -> tuple[str, str]:
    """The Relics demo with two snapshots of the campaign (signed with KEY or not), and its anchor."""
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.ledger.ids import CAMPAIGN_ID

    path = f"{folder}/pristine{'-signed' if signed else ''}.db"
    extra = {"CAMPAIGN_KEY": KEY} if signed else {}
    assert common.campaign(path, "demo", **extra).returncode == 0
    app = open_ledger(path)
    last = app.repository.get(CAMPAIGN_ID).version
    for version in (2, last):
        app.take_snapshot(CAMPAIGN_ID, version=version)
    app.close()
    common.campaign(path, "audit", **extra)  # the read tables caught up and verified, as a GM's file is
    return path, common.campaign(path, "anchor").stdout.strip()


def stored_head(conn: sqlite3.Connection) -> None:
    """The read tables' record of the newest verified entry and its hash, made to match the rewrite;
    and the snapshots deleted (a shortcut, README says; kept, they would betray the edit)."""
    conn.execute("DELETE FROM stored_snapshots")
    entry, hash_ = conn.execute("SELECT entry, hash FROM ledger_chain ORDER BY entry DESC LIMIT 1").fetchone()
    conn.execute("UPDATE chain_checked SET entry = ?, hash = ?", (entry, hash_))


def strip_signatures(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM ledger_signatures")


def rename_campaign(conn: sqlite3.Connection, forged: bool = True) -> int:
    """An edit that still decodes: entry 1's campaign name, written as the recorder writes state."""
    import json
    from campaign_ledger.ledger.interchange_check import encode
    state = json.loads(conn.execute("SELECT state FROM stored_events WHERE rowid = 1").fetchone()[0])
    state["name"] = "A Heist That Never Was"
    conn.execute("UPDATE stored_events SET state = ? WHERE rowid = 1", (encode(state),))
    return 1


def kinds() -> list[tuple[str, Callable, str, bool]]:
    """(name, tamper(conn), how audit must catch it: "plain", "anchor" or "key", signed file)."""
    found = []
    for f in matrix.FORGEABLE + matrix.PLAIN:
        found.append((f.__name__, lambda c, f=f: f(c, False), "plain", False))
    for f in matrix.FORGEABLE:
        found.append((f"{f.__name__} re-chained", lambda c, f=f: (f(c, True), matrix.recompute(c)), "anchor", False))
    for f in (matrix.events_edit, rename_campaign, matrix.events_delete):
        found.append((f"{f.__name__} re-chained, stored head too",
                      lambda c, f=f: (f(c, True), matrix.recompute(c), stored_head(c)), "anchor", False))
        found.append((f"{f.__name__} re-chained on a signed file, signatures stripped",
                      lambda c, f=f: (f(c, True), matrix.recompute(c), stored_head(c), strip_signatures(c)),
                      "key", True))
    found.append(("rename_campaign re-chained on a signed file, signatures kept",
                  lambda c: (rename_campaign(c), matrix.recompute(c), stored_head(c)), "key", True))
    found.append(("read position moved 5 past the end", lambda c: c.execute(
        "UPDATE position SET entry = entry + 5"), "plain", False))
    for table in ("sessions", "history", "sheets", "traits"):
        found.append((f"read table {table} dropped", lambda c, t=table: c.execute(f"DROP TABLE [{t}]"),
                      "plain", False))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rebuild", action="store_true", help="also `rebuild --force` after each tamper")
    args = parser.parse_args()
    folder = common.scratch("tamper")
    try:
        files = {signed: pristine(folder, signed) for signed in (False, True)}
        caught = missed = crashed = needs_anchor = needs_key = 0
        listed = kinds()
        for n, (name, tamper, how, signed) in enumerate(listed):
            source, anchor = files[signed]
            path = f"{folder}/case-{n}.db"
            common.copy_file(source, path)
            conn = sqlite3.connect(path, isolation_level=None)
            try:
                tamper(conn)
            finally:
                conn.close()
            if args.rebuild or "re-chained" in name:  # a forger finishes the job: tables and head derived again
                common.campaign(path, "rebuild", "--force")
            extra = {"CAMPAIGN_KEY": KEY} if how == "key" else {}
            anchor_args = ("--anchor", anchor) if how == "anchor" else ()
            clean, report, said = common.audit(path, *anchor_args, **extra)
            if common.crashed(said) or report is None:
                crashed += 1
                print(f"  {name}: audit crashed: {said.strip()[-200:]}")
            elif clean:
                missed += 1
                print(f"  {name}: MISSED (audit{' with the ' + how if how != 'plain' else ''} says clean)")
            else:
                caught += 1
                if how != "plain" and common.audit(path)[0]:
                    needs_anchor += how == "anchor"
                    needs_key += how == "key"
            for suffix in ("", "-wal", "-shm"):
                Path(path + suffix).unlink(missing_ok=True)
        print(f"tamper: {len(listed)} kinds, {caught} caught, {missed} missed; {needs_anchor} need the anchor, "
              f"{needs_key} the key; {crashed} crashed")
        return 0 if missed == crashed == 0 else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
