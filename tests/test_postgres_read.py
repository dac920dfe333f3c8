"""CAMPAIGN_READ=postgres: the read tables live in the ledger's PostgreSQL database, no local file.
Every ruleset's demo gives the same read tables there as in SQLite; rebuild, audit, export, import
and the search work from the CLI. Each test has its own database, dropped afterwards."""
import json
import os
import uuid

import pytest

from tests import test_postgres
from tests.conftest import Table

psycopg = pytest.importorskip("psycopg")
SERVER = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}
# Two plays of a demo differ there: wall-clock seconds, and the random id of a contest (decision-2d6).
TIME_COLUMNS = {"time", "started", "ended", "about"}


def _reachable() -> bool:
    try:
        psycopg.connect(dbname="postgres", connect_timeout=3, **SERVER).close()
        return True
    except psycopg.OperationalError:
        return False


pytestmark = pytest.mark.skipif(not _reachable(), reason="no PostgreSQL server at 127.0.0.1:5432")


def _database(monkeypatch, read: str = "postgres") -> str:
    return test_postgres._database(monkeypatch, read)


@pytest.fixture
def server(monkeypatch):
    """A fresh database on the local server (ledger and read schemas), dropped afterwards."""
    yield from test_postgres.databases(monkeypatch, "postgres")


def _tables(path: str, postgres: bool) -> dict:
    """Every read table's rows in key order (runner.tables), from the schema or the SQLite file."""
    from campaign_ledger.projections import postgres_read, rulesets, runner

    from campaign_ledger.projections import row_versions

    rulesets.load_all()
    db = postgres_read.connect(path) if postgres else runner.connect(path)
    try:  # the row versions `--at` reads are kept in an SQLite file only (PostgreSQL rebuilds up to the entry)
        return {t: rows for t, rows in runner.tables(db) if t not in (row_versions.TABLE, row_versions.DIRTY)}
    finally:
        db.conn.close()


def _timeless(tables: dict) -> dict:
    return {t: [{k: v for k, v in r.items() if k not in TIME_COLUMNS} for r in rows] for t, rows in tables.items()}


