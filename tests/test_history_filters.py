"""`campaign history` filters (issue 13): each cuts the history as a GM means it, they combine,
`--json` gives the rows the text shows, and `--grep` answers from the FTS5 index."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.conftest import Table


@pytest.fixture
def played(table: Table) -> Table:
    """Two sessions: a round of Guards, a house rule, an override, notes, and an undone round."""
    table("session", "start", "One")
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "1,2,3,4,5")
    table("challenge-turn", "Guards", "--faces", "2,2,2,2")
    table("note", "the captain limps", "--round", "Guards:1", "--tag", "captain")
    table("session", "end")
    table("session", "start", "Two")
    table("house-rule", "set", "ranked_simple", "3=2/3", "--reason", "our table's ranks")
    table("note", "Bo got the scar from the captain", "--about", "Bo", "--tag", "scar", "--tag", "captain")
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "6,6,6,6,6")
    table("undo", "Guards:2", "--yes")
    return table


def _entries(t: Table, *args: str) -> list[int]:
    return [r["entry"] for r in t.json("history", *args)]


def _lines(t: Table, *args: str) -> list[str]:
    return [r["line"] for r in t.json("history", *args)]


def test_grep_finds_every_word_in_lines_and_notes_whatever_the_case(played: Table) -> None:
    assert _lines(played, "--grep", "SCAR captain") == ["Note about Bo: Bo got the scar from the captain "
                                                      "(#scar #captain)"]
    assert len(_lines(played, "--grep", "captain")) == 2
    assert _lines(played, "--grep", "dragon") == []


def test_grep_obeys_each_fts5_operator_the_readme_names(played: Table) -> None:
    """OR, AND, NOT, a prefix `*`, a "quoted phrase" and parentheses (README: `history --grep`)."""
    def found(query: str) -> set[int]:
        return set(_entries(played, "--grep", query))

    scar, limps, captain = found("scar"), found("limps"), found("captain")
    assert scar and limps and not scar & limps
    assert found("scar OR limps") == scar | limps
    assert found("scar AND captain") == found("scar captain") == scar & captain == scar
    assert found("captain NOT scar") == captain - scar == limps
    assert found("capt*") == captain and found("capt") == set() and found('"capt"*') == captain
    assert found('"scar from"') == scar and found('"from scar"') == set() and found("from scar") == scar
    bo = found("Bo")
    assert scar <= bo and not limps & bo
    assert found("(scar OR limps) NOT Bo") == limps                  # parentheses group
    assert found("scar OR limps NOT Bo") == scar | limps             # NOT binds tighter than OR


def test_grep_reads_a_query_as_fts5_itself_does(played: Table) -> None:
    """Where the GM's text is FTS5 syntax as it stands, the answer is FTS5's own answer to it."""
    queries = ("Guards OR scar", "captain NOT scar", "Kira Guards OR note", "Guards NOT Kira rolls",
               "capt* AND Bo", "Guards OR Kira AND scar", "(scar OR limps) AND captain", "Guard*")
    with sqlite3.connect(played.path) as conn:
        for query in queries:
            fts5 = [r[0] for r in conn.execute("SELECT rowid FROM history_fts WHERE history_fts MATCH ? "
                                               "ORDER BY rowid", [query])]
            assert _entries(played, "--grep", query) == fts5, query


def test_grep_searches_punctuation_as_words_not_as_fts5_syntax(played: Table) -> None:
    played("note", "Bo's d6+1 plan: x-y")
    assert len(_lines(played, "--grep", "Bo's d6+1 x-y")) == 1
    assert _lines(played, "--grep", "x-y") == _lines(played, "--grep", '"x y"')


@pytest.mark.parametrize("query, says", [
    ("scar OR", "OR needs a word on each side"),
    ("NOT scar", "NOT needs a word on each side"),
    ("scar AND OR captain", "AND needs a word on each side"),
    ("(scar OR limps", "a '(' is not closed"),
    ("scar)", "')' closes nothing"),
    ('"scar from', 'a quote (") is not closed'),
])
def test_a_malformed_grep_query_is_refused_in_one_line_exit_2(played: Table, query: str, says: str) -> None:
    assert says in played.refused("history", "--grep", query)
    assert played("history", "--grep", query, ok=False).exit_code == 2


def test_tag_kind_round_and_session_each_cut_the_history(played: Table) -> None:
    everything = played.json("history")
    notes = [r["entry"] for r in everything if r["type"] == "Campaign.NoteTaken"]
    assert _entries(played, "--kind", "notes") == notes
    assert _entries(played, "--tag", "captain") == notes
    assert _entries(played, "--tag", "captain", "--tag", "SCAR") == notes[1:]
    assert {r["type"] for r in played.json("history", "--kind", "rolls")} == {"Challenge.PoolRolled"}
    assert [r["type"] for r in played.json("history", "--kind", "house-rules")] == ["Campaign.HouseRuleChanged"]
    assert [r["type"] for r in played.json("history", "--kind", "reversals")] == ["Reversible.Reversed"]
    round_one = _entries(played, "--round", "guards:1")
    assert notes[0] in round_one and all(everything[e - 1]["round"] == "Guards:1" for e in round_one[:-1])
    sessions = played.json("session", "list")
    first = _entries(played, "--session", "1")
    assert (first[0], first[-1]) == (sessions[0]["first_entry"], sessions[0]["last_entry"])


def test_filters_combine_every_one_must_hold(played: Table) -> None:
    both = set(_entries(played, "--pc", "Bo")) & set(_entries(played, "--session", "2"))
    assert _entries(played, "--pc", "Bo", "--session", "2") == sorted(both)
    assert _entries(played, "--pc", "bo", "--kind", "notes", "--grep", "scar") == \
        [r["entry"] for r in played.json("history", "--kind", "notes") if "scar" in r["line"]]
    assert _entries(played, "--kind", "notes", "--kind", "reversals") == \
        sorted(_entries(played, "--kind", "notes") + _entries(played, "--kind", "reversals"))


def test_pc_and_challenge_find_their_own_entries_notes_and_lines_naming_them(played: Table) -> None:
    about_bo = _lines(played, "--pc", "Bo")
    assert "Note about Bo: Bo got the scar from the captain (#scar #captain)" in about_bo
    own = [r["line"] for r in played.json("history") if r["type"] == "Character.Joined"]
    assert [line for line in own if line in about_bo] == [line for line in own if "Bo" in line]
    guards = played.json("history", "--challenge", "guards")
    assert {r["round"] for r in played.json("history") if r["round"]} <= {r["round"] for r in guards}


def test_since_and_until_take_entry_numbers_and_times(played: Table) -> None:
    rows = played.json("history")
    assert _entries(played, "--since", "5", "--until", "8") == [5, 6, 7, 8]
    stamp = rows[-1]["time"]
    assert _entries(played, "--since", stamp) == [r["entry"] for r in rows if r["time"] >= stamp]
    assert _entries(played, "--until", rows[0]["time"]) == [r["entry"] for r in rows if r["time"] <= rows[0]["time"]]
    assert _entries(played, "--since", "2000-01-01T00:00", "--limit", "2") == [r["entry"] for r in rows[-2:]]


def test_json_returns_the_rows_the_text_shows(played: Table) -> None:
    args = ("--pc", "Bo", "--since", "3")
    text = played("history", *args).stdout.splitlines()
    rows = played.json("history", *args)
    assert [int(line.split()[0].lstrip("#")) for line in text] == [r["entry"] for r in rows]
    assert all(r["line"] in line for r, line in zip(rows, text))


@pytest.mark.parametrize("args, says", [
    (("--pc", "Zed"), "There is no PC named 'Zed'"),
    (("--pc", "Guards"), "There is no PC named 'Guards'"),
    (("--challenge", "Kira"), "There is no Challenge named 'Kira'"),
    (("--session", "9"), "There is no session 9"),
    (("--kind", "dragons"), "--kind takes rolls, overrides"),
    (("--grep", "  ?! "), "--grep needs a word"),
    (("--since", "yesterday"), "--since takes an entry number or a time"),
    (("--until", "9" * 30), "--until is too large"),
])
def test_a_filter_naming_nothing_is_refused_in_one_line(played: Table, args: tuple, says: str) -> None:
    assert says in played.refused("history", *args)


def test_pc_and_challenge_reach_other_rulesets_characters_and_things(tmp_path: Path) -> None:
    t = Table(tmp_path / "d2.db")
    t("demo", "--system", "decision-2d6")
    torches = t.json("history", "--challenge", "torches")
    assert torches and all("Torches" in r["line"] for r in torches)
    assert "There is no PC named 'Torches'" in t.refused("history", "--pc", "Torches")
    rolls = t.json("history", "--pc", "billy", "--kind", "rolls")
    assert rolls and all("Billy" in r["line"] for r in rolls)


def test_overrides_kind_finds_the_gm_override(table: Table) -> None:
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "1,2,3,4,5")
    table("challenge-turn", "Guards", "--faces", "2,2,2,2")
    table("cohort-turn", "Guards", "--leader", "Bo", "--faces", "1,1,1,1,1", "--gm-override", "Bo knows the way")
    found = table.json("history", "--kind", "overrides")
    assert found and all("GM override" in r["line"] for r in found)


def test_grep_answers_from_the_fts_index(played: Table) -> None:
    from campaign_ledger.projections import history_search as search

    conn = sqlite3.connect(played.path)
    try:
        from sqlite_utils import Database
        sql, args = search.sql_of(Database(conn), search.Filters(grep="scar"))
        plan = " ".join(str(r[-1]) for r in conn.execute("EXPLAIN QUERY PLAN " + sql, args))
    finally:
        conn.close()
    assert "history_fts VIRTUAL TABLE INDEX" in plan, plan


def test_the_index_stays_current_through_undo_and_rebuild(played: Table, tmp_path: Path) -> None:
    played("note", "a brand new word: zeppelin")
    assert len(_entries(played, "--grep", "zeppelin")) == 1
    before = [played.json("history", "--grep", w) for w in ("captain", "zeppelin", "Guards")]
    played("rebuild")
    assert [played.json("history", "--grep", w) for w in ("captain", "zeppelin", "Guards")] == before


def test_grep_on_ten_thousand_entries_answers_from_the_index_as_a_like_scan_would(tmp_path: Path) -> None:
    from bench.search import fill
    from campaign_ledger.projections import history_search as search
    from campaign_ledger.projections import runner

    db = runner.connect(str(tmp_path / "big.db"))
    fill(db, 10_000)
    sql, args = search.sql_of(db, search.Filters(grep="Zeppelin"))
    plan = " ".join(r[-1] for r in db.execute("EXPLAIN QUERY PLAN " + sql, args))
    found = [r["entry"] for r in search.rows(db, search.Filters(grep="Zeppelin"))]
    scanned = [r[0] for r in db.execute("SELECT entry FROM history WHERE line LIKE '%zeppelin%' ORDER BY entry")]
    assert "history_fts VIRTUAL TABLE INDEX" in plan and "SEARCH h USING INTEGER PRIMARY KEY" in plan, plan
    assert found == scanned and len(found) == 10
    db.conn.close()
