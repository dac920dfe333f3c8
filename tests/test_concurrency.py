"""Two `campaign` processes play one campaign file at once.

The issue's requirement: every command either lands or is refused with a message, and the
ledger holds exactly the entries of the commands that landed.

Two worker processes (real OS processes, released together from a pipe barrier before every
block of ten commands) each play many commands through the real click entry point, one fresh ledger and read-model connection
per command as `campaign` opens them. They contend on the same aggregates: both add traits to
Kira, both add PCs (the campaign aggregate), both play turns on the one Challenge (the
campaign and the Challenge), and both read (catching the read model up). Each worker records
every command's exit code, stdout and stderr; the test then checks those records against the
ledger and the read model.
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from campaign_ledger.projections import runner

WORKERS = 2
COMMANDS = 90  # per worker: enough for Kira to pass a snapshot (every 50 events)
BLOCK = 10  # the workers meet at a barrier before every block of commands, then race through it

CONFLICT = "Error: Another process kept changing this campaign at the same moment"
OUT_OF_TURN = ("is waiting for", "is unfinished")

DRIVER = r'''
import json, sys, traceback
from click.testing import CliRunner
from campaign_ledger.cli import cli

db, worker, count, block, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]


def plan(i):
    """The i-th command of this worker: (kind, name, argv)."""
    step = i % 6
    if step == 0:
        name = f"P{worker}-{i}"
        return "pc", name, ["pc", "add", name, "--expertise", "Venger=1", "--primary", "Venger"]
    if step == 2:
        return "turn", None, ["cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo",
                              "--faces", "1,2,2,3,3", "--best"]
    if step == 4:
        return "turn", None, ["challenge-turn", "Guards", "--faces", "1,1,1,1"]
    if step == 5:
        return "read", None, (["sheet", "Kira"] if i % 12 == 5 else ["history", "--limit", "3"])
    name = f"T{worker}-{i}"
    return "trait", name, ["trait", "add", "Kira", name, "+1 / 1d"]


runner = CliRunner()
records = []
for i in range(count):
    if i % block == 0:  # the barrier: wait until every worker is here, then all start together
        print("ready", flush=True)
        assert sys.stdin.readline().strip() == "go"
    kind, name, argv = plan(i)
    args = ["--db", db, "--json", *argv]
    result = runner.invoke(cli, args, catch_exceptions=True)
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(*result.exc_info))
    records.append({"worker": worker, "i": i, "kind": kind, "name": name, "argv": argv,
                    "code": result.exit_code, "stdout": result.stdout, "stderr": stderr})
with open(out, "w") as f:
    json.dump(records, f)
'''


def _rowids(path: str) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [r[0] for r in conn.execute("SELECT rowid FROM stored_events ORDER BY rowid")]


def _play_at_once(tmp_path: Path, db: str) -> list[dict]:
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    env = {k: v for k, v in os.environ.items() if k not in ("CAMPAIGN_DB", "CAMPAIGN_DEBUG")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent.parent),
                                                      env.get("PYTHONPATH")]))
    procs, outs, errs = [], [], []
    try:
        for w in range(1, WORKERS + 1):
            outs.append(tmp_path / f"worker-{w}.json")
            errs.append(tmp_path / f"worker-{w}.err")
            with open(errs[-1], "w") as err:
                procs.append(subprocess.Popen(
                    [sys.executable, str(driver), db, str(w), str(COMMANDS), str(BLOCK), str(outs[-1])],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True, env=env))
        for _ in range(0, COMMANDS, BLOCK):
            for p, err in zip(procs, errs):  # wait until every worker is at the barrier ...
                line = p.stdout.readline()
                assert line.strip() == "ready", (line, p.wait(), err.read_text())
            for p in procs:  # ... then release them together
                p.stdin.write("go\n")
                p.stdin.flush()
        for p, err in zip(procs, errs):
            p.communicate(timeout=120)
            assert p.returncode == 0, err.read_text()
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    records: list[dict] = []
    for out in outs:
        records += json.loads(out.read_text())
    return records


def _verdicts(records: list[dict]) -> list[dict]:
    """Every command landed (exit 0, JSON report) or was refused (one `Error:` line, non-zero)."""
    landed = []
    for r in records:
        where = f"worker {r['worker']} command {r['i']} {r['argv']}: code {r['code']}\n{r['stderr']}"
        assert "Traceback" not in r["stdout"] + r["stderr"], where
        if r["code"] == 0:
            report = json.loads(r["stdout"])
            if r["kind"] != "read":
                r["entries"] = report["entries"]
                assert r["entries"], where
                # one transaction: the command's entries are consecutive ledger numbers, and the
                # read model had caught up with them when the command printed its report
                assert r["entries"] == list(range(r["entries"][0], r["entries"][-1] + 1)), where
                assert [h["entry"] for h in report["history"]] == r["entries"], where
                landed.append(r)
            continue
        lines = r["stderr"].strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), where
        # The commands are valid on their own: a read never fails, a PC or trait is refused only
        # when the other process kept winning, a turn also when the other one moved the Challenge on.
        assert r["kind"] != "read", where
        allowed = lines[0].startswith(CONFLICT) or (r["kind"] == "turn" and any(s in lines[0] for s in OUT_OF_TURN))
        assert allowed, where
    return landed


def test_two_processes_playing_one_campaign_at_once(table, tmp_path):
    db = table.path
    table("trait", "add", "Bo", "Steady", "+1 / 1d")
    setup = _rowids(db)
    setup_tables = dict(runner.tables(runner.connect(db)))

    records = _play_at_once(tmp_path, db)
    assert len(records) == WORKERS * COMMANDS
    landed = _verdicts(records)

    # The ledger holds exactly the entries of the commands that landed: none lost, none extra,
    # none claimed twice, and nothing set up before was touched.
    claimed = [n for r in landed for n in r["entries"]]
    assert len(claimed) == len(set(claimed)), "an entry number was reported by two commands"
    after = _rowids(db)
    assert after[:len(setup)] == setup
    assert set(claimed) == set(after[len(setup):])

    # The two processes really played at once: their commands' entries interleave (the barriers
    # make sure of it even on a loaded machine; within a block they race freely).
    by_entry = [r["worker"] for r in sorted(landed, key=lambda r: r["entries"][0])]
    switches = sum(a != b for a, b in zip(by_entry, by_entry[1:]))
    assert switches >= 2, by_entry

    # The read model is caught up with every entry, each applied once.
    conn = runner.connect(db)
    assert runner.position(conn) == after[-1]
    history = [h["entry"] for h in table.json("history")]
    assert history == after

    # Every landed trait and PC is on the sheets; every refused one is not.
    traits = {r["name"] for r in records if r["kind"] == "trait"}
    landed_traits = {r["name"] for r in landed if r["kind"] == "trait"}
    kira = table.json("sheet", "Kira")
    assert {t["name"] for t in kira["traits"]} == landed_traits
    assert landed_traits <= traits
    pcs = {r["name"] for r in records if r["kind"] == "pc"}
    landed_pcs = {r["name"] for r in landed if r["kind"] == "pc"}
    sheets = table.json("sheet")
    assert {s["name"] for s in sheets} == {"Kira", "Bo"} | landed_pcs
    assert landed_pcs <= pcs
    assert [t["name"] for s in sheets if s["name"] == "Bo" for t in s["traits"]] == ["Steady"]

    # The aggregates, replayed from the ledger, agree with the landed commands too; the snapshots
    # taken while both processes wrote give the same state as replaying every event.
    from eventsourcing.application import project_aggregate
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.ledger.ids import CAMPAIGN_ID, pc_id
    app = open_ledger(db)
    kira_id = pc_id("Kira")
    assert set(app.repository.get(kira_id).traits) == {n.casefold() for n in landed_traits}
    assert sorted(app.campaign().pcs) == sorted({"Kira", "Bo"} | landed_pcs)
    with sqlite3.connect(db) as c:
        snapshotted = {r[0] for r in c.execute("SELECT originator_id FROM stored_snapshots")}
    assert kira_id.hex in snapshotted
    for id_ in (kira_id, CAMPAIGN_ID):
        assert vars(app.repository.get(id_)) == vars(project_aggregate(None, app.events.get(id_)))

    # Re-deriving the read model from the whole ledger gives the very same tables.
    before = dict(runner.tables(conn))
    assert before != setup_tables
    rebuilt = table.json("rebuild")
    assert rebuilt["entries"] == len(after)
    assert dict(runner.tables(runner.connect(db))) == before