def _schemas(dbname: str) -> set[str]:
    with psycopg.connect(dbname=dbname, **SERVER) as conn:
        return {r[0] for r in conn.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'read_%'")}


@pytest.mark.parametrize("system", ["relics", "beer-run", "action-dice", "decision-2d6"])
def test_every_rulesets_demo_gives_the_same_read_tables_on_postgresql_as_in_sqlite(tmp_path, server, monkeypatch,
                                                                                   system):
    hosted = Table(tmp_path / "hosted.db")
    hosted("demo", "--system", system)
    assert not os.path.lexists(hosted.path)  # nothing local: the read tables are on the server
    assert hosted.json("audit")["read_tables_differ"] == []  # compared with a rebuild in a scratch file
    on_server = _tables(hosted.path, postgres=True)
    assert sum(len(rows) for rows in on_server.values()) > 20
    hosted("rebuild")  # the whole demo in one batch: rows written together, names kept while they hold
    assert _tables(hosted.path, postgres=True) == on_server
    monkeypatch.delenv("CAMPAIGN_READ")  # the same ledger, read into an SQLite file
    local = Table(tmp_path / "local.db")
    local("history")
    assert _tables(local.path, postgres=False) == on_server
    monkeypatch.setenv("CAMPAIGN_READ", "postgres")
    reads = [("sheet",), ("sheet", "--at", "7"), ("pools", "--at", "9"), ("history", "--json"),
             ("history", "--kind", "rolls"), ("session", "list"),
             *(("export", "--format", fmt) for fmt in ("md", "html", "csv"))]
    said = [(r.exit_code, r.stdout) for r in (hosted(*args, ok=False) for args in reads)]
    monkeypatch.delenv("CAMPAIGN_READ")
    assert [(r.exit_code, r.stdout) for r in (local(*args, ok=False) for args in reads)] == said
    assert [code for code, _ in said] == [0] * len(reads)
    for key in ("PERSISTENCE_MODULE", "POSTGRES_DBNAME"):  # and a demo played wholly in SQLite
        monkeypatch.delenv(key)
    plain = Table(tmp_path / "plain.db")
    plain("demo", "--system", system)
    assert _timeless(_tables(plain.path, postgres=False)) == _timeless(on_server)


def test_rebuild_audit_export_and_import_work_with_the_read_tables_on_postgresql(tmp_path, server, monkeypatch):
    t = Table(tmp_path / "heist.db")
    t("demo")
    t("undo", "Vault Guards:3", "--yes")
    before = _tables(t.path, postgres=True)
    assert t.json("rebuild")["entry_count"] == 63
    assert _tables(t.path, postgres=True) == before
    audit = t.json("audit")
    assert audit["clean"] and [r["unit"] for r in audit["reversals"]] == ["Vault Guards:3"]
    exported, markdown = tmp_path / "heist.jsonl", tmp_path / "heist.md"
    t("export", "--format", "jsonl", "-o", str(exported))
    t("export", "--format", "md", "-o", str(markdown))
    assert json.loads(exported.read_text().splitlines()[-1])["entries"] == 63
    assert "Vault Guards" in markdown.read_text()
    monkeypatch.delenv("CAMPAIGN_READ")  # the markdown a local read file gives, from the same ledger
    Table(tmp_path / "local.db")("export", "--format", "md", "-o", str(tmp_path / "local.md"))
    assert (tmp_path / "local.md").read_text() == markdown.read_text()
    server.append(_database(monkeypatch))  # a second, empty database: ledger and read tables
    copy = Table(tmp_path / "copy.db")
    copy("import", str(exported))
    assert not os.path.lexists(copy.path) and not os.path.lexists(copy.path + ".importing")
    assert copy.json("audit")["clean"]
    assert copy.json("sheet") == t.json("sheet")
    assert _timeless(_tables(copy.path, postgres=True)) == _timeless(before)


def test_names_kept_in_a_batch_on_postgresql_follow_renames_undos_and_unmade_pcs(tmp_path, server, monkeypatch):
    """The schema keeps the names a batch looked up as a read file does (projections/history.py),
    forgetting them on any write to a naming table: a rebuild (one batch) gives what catching up a
    command at a time gave, and what an SQLite read file gives."""
    from tests.conftest import heist
    from tests.test_rebuild_batches import assert_named_as_then, renamed_undone_and_remade

    hosted = heist(tmp_path)
    renamed_undone_and_remade(hosted)
    caught_up = _tables(hosted.path, postgres=True)
    assert_named_as_then([r["line"] for r in caught_up["history"]])
    hosted("rebuild")
    assert _tables(hosted.path, postgres=True) == caught_up
    monkeypatch.delenv("CAMPAIGN_READ")
    local = Table(tmp_path / "local.db")
    local("history")
    assert _tables(local.path, postgres=False) == caught_up


def test_an_undone_correction_reads_the_same_on_postgresql_as_in_sqlite(tmp_path, server, monkeypatch):
    """The namer's record of what each correction reversed (m015's unit_closed) and the history's
    marks work through the schema's translation as in a read file."""
    hosted = Table(tmp_path / "hosted.db")
    hosted("demo")
    first, last = next(r["entries"] for r in hosted.json("undo", "--list") if r["unit"] == "Vault Guards:3")
    hosted("replay", "Vault Guards:3", "--destiny", "1", "--faces", "1", "--commit")
    hosted("undo", "--yes")  # the correction: the round it corrected stands again
    marks = {r["entry"]: (r["reversed_at"], r["reversed_by"]) for r in hosted.json("history")}
    assert {marks[e] for e in range(first, last + 1)} == {(None, None)}
    assert hosted.json("audit")["read_tables_differ"] == []
    on_server = _tables(hosted.path, postgres=True)
    monkeypatch.delenv("CAMPAIGN_READ")
    local = Table(tmp_path / "local.db")
    local("history")
    assert _tables(local.path, postgres=False) == on_server


def test_the_live_view_reads_its_page_from_the_schema_as_from_a_read_file(tmp_path, server, monkeypatch):
    from campaign_ledger.opening import connect_read
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.web.view import build

    def page(path: str):
        app, db = open_ledger(path), connect_read(path)  # as `campaign serve` opens them (commands/serve.py)
        try:
            return build(app, db, show_gm=True)
        finally:
            db.conn.close()
            app.close()

    Table(tmp_path / "heist.db")("demo")
    hosted = page(str(tmp_path / "heist.db"))
    assert hosted.entry == 62 and not os.path.lexists(tmp_path / "heist.db")
    monkeypatch.delenv("CAMPAIGN_READ")
    Table(tmp_path / "local.db")("history")
    assert page(str(tmp_path / "local.db")) == hosted


def test_the_history_search_uses_postgresql_full_text_and_finds_what_sqlite_finds(tmp_path, server, monkeypatch):
    t = Table(tmp_path / "heist.db")
    t("demo")
    queries = ("vault guards", "Kira", "stress from", "nothing", "Kira OR Bo", "Vault NOT Guards", "Vau*",
               '"stress from"', "(Kira OR Bo) AND stress", "Kira OR Bo NOT stress", "Stress AND Doom")
    found = {query: t.json("history", "--grep", query) for query in queries}
    assert found["nothing"] == [] and len(found["vault guards"]) > 10
    assert len(found["Kira OR Bo"]) > max(len(t.json("history", "--grep", n)) for n in ("Kira", "Bo"))
    assert found["Vau*"] and found["Vault NOT Guards"] and found["(Kira OR Bo) AND stress"]
    by_pc = t.json("history", "--pc", "Bo")
    monkeypatch.delenv("CAMPAIGN_READ")
    local = Table(tmp_path / "local.db")
    assert {q: local.json("history", "--grep", q) for q in found} == found
    assert local.json("history", "--pc", "Bo") == by_pc


def test_a_schema_made_before_the_search_helpers_changed_has_them_made_again(tmp_path, server, monkeypatch):
    from campaign_ledger.projections import postgres_read

    t = Table(tmp_path / "heist.db")
    t("demo")
    either = t.json("history", "--grep", "Kira OR Bo")
    with psycopg.connect(dbname=server[0], autocommit=True, **SERVER) as conn:   # as an older version left it
        conn.execute(f'SET search_path TO "{postgres_read.schema_name(str(tmp_path / "heist.db"))}"')
        conn.execute("DELETE FROM _migrations WHERE name = %s", [postgres_read.HELPERS_MARK])
        conn.execute("CREATE OR REPLACE FUNCTION fts_query(q text) RETURNS tsquery LANGUAGE sql IMMUTABLE "
                     "AS $$ SELECT 'nothing'::tsquery $$")
    assert t.json("history", "--grep", "Kira OR Bo") == either and either


def test_each_db_name_has_its_own_schema_bound_to_its_ledger(tmp_path, server, monkeypatch):
    from campaign_ledger.projections import postgres_read

    heist = Table(tmp_path / "heist.db")
    heist("demo")
    mirror = Table(tmp_path / "mirror.db")  # another name: another schema, read from the same ledger
    mirror("history")
    assert _schemas(server[0]) == {postgres_read.schema_name(heist.path), postgres_read.schema_name(mirror.path)}
    assert _tables(mirror.path, postgres=True) == _tables(heist.path, postgres=True)
    postgres_read.drop(mirror.path)
    assert _schemas(server[0]) == {postgres_read.schema_name(heist.path)}
    with psycopg.connect(dbname=server[0], autocommit=True, **SERVER) as conn:  # the ledger wiped, another begun
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    Table(tmp_path / "run.db")("demo", "--system", "beer-run")
    assert "holds the read tables of another campaign's ledger" in heist.refused("sheet")


def test_a_second_process_catching_up_waits_for_the_first(tmp_path, server):
    from campaign_ledger.projections import postgres_read, runner

    Table(tmp_path / "heist.db")("new", "Heist")
    first, second = postgres_read.connect(str(tmp_path / "heist.db")), postgres_read.connect(str(tmp_path / "heist.db"))
    try:
        with runner.immediate(first):
            taken = second.connection.execute("SELECT pg_try_advisory_xact_lock(hashtextextended(%s, 0))",
                                              [second.schema]).fetchone()[0]
        assert taken is False
        assert second.connection.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))",
                                         [second.schema]).fetchone()[0] is True  # free once committed
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("env, said", [
    ({"CAMPAIGN_READ": "postgres"}, "CAMPAIGN_READ=postgres keeps the read tables beside a PostgreSQL ledger"),
    ({"CAMPAIGN_READ": "mysql"}, "CAMPAIGN_READ takes sqlite or postgres, not 'mysql'."),
])
def test_campaign_read_without_a_postgresql_ledger_is_refused_in_one_line(tmp_path, monkeypatch, env, said):
    from campaign_ledger.cli import cli

    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    t = Table(tmp_path / "heist.db")
    result = t.runner.invoke(cli, ["--db", t.path, "new", "Heist"])
    assert result.exit_code == 1 and said in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert not os.path.lexists(t.path)


