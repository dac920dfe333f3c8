"""A read table dropped from a campaign file is named by the audit, with what restores it, and
`rebuild` makes it again from the ledger (both failed "unexpectedly: no such table")."""
from __future__ import annotations

import sqlite3

import pytest

from tests.conftest import Table


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> str:
    t = Table(tmp_path_factory.mktemp("dropped") / "demo.db")
    t("demo")
    return t.path


@pytest.mark.parametrize("table, named", [("history", "read table history is"), ("pools", "read table pools is"),
                                          ("history_fts", "read tables history_fts, "),
                                          ("campaign", "read table campaign is"),  # read before the tables are
                                          ("chain_checked", "read table chain_checked is"),  # rebuilt: made first
                                          ("position", "read table position is")])
def test_a_dropped_read_table_is_named_by_audit_and_made_again_by_rebuild(demo, tmp_path, table, named):
    t = Table(tmp_path / "copy.db")
    with sqlite3.connect(demo) as src, sqlite3.connect(t.path) as dst:
        src.backup(dst)
    conn = sqlite3.connect(t.path)
    conn.execute(f"DROP TABLE {table}")
    conn.close()
    refusal = t.refused("audit")
    assert named in refusal and "`campaign rebuild`" in refusal and "unexpectedly" not in refusal, refusal
    t("rebuild")
    assert t.json("audit")["clean"]
    t("session", "start", "Mended")
    assert "Mended" in t("history", "--limit", "1").stdout


@pytest.mark.parametrize("command", [("history",), ("sheet",), ("pools",), ("session", "start", "Later")])
def test_every_command_names_a_dropped_read_table_and_appends_nothing(demo, tmp_path, command):
    t = Table(tmp_path / "copy.db")
    with sqlite3.connect(demo) as src, sqlite3.connect(t.path) as dst:
        src.backup(dst)
    conn = sqlite3.connect(t.path)
    conn.execute("DROP TABLE history")
    conn.close()
    refusal = t.refused(*command)  # one Error line, exit non-zero, nothing appended
    assert "read table history is missing" in refusal and "`campaign rebuild`" in refusal, refusal
