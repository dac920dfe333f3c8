"""The ledger moves to PostgreSQL through eventsourcing's settings alone; the read tables stay in --db."""
import uuid

import psycopg
import pytest

from tests.conftest import Table

SERVER = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}


@pytest.fixture
def postgres_ledger(monkeypatch):
    """A fresh database on the real local server, dropped afterwards."""
    name = f"ledger_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dbname="postgres", autocommit=True, **SERVER) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    for key, value in {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": name,
                       "POSTGRES_HOST": SERVER["host"], "POSTGRES_PORT": str(SERVER["port"]),
                       "POSTGRES_USER": SERVER["user"], "POSTGRES_PASSWORD": ""}.items():
        monkeypatch.setenv(key, value)
    yield name
    with psycopg.connect(dbname="postgres", autocommit=True, **SERVER) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_the_demo_plays_with_its_ledger_on_postgresql(tmp_path, postgres_ledger):
    t = Table(tmp_path / "read.db")
    result = t.json("demo")
    with psycopg.connect(dbname=postgres_ledger, **SERVER) as conn:
        stored = conn.execute("SELECT count(*) FROM campaignledger_events").fetchone()[0]
    assert stored == len(result["history"]) == 62
    assert (result["pools"]["destiny"], result["pools"]["doom"]) == (2, 6)
    import sqlite3
    with sqlite3.connect(t.path) as local:
        tables = {r[0] for r in local.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "stored_events" not in tables and {"history", "sheets", "balances"} <= tables
    assert "waiting for nothing: it is resolved" in t.refused("cohort-turn", "Vault Guards")
    assert "need the SQLite ledger" in t.refused("undo")