def test_the_shells_line_and_tab_names_come_from_the_schema_as_from_a_read_file(tmp_path, server, monkeypatch):
    from campaign_ledger.commands.completion import names
    from campaign_ledger.commands.toolbar import toolbar_line

    hosted = str(tmp_path / "heist.db")
    assert toolbar_line(hosted).endswith("no campaign yet (`new NAME` begins one)")  # no schema yet
    assert names(hosted, "pc") == []
    Table(hosted)("demo")
    glance = toolbar_line(hosted), [names(hosted, kind) for kind in ("pc", "challenge", "unit", "replay", "round")]
    assert glance[0] == "The Moon Heist (relics) | Destiny 2 | Doom 6" and glance[1][0] == ["Kira", "Bo", "Ash"]
    assert glance[1][3][:2] == ["Vault Guards:3", "Vault Guards:2"]
    monkeypatch.delenv("CAMPAIGN_READ")  # the same ledger, read into an SQLite file
    local = str(tmp_path / "local.db")
    Table(local)("history")
    assert (toolbar_line(local), [names(local, kind) for kind in ("pc", "challenge", "unit", "replay", "round")]) \
        == glance


def test_an_audit_streams_the_schemas_rows_and_names_a_table_changed_there(tmp_path, server):
    """The comparison reads each table on the server as its rows arrive (not held whole: 162 -> 53 MiB
    for an audit at 100,000 entries) and still finds a row edited behind the program's back."""
    from campaign_ledger.projections import postgres_read

    hosted = Table(tmp_path / "hosted.db")
    hosted("demo")
    db = postgres_read.connect(hosted.path)
    try:
        query = "SELECT [entry], [line] FROM [history] ORDER BY [entry]"
        streamed = list(db.streamed(query))
        assert streamed == db.conn.execute(query).fetchall() and len(streamed) == 62
        assert db.streamed("SELECT [entry] FROM [history] WHERE [entry] < 0").fetchall() == []  # none: no rows
        db.conn.execute("UPDATE history SET line = ? WHERE entry = ?", ["Kira takes 9 Stress", 40])
    finally:
        db.conn.close()
    result = hosted("audit", "--json", ok=False)
    audit = json.loads(result.stdout)
    assert result.exit_code == 1 and audit["read_tables_differ"] == ["history"] and not audit["clean"]


