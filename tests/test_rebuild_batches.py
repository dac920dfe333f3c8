"""A rebuild reads the ledger in batches, with the schema read once and the full-text index built
at the end; it must leave exactly the tables catching up one entry at a time leaves, every ruleset."""
import pytest

from campaign_ledger.ledger import rulesets
from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.projections import runner

DEMOS = sorted(rulesets.demos())


def _played(tmp_path, ruleset: str):
    name, play = rulesets.demos()[ruleset]
    app = open_ledger(str(tmp_path / f"{ruleset}.db"))
    play(app)
    return app


def _found(db, word: str) -> list[int]:
    """What `history --grep` finds: the full-text index, not only the rows it indexes."""
    return [r[0] for r in db.execute("SELECT rowid FROM history_fts WHERE history_fts MATCH ? ORDER BY rowid",
                                     [word])]


def _every_way(app, tmp_path, monkeypatch):
    """The read tables caught up one entry at a time, and rebuilt in batches (then again, verifying
    the chain as the rows are read): both must be the same; both are returned."""
    one_by_one = runner.connect(str(tmp_path / "one.db"))
    monkeypatch.setattr(runner, "BATCH", 1)
    assert runner.catch_up(app, one_by_one) == app.recorder.max_notification_id()
    monkeypatch.undo()
    batched = runner.connect(str(tmp_path / "batched.db"))
    runner.rebuild(app, batched)
    assert list(runner.tables(batched)) == list(runner.tables(one_by_one))
    runner.rebuild(app, batched, whole=True)  # the rows read once, for the chain check and the tables
    assert list(runner.tables(batched)) == list(runner.tables(one_by_one))
    return batched, one_by_one


@pytest.mark.parametrize("ruleset", DEMOS)
def test_a_rebuild_in_batches_equals_catching_up_one_entry_at_a_time(tmp_path, monkeypatch, ruleset):
    app = _played(tmp_path, ruleset)
    batched, one_by_one = _every_way(app, tmp_path, monkeypatch)
    batched.execute("INSERT INTO history (entry, line) VALUES (?, ?)", [10**6, "zanzibar"])
    runner.rebuild(app, batched)  # over tables already full: every row deleted and derived again
    assert _found(batched, "zanzibar") == []
    assert list(runner.tables(batched)) == list(runner.tables(one_by_one))
    words = {w.strip(".,:()[]'") for (line,) in one_by_one.execute("SELECT line FROM history") for w in line.split()}
    for word in sorted(w for w in words if w.isalpha())[:40]:
        assert _found(batched, word) == _found(one_by_one, word), word
    assert batched.execute("INSERT INTO history_fts (history_fts) VALUES ('integrity-check')") is not None


def test_a_rebuild_keeps_the_full_text_triggers_so_later_entries_are_found(tmp_path):
    app = _played(tmp_path, "relics")
    db = runner.connect(str(tmp_path / "read.db"))
    runner.rebuild(app, db)
    triggers = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert {"history_ai", "history_ad", "history_au"} <= triggers
    db.execute("INSERT INTO history (entry, line) VALUES (?, ?)", [10**6, "zanzibar"])
    assert _found(db, "zanzibar") == [10**6]


def test_names_kept_in_a_batch_follow_renames_undos_and_unmade_pcs(table, tmp_path, monkeypatch):
    """A batch keeps the names it looked up and the pools row in memory: a rename, an undone rename,
    a PC unmade by undo and made again, and a savepoint rolled back must each leave the rows that
    applying one entry per batch leaves, with each history line naming who it named then."""
    renamed_undone_and_remade(table)
    app = open_ledger(table.path)
    batched, _ = _every_way(app, tmp_path, monkeypatch)
    lines = [r[0] for r in batched.execute("SELECT line FROM history ORDER BY entry")]
    assert_named_as_then(lines)
    assert batched.execute("SELECT count(*) FROM history WHERE unit IS NULL").fetchone()[0] == 0


def renamed_undone_and_remade(table) -> None:
    """On the `table` fixture's campaign: a rename, an undone rename, a PC unmade by undo and made again."""
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d")
    table("pc", "rename", "Kira", "Kira Vale")
    table("trait", "add", "Kira Vale", "Quick", "+1 / 1d")
    table("undo", "--yes")
    table("undo", "--yes")
    table("pc", "rename", "Bo", "Bo the Bold")
    table("pc", "add", "Zed", "--expertise", "Phantom=2", "--primary", "Phantom")
    table("undo", "--yes")
    table("pc", "add", "Zed", "--expertise", "Phantom=3", "--primary", "Phantom")
    table("trait", "add", "Zed", "Sly", "+1 / 1d")
    table("cohort-turn", "Guards", "--leader", "Bo the Bold", "--faces", "1,1,2,2,1,1,2")


