"""The ledger moves to PostgreSQL through eventsourcing's settings alone; the read tables stay in --db.
The hash chain and command log come along: undo, audit, export and import work the same."""
import json
import uuid

import psycopg
import pytest

from tests.conftest import Table

SERVER = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}


def _database(monkeypatch, read: str | None = None) -> str:
    """A new database on the local server, the ledger's from now on (and, with `read`, CAMPAIGN_READ)."""
    name = f"{'read' if read else 'ledger'}_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dbname="postgres", autocommit=True, **SERVER) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    for key, value in {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": name,
                       "POSTGRES_HOST": SERVER["host"], "POSTGRES_PORT": str(SERVER["port"]),
                       "POSTGRES_USER": SERVER["user"], "POSTGRES_PASSWORD": "",
                       **({"CAMPAIGN_READ": read} if read else {})}.items():
        monkeypatch.setenv(key, value)
    return name


def databases(monkeypatch, read: str | None = None):
    """A fixture's body: a fresh database (more may be appended to the list), all dropped afterwards."""
    names = [_database(monkeypatch, read)]
    yield names
    with psycopg.connect(dbname="postgres", autocommit=True, **SERVER) as admin:
        for name in names:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def postgres_ledger(monkeypatch):
    """A fresh database on the real local server, dropped afterwards."""
    yield from databases(monkeypatch)


