"""`campaign note` (issue 13): a note is an entry on the Campaign, shown in history and the
exports (GM-only ones only when asked), refused in one line when it is about nothing, and a
unit that undo reverses."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Table
from tests.test_postgres import postgres_ledger  # noqa: F401  (a fixture)


def _note_rows(t: Table, *filters: str) -> list[dict]:
    return t.json("history", "--kind", "notes", *filters)


def test_a_note_about_a_pc_is_an_entry_whose_history_line_says_what_it_is_about(table: Table) -> None:
    before = table.entries()
    report = table.json("note", "Bo got the scar from the guard captain", "--about", "bo", "--tag", "#Scar")
    assert report["entries"] == [before + 1]
    assert (report["about"], report["tags"], report["gm_only"]) == ("Bo", ["scar"], False)
    row = table.json("history", "--limit", "1")[0]
    assert row["type"] == "Campaign.NoteTaken"
    assert row["line"] == "Note about Bo: Bo got the scar from the guard captain (#scar)"


def test_notes_on_a_round_and_on_an_entry_name_them(table: Table) -> None:
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "1,2,3,4,5")
    table("note", "they fought dirty", "--round", "guards:1")
    table("note", "that roll was generous", "--entry", "3")
    lines = [r["line"] for r in _note_rows(table)]
    assert lines == ["Note on round Guards:1: they fought dirty", "Note on entry #3: that roll was generous"]


@pytest.mark.parametrize("args, says", [
    (("   ",), "A note cannot be empty."),
    (("x", "--about", "Zed"), "Nothing in this campaign is named 'Zed'"),
    (("x", "--round", "Guards:7"), "There is no round 'Guards:7'"),
    (("x", "--entry", "999"), "There is no entry #999"),
    (("x", "--entry", "0"), "There is no entry #0"),
    (("x", "--about", "Bo", "--entry", "2"), "at most one of --about, --round and --entry"),
    (("x", "--tag", "  "), "A tag cannot be empty."),
])
def test_a_note_about_nothing_is_refused_in_one_line_appending_nothing(table: Table, args: tuple, says: str) -> None:
    assert says in table.refused("note", *args)


def test_undo_lists_a_note_as_a_unit_and_reverses_it_out_of_the_notes_view(table: Table) -> None:
    table("note", "keep", "--tag", "plot")
    table("note", "oops, wrong campaign", "--about", "Kira", "--tag", "plot")
    listed = table.json("undo", "--list", "--limit", "2")
    assert [u["unit"] for u in listed] == ["note Kira #1", "note #1"]
    table("undo", "note Kira #1", "--yes")
    assert [r["line"] for r in _note_rows(table)] == ["Note: keep (#plot)"]
    assert [r["line"] for r in table.json("history", "--tag", "plot")] == ["Note: keep (#plot)"]
    undone = [r for r in table.json("history") if r["line"].startswith("Note about Kira")]
    assert undone[0]["reversed_at"] == table.entries()


def test_undoing_the_pc_a_note_is_about_takes_the_note_along_only_with_cascade(table: Table) -> None:
    table("pc", "add", "Ash", "--expertise", "Scav=2", "--primary", "Scav")
    table("note", "Ash owes Bo money", "--about", "Ash")
    assert "note Ash #1" in table.refused("undo", "add pc Ash #1", "--yes")
    table("undo", "add pc Ash #1", "--cascade", "--yes")
    assert _note_rows(table) == []


def test_gm_only_notes_stay_out_of_md_html_and_csv_unless_asked_and_jsonl_keeps_them(table: Table) -> None:
    table("note", "the captain is Bo's father", "--gm-only")
    table("note", "the vault door is bronze")
    for fmt in ("md", "html", "csv"):
        plain = table("export", "--format", fmt).stdout
        asked = table("export", "--format", fmt, "--gm-notes").stdout
        assert "bronze" in plain and "father" not in plain, fmt
        assert "father" in asked and "GM only" in asked, fmt
    assert "father" in table("export", "--format", "jsonl").stdout
    counted = table("export", "--format", "html").stdout, table("export", "--format", "html", "--gm-notes").stdout
    entries = table.entries()
    assert f"({entries - 1} in the log)" in counted[0] and f"({entries} in the log)" in counted[1]


def test_notes_belong_to_every_ruleset(tmp_path: Path) -> None:
    t = Table(tmp_path / "br.db")
    t("demo", "--system", "beer-run")
    name = t.json("sheet")[0]["name"]
    t("note", "keeps the receipts", "--about", name.upper())
    assert _note_rows(t)[0]["line"] == f"Note about {name}: keeps the receipts"


def test_rebuild_gives_the_same_notes_table_and_search_index(table: Table) -> None:
    import sqlite3

    table("note", "the guards fought dirty", "--about", "Guards", "--tag", "guards")
    table("note", "bribe them next time", "--gm-only")
    table("undo", "--yes")

    def snapshot() -> tuple:
        conn = sqlite3.connect(table.path)
        try:
            notes = conn.execute("SELECT * FROM notes ORDER BY entry").fetchall()
            found = conn.execute("SELECT rowid FROM history_fts WHERE history_fts MATCH 'guards' "
                                 "ORDER BY rowid").fetchall()
            return notes, found
        finally:
            conn.close()
    before = snapshot()
    table("rebuild")
    assert snapshot() == before and before[0] and before[1]


def test_notes_undo_and_grep_work_with_the_ledger_on_postgresql(tmp_path: Path, postgres_ledger) -> None:
    t = Table(tmp_path / "read.db")
    t("demo")
    assert "at most one of" in t.refused("note", "owes", "--about", "kira", "--round", "Vault Guards:2")
    assert "There is no round" in t.refused("note", "owes", "--round", "Vault Guards:9")
    t("note", "Kira still owes the fence", "--round", "Vault Guards:2", "--tag", "debt")
    assert [r["line"] for r in t.json("history", "--grep", "fence")] == \
        ["Note on round Vault Guards:2: Kira still owes the fence (#debt)"]
    t("undo", "--yes")
    assert t.json("history", "--tag", "debt") == [] and t.json("audit")["clean"]
