"""A rebuild of a long ledger in a file has its whole chain recomputed by a second process while
it applies the rows (projections/verifying.py `Beside`, ledger/side_process.py): it must leave
the tables, refusals and precedence that verifying the rows as they are read leaves."""
from __future__ import annotations

import os
import signal
import sqlite3

import pytest

from campaign_ledger.ledger.errors import ReadModelStuck
from campaign_ledger.ledger import side_process
from campaign_ledger.ledger.side_process import KILLED
from campaign_ledger.projections import runner, verifying
from tests.test_rebuild_batches import _every_way, _played, _tampered_rebuild


def test_a_long_ledger_in_a_file_is_verified_beside_a_short_one_as_it_is_read(tmp_path, monkeypatch):
    app = _played(tmp_path, "relics")
    entries = app.recorder.max_notification_id()
    for side_from, kind in ((entries, verifying.Beside), (entries + 1, verifying.Verifying)):
        monkeypatch.setattr(side_process, "SIDE_FROM", side_from)
        feed = verifying.whole_chain(app)
        try:
            assert type(feed) is kind
        finally:
            feed.close()


@pytest.mark.parametrize("ruleset", ["relics", "beer-run"])
def test_the_tables_are_those_a_rebuild_verifying_as_it_reads_leaves(tmp_path, monkeypatch, chain_check, ruleset):
    _every_way(_played(tmp_path, ruleset), tmp_path, monkeypatch)


def _edit_entry_20(conn):
    state = conn.execute("SELECT state FROM stored_events WHERE rowid = 20").fetchone()[0]
    conn.execute("UPDATE stored_events SET state = ? WHERE rowid = 20", (state.replace(b"1", b"6", 1),))


def test_a_break_is_refused_by_its_entry_and_nothing_is_kept(tmp_path, chain_check):
    before, after, (code, refusal) = _tampered_rebuild(tmp_path, _edit_entry_20)
    assert code == 1 and refusal.startswith("Error: The ledger's hash chain is broken at entry #20: entry #20 "
                                            "does not match its hash")
    assert len(refusal.splitlines()) == 1 and after == before


def test_a_stray_command_after_the_last_entry_is_refused_too(tmp_path, chain_check):
    def stray(conn):
        last = conn.execute("SELECT max(rowid) FROM stored_events").fetchone()[0]
        conn.execute("INSERT INTO ledger_commands (first_entry, last_entry, command, unit, detail) "
                     "VALUES (?, ?, 'gm', NULL, '{}')", (last + 5, last + 5))
    before, after, (code, refusal) = _tampered_rebuild(tmp_path, stray)
    assert code == 1 and "which is not in the ledger" in refusal and after == before


def _stuck_at(monkeypatch, entry: int) -> None:
    original = runner.apply_entry

    def refuse(db, n, event):
        if n == entry:
            raise ValueError("no table takes this")
        original(db, n, event)
    monkeypatch.setattr(runner, "apply_entry", refuse)


def test_a_break_after_an_entry_the_tables_cannot_take_is_the_graver_news(tmp_path, monkeypatch, chain_check):
    def edit_and_stick(conn):  # the tables were caught up before: they take every entry until now
        _edit_entry_20(conn)
        _stuck_at(monkeypatch, 7)
    before, after, (code, refusal) = _tampered_rebuild(tmp_path, edit_and_stick)
    assert code == 1 and refusal.startswith("Error: The ledger's hash chain is broken at entry #20")
    assert after == before


def test_an_entry_the_tables_cannot_take_keeps_those_before_it(tmp_path, monkeypatch, chain_check):
    app = _played(tmp_path, "relics")
    db = runner.connect(str(tmp_path / "read.db"))
    _stuck_at(monkeypatch, 7)
    with pytest.raises(ReadModelStuck) as stuck:
        runner.rebuild(app, db, whole=True)
    assert stuck.value.entry == 7 and runner.position(db) == 6


def test_a_killed_chain_check_refuses_in_one_line_and_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(side_process, "SIDE_FROM", 0)
    monkeypatch.setattr(verifying, "_verified_whole", lambda *_: os.kill(os.getpid(), signal.SIGKILL))
    before, after, (code, refusal) = _tampered_rebuild(tmp_path, lambda conn: None)
    assert code == 1 and refusal == f"Error: {KILLED}"
    assert after == before