@pytest.mark.parametrize("sql, copy", [
    ("INSERT INTO history (entry, line) VALUES (?, ?)", "COPY history (entry, line) FROM STDIN"),
    ("INSERT INTO [balances] ([entry], [destiny]) VALUES (?, ?)", 'COPY "balances" ("entry", "destiny") FROM STDIN'),
    ("INSERT OR REPLACE INTO pools (id, doom) VALUES (?, ?)", None),  # a conflict clause: COPY has none
    ("INSERT OR IGNORE INTO unit_taken (name) VALUES (?)", None),
    ("INSERT INTO pools (id, doom) VALUES (1, ?)", None),            # a value written in the statement
    ("INSERT INTO t (a, b) VALUES (?, lower(?))", None),
    ("UPDATE history SET unit = ? WHERE entry = ?", None),
])
def test_only_a_plain_insert_of_parameters_is_copied(sql, copy):
    """A batch's appended rows go in by COPY (postgres_sql.copy_of); any other statement
    keeps its own meaning through executemany."""
    from campaign_ledger.projections.postgres_sql import copy_of, translate

    assert copy_of(translate(sql, lambda table: ("id",)).sql) == copy


@pytest.mark.parametrize("sql, table", [
    ("INSERT INTO sheets (id, name) VALUES (?, ?)", "sheets"),
    ("INSERT OR REPLACE INTO [challenges] ([id], [name]) VALUES (?, ?)", "challenges"),
    ("  update [sheets] SET [name] = ? WHERE [id] = ?", "sheets"),
    ("DELETE FROM main.challenges WHERE id = ?", "challenges"),
    ("SELECT name FROM sheets WHERE id = ?", None),
    ("SAVEPOINT batch", None),
    ("WITH gone AS (SELECT 1) DELETE FROM sheets", ""),  # a write of another shape: the watch is told
])
def test_the_table_a_statement_writes_is_told_or_the_watch_is_told_it_cannot_be(sql, table):
    """What PostgresRead.watch_writes reads (postgres_sql.written_table): the names a batch keeps are
    forgotten on any write that may reach a naming table."""
    from campaign_ledger.projections.postgres_sql import written_table

    assert written_table(sql) == table


def test_a_ledger_with_no_campaign_yet_says_so_instead_of_showing_a_ruleset(tmp_path, server):
    """A new database, or one a killed import left empty: the sheets and pools of no ruleset
    stand in for the campaign that is not there (they said "An action-dice campaign keeps no pools")."""
    from campaign_ledger.ledger.errors import NO_CAMPAIGN

    empty = Table(tmp_path / "empty.db")
    for read in (("pools",), ("sheet",), ("sheet", "--json"), ("action-dice", "sheet")):
        assert empty.refused(*read) == f"Error: {NO_CAMPAIGN}"
    assert empty("history").stdout.strip() == "No entries."
    empty("new", "Fresh Start")
    assert empty("sheet").exit_code == 0
