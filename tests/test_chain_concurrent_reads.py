"""Verifying the chain while another process writes is no tamper alarm: the check reads the
ledger up to where it stood when it began, so a command committed between its reads (its entries,
hashes and command row) is neither half read nor called a break. The other writer is put exactly
there by a hook, after the entries were read and before the chain's end is checked: no sleeps."""
from __future__ import annotations

from typing import Any, Iterator

import pytest
from click.testing import CliRunner

from campaign_ledger.cli import cli
from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.ledger.chain import ChainedSQLiteRecorder
from campaign_ledger.ledger.chain_halves import verify_whole


@pytest.fixture
def ledger(tmp_path) -> str:
    path = str(tmp_path / "demo.db")
    result = CliRunner().invoke(cli, ["--db", path, "demo"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return path


def _writer_between_reads(monkeypatch, path: str, once: bool = False) -> list[int]:
    """After the verifier has read the last stored entry, another process records a command (a
    session started: entries, hashes and a command row in one transaction) before it goes on
    (`once`: the first time only; an undo verifies what it read inside its own attempt, and a
    write under every attempt would keep it retrying)."""
    written: list[int] = []
    entries = ChainedSQLiteRecorder.stored_entries_with_hashes

    def then_a_write(self: Any, *args: Any, **kwargs: Any) -> Iterator[tuple]:
        yield from entries(self, *args, **kwargs)
        if once and written:
            return
        other = open_ledger(path)
        try:
            opened = other.campaign().session_open is not None
            done = other.end_session() if opened else other.start_session(f"Concurrent {len(written)}")
            written.extend(done["entries"])
        finally:
            other.close()
    monkeypatch.setattr(ChainedSQLiteRecorder, "stored_entries_with_hashes", then_a_write)
    return written


def test_a_command_committed_while_the_whole_chain_is_verified_is_no_break(ledger, monkeypatch):
    written = _writer_between_reads(monkeypatch, ledger)
    app = open_ledger(ledger)
    try:
        assert app.recorder.verify_all() is None
        assert written  # the other write did land between the reads
        assert verify_whole(app) is None  # undo's and audit's check (one process on a short ledger)
    finally:
        app.close()


def test_a_rebuild_verifying_as_it_reads_is_not_stopped_by_a_concurrent_command(ledger, monkeypatch):
    from campaign_ledger.projections.verifying import Verifying

    written = _writer_between_reads(monkeypatch, ledger)
    app = open_ledger(ledger)
    try:
        feed = Verifying(app)
        while feed.take(1000):
            pass
        feed.finish()  # raises the first break, if any
        assert written and not feed.verdict
    finally:
        app.close()


def test_undo_while_another_process_writes_is_not_refused_as_tampering(ledger, monkeypatch):
    written = _writer_between_reads(monkeypatch, ledger, once=True)
    result = CliRunner().invoke(cli, ["--db", ledger, "undo", "--yes"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert written and "hash chain is broken" not in result.output


def test_a_stray_command_row_past_the_last_entry_is_still_found(ledger):
    """The bound is the newest entry any of the three tables names: a row a forger added past the
    end is within it, and named as before."""
    import sqlite3

    conn = sqlite3.connect(ledger, isolation_level=None)
    last = conn.execute("SELECT max(rowid) FROM stored_events").fetchone()[0]
    conn.execute("INSERT INTO ledger_commands VALUES (?, ?, 'start', NULL, '{}')", (last + 3, last + 3))
    conn.close()
    app = open_ledger(ledger)
    try:
        broken = app.recorder.verify_all()
        assert broken is not None and broken.entry == last + 3 and "not in the ledger" in broken.reason
    finally:
        app.close()
