"""Audit verifies the hash chain: an entry edited, dropped or moved with plain sqlite3 is named."""
import sqlite3
import subprocess
import sys

import pytest


@pytest.fixture
def demo(empty):
    empty("demo")
    return empty


def _audit(t):
    result = t("audit", "--json", ok=False)
    import json
    return result.exit_code, json.loads(result.stdout)


def test_a_clean_campaign_audits_clean_with_exit_0(demo):
    code, report = _audit(demo)
    assert code == 0 and report["clean"] and report["chain"] == "intact"
    assert report["read_tables_differ"] == []
    assert report["dice"]["Kira"] == {"entered": 16, "rolled": 0}
    assert report["dice"]["GM"] == {"entered": 7, "rolled": 0}


def test_audit_names_an_entry_whose_bytes_were_edited(demo):
    with sqlite3.connect(demo.path) as conn:
        state = conn.execute("SELECT state FROM stored_events WHERE rowid = 20").fetchone()[0]
        conn.execute("UPDATE stored_events SET state = ? WHERE rowid = 20", (state.replace(b"1", b"6", 1),))
    code, report = _audit(demo)
    assert (code, report["broken_entry"]) == (1, 20)
    assert "does not match" in report["chain"]


def test_audit_names_an_entry_that_was_deleted(demo):
    with sqlite3.connect(demo.path) as conn:
        conn.execute("DELETE FROM stored_events WHERE rowid = 31")
    code, report = _audit(demo)
    assert (code, report["broken_entry"]) == (1, 31)
    assert report["chain"] == "entry #31 is missing"


def test_audit_names_the_first_of_two_swapped_entries(demo):
    with sqlite3.connect(demo.path) as conn:
        a = conn.execute("SELECT topic, state FROM stored_events WHERE rowid = 41").fetchone()
        b = conn.execute("SELECT topic, state FROM stored_events WHERE rowid = 48").fetchone()
        conn.execute("UPDATE stored_events SET topic = ?, state = ? WHERE rowid = 41", b)
        conn.execute("UPDATE stored_events SET topic = ?, state = ? WHERE rowid = 48", a)
    code, report = _audit(demo)
    assert (code, report["broken_entry"]) == (1, 41)


def test_audit_finds_read_tables_that_no_longer_match_the_ledger(demo):
    with sqlite3.connect(demo.path) as conn:
        conn.execute("UPDATE sheets SET stress = 9 WHERE name = 'Kira'")
    code, report = _audit(demo)
    assert code == 1 and report["read_tables_differ"] == ["sheets"]


def test_audit_lists_reversals(demo):
    demo("undo", "Vault Guards:3")
    code, report = _audit(demo)
    assert code == 0 and [r["unit"] for r in report["reversals"]] == ["Vault Guards:3"]


def test_a_fresh_audit_finds_rows_put_in_another_rulesets_table(demo):
    """A fresh process plays only the campaign's ruleset's projections in its scratch rebuild, yet
    compares every ruleset's tables: a Beer Run row slipped into a Relics campaign is found."""
    import json as json_module

    from tests.live_server import ROOT, env

    with sqlite3.connect(demo.path) as conn:
        conn.execute("INSERT INTO beer_run_sheets (id, name) VALUES ('x', 'Stowaway')")
    done = subprocess.run([sys.executable, "-m", "campaign_ledger.cli", "--db", str(demo.path), "--json", "audit"], cwd=ROOT,
                          env=env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    assert "beer_run_sheets" in json_module.loads(done.stdout)["read_tables_differ"]


def test_tables_that_cannot_take_an_entry_when_rebuilt_are_reported_by_audit_not_raised(tmp_path, monkeypatch,
                                                                                          chain_check):
    """The read tables took every entry when they were applied; rebuilt now (another build of the
    program, say) they stop at one: audit reports where (exit 1, `stuck_entry`), not an error."""
    import json

    from campaign_ledger.projections import runner
    from tests.conftest import Table

    t = Table(tmp_path / "campaign.db")
    t("demo")
    real = runner.apply_entry

    def refusing(db, entry, event):
        if entry == 10:
            raise ValueError("this build cannot read it")
        real(db, entry, event)

    monkeypatch.setattr(runner, "apply_entry", refusing)
    result = t("audit", "--json", ok=False)
    report = json.loads(result.stdout)
    assert (result.exit_code, report["stuck_entry"], report["broken_entry"], report["clean"]) == (1, 10, None, False)
    assert "cannot read it" in report["stuck"]
    assert report["dice"] and report["reversals"] == []  # the lists are still read off the ledger


@pytest.mark.parametrize("rows, expected, differ", [
    ([(i,) for i in range(6)], [(i,) for i in range(6)], False),  # two whole pages, then an empty one
    ([(i,) for i in range(7)], [(i,) for i in range(7)], False),
    ([(i,) for i in range(7)], [(i,) for i in range(6)], True),  # one row more, past the last whole page
    ([(i,) for i in range(6)], [(i,) for i in range(7)], True),
    ([(i,) for i in range(7)], [*[(i,) for i in range(6)], (9,)], True),  # the last row alone differs
    ([(1,), (2,)], [(2,), (1,)], True),  # the same rows in another order
])
def test_read_tables_are_compared_row_by_row_across_pages(rows, expected, differ):
    """The audit's comparison reads both tables a page at a time: a row more, or one changed, on
    any page (the last included) is a difference; order counts."""
    from campaign_ledger.projections.compare import _differ
    assert _differ(iter(rows), iter(expected), page=3) is differ


@pytest.mark.parametrize("change, differ", [
    (None, False),
    ("UPDATE history SET line = 'PLAYED' WHERE entry = 2", True),  # case alone counts
    ("UPDATE history SET unit = '' WHERE entry = 1", True),  # an empty text is not a null
    ("UPDATE history SET unit = NULL WHERE entry = 3", True),
    ("DELETE FROM history WHERE entry = 3", True),
    ("UPDATE history SET entry = 4 WHERE entry = 3", True),  # the same rows but one, under another key
    ("INSERT INTO history (entry, time, type, line) VALUES (9, 't', 'X', 'x')", True),
    ("UPDATE history SET line = CAST(line AS BLOB) WHERE entry = 1", True),  # the same bytes, stored as a blob
])
def test_read_tables_compared_inside_sqlite_say_what_row_by_row_says(tmp_path, change, differ):
    """The audit compares each table inside SQLite (the scratch file attached): it names exactly the
    tables the row-by-row comparison names."""
    from campaign_ledger.projections import compare, runner

    files = [runner.connect(str(tmp_path / name)) for name in ("mine.db", "fresh.db")]
    for db in files:
        db.conn.executemany("INSERT INTO history (entry, time, type, line, unit) VALUES (?, 't', 'X', ?, ?)",
                            [(1, "made", "a"), (2, "played", "b"), (3, "ended", "c")])
    if change:
        files[0].conn.execute(change)
    found = compare.differing(*files)
    assert found == (["history"] if differ else [])
    assert compare._differ(compare._rows(files[0], "history"), compare._rows(files[1], "history")) is differ
    assert files[0].conn.execute("PRAGMA database_list").fetchall()[1:] == []  # the scratch file let go
