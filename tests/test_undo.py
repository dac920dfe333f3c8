"""Undo appends reversals that restore exactly what a round changed; nothing is ever deleted."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_ledger.ledger import units
from campaign_ledger.ledger.errors import LedgerError
from campaign_ledger.ledger.ids import CAMPAIGN_ID, challenge_id, pc_id
from campaign_ledger.projections import runner
from tests.test_invariants import PCS, _play_round, _setup

STATE_TABLES = ("sheets", "traits", "pools", "challenges")


def _state(t):
    return {"sheet": t.json("sheet"), "pools": t.json("pools"), "status": t.json("status")}


def _round(t, cohort_faces, challenge_faces, stress=None):
    t("cohort-turn", "Guards", "--leader", "Kira", "--faces", cohort_faces, "--best")
    args = ["--stress", stress] if stress else []
    t("challenge-turn", "Guards", "--faces", challenge_faces, *args)


def test_undo_restores_the_sheets_pools_and_challenge_as_they_were_before_the_round(table):
    _round(table, "2,2,3,3,4", "6,6,2,2", "Kira=1,Bo=1")
    before = _state(table)
    entries = table.entries()
    _round(table, "6,6,5,1,1", "6,5,5", "Bo=3")
    assert _state(table) != before
    table("undo")
    assert _state(table) == before
    assert table.entries() > entries  # the round and its reversal both stay in the ledger
    lines = [r["line"] for r in table.json("history")]
    assert any(line.startswith("Undo Guards:2") for line in lines)
    assert any("Guards round 2: Cohort dice show 6, 6, 5, 1, 1" in line for line in lines)


def test_a_dry_run_shows_the_reversal_and_appends_nothing(table):
    _round(table, "6,2,3,3,4", "6,6,6", "Kira=3")
    entries = table.entries()
    result = table("undo", "--dry-run")
    assert "Would reverse Guards:1" in result.stdout and "Kira: Stress 3 -> 0" in result.stdout
    assert table.entries() == entries


def test_a_round_later_rounds_depend_on_is_refused_unless_the_gm_cascades(table):
    before = _state(table)
    _round(table, "2,2,3,3,4", "6,6,2,2", "Kira=1,Bo=1")
    _round(table, "2,2,3,3,4", "6,2,2,2", "Kira=1")
    assert "add --cascade" in table.refused("undo", "Guards:1")
    plan = table.json("undo", "Guards:1", "--cascade", "--dry-run")
    assert [r["unit"] for r in plan["reversed"]] == ["Guards:2", "Guards:1"] and "needs_cascade" not in plan
    entries = table.entries()
    asked = table.json("undo", "Guards:1", "--dry-run")  # the preview shows the cascade it would need
    assert asked["reversed"] == plan["reversed"] and "Guards:2" in asked["needs_cascade"]
    assert "Without --cascade this undo is refused" in table("undo", "Guards:1", "--dry-run").stdout
    assert table.entries() == entries
    table("undo", "Guards:1", "--cascade")
    assert _state(table) == before


def test_an_undone_round_can_be_played_again_and_undone_again(table):
    _round(table, "2,2,3,3,4", "6,6,2,2", "Kira=1,Bo=1")
    table("undo")
    _round(table, "6,6,2,3,4", "1,1")
    assert table.json("status")["challenges"][0]["resolved"] == 2
    table("undo")
    assert table.json("status")["challenges"][0]["resolved"] == 0
    assert not any(":" in u["unit"] for u in table.json("undo", "--list"))  # no round left to undo


def test_an_unfinished_turn_can_be_undone(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--destiny", "1")
    assert table.json("pools")["destiny"] == 1
    table("undo")
    assert table.json("pools")["destiny"] == 2
    assert table.json("status")["turn"] is None
    table("cohort-turn", "Guards", "--leader", "Bo", "--faces", "1,2,3,4,5")


def test_undo_names_only_rounds_that_exist(table):
    _round(table, "2,2,3,3,4", "2,2,2,2")
    assert "No unit 'Guards:7'" in table.refused("undo", "Guards:7")


def _aggregates(app):
    ids = (CAMPAIGN_ID, challenge_id("Guards"), *(pc_id(n) for n in PCS))
    return {i: app.repository.get(i).state() for i in ids}


def _read(db):
    return {t: rows for t, rows in runner.tables(db) if t in STATE_TABLES}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_undo_returns_the_state_before_the_round_and_cascade_before_the_first(tmp_path_factory, data):
    path = str(tmp_path_factory.mktemp("undo") / "c.db")
    app = _setup(path)
    db = runner.connect(path)
    runner.catch_up(app, db)
    states = {app.recorder.max_notification_id(): (_aggregates(app), _read(db))}
    for _ in range(data.draw(st.integers(2, 6))):
        try:
            _play_round(app, data)
        except LedgerError:
            pass
        runner.catch_up(app, db)
        states.setdefault(app.recorder.max_notification_id(), (_aggregates(app), _read(db)))
    live = units.live_units(app.recorder)
    if not live or any(u.first - 1 not in states for u in live):
        return  # a step refused mid-round: its unit began between recorded states
    target = data.draw(st.sampled_from(live))
    app.undo(target.key, cascade=True)
    runner.catch_up(app, db)
    assert _aggregates(app) == states[target.first - 1][0]
    assert _read(db) == states[target.first - 1][1]
    runner.rebuild(app, db)
    assert _read(db) == states[target.first - 1][1]
