"""A read position moved past the ledger's end is a fault named, not a silence: catching up from
it would skip every entry up to it (the next write's entries would never show), and the audit
compared only the tables' rows, which still equal a rebuild. Rebuild mends it."""
from __future__ import annotations

import json
import sqlite3

from tests.conftest import Table


def _moved(tmp_path) -> Table:
    t = Table(tmp_path / "demo.db")
    t("demo")
    conn = sqlite3.connect(t.path, isolation_level=None)
    conn.execute("UPDATE position SET entry = entry + 5")
    conn.close()
    return t


def test_the_audit_names_a_position_past_the_ledger_end(tmp_path):
    t = _moved(tmp_path)
    end = t.entries()
    result = t("audit", "--json", ok=False)
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and not report["clean"], report
    assert report["stuck_entry"] == end + 5 and f"ends at entry #{end}" in report["stuck"], report
    assert "campaign rebuild" in report["stuck"]


def test_a_write_on_it_says_its_entries_were_recorded_and_the_fault_in_one_line(tmp_path):
    t = _moved(tmp_path)
    before = t.entries()
    result = t("session", "start", "Next", ok=False)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and "position was moved past it" in lines[0], result.stderr
    assert t.entries() == before + 1 and f"entries #{before + 1} were recorded" in lines[0]


def test_reads_warn_and_rebuild_mends_it_so_the_next_write_shows(tmp_path):
    t = _moved(tmp_path)
    assert "position was moved past it" in t("history", "--limit", "1").stderr
    t("rebuild")
    assert t.json("audit")["clean"]
    t("session", "start", "After the mend")
    assert "After the mend" in t("history", "--limit", "1").stdout
