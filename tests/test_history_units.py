"""`history` names each entry's undo unit as `undo --list` names it, and an undone entry what
reversed it; the names are kept in the read tables (a rebuild and a PostgreSQL ledger give the same)."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_ledger.ledger import units
from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.projections import runner
from tests.conftest import Table
from tests.test_postgres import postgres_ledger  # noqa: F401  (a fixture)
from tests.test_reversals import SETUP, UNDONE, _play
from tests.test_undo_units import MOVES, SETUP as RULESET_SETUP, _play as _play_moves

ROUND_2 = ("challenge-turn", "G", "--faces", "2,2")


def _by_entry(t: Table) -> dict[int, dict]:
    return {r["entry"]: r for r in t.json("history")}


def _ledger_units(path: str) -> dict[int, tuple[str, tuple[int, int] | None]]:
    """Each entry's unit and the reversing command's entries, straight from the command log."""
    app = open_ledger(path)
    try:
        return {e: (unit.key, reversal) for unit, reversal in units.every_unit(app.recorder)
                for first, last in unit.ranges for e in range(first, last + 1)}
    finally:
        app.close()


def test_every_entry_names_the_unit_undo_lists_and_new_names_none(tmp_path: Path) -> None:
    t = _play(tmp_path / "x.db", SETUP)
    rows = _by_entry(t)
    listed = t.json("undo", "--list", "--limit", "100")
    assert rows[1]["unit"] is None  # `new` is no unit
    for u in listed:
        assert rows[u["entries"][0]]["unit"] == rows[u["entries"][1]]["unit"] == u["unit"]
    assert {r["unit"] for r in rows.values()} - {None} == {u["unit"] for u in listed}
    assert "[G:1] G round 1: Cohort pool of 3d6" in t("history").stdout


def test_an_undone_entry_names_the_undo_and_the_undo_itself_is_no_unit(tmp_path: Path) -> None:
    t = _play(tmp_path / "x.db", SETUP + UNDONE)
    before = len(_by_entry(t))
    t("undo", "G:2", "--yes")
    rows = _by_entry(t)
    undone = [r for r in rows.values() if r["unit"] == "G:2"]
    assert undone and all(r["reversed_by"] == "undo G:2" and r["reversed_at"] == before + 1 for r in undone)
    assert all(r["unit"] is None and r["reversed_by"] is None for e, r in rows.items() if e > before)
    assert f"[G:2; undone at #{before + 1} by undo G:2] G round 2" in t("history").stdout


def test_a_cascade_names_every_unit_it_reversed_newest_first(tmp_path: Path) -> None:
    t = _play(tmp_path / "x.db", SETUP[:-3] + [("cohort-turn", "G", "--leader", "Kira", "--faces", "2,2,2"),
                                               ROUND_2, ("cohort-turn", "G", "--faces", "2,3,4")])
    t("undo", "G:1", "--cascade", "--yes")
    rows = _by_entry(t).values()
    assert {r["reversed_by"] for r in rows if r["unit"] in ("G:1", "G:2")} == {"undo G:2, G:1"}


def test_two_pushes_are_two_units_and_a_committed_replay_names_itself(tmp_path: Path) -> None:
    t = _play(tmp_path / "x.db", SETUP[:-3] + [("push", "Kira", "--gm-override", "she insists")] * 2)
    assert [r["unit"] for r in t.json("history") if r["type"] == "Character.PushedTheLimit"] \
        == ["push Kira #1", "push Kira #2"]
    empty = Table(tmp_path / "demo.db")
    empty("demo")
    entries = empty.entries()
    empty("replay", "Vault Guards:3", "--drop-trait", "nothing", "--commit")
    rows = _by_entry(empty)
    assert {r["reversed_by"] for r in rows.values() if r["reversed_at"]} == {"replay Vault Guards:3"}
    assert rows[entries + 1]["unit"] == "Vault Guards:3"  # the correction is the round played again


def test_rebuild_and_a_file_made_before_units_were_kept_give_the_same_names(tmp_path: Path) -> None:
    t = _play(tmp_path / "x.db", SETUP + UNDONE)
    t("undo", "G:2", "--yes")
    live = t.json("history")
    t("rebuild")
    assert t.json("history") == live
    db = runner.connect(t.path)
    db.execute("UPDATE history SET unit = NULL, reversed_by = NULL")  # as the columns arrive on an older file
    db.conn.close()
    assert t.json("history") == live
    assert t.json("audit")["clean"]


def test_history_names_units_when_the_ledger_is_on_postgresql(tmp_path: Path, postgres_ledger) -> None:  # noqa: F811
    t = Table(tmp_path / "read.db")
    t("demo")
    t("undo", "Vault Guards:3", "--yes")
    units = _ledger_units(t.path)
    rows = t.json("history")
    assert all(r["unit"] == (units[r["entry"]][0] if r["entry"] in units else None) for r in rows)
    assert {r["reversed_by"] for r in rows if r["reversed_at"]} == {"undo Vault Guards:3"}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                               HealthCheck.function_scoped_fixture])
@given(data=st.data(), ruleset=st.sampled_from(sorted(MOVES)))
def test_history_units_are_the_command_logs_after_random_play_and_undo(tmp_path_factory, data, ruleset):
    t = Table(tmp_path_factory.mktemp("units") / "c.db")
    for args in RULESET_SETUP[ruleset]:
        t(*args)
    _play_moves(t, data.draw(st.lists(MOVES[ruleset], min_size=2, max_size=12)))
    listed = [u for u in t.json("undo", "--list", "--limit", "1000") if ": made" not in u["did"]]
    if listed:
        t("undo", data.draw(st.sampled_from(listed))["unit"], "--cascade", "--yes", ok=False)
    units = _ledger_units(t.path)
    for row in t.json("history"):
        unit, reversal = units.get(row["entry"], (None, None))
        assert row["unit"] == unit
        assert (row["reversed_by"] is not None) == (reversal is not None)
        if reversal is not None:
            assert unit in row["reversed_by"] and reversal[0] <= row["reversed_at"] <= reversal[1]


def test_a_catch_up_reads_only_the_commands_after_the_last_one(tmp_path: Path, monkeypatch) -> None:
    """The namer keeps where it stopped with the rows it named, so the next command's catch-up reads
    the command log from there, not from the first command (at a million entries that was 15 s a
    turn); the names it gives still equal the command log's."""
    from campaign_ledger.ledger.chain import ChainQueries

    t = _play(tmp_path / "x.db", SETUP)
    last = max(_by_entry(t))
    asked: list[int] = []
    reading = ChainQueries.command_rows

    def spy(self, first: int, last_: int):
        asked.append(first)
        return reading(self, first, last_)
    monkeypatch.setattr(ChainQueries, "command_rows", spy)
    t("note", "Kira eyes the door", "--about", "Kira")
    assert asked and min(asked) > last  # only what the new command appended
    monkeypatch.undo()
    rows, expected = _by_entry(t), _ledger_units(t.path)
    assert all(rows[e]["unit"] == unit for e, (unit, _) in expected.items())
