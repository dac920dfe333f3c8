"""Anchors, the command log inside the chain, and commands that check the chain as they go
(issue 16, items 4 and 5)."""
from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import Table
from tests.test_tamper import recompute

FIXTURE = Path(__file__).parent / "fixtures" / "relics_demo_v1.jsonl"
ANCHOR = re.compile(r"campaign-ledger anchor #(\d+) sha256:[0-9a-f]{64}")


@pytest.fixture
def demo(empty) -> Table:
    empty("demo")
    return empty


def _audit(t: Table, *args: str) -> tuple[int, dict]:
    result = t("audit", "--json", *args, ok=False)
    return result.exit_code, json.loads(result.stdout)


def _sql(t: Table, sql: str, params: tuple = ()) -> None:
    with sqlite3.connect(t.path) as conn:
        conn.execute(sql, params)


def _forge_phantom_5(t: Table) -> int:
    """Kira's Phantom 3 becomes 5 in the entry that added her, every hash recomputed."""
    with sqlite3.connect(t.path) as conn:
        entry, state = conn.execute("SELECT rowid, state FROM stored_events WHERE CAST(state AS TEXT) LIKE ?",
                                    ('%"Phantom":3%',)).fetchone()
        conn.execute("UPDATE stored_events SET state = ? WHERE rowid = ?",
                     (state.replace(b'"Phantom":3', b'"Phantom":5', 1), entry))
        recompute(conn)
    return entry


def test_anchor_prints_the_head_of_the_chain_as_one_line(demo):
    line = demo("anchor").stdout.strip()
    assert ANCHOR.fullmatch(line) and int(ANCHOR.match(line).group(1)) == demo.entries()
    as_json = demo.json("anchor")
    assert as_json["anchor"] == line and as_json["entry"] == demo.entries() and line.endswith(as_json["hash"])


@pytest.mark.parametrize("fmt", ["md", "html", "csv", "jsonl"])
def test_every_export_ends_with_the_anchor_line(demo, fmt):
    out = demo("export", "--format", fmt, "--session", "1").stdout.rstrip().splitlines()[-3:]
    anchor = demo("anchor").stdout.strip()
    assert any(anchor in line for line in out), out


def test_audit_with_a_kept_anchor_is_clean_and_stays_clean_after_more_play(demo):
    anchor = demo("anchor").stdout.strip()
    demo("pc", "add", "Wren", "--expertise", "Phantom=2", "--primary", "Phantom")
    code, report = _audit(demo, "--anchor", anchor)
    assert code == 0 and report["clean"]


def test_a_pasted_export_line_is_read_as_an_anchor(demo):
    last = demo("export", "--format", "md").stdout.rstrip().splitlines()[-1]
    assert _audit(demo, "--anchor", f"  {last.upper()}  ")[0] == 0


def test_a_malformed_anchor_is_refused_as_malformed(demo):
    result = demo("audit", "--anchor", "#12 abc", ok=False)
    assert result.exit_code == 2 and result.stderr.startswith("Error: ") and "An anchor reads like" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_item_4_a_deleted_command_row_fails_audit_and_undo_offers_nothing(demo):
    with sqlite3.connect(demo.path) as conn:
        first = conn.execute("SELECT max(first_entry) FROM ledger_commands WHERE unit IS NOT NULL").fetchone()[0]
        conn.execute("DELETE FROM ledger_commands WHERE first_entry = ?", (first,))
    code, report = _audit(demo)
    assert (code, report["broken_entry"]) == (1, first)
    assert f"#{first}" in demo.refused("undo", "--dry-run")


def test_item_5_a_forged_entry_with_recomputed_hashes_is_caught(demo):
    anchor = demo("anchor").stdout.strip()
    _forge_phantom_5(demo)
    refused = demo.refused("rebuild")  # the read tables applied another hash at their position
    assert "rebuild --force" in refused
    assert f"#{demo.entries()}" in demo.refused("scene", "end")
    code, report = _audit(demo, "--anchor", anchor)
    assert (code, report["broken_entry"]) == (1, demo.entries()) and "rewritten" in report["chain"]


def test_item_5_deleting_the_last_entry_with_its_rows_is_caught_by_the_anchor(demo):
    anchor = demo("anchor").stdout.strip()
    last = demo.entries()
    _sql(demo, "DELETE FROM stored_events WHERE rowid = ?", (last,))
    _sql(demo, "DELETE FROM ledger_chain WHERE entry = ?", (last,))
    _sql(demo, "UPDATE ledger_commands SET last_entry = ? WHERE last_entry = ?", (last - 1, last))
    _sql(demo, "DELETE FROM ledger_commands WHERE first_entry = ?", (last,))
    demo("rebuild", "--force")
    code, report = _audit(demo, "--anchor", anchor)
    assert (code, report["broken_entry"]) == (1, last) and "not in the ledger" in report["chain"]