def assert_named_as_then(lines: list[str]) -> None:
    """Each history line names who it named then (a name kept past a rename or an unmade PC would not)."""
    assert any(line.startswith("Kira Vale gained the trait Quick") for line in lines)
    assert any(line.startswith("Zed gained the trait Sly") for line in lines)


def _tampered_rebuild(tmp_path, tamper) -> tuple[list, list, str]:
    """The read tables before and after `campaign rebuild` on a ledger `tamper` broke, and the refusal."""
    import sqlite3

    from click.testing import CliRunner
    from campaign_ledger.cli import cli

    app = _played(tmp_path, "relics")
    path = str(tmp_path / "relics.db")
    db = runner.connect(path)
    runner.catch_up(app, db)
    before = list(runner.tables(db))
    app.close()
    with sqlite3.connect(path) as conn:
        tamper(conn)
    result = CliRunner().invoke(cli, ["--db", path, "rebuild"])
    after = dict(runner.tables(runner.connect(path)))  # the command may have loaded other rulesets' tables too
    return before, [(table, after[table]) for table, _ in before], (result.exit_code, result.stderr.strip())


def test_a_break_midway_found_while_rebuilding_leaves_the_tables_as_they_were(tmp_path):
    """The chain is checked as the rows are read for the tables: entries before the break were
    applied by then, and the whole rebuild is rolled back."""
    def edit_entry_20(conn):
        state = conn.execute("SELECT state FROM stored_events WHERE rowid = 20").fetchone()[0]
        conn.execute("UPDATE stored_events SET state = ? WHERE rowid = 20", (state.replace(b"1", b"6", 1),))

    before, after, (code, refusal) = _tampered_rebuild(tmp_path, edit_entry_20)
    assert code == 1 and refusal.startswith("Error: The ledger's hash chain is broken at entry #20")
    assert "rebuild --force" in refusal and len(refusal.splitlines()) == 1
    assert after == before


def test_a_break_found_after_the_last_entry_also_leaves_the_tables_as_they_were(tmp_path):
    """A command-log row past the last entry is found once every entry applied: rolled back too."""
    def stray_command(conn):
        last = conn.execute("SELECT max(rowid) FROM stored_events").fetchone()[0]
        conn.execute("INSERT INTO ledger_commands (first_entry, last_entry, command, unit, detail) "
                     "VALUES (?, ?, 'gm', NULL, '{}')", (last + 5, last + 5))

    before, after, (code, refusal) = _tampered_rebuild(tmp_path, stray_command)
    assert code == 1 and "which is not in the ledger" in refusal
    assert after == before


def test_an_entry_rewritten_as_text_is_named_by_its_entry_not_a_crash(tmp_path):
    """SQLite's replace() over a stored entry hands back TEXT, not the BLOB written: the chain must
    still name the entry (it crashed the hashing before), and the rebuild leave the tables be."""
    def rewrite_entry_20(conn):
        conn.execute("UPDATE stored_events SET state = replace(state, '1', '6') WHERE rowid = 20")
        assert conn.execute("SELECT typeof(state) FROM stored_events WHERE rowid = 20").fetchone()[0] == "text"

    before, after, (code, refusal) = _tampered_rebuild(tmp_path, rewrite_entry_20)
    assert code == 1 and refusal.startswith("Error: The ledger's hash chain is broken at entry #20"), refusal
    assert after == before


@pytest.mark.parametrize("setting", [1, 0])
def test_a_rebuild_leaves_the_files_secure_delete_as_it_found_it(tmp_path, setting):
    """The rebuild deletes without zeroing (its rows are written again from the ledger); every other
    delete on the connection (an undo's, a note's) keeps the setting the file was opened with."""
    app = _played(tmp_path, "relics")
    db = runner.connect(str(tmp_path / "read.db"))
    db.conn.execute(f"PRAGMA secure_delete = {setting}")
    runner.rebuild(app, db, whole=True)
    assert db.conn.execute("PRAGMA secure_delete").fetchone()[0] == setting
