"""The logs of balances and sheet versions keep every row, and the rows an undo reversed say so
(`reversed_at`, the undo's entry), as the history's do (issue 33: a read table follows the state
or is a log whose rows say they were reversed)."""
from __future__ import annotations

import sqlite3


def _rows(table, sql):
    conn = sqlite3.connect(table.path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_balance_changes_and_sheet_versions_an_undo_reversed_carry_its_entry(table):
    first = table.entries()  # the round (both turns) is the unit undone
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,3,3,4", "--best")
    table("challenge-turn", "Guards", "--faces", "6,6,5,5", "--stress", "Kira=2,Bo=2")
    round_entries = set(range(first + 1, table.entries() + 1))
    undone = table.entries()
    table("undo", "--yes")
    undo = _rows(table, f"SELECT min(reversed_at) FROM history WHERE entry > {first}")[0][0]
    assert undo > undone  # the history marks the round with the undo's first entry; so do the logs
    marked = _rows(table, "SELECT entry, reversed_at FROM balance_changes WHERE reversed_at IS NOT NULL")
    assert marked and {e for e, _ in marked} <= round_entries and {r for _, r in marked} == {undo}
    kept = _rows(table, f"SELECT count(*) FROM balance_changes WHERE reversed_at IS NULL AND entry <= {first}")[0][0]
    assert kept > 0  # play before the undone turn stays unmarked
    versions = _rows(table, "SELECT entry, reversed_at FROM sheet_versions WHERE reversed_at IS NOT NULL")
    assert versions and {e for e, _ in versions} <= round_entries and {r for _, r in versions} == {undo}


def test_a_rebuild_marks_the_same_rows(table, tmp_path):
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,3,3,4", "--best")
    table("challenge-turn", "Guards", "--faces", "6,6,5,5", "--stress", "Kira=2,Bo=2")
    table("undo", "--yes")
    sql = "SELECT * FROM balance_changes ORDER BY balance, entry"
    logs = ("SELECT * FROM sheet_versions ORDER BY id, entry",)
    before = [_rows(table, q) for q in (sql, *logs)]
    table("rebuild", "--force")
    assert [_rows(table, q) for q in (sql, *logs)] == before
