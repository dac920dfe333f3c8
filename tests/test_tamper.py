"""Tampering with any table the ledger keeps is caught by audit, which names the entry.

The matrix: edit, delete, insert, reorder in the events, the chain, the command log and the
snapshots; with and without the forger recomputing every hash (then audit gets the anchor
taken before the tampering); with and without `rebuild --force` afterwards.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from campaign_ledger.ledger.chain import V2_KEY, link_hash
from tests.conftest import Table


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, str]:
    """The relics demo with two snapshots of the campaign, and its anchor."""
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.ledger.ids import CAMPAIGN_ID

    t = Table(tmp_path_factory.mktemp("pristine") / "demo.db")
    t("demo")
    app = open_ledger(t.path)
    last = app.repository.get(CAMPAIGN_ID).version
    for version in (2, last):
        app.take_snapshot(CAMPAIGN_ID, version=version)
    app.close()
    return Path(t.path), t.json("anchor")["anchor"]


@pytest.fixture
def copy(pristine, tmp_path) -> tuple[Table, sqlite3.Connection, str]:
    source, anchor = pristine
    t = Table(tmp_path / "campaign.db")
    with sqlite3.connect(source) as src, sqlite3.connect(t.path) as dst:
        src.backup(dst)
    conn = sqlite3.connect(t.path, isolation_level=None)
    yield t, conn, anchor
    conn.close()


def _one(conn, sql, params=()):
    return conn.execute(sql, params).fetchone()


def _last(conn) -> int:
    return _one(conn, "SELECT max(rowid) FROM stored_events")[0]


def _multi_command(conn) -> int:
    """The first entry of a command that wrote several entries."""
    return _one(conn, "SELECT min(first_entry) FROM ledger_commands WHERE last_entry > first_entry + 1")[0]


def recompute(conn) -> None:
    """What a forger with the program's source does: every hash again, as the recorder would."""
    v2_from = int(_one(conn, "SELECT value FROM ledger_meta WHERE key = ?", (V2_KEY,))[0])
    commands = {r[0]: r[1:] for r in conn.execute("SELECT first_entry, last_entry, command, unit, detail "
                                                  "FROM ledger_commands")}
    conn.execute("DELETE FROM ledger_chain")
    previous = "0" * 64
    for entry, oid, version, topic, state in conn.execute(
            "SELECT rowid, originator_id, originator_version, topic, state FROM stored_events ORDER BY rowid"
    ).fetchall():
        previous = link_hash(previous, entry, oid, version, topic, state, commands.get(entry), v2_from)
        conn.execute("INSERT INTO ledger_chain VALUES (?, ?)", (entry, previous))


def _forged_copy_of_last(conn) -> tuple:
    """A plausible new entry: the last one again, as its aggregate's next version."""
    oid, version, topic, state = _one(conn, "SELECT originator_id, originator_version, topic, state "
                                            "FROM stored_events WHERE rowid = ?", (_last(conn),))
    top = _one(conn, "SELECT max(originator_version) FROM stored_events WHERE originator_id = ?", (oid,))[0]
    return oid, top + 1, topic, state


# --- the tampering; each returns the entry audit must name ------------------------------------

def events_edit(conn, forged: bool) -> int:
    state = _one(conn, "SELECT state FROM stored_events WHERE rowid = 20")[0]
    conn.execute("UPDATE stored_events SET state = ? WHERE rowid = 20", (state.replace(b"1", b"6", 1),))
    return 20


def events_delete(conn, forged: bool) -> int:
    if not forged:
        conn.execute("DELETE FROM stored_events WHERE rowid = 31")
        return 31
    last = _last(conn)  # the newest entry, with its chain and command rows, as if never written
    conn.execute("DELETE FROM stored_events WHERE rowid = ?", (last,))
    conn.execute("DELETE FROM ledger_commands WHERE first_entry = ?", (last,))
    conn.execute("UPDATE ledger_commands SET last_entry = ? WHERE last_entry = ?", (last - 1, last))
    return last