def test_new_entries_are_verified_as_the_read_tables_catch_up(demo):
    """An entry edited before the read tables applied it: reads warn, writes are refused."""
    from campaign_ledger.projections.runner import READ_TABLES

    with sqlite3.connect(demo.path) as conn:
        for table in (*READ_TABLES, "position", "chain_checked"):
            conn.execute(f"DELETE FROM [{table}]")
        state = conn.execute("SELECT state FROM stored_events WHERE rowid = 20").fetchone()[0]
        conn.execute("UPDATE stored_events SET state = ? WHERE rowid = 20", (state.replace(b"1", b"6", 1),))
    read = demo("history", ok=False)
    assert read.exit_code == 0 and read.stderr.startswith("Warning: the hash chain is broken at entry #20")
    assert "#19" in read.stdout and "#20 " not in read.stdout
    assert "entry #20" in demo.refused("pc", "add", "Wren", "--expertise", "Phantom=2", "--primary", "Phantom")
    assert "rebuild --force" in demo.refused("rebuild")


def test_an_audit_that_finds_a_break_makes_later_writes_refuse_until_it_is_mended(demo):
    _sql(demo, "UPDATE ledger_commands SET unit = 'Nobody:1' WHERE first_entry = "
               "(SELECT max(first_entry) FROM ledger_commands WHERE first_entry < 40)")
    assert _audit(demo)[0] == 1
    demo.refused("pc", "add", "Wren", "--expertise", "Phantom=2", "--primary", "Phantom")
    assert "Warning" in demo("history", ok=False).stderr


def test_an_old_file_keeps_its_version_1_chain_and_new_entries_use_version_2(empty, tmp_path):
    empty("import", str(FIXTURE))
    with sqlite3.connect(empty.path) as conn:
        v2_from = int(conn.execute("SELECT value FROM ledger_meta").fetchone()[0])
    assert v2_from == empty.entries() + 1
    empty("pc", "add", "Wren", "--expertise", "Phantom=2", "--primary", "Phantom")
    assert _audit(empty)[0] == 0
    first = v2_from  # a command row of the new entries is inside the chain...
    _sql(empty, "UPDATE ledger_commands SET unit = 'Nobody:1' WHERE first_entry = ?", (first,))
    assert _audit(empty)[1]["broken_entry"] == first


def test_an_old_files_command_log_is_still_checked_for_gaps(empty):
    empty("import", str(FIXTURE))
    with sqlite3.connect(empty.path) as conn:
        first = conn.execute("SELECT min(first_entry) FROM ledger_commands WHERE first_entry > 5").fetchone()[0]
        conn.execute("DELETE FROM ledger_commands WHERE first_entry = ?", (first,))
    assert _audit(empty)[1]["broken_entry"] == first


def test_an_export_of_a_version_2_ledger_imports_with_the_same_hashes(demo, tmp_path):
    exported = tmp_path / "demo.jsonl"
    demo("export", "--format", "jsonl", "-o", str(exported))
    copy = Table(tmp_path / "copy.db")
    copy("import", str(exported))
    assert copy("anchor").stdout == demo("anchor").stdout
    assert _audit(copy, "--anchor", demo("anchor").stdout.strip())[0] == 0


def test_removing_the_chain_version_marker_breaks_the_chain(demo):
    _sql(demo, "DELETE FROM ledger_meta")
    assert _audit(demo)[1]["broken_entry"] == 1


def test_an_anchor_the_ledger_does_not_extend_fails_audit_but_does_not_lock_the_file(demo):
    wrong = f"campaign-ledger anchor #{demo.entries()} sha256:{'a' * 64}"
    code, report = _audit(demo, "--anchor", wrong)
    assert (code, report["broken_entry"]) == (1, demo.entries()) and "rewritten" in report["chain"]
    demo("pc", "add", "Wren", "--expertise", "Phantom=2", "--primary", "Phantom")  # perhaps a mistyped anchor


@pytest.mark.parametrize("read", [("history",), ("sheet",), ("export", "--format", "md"),
                                  ("decision-2d6", "sheet")])
def test_reads_on_a_broken_chain_answer_with_one_warning_line(demo, read):
    _sql(demo, "UPDATE ledger_commands SET unit = 'Nobody:1' WHERE first_entry = "
               "(SELECT max(first_entry) FROM ledger_commands WHERE first_entry < 40)")
    demo("audit", ok=False)
    result = demo(*read, ok=False)
    warnings = [line for line in result.stderr.splitlines() if line.startswith("Warning: the hash chain is broken")]
    assert len(warnings) == 1 and "Traceback" not in result.output


def test_with_campaign_key_a_forgery_with_recomputed_hashes_fails_without_any_anchor(demo, tmp_path, monkeypatch):
    monkeypatch.setenv("CAMPAIGN_KEY", "the GM's secret")
    signed = Table(tmp_path / "signed.db")
    signed("demo")
    assert _audit(signed) == (0, _audit(signed)[1]) and _audit(signed)[1]["signed_from"] == 1
    entry = _forge_phantom_5(signed)
    code, report = _audit(signed)
    assert (code, report["broken_entry"]) == (1, entry) and "CAMPAIGN_KEY" in report["chain"]
    monkeypatch.setenv("CAMPAIGN_KEY", "a mistyped key")
    assert _audit(signed)[1]["broken_entry"] == 1 and _audit(signed)[1]["broken_by_key"]
    monkeypatch.delenv("CAMPAIGN_KEY")
    assert _audit(demo)[0] == 0 and _audit(demo)[1]["signed_from"] is None  # unsigned files: unchanged
