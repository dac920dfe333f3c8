"""Campaign files written by an earlier main still open, play, undo, audit and travel.

Each fixture is the SQL dump (gzipped) of a file that main wrote before the rulesets moved into
packages (issue 11): the demo of one ruleset, then an undo, a thing made, unmade and made
again (Relics also a snapshot). Moving an event class changes its stored topic, so these
files are what proves old topics still resolve (eventsourcing's `register_topic`).
"""
from __future__ import annotations

import gzip
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import Table

FIXTURES = Path(__file__).parent / "fixtures"
PLAY = {  # one more command of each ruleset, on the old file
    "relics": ("trait", "add", "Zed", "Quick Hands", "+1 / 1d"),
    "beer_run": ("beer-run", "intensity", "Ann", "--gain", "1", "--reason", "an old file plays on"),
    "action_dice": ("action-dice", "feature", "Pip", "Nimble"),
    "decision_2d6": ("decision-2d6", "supply-roll", "Rope", "--faces", "5"),
}


def old_file(tmp: Path, ruleset: str) -> Table:
    path = tmp / f"{ruleset}.db"
    conn = sqlite3.connect(path)
    conn.executescript(gzip.decompress((FIXTURES / f"layout_{ruleset}.sql.gz").read_bytes()).decode())
    conn.close()
    return Table(path)


@pytest.mark.parametrize("ruleset", sorted(PLAY))
def test_an_old_campaign_file_opens_plays_undoes_audits_and_travels(tmp_path: Path, ruleset: str):
    t = old_file(tmp_path, ruleset)
    assert "Clean." in t("audit").stdout
    before = t.entries()
    t(*PLAY[ruleset])
    assert t.entries() > before
    t("undo", "--yes")
    t("rebuild")
    assert "Clean." in t("audit").stdout
    out = tmp_path / "copy.jsonl"
    t("export", "--format", "jsonl", "--output", str(out))
    copy = Table(tmp_path / "copy.db")
    copy("import", str(out))
    assert "Clean." in copy("audit").stdout
    assert copy("history").stdout == t("history").stdout