def test_an_error_in_the_chain_check_reaches_the_rebuild(tmp_path, monkeypatch):
    """Not swallowed, not a hang: the second process's error is raised here, and nothing is kept."""
    def fails(*_):
        raise sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(side_process, "SIDE_FROM", 0)
    monkeypatch.setattr(verifying, "_verified_whole", fails)
    app = _played(tmp_path, "relics")
    db = runner.connect(str(tmp_path / "read.db"))
    runner.catch_up(app, db)
    before = list(runner.tables(db))
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        runner.rebuild(app, db, whole=True)
    assert list(runner.tables(db)) == before


def test_an_audit_reports_the_same_break_and_lists(tmp_path, chain_check):
    """An audit rebuilds into a scratch file the same way: the same verdict, and when clean the same lists."""
    import json

    from click.testing import CliRunner
    from campaign_ledger.cli import cli

    _played(tmp_path, "relics").close()
    path = str(tmp_path / "relics.db")
    clean = json.loads(CliRunner().invoke(cli, ["--db", path, "audit", "--json"]).stdout)
    assert clean["clean"] and clean["dice"] and clean["chain"] == "intact"
    with sqlite3.connect(path) as conn:
        _edit_entry_20(conn)
    result = CliRunner().invoke(cli, ["--db", path, "audit", "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["broken_entry"] == 20 and not report["clean"]
    assert report["chain"].startswith("entry #20 does not match its hash")


@pytest.mark.parametrize("stuck", [False, True])
def test_an_audit_beside_says_what_an_audit_as_read_says(tmp_path, monkeypatch, stuck):
    """Every field of the report: the lists, the dice, the verdicts (the pass beside saw every entry)."""
    import json

    from click.testing import CliRunner
    from campaign_ledger.cli import cli

    from tests.conftest import Table

    t = Table(tmp_path / "campaign.db")
    t("demo")
    t("undo", "--yes")
    if stuck:
        _stuck_at(monkeypatch, 10)
    reports = []
    for side_from in (10**12, 0):
        monkeypatch.setattr(side_process, "SIDE_FROM", side_from)
        result = CliRunner().invoke(cli, ["--db", t.path, "audit", "--json"])
        reports.append((result.exit_code, json.loads(result.stdout)))
    assert reports[0] == reports[1]
    assert reports[0][1]["reversals"] and reports[0][1]["dice"]
    assert reports[0][1]["stuck_entry"] == (10 if stuck else None)


def test_undo_refuses_a_broken_chain_checked_in_two_halves(tmp_path, monkeypatch):
    """ledger/chain_halves.py with a second process: the break is named as checking it whole names it.
    (Undo verifies the whole chain when the read tables never verified it; else what it reads from
    there: tests/test_undo_flat.py. Entry 20 is not what undoing the latest unit reads.)"""
    from tests.conftest import Table

    monkeypatch.setattr(side_process, "SIDE_FROM", 0)
    started = []
    real = side_process.SideProcess.__init__
    monkeypatch.setattr(side_process.SideProcess, "__init__", lambda self, *a: started.append(a[0]) or real(self, *a))
    t = Table(tmp_path / "campaign.db")
    t("demo")
    with sqlite3.connect(t.path) as conn:
        _edit_entry_20(conn)
        conn.execute("DELETE FROM chain_checked")
    refusal = t.refused("undo", "--yes")
    assert refusal.startswith("Error: The ledger's hash chain is broken at entry #20: entry #20 does not match")
    assert "undo refused" in refusal and any(work.__name__ == "_from" for work in started)


def test_a_killed_second_half_refuses_in_one_line(tmp_path, monkeypatch):
    from campaign_ledger.ledger import chain_halves
    from tests.conftest import Table

    monkeypatch.setattr(side_process, "SIDE_FROM", 0)
    monkeypatch.setattr(chain_halves, "_from", lambda *_: os.kill(os.getpid(), signal.SIGKILL))
    t = Table(tmp_path / "campaign.db")
    t("demo")
    with sqlite3.connect(t.path) as conn:  # never verified by the read tables: undo checks the whole chain
        conn.execute("DELETE FROM chain_checked")
    assert t.refused("undo", "--yes") == f"Error: {KILLED}"


@pytest.mark.parametrize("quota, allowed, expected", [
    ("max 100000\n", {0, 1}, 2),       # no quota: the cores its affinity allows
    ("100000 100000\n", {0, 1}, 1.0),  # one core's time on a two-core machine
    ("150000 100000\n", {0}, 1),       # pinned to one core, whatever the quota
    (None, {0, 1}, 2),                 # no cgroup file (not Linux's v2 cgroups)
    ("garbled", {0, 1}, 2),
])
def test_cores_counts_only_the_cores_the_process_may_use(tmp_path, monkeypatch, quota, allowed, expected):
    path = tmp_path / "cpu.max"
    if quota is not None:
        path.write_text(quota)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: allowed)
    assert side_process.cores(str(path)) == expected


def test_a_process_pinned_to_one_core_reads_a_long_ledger_alone(tmp_path, monkeypatch):
    app = _played(tmp_path, "relics")
    monkeypatch.setattr(side_process, "SIDE_FROM", 0)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    feed = verifying.whole_chain(app)
    try:
        assert type(feed) is verifying.Verifying
    finally:
        feed.close()


def test_an_audits_scratch_file_stays_without_a_full_text_index(tmp_path, chain_check):
    """Nothing searches the scratch file: its index is not made again and filled by the rebuild
    (which makes a missing read table again), and the tables still compare equal."""
    from campaign_ledger.projections import bulk, compare

    app = _played(tmp_path, "relics")
    db = runner.connect(str(tmp_path / "read.db"))
    runner.catch_up(app, db)
    with compare.scratch_rebuild(app) as scratch:
        assert scratch.broken is None and scratch.stuck is None
        assert bulk.fts_indexes(scratch.fresh) == [] and bulk.fts_indexes(db) == ["history_fts"]
        assert compare.differing(db, scratch.fresh) == []


def test_an_audit_on_a_busy_machine_watches_here_and_reports_the_same(tmp_path, monkeypatch):
    """No idle core: the lists and snapshot check stay in this process (the second one only
    hashes: its watching would fail here), and the report is the one its watching gives."""
    import json

    from click.testing import CliRunner
    from campaign_ledger.cli import cli

    monkeypatch.setattr(side_process, "SIDE_FROM", 0)
    _played(tmp_path, "relics").close()
    path = str(tmp_path / "relics.db")
    reports = []
    for idle in (True, False):
        monkeypatch.setattr(side_process, "core_idle", lambda: idle)
        if not idle:
            monkeypatch.setattr(verifying, "_watched_whole", lambda *_: 1 / 0)
        reports.append(json.loads(CliRunner().invoke(cli, ["--db", path, "audit", "--json"]).stdout))
    assert reports[0] == reports[1] and reports[0]["clean"] and reports[0]["dice"]


@pytest.mark.parametrize("line,idle", [("0.40 0.10 0.05 1/134 835", True), ("3.10 1.00 0.50 1/134 835", True),
                                       ("0.20 0.10 0.05 2/134 835", False), ("0.20 0.10 0.05 7/134 835", False)])
def test_a_core_is_idle_while_what_runs_now_leaves_one(tmp_path, monkeypatch, line, idle):
    """What runs now counts, not the minute's average (3.10 after an import just ended: idle)."""
    monkeypatch.setattr(side_process, "cores", lambda: 2)
    (tmp_path / "loadavg").write_text(line + "\n")
    assert side_process.core_idle(str(tmp_path / "loadavg")) is idle


@pytest.mark.parametrize("load,idle", [((0.4, 0.0, 0.0), True), ((1.6, 9.0, 9.0), False)])
def test_without_a_count_of_what_runs_the_minutes_load_decides(tmp_path, monkeypatch, load, idle):
    monkeypatch.setattr(side_process, "cores", lambda: 2)
    monkeypatch.setattr(side_process.os, "getloadavg", lambda: load)
    assert side_process.core_idle(str(tmp_path / "none")) is idle