def events_insert(conn, forged: bool) -> int:
    last, row = _last(conn), _forged_copy_of_last(conn)
    if not forged:
        conn.execute("INSERT INTO stored_events (rowid, originator_id, originator_version, topic, state) "
                     "VALUES (?, ?, ?, ?, ?)", (last + 1, *row))
        return last + 1
    for table, column in (("stored_events", "rowid"), ("ledger_commands", "first_entry"),
                          ("ledger_commands", "last_entry")):  # make room after entry 25
        conn.execute(f"UPDATE {table} SET {column} = -({column} + 1) WHERE {column} > 25")
        conn.execute(f"UPDATE {table} SET {column} = -{column} WHERE {column} < 0")
    conn.execute("INSERT INTO stored_events (rowid, originator_id, originator_version, topic, state) "
                 "VALUES (26, ?, ?, ?, ?)", row)
    conn.execute("UPDATE ledger_commands SET last_entry = 26 WHERE first_entry <= 25 AND last_entry = 25")
    return last


def events_reorder(conn, forged: bool) -> int:
    a = _one(conn, "SELECT topic, state FROM stored_events WHERE rowid = 41")
    b = _one(conn, "SELECT topic, state FROM stored_events WHERE rowid = 48")
    conn.execute("UPDATE stored_events SET topic = ?, state = ? WHERE rowid = 41", b)
    conn.execute("UPDATE stored_events SET topic = ?, state = ? WHERE rowid = 48", a)
    return 41


def chain_edit(conn, forged: bool) -> int:
    conn.execute("UPDATE ledger_chain SET hash = ? WHERE entry = 12", ("f" * 64,))
    return 12


def chain_delete(conn, forged: bool) -> int:
    conn.execute("DELETE FROM ledger_chain WHERE entry = 12")
    return 12


def chain_insert(conn, forged: bool) -> int:
    last = _last(conn)
    conn.execute("INSERT INTO ledger_chain VALUES (?, ?)", (last + 1, "e" * 64))
    return last + 1


def chain_reorder(conn, forged: bool) -> int:
    a, b = (_one(conn, "SELECT hash FROM ledger_chain WHERE entry = ?", (e,))[0] for e in (12, 17))
    conn.execute("UPDATE ledger_chain SET hash = ? WHERE entry = 12", (b,))
    conn.execute("UPDATE ledger_chain SET hash = ? WHERE entry = 17", (a,))
    return 12


def commands_edit(conn, forged: bool) -> int:
    first = _multi_command(conn)
    conn.execute("UPDATE ledger_commands SET unit = 'Someone Else:9' WHERE first_entry = ?", (first,))
    return first


def commands_actor_edit(conn, forged: bool) -> int:
    """Who wrote an entry (issue 38) is in its command's row: the GM's entry passed off as a player's."""
    first = _multi_command(conn)
    conn.execute("UPDATE ledger_commands SET detail = replace(detail, '\"actor\": \"gm\"', '\"actor\": \"seat:Bo\"') "
                 "WHERE first_entry = ?", (first,))
    assert '"seat:Bo"' in _one(conn, "SELECT detail FROM ledger_commands WHERE first_entry = ?", (first,))[0]
    return first


def commands_delete(conn, forged: bool) -> int:
    first = _multi_command(conn)
    conn.execute("DELETE FROM ledger_commands WHERE first_entry = ?", (first,))
    return first  # with recomputed hashes too: its entries now belong to no command


def commands_insert(conn, forged: bool) -> int:
    first = _multi_command(conn)
    conn.execute("INSERT INTO ledger_commands SELECT first_entry + 1, last_entry, 'undo', NULL, '{}' "
                 "FROM ledger_commands WHERE first_entry = ?", (first,))
    conn.execute("UPDATE ledger_commands SET last_entry = first_entry WHERE first_entry = ?", (first,))
    return first


