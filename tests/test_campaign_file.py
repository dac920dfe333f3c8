"""Only campaign files are opened: anything else is refused, saying what it is, and left byte-identical."""
from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from campaign_ledger.ledger.campaign_file import APPLICATION_ID, SCHEMA_VERSION
from tests.conftest import Table


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _other_app(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes (body) VALUES ('groceries')")
    conn.commit()
    conn.close()
    return path


def _refused_untouched(path: Path, *args: str) -> str:
    before, files = _digest(path), sorted(p.name for p in path.parent.iterdir())
    result = Table(path)(*args, ok=False)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code != 0 and len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert _digest(path) == before
    assert sorted(p.name for p in path.parent.iterdir()) == files  # no new -wal, -shm or journal either
    return lines[0]


COMMANDS = [("sheet",), ("new", "Heist"), ("demo",), ("history",), ("pc", "add", "Kira", "--expertise",
                                                                       "Phantom=3", "--primary", "Phantom")]


@pytest.mark.parametrize("args", COMMANDS)
def test_another_applications_database_is_refused_and_left_byte_identical(tmp_path, args):
    message = _refused_untouched(_other_app(tmp_path / "other_app.sqlite"), *args)
    assert "another application's database (notes)" in message


@pytest.mark.parametrize("args", COMMANDS)
def test_a_zero_byte_file_is_refused_and_stays_empty(tmp_path, args):
    path = tmp_path / "zero.db"
    path.touch()
    assert "is an empty file" in _refused_untouched(path, *args)


@pytest.mark.parametrize("args", COMMANDS[:2])
def test_a_text_file_is_refused_and_left_byte_identical(tmp_path, args):
    path = tmp_path / "notes.txt"
    path.write_text("Session 12: the Moon Heist went wrong.\n")
    assert "is not a database" in _refused_untouched(path, *args)


def test_a_stamped_database_of_another_application_is_named_as_such(tmp_path):
    path = _other_app(tmp_path / "other.sqlite")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1234")
    conn.close()
    assert "another application (SQLite application id 0x4d2)" in _refused_untouched(path, "sheet")


def test_a_folder_is_refused(tmp_path):
    folder = tmp_path / "campaigns"
    folder.mkdir()
    result = Table(folder)("sheet", ok=False)
    assert result.exit_code != 0 and "is a folder" in result.stderr
    assert list(folder.iterdir()) == []


def test_a_missing_file_is_refused_by_a_read_command_and_not_created(tmp_path):
    result = Table(tmp_path / "typo.db")("sheet", ok=False)
    assert result.exit_code != 0 and "No campaign file at" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_import_stopped_midway_is_named_and_the_next_import_replaces_its_copy(tmp_path):
    source = Table(tmp_path / "heist.db")
    source("demo")
    exported = tmp_path / "heist.jsonl"
    source("export", "--format", "jsonl", "-o", str(exported))
    target = tmp_path / "copy.db"
    scratch = tmp_path / "copy.db.importing"  # what a killed import leaves: its unfinished copy
    scratch.write_bytes(exported.read_bytes()[:100])
    result = Table(target)("sheet", ok=False)
    assert result.exit_code == 1 and "an import into it stopped before it finished" in result.stderr
    assert "copy.db.importing" in result.stderr and not target.exists()
    Table(target)("import", str(exported))
    assert not scratch.exists() and Table(target).json("sheet") == source.json("sheet")


def _pragmas(path: Path) -> tuple[int, int]:
    conn = sqlite3.connect(path)
    try:
        return (conn.execute("PRAGMA application_id").fetchone()[0],
                conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.parametrize("create", [("new", "Heist"), ("demo",)])
def test_a_new_campaign_file_carries_the_application_id_and_schema_version(tmp_path, create):
    path = tmp_path / "heist.db"
    Table(path)(*create)
    assert _pragmas(path) == (APPLICATION_ID, SCHEMA_VERSION)


def test_an_imported_campaign_file_is_stamped(tmp_path):
    path = tmp_path / "copy.db"
    Table(path)("import", str(Path(__file__).parent / "fixtures" / "relics_demo_v1.jsonl"))
    assert _pragmas(path) == (APPLICATION_ID, SCHEMA_VERSION)


def test_a_campaign_file_made_before_the_stamp_still_opens_and_is_stamped(tmp_path):
    path = tmp_path / "old.db"
    t = Table(path)
    t("demo")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 0")
    conn.execute("PRAGMA user_version = 0")
    conn.close()
    assert "Kira" in t("sheet").stdout
    assert _pragmas(path) == (APPLICATION_ID, SCHEMA_VERSION)


def test_an_unstamped_campaign_file_opens_in_a_fresh_process(tmp_path):
    """A fresh process imports only the campaign's own ruleset, yet the file holds every ruleset's
    read tables (migrations make them all): none of them may look foreign."""
    from tests.live_server import campaign

    path = tmp_path / "old.db"
    Table(path)("demo")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 0")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert "Kira" in campaign(path, "sheet").stdout
    assert _pragmas(path)[0] == APPLICATION_ID


def test_a_campaign_file_with_a_foreign_table_added_is_refused_untouched(tmp_path):
    path = tmp_path / "mixed.db"
    Table(path)("demo")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 0")
    conn.execute("CREATE TABLE invoices (id INTEGER)")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # as a file closed by the other program reaches us
    conn.close()
    assert "another application's database (invoices)" in _refused_untouched(path, "sheet")


def test_a_file_from_a_newer_program_says_which_version(tmp_path):
    path = tmp_path / "future.db"
    Table(path)("demo")
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # as a file closed by the newer program reaches us
    conn.close()
    message = _refused_untouched(path, "sheet")
    assert f"file version {SCHEMA_VERSION + 1}" in message and f"up to version {SCHEMA_VERSION}" in message


# --- storage messages (disk full and read-only media simulated by raising from the ledger's write:
# the same failures a full tmpfs and a read-only bind mount gave when played by hand) ---------------

def _failing_write(monkeypatch, error: Exception) -> None:
    from campaign_ledger.ledger.chain import ChainedSQLiteRecorder

    def insert_events(*args, **kwargs):
        raise error
    monkeypatch.setattr(ChainedSQLiteRecorder, "insert_events", insert_events)


@pytest.mark.parametrize("error", [sqlite3.OperationalError("database or disk is full"),
                                   OSError(28, "No space left on device")])
def test_a_full_disk_says_so_and_that_nothing_was_recorded(table, monkeypatch, error):
    _failing_write(monkeypatch, error)
    message = table.refused("scene", "start", "Rooftops")
    assert "is full: nothing of this command was recorded" in message


def test_a_full_disk_after_the_entries_were_written_says_they_were_recorded(table, monkeypatch):
    from campaign_ledger.projections import runner
    before = table.entries()
    calls, real = [], runner.catch_up

    def full(*args, **kwargs):  # the check before the command passes; the disk fills after the save
        calls.append(1)
        if len(calls) > 1:
            raise sqlite3.OperationalError("database or disk is full")
        return real(*args, **kwargs)
    monkeypatch.setattr(runner, "catch_up", full)
    result = table("scene", "start", "Rooftops", ok=False)
    assert result.exit_code == 1 and table.entries() == before + 1
    assert f"the command was recorded (entries #{before + 1}-#{before + 1})" in result.stderr


def test_a_read_only_file_refuses_writes_in_one_line(table, monkeypatch):
    _failing_write(monkeypatch, sqlite3.OperationalError("attempt to write a readonly database"))
    assert "read-only" in table.refused("scene", "start", "Rooftops")
