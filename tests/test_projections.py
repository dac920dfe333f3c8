"""The read side: incremental catch-up equals a rebuild, row for row, and a crash applies nothing twice."""
import pytest

from campaign_ledger.ledger.errors import ReadModelStuck
from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.ledger.rulesets.relics.demo import play
from campaign_ledger.projections import runner


@pytest.fixture
def demo(tmp_path):
    path = str(tmp_path / "demo.db")
    app = open_ledger(path)
    play(app)
    return app, path


def test_rebuild_equals_the_tables_every_command_caught_up_row_for_row(table):
    table("trait", "add", "Kira", "Keen", "+2 / 1d", "--cost", "destiny")
    table("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Keen", "--faces", "1,3,3,4,5", "--best")
    table("challenge-turn", "Guards", "--faces", "6,6,1", "--stress", "Kira=1")
    db = runner.connect(table.path)
    incremental = list(runner.tables(db))
    table("rebuild")
    assert list(runner.tables(db)) == incremental
    assert dict(incremental)["history"][-1]["entry"] == table.entries()


def test_catching_up_one_entry_at_a_time_equals_catching_up_at_once(demo, monkeypatch):
    app, path = demo
    db = runner.connect(path)
    runner.catch_up(app, db)
    at_once = list(runner.tables(db))
    monkeypatch.setattr(runner, "BATCH", 1)
    assert runner.rebuild(app, db) == app.recorder.max_notification_id()
    assert list(runner.tables(db)) == at_once


def test_a_crash_mid_batch_keeps_the_entries_before_it_and_the_next_catch_up_applies_everything_once(demo,
                                                                                                      monkeypatch):
    app, path = demo
    db = runner.connect(path)
    original = runner.history.apply
    calls = {"n": 0}

    def crash_on_the_tenth(db_, entry, event):
        calls["n"] += 1
        if calls["n"] == 10:
            raise RuntimeError("power cut")
        original(db_, entry, event)

    monkeypatch.setattr(runner, "PROJECTIONS", runner.PROJECTIONS[:-1] + (crash_on_the_tenth,))
    with pytest.raises(ReadModelStuck, match="entry #10 .*RuntimeError: power cut"):
        runner.catch_up(app, db)
    assert runner.position(db) == 9 and db["history"].count == 9  # the tenth left no row behind
    monkeypatch.setattr(runner, "PROJECTIONS", runner.PROJECTIONS[:-1] + (original,))
    runner.catch_up(app, db)
    assert db["history"].count == app.recorder.max_notification_id()
    assert [r["entry"] for r in db["history"].rows] == list(range(1, db["history"].count + 1))


def test_balances_record_destiny_and_doom_after_every_entry(demo):
    app, path = demo
    db = runner.connect(path)
    runner.catch_up(app, db)
    balances = list(db["balances"].rows_where(order_by="entry"))
    assert [b["entry"] for b in balances] == list(range(1, app.recorder.max_notification_id() + 1))
    assert (balances[-1]["destiny"], balances[-1]["doom"]) == (2, 6)
    assert min(b["destiny"] for b in balances) >= 0


def test_rows_written_together_at_a_batch_end_that_fail_name_the_entry_they_came_from(demo):
    """History and balance rows go in a batch at a time; when they fail as they go in, the entry
    whose row failed is named, the entries before it are kept, and nothing of it stays."""
    app, path = demo
    db = runner.connect(path)
    with runner.immediate(db):
        runner._next_batch(app, db, stop=5)
    assert runner.position(db) == 5
    db.execute("INSERT INTO history (entry, line) VALUES (10, 'in the way')")  # entry 10's row cannot go in
    with pytest.raises(ReadModelStuck, match="entry #10 .*IntegrityError"):
        runner.catch_up(app, db)
    assert runner.position(db) == 9
    assert [r[0] for r in db.execute("SELECT entry FROM history ORDER BY entry")] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert db.execute("SELECT line FROM history WHERE entry = 10").fetchone()[0] == "in the way"
    assert db.execute("SELECT max(entry) FROM balances").fetchone()[0] in (None, 9)


def test_each_history_time_shows_its_own_second_and_zone_whatever_time_came_before():
    """The history keeps the last second it showed (projections/history.py `_time`, a rebuild's
    entries share their seconds): each time is still shown as its own, across a second's end,
    another zone, a time without a zone and a zone whose clock went back (the same fields twice)."""
    from datetime import datetime, timedelta, timezone
    from zoneinfo import ZoneInfo

    from campaign_ledger.projections import history

    late = datetime(2026, 11, 28, 8, 53, 5, 999_999, tzinfo=timezone.utc)
    back = ZoneInfo("America/New_York")  # 01:30 came twice on 1 November 2026 (-04:00, then -05:00)
    times = [late, late + timedelta(microseconds=1), late.astimezone(timezone(timedelta(hours=1))), late,
             late.replace(tzinfo=None), datetime(2026, 11, 1, 1, 30, tzinfo=back),
             datetime(2026, 11, 1, 1, 30, 0, 1, tzinfo=back, fold=1), late]
    assert [history._time(t) for t in times] == [t.isoformat(timespec="seconds") for t in times]
