"""Import into a PostgreSQL ledger is all or nothing: checked first in a scratch SQLite file,
then written in one transaction, so a failure part way leaves the ledger empty and no read file."""
import json
import os

import psycopg
import pytest

from campaign_ledger.ledger import interchange
from tests.conftest import Table
from tests.test_postgres import SERVER, _count, _database, postgres_ledger  # noqa: F401  (the fixture)

LEDGER_TABLES = ("campaignledger_events", "ledger_chain", "ledger_commands", "ledger_meta",
                 "campaignledger_snapshots")


@pytest.fixture
def exported(tmp_path, postgres_ledger):
    """The demo played on one PostgreSQL ledger and exported; the settings then reach a second, empty one."""
    source = Table(tmp_path / "source.db")
    source("demo")
    path = tmp_path / "demo.jsonl"
    source("export", "--format", "jsonl", "-o", str(path))
    return source, path


def _fail_at(name: str, entry: int) -> None:
    """A write the server refuses part way: a trigger on the chain table raises at one entry."""
    from campaign_ledger.ledger.application import open_ledger
    open_ledger("unused.db").close()  # the campaign ledger's tables, as an import would create them
    with psycopg.connect(dbname=name, autocommit=True, **SERVER) as conn:
        conn.execute("CREATE FUNCTION fail_import() RETURNS trigger AS $$ BEGIN "
                     "RAISE EXCEPTION 'the server gave out'; END $$ LANGUAGE plpgsql")
        conn.execute(f"CREATE TRIGGER fail_import BEFORE INSERT ON ledger_chain FOR EACH ROW "
                     f"WHEN (NEW.entry = {entry}) EXECUTE FUNCTION fail_import()")


def _recover(name: str) -> None:
    with psycopg.connect(dbname=name, autocommit=True, **SERVER) as conn:
        conn.execute("DROP TRIGGER fail_import ON ledger_chain")


def test_an_import_failing_part_way_leaves_the_postgresql_ledger_empty_and_no_read_file(
        tmp_path, exported, postgres_ledger, monkeypatch):
    source, path = exported
    postgres_ledger.append(_database(monkeypatch))
    monkeypatch.setattr(interchange, "BATCH", 10)  # many batches, so "part way" falls between two of them
    _fail_at(postgres_ledger[1], 35)
    copy = Table(tmp_path / "copy.db")
    result = copy("import", str(path), ok=False)
    assert result.exit_code == 1 and result.stderr.startswith("Error: ") and "Traceback" not in result.output
    assert "the server gave out" in result.stderr and "nothing was imported" in result.stderr
    assert [_count(postgres_ledger[1], t) for t in LEDGER_TABLES] == [0] * len(LEDGER_TABLES)
    assert not [f for f in os.listdir(tmp_path) if f.startswith("copy.db")]


def test_an_import_after_a_failed_one_keeps_the_sources_entry_numbers_and_anchor(
        tmp_path, exported, postgres_ledger, monkeypatch):
    source, path = exported
    postgres_ledger.append(_database(monkeypatch))
    _fail_at(postgres_ledger[1], 40)
    copy = Table(tmp_path / "copy.db")
    copy("import", str(path), ok=False)
    _recover(postgres_ledger[1])
    from campaign_ledger.ledger import application
    monkeypatch.setattr(application, "SNAPSHOT_EVERY", 5)  # so the import has snapshots to carry
    copy("import", str(path))
    anchor = json.loads(path.read_text().splitlines()[-1])["anchor"]
    assert copy.json("audit", "--anchor", anchor)["clean"]  # entry numbers 1.. again: the hashes hold
    assert copy.json("sheet") == source.json("sheet")
    assert _count(postgres_ledger[1], "campaignledger_snapshots") > 0  # in the transaction; audit checked each


def test_an_import_into_a_postgresql_ledger_that_holds_entries_writes_nothing(tmp_path, exported, postgres_ledger):
    source, path = exported
    before = source.entries()
    result = Table(tmp_path / "copy.db")("import", str(path), ok=False)
    assert result.exit_code == 1 and "empty" in result.stderr
    assert source.entries() == before and not os.path.exists(tmp_path / "copy.db")


def _backends(name: str, besides: int) -> list[tuple]:
    """The import's server sessions on this database (not the test's own): (pid, what it waits for)."""
    with psycopg.connect(dbname="postgres", autocommit=True, **SERVER) as conn:
        return conn.execute("SELECT pid, wait_event_type, wait_event FROM pg_stat_activity WHERE datname = %s "
                            "AND pid <> %s", (name, besides)).fetchall()


def _until(condition, what: str, seconds: float = 60) -> None:
    """Poll the server until `condition` holds (the outcome never depends on how long it takes)."""
    import time
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.02)


def test_an_import_killed_part_way_leaves_the_postgresql_ledger_empty(tmp_path, exported, postgres_ledger,
                                                                     monkeypatch):
    """The process is killed while the server holds half the entries in its transaction: the
    server rolls it back, nothing stays, no read file is made, and the import runs again cleanly."""
    import signal
    import subprocess
    import sys
    from pathlib import Path

    from campaign_ledger.ledger.application import open_ledger

    source, path = exported
    name = _database(monkeypatch)
    postgres_ledger.append(name)
    open_ledger(str(tmp_path / "unused.db")).close()  # the ledger's tables, as the import would create them
    holder = psycopg.connect(dbname=name, autocommit=True, **SERVER)
    mine = holder.info.backend_pid
    try:
        holder.execute("SELECT pg_advisory_lock(4242)")  # entry #35 waits for it: the import stops mid-way
        holder.execute("CREATE FUNCTION pause_import() RETURNS trigger AS $$ BEGIN PERFORM pg_advisory_lock(4242); "
                       "RETURN NEW; END $$ LANGUAGE plpgsql")
        holder.execute("CREATE TRIGGER pause_import BEFORE INSERT ON ledger_chain FOR EACH ROW "
                       "WHEN (NEW.entry = 35) EXECUTE FUNCTION pause_import()")
        root = str(Path(__file__).resolve().parent.parent)
        env = {**__import__("os").environ, "PYTHONPATH": root}
        batched = "import campaign_ledger.ledger.interchange as i; i.BATCH = 10; from campaign_ledger.cli import main; main()"  # many writes
        process = subprocess.Popen([sys.executable, "-c", batched, "--db",
                                    str(tmp_path / "copy.db"), "import", str(path)], cwd=root, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _until(lambda: any((kind, event) == ("Lock", "advisory") for _, kind, event in _backends(name, mine)),
               "the import to reach entry #35")
        process.send_signal(signal.SIGKILL)
        process.wait()
        holder.execute("SELECT pg_advisory_unlock(4242)")  # the orphaned session wakes, finds no client, rolls back
        _until(lambda: not _backends(name, mine), "the server to end the killed import's session")
        holder.execute("DROP TRIGGER pause_import ON ledger_chain")
    finally:
        holder.close()
    assert [_count(name, t) for t in LEDGER_TABLES] == [0] * len(LEDGER_TABLES)
    assert not os.path.exists(tmp_path / "copy.db")  # only the scratch copy.db.importing may be left
    copy = Table(tmp_path / "copy.db")
    copy("import", str(path))  # the next import clears the scratch and writes the whole file
    anchor = json.loads(path.read_text().splitlines()[-1])["anchor"]
    assert copy.json("audit", "--anchor", anchor)["clean"] and copy.json("sheet") == source.json("sheet")
