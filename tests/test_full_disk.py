"""A full disk is named as a full disk, saying what was recorded and the key to retry with (issue 34,
finding 5). It was called "Another process kept changing this campaign" (the save's failure was
retried as a race, eight times) or "failed unexpectedly (OperationalError: disk I/O error)".

The disk fills for real here, without mounting anything: SQLite's own page limit on the ledger's
connections (SQLITE_FULL, as a full disk gives it), and a file-size limit (`ulimit -f`) on a
`campaign` process (the writes fail with EFBIG, as a full tmpfs's fail with ENOSPC)."""
from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Table

NOTE = "The vault door is older than the city. " * 40  # about 1,600 characters: new pages for the entry


def _cap_pages(monkeypatch) -> None:
    """Every connection the ledger opens from now on may not grow the file (SQLITE_FULL on a new page)."""
    from eventsourcing.sqlite import SQLiteConnectionPool

    real = SQLiteConnectionPool._create_connection

    def capped(self):
        conn = real(self)
        pages = conn._sqlite_conn.execute("PRAGMA page_count").fetchone()[0]
        conn._sqlite_conn.execute(f"PRAGMA max_page_count = {pages}")
        return conn
    monkeypatch.setattr(SQLiteConnectionPool, "_create_connection", capped)


def _refusal(result) -> tuple[str, dict]:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    return lines[0], json.loads(result.stdout)


def _fill(table: Table, key: str):
    """Notes until one does not fit (the pages already free take the first few); that one's result."""
    for n in range(40):
        result = table("note", f"{n}: {NOTE}", "--key", f"{key}-{n}", "--json", ok=False)
        if result.exit_code:
            return result, f"{n}: {NOTE}", f"{key}-{n}"
    raise AssertionError("the capped file never filled")


def test_a_disk_full_as_the_entries_are_saved_is_named_with_the_key_to_retry(table, monkeypatch):
    _cap_pages(monkeypatch)
    result, note, key = _fill(table, "vault")
    before = table.entries()
    line, answer = _refusal(result)
    assert "Another process" not in line and answer["rule"] == "disk-full"
    assert f"the disk holding {table.path} is full: nothing of this command was recorded" in line
    assert f"--key {key}" in line
    monkeypatch.undo()  # room again: the retry with the key records it once
    table("note", note, "--key", key)
    table("note", note, "--key", key)
    assert table.entries() == before + 1


def test_a_full_disk_is_not_retried_as_a_race(table, monkeypatch):
    """Saved once, not eight times: a full disk is no race another writer won (ledger/storage_faults.py)."""
    from campaign_ledger.ledger import application

    saves = []
    real = application.CampaignLedger.save

    def counted(self, *args, **kwargs):
        saves.append(1)
        return real(self, *args, **kwargs)
    monkeypatch.setattr(application.CampaignLedger, "save", counted)
    _cap_pages(monkeypatch)
    result, _, key = _fill(table, "vault")
    _refusal(result)
    assert len(saves) == int(key.rsplit("-", 1)[1]) + 1  # one save a note, the refused one's included


def _limited(limit: int):
    """For a child process: at most `limit` bytes to any file it writes (`ulimit -f`)."""
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
    return apply


def _campaign(db: Path, *args: str, limit: int | None = None) -> subprocess.CompletedProcess:
    """The real `campaign` in its own process (a file-size limit must not reach this one); Python
    ignores SIGXFSZ, so a write past the limit fails with EFBIG instead of killing the process."""
    return subprocess.run([sys.executable, "-c", "from campaign_ledger.cli import main; main()", "--db", str(db), *args],
                          capture_output=True, text=True, cwd=Path(__file__).parent.parent, timeout=120,
                          preexec_fn=_limited(limit) if limit is not None else None)


def _entries(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM stored_events").fetchone()[0]


@pytest.mark.parametrize("kib", [1, 40])  # 1: the log cannot be written at all; 40: the entry saves, its read tables do not
def test_a_file_size_limit_is_named_with_what_was_recorded_and_the_key(tmp_path, kib):
    db = tmp_path / "limited.db"
    assert _campaign(db, "new", "Heist").returncode == 0
    before = _entries(db)
    result = _campaign(db, "--json", "--key", "k1", "note", NOTE, limit=kib * 1024)
    line = result.stderr.strip()
    assert result.returncode == 1 and len(line.splitlines()) == 1 and line.startswith("Error: "), result.stderr
    assert json.loads(result.stdout)["rule"] == "disk-full"
    assert f"file-size limit (`ulimit -f`, {kib} KiB)" in line and "--key k1" in line
    recorded = _entries(db) - before
    if recorded:
        assert f"the command was recorded (entries #{before + 1}-#{before + recorded})" in line
    else:
        assert "nothing of this command was recorded" in line
    again = _campaign(db, "--json", "--key", "k1", "note", NOTE)  # no limit: the retry records it once
    assert again.returncode == 0, again.stderr
    assert _entries(db) == before + 1
    assert "Another process" not in line and "unexpectedly" not in line


def test_a_new_campaign_whose_file_fills_after_its_first_entry_keeps_nothing_and_says_so(tmp_path, monkeypatch):
    """`new` removes the file it made when it cannot finish it; it said "the command was recorded
    (entries #1-#1)" and then removed the file that held entry #1."""
    from campaign_ledger.projections import runner

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(runner, "catch_up", full)
    t = Table(tmp_path / "new.db")
    line, answer = _refusal(t("new", "Heist", "--key", "start", "--json", ok=False))
    assert answer["rule"] == "disk-full" and "nothing of this command was recorded" in line, line
    assert "--key start" in line and not os.listdir(tmp_path)
    monkeypatch.undo()
    t("new", "Heist", "--key", "start")
    assert t.entries() == 1