def _count(name: str, table: str) -> int:
    with psycopg.connect(dbname=name, **SERVER) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_the_demo_plays_with_its_ledger_on_postgresql(tmp_path, postgres_ledger):
    t = Table(tmp_path / "read.db")
    result = t.json("demo")
    assert _count(postgres_ledger[0], "campaignledger_events") == len(result["history"]) == 62
    assert _count(postgres_ledger[0], "ledger_chain") == 62
    assert (result["pools"]["destiny"], result["pools"]["doom"]) == (2, 6)
    import sqlite3
    with sqlite3.connect(t.path) as local:
        tables = {r[0] for r in local.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "stored_events" not in tables and {"history", "sheets", "balances"} <= tables
    assert "waiting for nothing: it is resolved" in t.refused("cohort-turn", "Vault Guards")


def test_undo_audit_export_and_import_work_on_postgresql(tmp_path, postgres_ledger, monkeypatch):
    t = Table(tmp_path / "read.db")
    t("demo")
    t("undo", "Vault Guards:3", "--yes")
    audit = t.json("audit")
    assert audit["clean"] and [r["unit"] for r in audit["reversals"]] == ["Vault Guards:3"]
    exported = tmp_path / "pg.jsonl"
    t("export", "--format", "jsonl", "-o", str(exported))
    lines = exported.read_text().splitlines()
    assert json.loads(lines[-1])["entries"] == t.entries() == 63
    postgres_ledger.append(_database(monkeypatch))  # a second, empty PostgreSQL ledger
    copy = Table(tmp_path / "copy.db")
    copy("import", str(exported))
    assert copy.json("audit")["clean"]
    assert copy.json("sheet") == t.json("sheet") and copy.json("history") == t.json("history")
    with psycopg.connect(dbname=postgres_ledger[0], **SERVER) as a, \
            psycopg.connect(dbname=postgres_ledger[1], **SERVER) as b:
        query = "SELECT entry, hash FROM ledger_chain ORDER BY entry"
        assert a.execute(query).fetchall() == b.execute(query).fetchall()


def test_a_read_file_refuses_the_ledger_of_another_campaign(tmp_path, postgres_ledger, monkeypatch):
    heist = Table(tmp_path / "heist.db")
    heist("demo")
    postgres_ledger.append(_database(monkeypatch))  # the settings now reach another, new ledger
    run = Table(tmp_path / "run.db")
    run("demo", "--system", "beer-run")
    assert "holds the read tables of another campaign's ledger" in heist.refused("sheet")
    assert run("beer-run", "pools").exit_code == 0  # the file that belongs to this ledger still reads


def test_an_unreachable_server_is_named_within_the_timeout(tmp_path, monkeypatch):
    from campaign_ledger.cli import cli

    for key, value in {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": "nowhere",
                       "POSTGRES_HOST": "127.0.0.1", "POSTGRES_PORT": "1", "POSTGRES_USER": "u",
                       "POSTGRES_PASSWORD": "", "POSTGRES_CONNECT_TIMEOUT": "5"}.items():
        monkeypatch.setenv(key, value)  # restored afterwards, whatever --timeout set
    result = Table(tmp_path / "read.db").runner.invoke(cli, ["--db", str(tmp_path / "read.db"), "--timeout", "1",
                                                             "sheet"])
    assert result.exit_code == 1
    assert result.stderr.strip() == ("Error: cannot reach the PostgreSQL ledger at 127.0.0.1:1 (database nowhere) "
                                     "within 1 s; is the server running? Nothing was recorded.")
    assert not (tmp_path / "read.db").exists()  # nothing is left behind


def test_a_write_finds_its_idempotency_key_by_an_index_on_postgresql(tmp_path, postgres_ledger):
    """Every write looks its key up twice (a retry; then inside the locked insert). On PostgreSQL
    that was a LIKE over the whole command log (19 ms at 100,000 entries, growing with the
    campaign); the key is indexed as on SQLite, and a retry under a used key still appends nothing."""
    from campaign_ledger.ledger.chain_postgres import KEY_BY_INDEX, _pg

    t = Table(tmp_path / "read.db")
    t("new", "Heist")
    t("--key", "add-kira", "pc", "add", "Kira", "--expertise", "Phantom=2", "--primary", "Phantom")
    before = _count(postgres_ledger[0], "ledger_chain")
    again = t.json("--key", "add-kira", "pc", "add", "Kira", "--expertise", "Phantom=2", "--primary", "Phantom")
    assert again["repeated"] is True and _count(postgres_ledger[0], "ledger_chain") == before
    with psycopg.connect(dbname=postgres_ledger[0], **SERVER) as conn:
        conn.execute("SET enable_seqscan = off")  # a handful of rows: the planner would scan them anyway
        plan = conn.execute("EXPLAIN SELECT 1 FROM ledger_commands WHERE " + _pg(KEY_BY_INDEX), ("add-kira",)).fetchall()
    assert "ledger_commands_key" in str(plan)


REPLAYS = {  # what a GM replays, before and after an undo: each ruleset's rounds or rolls, as recorded and changed
    "relics": [("replay",), ("replay", "Vault Guards:1"), ("replay", "Vault Guards:2", "--challenge-faces", "1,1"),
               ("undo", "Vault Guards:3", "--yes"), ("replay", "Vault Guards:3"), ("replay", "Vault Guards:1")],
    "decision-2d6": [("replay",), ("replay", "Billy's Strength roll (#1)", "--set", "faces=1,2"),
                     ("undo", "--yes"), ("replay", "Ogre's Strength roll (#1)")],
}


@pytest.mark.parametrize("system", list(REPLAYS))
def test_replays_read_their_what_if_from_the_server_as_from_a_file(tmp_path, postgres_ledger, monkeypatch, system):
    """A what-if copies from a ledger on PostgreSQL only what it reads (what_if.FromServer), not every
    entry before the round: every report is the one an SQLite ledger gives."""
    from campaign_ledger.ledger import application, what_if

    monkeypatch.setattr(application, "SNAPSHOT_EVERY", 5)  # aggregates load from snapshots too
    copies = []
    monkeypatch.setattr(what_if.FromServer, "copy",
                        lambda self, oid, copy=what_if.FromServer.copy: copies.append(oid) or copy(self, oid))
    hosted = Table(tmp_path / "hosted.db")
    hosted("demo", "--system", system)
    on_server = [hosted(*args).stdout for args in REPLAYS[system]]
    for key in ("PERSISTENCE_MODULE", "POSTGRES_DBNAME"):
        monkeypatch.delenv(key)
    local = Table(tmp_path / "local.db")
    local("demo", "--system", system)
    assert [local(*args).stdout for args in REPLAYS[system]] == on_server
    assert copies  # the server's what-if was filled as read



def test_a_postgresql_ledger_without_its_client_library_installed_is_named_in_one_line(monkeypatch):
    """The README's first command installs the program without the PostgreSQL extra: asking for a
    PostgreSQL ledger then says what to install (it said "failed unexpectedly (ModuleNotFoundError...)")."""
    from campaign_ledger.failures import server_message

    missing = ModuleNotFoundError("No module named 'psycopg'", name="psycopg")
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
    assert server_message(missing) == (
        "PERSISTENCE_MODULE asks for a PostgreSQL ledger, but this installation has no PostgreSQL client: "
        "install it with `pip install -e '.[postgres]'` in the project. Nothing was recorded.")
    topic = RuntimeError("Failed to resolve topic 'eventsourcing.postgres': No module named 'psycopg'")
    topic.__cause__ = missing
    wrapped = RuntimeError("Failed to resolve persistence module topic: 'eventsourcing.postgres'")
    wrapped.__cause__ = topic  # as eventsourcing's InfrastructureFactoryError carries it, two levels down
    assert server_message(wrapped) == server_message(missing)
    assert server_message(ModuleNotFoundError("No module named 'numpy'", name="numpy")) is None
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.sqlite")
    assert server_message(missing) is None


def test_the_library_plays_on_a_postgresql_ledger_with_two_handles_and_the_cli(tmp_path, postgres_ledger):
    """Issue 37: a PostgreSQL ledger works through the library as through the CLI (the same settings):
    two long-lived handles on one read file write alternately, each sees the other's entries and the
    CLI's, keys hold, and audit is clean."""
    from campaign_ledger import CampaignError, new_campaign, open_campaign

    path = tmp_path / "read.db"
    first = new_campaign(path, "Server Heist")
    second = open_campaign(path)
    for i in range(3):
        first.note(f"first {i}", key=f"f{i}")
        second.note(f"second {i}", key=f"s{i}")
    assert first.note("first 0", key="f0")["repeated"]  # the key, found on the server
    Table(path)("note", "from the CLI")
    lines = [h["line"] for h in first.history()]
    assert [line for line in lines if line.startswith("Note:")] == [
        "Note: first 0", "Note: second 0", "Note: first 1", "Note: second 1", "Note: first 2", "Note: second 2",
        "Note: from the CLI"]
    assert [h["line"] for h in second.history(limit=1)] == ["Note: from the CLI"]
    with pytest.raises(CampaignError) as refused:
        second.undo("No Such Unit")
    assert refused.value.rule == "unknown-unit"
    assert first.audit()["clean"] and _count(postgres_ledger[0], "ledger_chain") == len(lines)
    first.close()
    second.close()