def commands_reorder(conn, forged: bool) -> int:
    rows = conn.execute("SELECT first_entry, command, unit, detail FROM ledger_commands "
                        "WHERE unit IS NOT NULL ORDER BY first_entry").fetchall()
    a = rows[0]
    b = next(r for r in rows if r[1:] != a[1:])
    conn.execute("UPDATE ledger_commands SET command = ?, unit = ?, detail = ? WHERE first_entry = ?", (*b[1:], a[0]))
    conn.execute("UPDATE ledger_commands SET command = ?, unit = ?, detail = ? WHERE first_entry = ?", (*a[1:], b[0]))
    return a[0]


def _snapshot_entry(conn, version: int) -> int:
    oid = _one(conn, "SELECT originator_id FROM stored_snapshots")[0]
    return _one(conn, "SELECT rowid FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                (oid, version))[0]


def snapshots_edit(conn, forged: bool) -> int:
    version, state = _one(conn, "SELECT originator_version, state FROM stored_snapshots "
                                "ORDER BY originator_version DESC")
    data = json.loads(state)
    data["state"]["name"] = "A Heist That Never Was"
    conn.execute("UPDATE stored_snapshots SET state = ? WHERE originator_version = ?",
                 (json.dumps(data, separators=(",", ":")).encode(), version))
    return _snapshot_entry(conn, version)


def snapshots_insert(conn, forged: bool) -> int:
    oid, topic, state = _one(conn, "SELECT originator_id, topic, state FROM stored_snapshots "
                                   "ORDER BY originator_version DESC")
    conn.execute("INSERT INTO stored_snapshots VALUES (?, 3, ?, ?)", (oid, topic, state))
    return _snapshot_entry(conn, 3)


def snapshots_reorder(conn, forged: bool) -> int:
    (v1, s1), (v2, s2) = conn.execute("SELECT originator_version, state FROM stored_snapshots "
                                      "ORDER BY originator_version").fetchall()
    conn.execute("UPDATE stored_snapshots SET state = ? WHERE originator_version = ?", (s2, v1))
    conn.execute("UPDATE stored_snapshots SET state = ? WHERE originator_version = ?", (s1, v2))
    return _snapshot_entry(conn, v1)


FORGEABLE = [events_edit, events_delete, events_insert, events_reorder,
             commands_edit, commands_actor_edit, commands_delete, commands_insert, commands_reorder]
PLAIN = [chain_edit, chain_delete, chain_insert, chain_reorder, snapshots_edit, snapshots_insert, snapshots_reorder]
CASES = ([(f, False) for f in FORGEABLE + PLAIN] + [(f, True) for f in FORGEABLE])


@pytest.mark.parametrize("rebuild", [False, True], ids=["", "rebuild"])
@pytest.mark.parametrize("tamper,forged", CASES,
                         ids=[f.__name__ + ("-recomputed" if forged else "") for f, forged in CASES])
def test_audit_names_the_entry_of_every_tampering(copy, tamper, forged, rebuild):
    t, conn, anchor = copy
    expected = tamper(conn, forged)
    if forged:
        recompute(conn)
        expected = expected if tamper is commands_delete else int(anchor.split("#")[1].split()[0])
    if rebuild:
        t("rebuild", "--force", ok=False)
    result = t("audit", "--json", *(["--anchor", anchor] if forged else []), ok=False)
    report = json.loads(result.stdout)
    assert (result.exit_code, report["broken_entry"]) == (1, expected), report["chain"]
    assert f"#{expected}" in report["chain"]


BESIDE = [(events_edit, False), (events_edit, True), (commands_delete, False), (chain_insert, False),
          (snapshots_edit, False)]


@pytest.mark.parametrize("tamper,forged", BESIDE, ids=[f.__name__ + ("-recomputed" if forged else "") for f, forged in BESIDE])
def test_audit_beside_names_the_entry_too(copy, tamper, forged, monkeypatch):
    """The chain checked by a second process, which checks the lists and snapshots too from the
    entries it verifies (a long ledger's audit; here at any length): the same entry named, a
    snapshot's and a forgery's (through the anchor) included."""
    from campaign_ledger.ledger import side_process

    monkeypatch.setattr(side_process, "SIDE_FROM", 0)
    test_audit_names_the_entry_of_every_tampering(copy, tamper, forged, False)


def test_an_entry_stored_again_as_text_with_the_same_words_is_named_by_audit_not_a_crash(copy):
    """SQLite's replace() hands back TEXT even when it replaces nothing: the words, and so the hash,
    are the same, but the program never reads such an entry back. Audit named nothing and then
    failed on the entry (MapperDeserialisationError); it is a change made outside the program."""
    t, conn, _ = copy
    conn.execute("UPDATE stored_events SET state = replace(state, 'no such words', '') WHERE rowid = 20")
    assert _one(conn, "SELECT typeof(state) FROM stored_events WHERE rowid = 20")[0] == "text"
    result = t("audit", "--json", ok=False)
    report = json.loads(result.stdout)
    assert (result.exit_code, report["broken_entry"], report["clean"]) == (1, 20, False), report
    assert "stored as text" in report["chain"] and "Traceback" not in result.output
    assert "#20" in t.refused("note", "after the edit")


def test_a_deleted_snapshot_changes_nothing_the_record_says(copy, chain_check):
    """A snapshot is a shortcut: without it the aggregate replays from its entries."""
    t, conn, anchor = copy
    sheets = t.json("sheet")
    conn.execute("DELETE FROM stored_snapshots")
    assert t.json("audit", "--anchor", anchor)["clean"]
    assert t.json("sheet") == sheets


def test_a_forged_snapshot_is_found_before_commands_build_on_it(copy, chain_check):
    t, conn, _ = copy
    entry = snapshots_edit(conn, False)
    t("rebuild")  # the entries are intact: rebuild is allowed, the snapshot is audit's to find
    result = t("audit", "--json", ok=False)
    assert (result.exit_code, json.loads(result.stdout)["broken_entry"]) == (1, entry)


def test_a_forged_snapshot_past_the_first_page_of_its_aggregates_snapshots_is_found(copy, chain_check, monkeypatch):
    """Audit reads an aggregate's snapshots a page at a time (ledger/audit.py SnapshotCheck): the
    forged one (the campaign's second) on the second page is named as on the first."""
    from campaign_ledger.ledger import audit

    monkeypatch.setattr(audit, "SNAPSHOTS_READ", 1)
    t, conn, _ = copy
    entry = snapshots_edit(conn, False)
    result = t("audit", "--json", ok=False)
    assert (result.exit_code, json.loads(result.stdout)["broken_entry"]) == (1, entry)



def test_on_postgresql_the_command_log_and_anchor_are_checked_too(tmp_path, monkeypatch):
    """The same chain version 2 on the real local server: a command row edited is named by audit,
    and undo refuses to plan from it."""
    import psycopg

    from tests.test_postgres import SERVER, _database

    name = _database(monkeypatch)
    try:
        t = Table(tmp_path / "read.db")
        t("demo")
        anchor = t.json("anchor")["anchor"]
        assert t.json("audit", "--anchor", anchor)["clean"]
        with psycopg.connect(dbname=name, autocommit=True, **SERVER) as conn:
            first = conn.execute("SELECT min(first_entry) FROM ledger_commands WHERE unit IS NOT NULL").fetchone()[0]
            conn.execute("UPDATE ledger_commands SET unit = 'Nobody:1' WHERE first_entry = %s", (first,))
        result = t("audit", "--json", ok=False)
        assert (result.exit_code, json.loads(result.stdout)["broken_entry"]) == (1, first)
        assert f"#{first}" in t.refused("undo", "--dry-run")
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **SERVER) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
