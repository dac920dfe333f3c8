"""A command key stands for one invocation: the command and its arguments, not only its name.

Run again with its key and the same arguments, a command appends nothing (a retry). The same key
with other arguments is another command given an old key by mistake: refused, naming the command
that key was used for. Command-log rows written before the invocation was kept compare names.
"""
import json
import sqlite3

import pytest

from tests.conftest import Table


@pytest.fixture
def demo(tmp_path) -> Table:
    t = Table(tmp_path / "demo.db")
    t("demo")
    return t


ZED = ["pc", "add", "Zed", "--expertise", "Phantom=2", "--primary", "Phantom"]


def test_a_key_given_again_with_other_arguments_is_refused_naming_the_first_command(demo):
    first = demo.json("--key", "k1", *ZED)
    refusal = demo.refused("--key", "k1", "pc", "add", "Zed", "--expertise", "Phantom=3", "--primary", "Phantom")
    assert refusal == (f"Error: key k1 was already used for add pc Zed (entries #{first['entries'][0]}-"
                       f"#{first['entries'][-1]}); use a new key for a different command.")
    assert "key k1 was already used for add pc Zed" in demo.refused("--key", "k1", "pc", "add", "Yara",
                                                                   "--expertise", "Phantom=2", "--primary", "Phantom")
    assert "Phantom 2" in demo("sheet", "Zed").stdout


def test_the_same_invocation_under_its_key_is_a_retry(demo):
    first = demo.json("--key", "k1", *ZED)
    before = demo.entries()
    again = demo.json(*ZED, "--key", "k1")  # the key before or after the command's name: the same invocation
    assert again["repeated"] and again["entries"] == first["entries"] and demo.entries() == before


def test_a_turn_with_other_faces_under_an_old_key_is_refused(demo):
    demo("undo", "Vault Guards:3", "--yes")
    turn = ["cohort-turn", "Vault Guards", "--leader", "Kira", "--assist", "Bo"]
    demo("--key", "t1", *turn, "--faces", "1,3,3,4")
    assert "key t1 was already used for cohort turn (Vault Guards:4)" in demo.refused(  # a new round (issue 35)
        "--key", "t1", *turn, "--faces", "6,6,6,6")


def test_an_undo_retried_without_yes_is_still_a_retry_but_another_unit_is_refused(demo):
    demo("--key", "u1", "undo", "Vault Guards:3", "--yes")
    before = demo.entries()
    assert "Already recorded under key u1" in demo("--key", "u1", "undo", "Vault Guards:3").stdout
    assert demo.entries() == before
    assert "key u1 was already used for undo (Vault Guards:3)" in demo.refused(
        "--key", "u1", "undo", "Vault Guards:2", "--cascade", "--yes")


def test_the_invocation_is_kept_in_the_command_log_inside_the_chain(demo):
    report = demo.json("--key", "k1", *ZED)
    with sqlite3.connect(demo.path) as conn:
        detail = json.loads(conn.execute("SELECT detail FROM ledger_commands WHERE first_entry = ?",
                                         (report["entries"][0],)).fetchone()[0])
        conn.execute("UPDATE ledger_commands SET detail = ? WHERE first_entry = ?",
                     (json.dumps({**detail, "invocation": "0" * 16}), report["entries"][0]))
    conn.close()
    assert detail["key"] == "k1" and len(detail["invocation"]) == 16
    assert demo("audit", ok=False).exit_code == 1  # an edited invocation breaks the chain at its entry


def test_rows_logged_without_an_invocation_keep_comparing_names(demo):
    from campaign_ledger.ledger.application import open_ledger
    app = open_ledger(demo.path)
    app.command_key = "old-1"  # as the program wrote keys before it kept invocations
    first = app.add_pc("Zed", {"Phantom": 2}, "Phantom")["entries"]
    app.close()
    before = demo.entries()
    again = demo.json("--key", "old-1", "pc", "add", "Zed", "--expertise", "Phantom=3", "--primary", "Phantom")
    assert again["repeated"] and again["entries"] == first and demo.entries() == before
    assert "belongs to another command (add_pc" in demo.refused("--key", "old-1", "session", "start", "S2")


def test_a_key_is_found_by_the_index_not_by_reading_the_whole_command_log(tmp_path):
    """Every CLI write carries a key and asks for it twice: on SQLite that is an indexed search
    (ledger/chain.py KEYS_INDEX), so a write costs the same at a million entries as at a hundred."""
    import sqlite3

    from campaign_ledger.ledger.chain import ChainedSQLiteRecorder
    from tests.conftest import Table

    path, t = tmp_path / "keys.db", Table(tmp_path / "keys.db")
    t("new", "Heist")
    for name in ("Kira", "Bo", "Ash"):
        t("pc", "add", name, "--expertise", "Phantom=2", "--primary", "Phantom")
    with sqlite3.connect(path) as conn:
        plan = conn.execute("EXPLAIN QUERY PLAN SELECT 1 FROM ledger_commands WHERE "
                            f"{ChainedSQLiteRecorder.KEY_WHERE} LIMIT 1", ("k",)).fetchall()
        keyed = conn.execute("SELECT count(*) FROM ledger_commands WHERE json_extract(detail, '$.key') IS NOT NULL")
        assert keyed.fetchone()[0] == 4  # the CLI gives each write a key
    assert "USING INDEX ledger_commands_key" in str(plan)
