"""Import into a PostgreSQL ledger is all or nothing: checked first in a scratch SQLite file,
then written in one transaction, so a failure part way leaves the ledger empty and no read file."""
import json
import os

import psycopg
import pytest

from ledger import interchange
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
    from ledger.application import open_ledger
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
    import ledger.application
    monkeypatch.setattr(ledger.application, "SNAPSHOT_EVERY", 5)  # so the import has snapshots to carry
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
