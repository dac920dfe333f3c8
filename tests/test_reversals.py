"""Every projection handles every reversal: after an undo the read tables say what the ledger says."""
from __future__ import annotations

from pathlib import Path

from campaign_ledger.projections import runner
from tests.conftest import Table

SETUP = [("new", "R"), ("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom"),
         ("scenario", "start", "S"),
         ("challenge", "open", "G", "--threat", "Common", "--type", "Phantom", "--rating", "2"),
         ("cohort-turn", "G", "--leader", "Kira", "--faces", "1,1,2"), ("challenge-turn", "G", "--faces", "2,2"),
         ("disaster-trait", "G", "Rattled", "-1 / 1d", "--on", "Cohort", "--lasts", "challenge")]
UNDONE = [("cohort-turn", "G", "--faces", "5,5,5")]  # resolves G, and so ends Rattled


def _play(path: Path, commands: list[tuple[str, ...]]) -> Table:
    t = Table(path)
    for command in commands:
        t(*command)
    return t


def test_undoing_the_round_that_ended_a_temporary_trait_shows_it_again(tmp_path: Path) -> None:
    t = _play(tmp_path / "x.db", SETUP + UNDONE)
    assert t.json("pools")["cohort_traits"] == []
    t("undo", "G:2", "--yes")
    assert [x["name"] for x in t.json("pools")["cohort_traits"]] == ["Rattled"]
    assert "Cohort trait Rattled" in t("pools").stdout


# Logs keep a row per entry (the undone ones and the Undo stay on record); ids and entry numbers differ.
LOGS = ("history", "balances", "balance_changes", "sheet_versions", "row_versions", "row_versions_dirty")
HIDDEN = {"entry", "time", "opened", "joined", "ended", "id", "owner_id", "character_id"}


def _tables(t: Table) -> dict[str, list[str]]:
    """Every read table holding game state, caught up, without entry numbers, ids or times."""
    t("history", "--limit", "1")  # any read command catches the read tables up
    db = runner.connect(t.path)
    try:
        return {name: sorted(repr({k: v for k, v in row.items() if k not in HIDDEN}) for row in rows)
                for name, rows in runner.tables(db) if name not in LOGS}
    finally:
        db.conn.close()


def _visible(t: Table) -> dict:
    """What the GM reads: the JSON views, which carry no entry numbers."""
    return {"pools": t.json("pools"), "sheet": t.json("sheet"), "status": t.json("status")}


def test_an_undone_round_reads_like_a_campaign_that_never_played_it(tmp_path: Path) -> None:
    undone = _play(tmp_path / "undone.db", SETUP + UNDONE)
    undone("undo", "G:2", "--yes")
    scratch = _play(tmp_path / "scratch.db", SETUP)
    assert _visible(undone) == _visible(scratch)
    assert _tables(undone) == _tables(scratch)


def test_rebuild_equals_the_incremental_read_tables_after_the_undo(tmp_path: Path) -> None:
    t = _play(tmp_path / "x.db", SETUP + UNDONE)
    t("undo", "G:2", "--yes")
    t("pools")  # catches the read tables up, incrementally
    assert t.differs_from_rebuild() == []


def test_undoing_an_action_dice_condition_keeps_the_other_conditions_in_their_order(tmp_path: Path) -> None:
    t = _play(tmp_path / "ad.db", [("new", "A", "--ruleset", "action-dice"),
                                   ("action-dice", "character", "Mara", "--asset", "Athletics=d8"),
                                   ("action-dice", "condition", "Mara", "Zed", "--level", "1", "--impacts", "climb"),
                                   ("action-dice", "condition", "Mara", "Ache", "--level", "1", "--impacts", "run"),
                                   ("action-dice", "worsen", "Mara", "Zed")])
    t("undo", "--yes")
    sheet = t.json("action-dice", "sheet", "Mara")
    assert [(c["name"], c["level"]) for c in sheet["conditions"]] == [("Zed", 1), ("Ache", 1)]


AD_SETUP = [("new", "A", "--ruleset", "action-dice"),
            ("action-dice", "character", "Mara", "--asset", "Athletics=d8"),
            ("action-dice", "condition", "Mara", "Zed", "--level", "1", "--impacts", "climb"),
            ("action-dice", "roll", "Mara", "climb", "--rating", "D6", "--asset", "Athletics", "--faces", "2,3,4")]
AD_UNDONE = [("action-dice", "treat", "Mara", "Zed")]
AD_AFTER = [("action-dice", "roll", "Mara", "sneak", "--rating", "D6", "--faces", "3,1,4"),
            ("action-dice", "character", "Tobin", "--asset", "Nerve=d10"),
            ("action-dice", "condition", "Tobin", "Ache", "--level", "2", "--impacts", "run")]


def test_an_undone_action_dice_change_in_the_middle_reads_like_it_never_happened(tmp_path: Path) -> None:
    undone = _play(tmp_path / "undone.db", AD_SETUP + AD_UNDONE + AD_AFTER)
    # Mara's later roll read the conditions the treatment changed: the cascade takes it too.
    undone("undo", "condition Mara Zed #2", "--cascade", "--yes")
    scratch = _play(tmp_path / "scratch.db", AD_SETUP + AD_AFTER[1:])
    assert _tables(undone) == _tables(scratch)
    assert undone.json("action-dice", "sheet") == scratch.json("action-dice", "sheet")


D2_SETUP = [("new", "G", "--ruleset", "decision-2d6"),
            ("decision-2d6", "pc-add", "Billy", "--level", "3", "--will", "2", "--fort", "3", "--stat", "Strength=0"),
            ("decision-2d6", "roll", "Billy", "Strength", "--faces", "3,4")]
D2_UNDONE = [("decision-2d6", "roll", "Billy", "Strength", "--faces", "3,6,6,2")]


def test_an_undone_decision_2d6_roll_reads_like_it_never_happened(tmp_path: Path) -> None:
    undone = _play(tmp_path / "undone.db", D2_SETUP + D2_UNDONE)
    undone("undo", "--yes")
    scratch = _play(tmp_path / "scratch.db", D2_SETUP)
    assert _tables(undone) == _tables(scratch)
