"""`undo`, `undo --dry-run` and `undo --list` cost the same at any campaign size: they verify the
chain from where the read tables last verified it and what they read older than that, not the
whole chain (ledger/undo_reads.py), and read units from the newest back (ledger/units_newest.py).
What they read is still verified: a tamper with it refuses the undo, naming the entry."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bench.latency import TIMED, build
from campaign_ledger.ledger import chain_hash, undo_reads
from campaign_ledger.ledger.application import SNAPSHOT_EVERY  # the events since a snapshot: what loading an aggregate reads
from tests.conftest import Table

ROUND = ("cohort-turn", TIMED, "--leader", "Kira", "--faces", "2,2,2,2,2")


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory) -> dict[int, Path]:
    """Relics campaigns of null rounds (bench/latency.py's), one five times the other, the latest a round."""
    made = {}
    for size in (300, 1500):
        path = tmp_path_factory.mktemp(f"c{size}") / "c.db"
        build(str(path), size)
        Table(path)(*ROUND)
        made[size] = path
    return made


@pytest.fixture
def copy(campaigns, tmp_path) -> Table:
    t = Table(tmp_path / "c.db")
    with sqlite3.connect(campaigns[1500]) as src, sqlite3.connect(t.path) as dst:
        src.backup(dst)
    return t


def _hashed(t: Table, monkeypatch, *args: str) -> int:
    """How many entries the command hashed."""
    count = [0]
    real = chain_hash.entry_hash

    def counting(*a, **k):
        count[0] += 1
        return real(*a, **k)
    monkeypatch.setattr(chain_hash, "entry_hash", counting)
    t(*args)
    monkeypatch.undo()
    return count[0]


@pytest.mark.parametrize("args", [("undo", "--dry-run"), ("undo", "--list"), ("undo", "--list", "--limit", "5")])
def test_undo_hashes_as_many_entries_at_five_times_the_size(campaigns, tmp_path, monkeypatch, args):
    counts = []
    for size, path in sorted(campaigns.items()):
        t = Table(tmp_path / f"{size}.db")
        with sqlite3.connect(path) as src, sqlite3.connect(t.path) as dst:
            src.backup(dst)
        counts.append(_hashed(t, monkeypatch, *args))
    print(args, counts)
    assert 0 < counts[1] < 300 and abs(counts[1] - counts[0]) <= SNAPSHOT_EVERY, counts


def test_an_undo_that_appends_hashes_no_more_at_five_times_the_size(campaigns, tmp_path, monkeypatch):
    counts = []
    for size, path in sorted(campaigns.items()):
        t = Table(tmp_path / f"{size}.db")
        with sqlite3.connect(path) as src, sqlite3.connect(t.path) as dst:
            src.backup(dst)
        counts.append(_hashed(t, monkeypatch, "undo", "--yes"))
    print(counts)
    assert counts[1] < 300 and abs(counts[1] - counts[0]) <= SNAPSHOT_EVERY, counts


def _older_read(t: Table, monkeypatch) -> tuple[int, set[int]]:
    """Where undo's span starts, and the older entries it read and checked one by one."""
    seen: dict = {}
    real = undo_reads.older_entries

    def spy(chain, start, reads, rows):
        wanted, breaks = real(chain, start, reads, rows)
        seen.update(start=start, wanted=wanted)
        return wanted, breaks
    monkeypatch.setattr(undo_reads, "older_entries", spy)
    t("undo", "--dry-run")
    monkeypatch.undo()
    return seen["start"], seen["wanted"]


@pytest.mark.parametrize("how", ["edited", "deleted"])
def test_an_older_entry_undo_reads_edited_or_deleted_refuses_it(copy, monkeypatch, how):
    """An aggregate of the round is loaded from its earlier events, older than the span undo walks:
    each is checked against its hash, and a version missing among them is named."""
    start, older = _older_read(copy, monkeypatch)
    assert older and max(older) < start
    with sqlite3.connect(copy.path) as conn:
        entry = max(e for e in older if conn.execute("SELECT originator_version FROM stored_events WHERE rowid = ?",
                                                     (e,)).fetchone()[0] > 1)
        if how == "edited":
            conn.execute("UPDATE stored_events SET state = CAST(replace(CAST(state AS TEXT), '\"timestamp\":', "
                         "'\"timestamp\": ') AS BLOB) WHERE rowid = ?", (entry,))
        else:
            conn.execute("DELETE FROM stored_events WHERE rowid = ?", (entry,))
    for args in (("undo", "--dry-run"), ("undo", "--list"), ("undo", "--yes")):
        refusal = copy.refused(*args)
        assert "hash chain is broken" in refusal and "undo refused" in refusal, refusal
        assert (f"#{entry}" in refusal) if how == "edited" else ("missing" in refusal), refusal
    assert copy("audit", ok=False).exit_code == 1


def test_the_latest_command_row_edited_refuses_the_undo(copy):
    with sqlite3.connect(copy.path) as conn:
        first = conn.execute("SELECT max(first_entry) FROM ledger_commands").fetchone()[0]
        conn.execute("UPDATE ledger_commands SET unit = 'Somebody Else:1' WHERE first_entry = ?", (first,))
    assert f"#{first}" in copy.refused("undo", "--dry-run")


def test_a_rechained_forgery_under_the_verified_head_refuses_the_undo(copy):
    """Every hash recomputed after an edit: the read tables' verified head no longer matches."""
    from tests.test_tamper import events_edit, recompute

    with sqlite3.connect(copy.path, isolation_level=None) as conn:
        events_edit(conn, True)
        recompute(conn)
    assert "hash chain is broken" in copy.refused("undo", "--dry-run")


def test_without_a_verified_head_undo_verifies_the_whole_chain(copy, monkeypatch):
    with sqlite3.connect(copy.path) as conn:
        conn.execute("DELETE FROM chain_checked")
        last = conn.execute("SELECT max(rowid) FROM stored_events").fetchone()[0]
    assert _hashed(copy, monkeypatch, "undo", "--dry-run") >= last


def test_aggregates_load_without_a_protocol_check_per_event(copy, monkeypatch):
    """eventsourcing's default projector asserted a runtime Protocol per event (~50 us each: most of
    `undo --list`'s own work); ledger/repository.py plays the events without it, to the same state."""
    import typing

    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.ledger.ids import CAMPAIGN_ID

    checks = [0]
    real = typing._ProtocolMeta.__instancecheck__
    monkeypatch.setattr(typing._ProtocolMeta, "__instancecheck__",
                        lambda cls, instance: checks.__setitem__(0, checks[0] + 1) or real(cls, instance))
    app = open_ledger(copy.path)
    try:
        campaign = app.repository.get(CAMPAIGN_ID)
        assert campaign.version > 50 and checks[0] == 0
        from eventsourcing.application import project_aggregate
        monkeypatch.undo()
        again = app.repository.get(CAMPAIGN_ID, projector_func=project_aggregate)
        assert again.state() == campaign.state() and again.version == campaign.version
    finally:
        app.close()
