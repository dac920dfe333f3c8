"""Undoing `session start` or `session end` (issue 34 finding 1): the sessions table reads as in a
campaign that never played the undone command, so the next session takes the number it would have
there, and `session list` agrees with what `session start` and `session end` accept."""
from __future__ import annotations

import pytest

from campaign_ledger.projections import runner
from tests.conftest import Table


def _sessions(t: Table) -> list[tuple]:
    db = runner.connect(t.path)
    try:
        return [(r["number"], r["title"], r["ended"] is not None)
                for r in db.table("sessions").rows_where(order_by="number")]
    finally:
        db.conn.close()


def _clean(t: Table) -> None:
    """Audit clean, and the read tables equal a rebuild, row for row."""
    t("audit")
    assert t.differs_from_rebuild() == []


@pytest.mark.parametrize("ruleset", ["relics", "action-dice"])
def test_a_session_started_again_after_its_start_was_undone_takes_its_number(tmp_path, ruleset):
    t = Table(tmp_path / "s.db")
    t("new", "Heist", "--ruleset", ruleset)
    t("session", "start", "A")
    t("undo", "--yes")
    assert _sessions(t) == []
    assert "No session is open" in t.refused("session", "end")
    t("session", "start", "B")  # was: UNIQUE constraint failed: sessions.number, the campaign stuck for good
    assert _sessions(t) == [(1, "B", False)]
    t("session", "end")
    t("session", "start", "C")
    assert _sessions(t) == [(1, "B", True), (2, "C", False)]
    _clean(t)
    t("rebuild")
    assert _sessions(t) == [(1, "B", True), (2, "C", False)]


def test_an_undone_session_end_lists_the_session_open_again(tmp_path):
    t = Table(tmp_path / "s.db")
    t("new", "Heist")
    t("session", "start", "A")
    t("session", "end")
    t("undo", "--yes")
    assert _sessions(t) == [(1, "A", False)]
    assert "(open)" in t("session", "list").stdout
    assert "still open" in t.refused("session", "start", "B")
    t("session", "end")
    t("session", "start", "B")
    assert _sessions(t) == [(1, "A", True), (2, "B", False)]
    _clean(t)
