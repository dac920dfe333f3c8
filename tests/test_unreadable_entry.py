"""An entry whose stored state no longer decodes, re-chained so the hashes agree, is named by the
audit (stuck at that entry, exit 1), never "failed unexpectedly" (found by bench/attacks/tamper.py:
an edited month of 61 in a rolled pool's time)."""
from __future__ import annotations

import sqlite3

from tests.conftest import Table
from tests.test_tamper import events_edit, recompute


def _forge(path: str) -> int:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        entry = events_edit(conn, True)
        recompute(conn)
        conn.execute("DELETE FROM stored_snapshots")
        head = conn.execute("SELECT entry, hash FROM ledger_chain ORDER BY entry DESC LIMIT 1").fetchone()
        conn.execute("UPDATE chain_checked SET entry = ?, hash = ?", head)
        return entry
    finally:
        conn.close()


def test_an_entry_that_cannot_be_read_is_named_by_the_audit(tmp_path):
    t = Table(tmp_path / "heist.db")
    t("demo")
    entry = _forge(t.path)
    result = t("audit", ok=False)
    assert result.exit_code == 1
    assert f"STUCK at entry #{entry}" in result.stdout and "NOT clean" in result.stdout
    assert "unexpectedly" not in result.output and "Traceback" not in result.output
    out = t("--json", "audit", ok=False)
    assert '"stuck_entry": %d' % entry in out.stdout
