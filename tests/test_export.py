"""Session logs: export to Markdown, JSON Lines and CSV; import rebuilds an identical campaign."""
import csv
import io
import json
import os
import re
import sqlite3
from pathlib import Path

import pytest

from campaign_ledger.projections import runner
from tests.conftest import Table

GOLDEN = Path(__file__).parent / "golden" / "demo_session.md"
SYSTEMS = ["relics", "beer-run", "action-dice", "decision-2d6"]


def _demo(tmp_path, system="relics") -> Table:
    t = Table(tmp_path / f"{system}.db")
    t("demo", "--system", system)
    return t


def _no_times(text: str) -> str:
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00", "<time>", text)
    text = re.sub(r"sha256:[0-9a-f]{64}", "sha256:<hash>", text)  # the anchor: entries carry their times
    return re.sub(r"`\d\d:\d\d:\d\d`", "`<time>`", text)


def test_the_markdown_log_of_the_demo_session_matches_the_reviewed_golden_file(tmp_path):
    t = _demo(tmp_path)
    log = t("export", "--format", "md", "--session", "1").stdout
    assert _no_times(log) == GOLDEN.read_text()


@pytest.mark.parametrize("system", SYSTEMS)
def test_export_then_import_rebuilds_an_identical_campaign(tmp_path, system):
    original = _demo(tmp_path, system)
    exported = tmp_path / f"{system}.jsonl"
    original("export", "--format", "jsonl", "-o", str(exported))
    copy = Table(tmp_path / f"{system}-copy.db")
    copy("import", str(exported))
    with sqlite3.connect(original.path) as a, sqlite3.connect(copy.path) as b:
        for query in ("SELECT rowid, originator_id, originator_version, topic, state FROM stored_events ORDER BY rowid",
                      "SELECT entry, hash FROM ledger_chain ORDER BY entry",
                      "SELECT * FROM ledger_commands ORDER BY first_entry"):
            assert a.execute(query).fetchall() == b.execute(query).fetchall()
    assert list(runner.tables(runner.connect(copy.path))) == list(runner.tables(runner.connect(original.path)))
    assert copy.json("audit")["clean"]


def test_every_jsonl_line_carries_number_time_type_data_and_hash(tmp_path):
    lines = _demo(tmp_path)("export", "--format", "jsonl").stdout.splitlines()
    header, entries, end = json.loads(lines[0]), [json.loads(x) for x in lines[1:-1]], json.loads(lines[-1])
    assert header["campaign"] == "The Moon Heist" and header["first"] == 1
    assert [e["entry"] for e in entries] == list(range(1, len(entries) + 1))
    assert all({"entry", "time", "type", "data", "hash"} <= e.keys() for e in entries)
    assert end == {"end": True, "entries": len(entries), "last_hash": entries[-1]["hash"],
                   "anchor": f"campaign-ledger anchor #{len(entries)} sha256:{entries[-1]['hash']}"}
    rolled = next(e for e in entries if e["type"].endswith("Challenge.PoolRolled"))
    assert rolled["data"]["faces"] == [1, 1, 2, 3, 6] and rolled["data"]["entered"] is True


def _tamper(path: Path, how: str) -> None:
    lines = path.read_text().splitlines()
    if how == "truncated":
        lines = lines[:30]
    elif how == "reordered":
        lines[20], lines[21] = lines[21], lines[20]
    elif how == "edited":
        row = json.loads(lines[20])
        row["data"]["faces"] = [6, 6, 6, 6, 6]
        lines[20] = json.dumps(row)
    elif how == "dropped":
        del lines[25]
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("how, message", [
    ("truncated", "The file stops at line 30 without its closing line: it is truncated."),
    ("reordered", "Line 21 holds entry #21 where #20 was expected: entries are missing or out of order."),
    ("edited", "Line 21 (entry #20) does not match its hash: it was edited."),
    ("dropped", "Line 26 holds entry #26 where #25 was expected: entries are missing or out of order."),
])
def test_a_damaged_file_is_refused_by_the_line_that_gives_it_away_and_nothing_is_written(tmp_path, how, message):
    exported = tmp_path / "demo.jsonl"
    _demo(tmp_path)("export", "--format", "jsonl", "-o", str(exported))
    _tamper(exported, how)
    copy = Table(tmp_path / "copy.db")
    result = copy("import", str(exported), ok=False)
    assert result.exit_code == 1 and result.stderr.strip() == f"Error: {message}"
    assert not [p for p in os.listdir(tmp_path) if p.startswith("copy.db")]


def test_import_never_writes_over_an_existing_campaign(tmp_path):
    t = _demo(tmp_path)
    exported = tmp_path / "demo.jsonl"
    t("export", "--format", "jsonl", "-o", str(exported))
    entries = t.entries()
    assert "already exists" in t.refused("import", str(exported))
    assert t.entries() == entries


def test_the_csv_is_the_history_for_spreadsheets(tmp_path):
    t = _demo(tmp_path)
    *rows, anchor = list(csv.DictReader(io.StringIO(t("export", "--format", "csv").stdout)))
    history = t.json("history")
    assert [(int(r["entry"]), r["line"]) for r in rows] == [(h["entry"], h["line"]) for h in history]
    assert anchor["entry"] == t.json("anchor")["anchor"]  # the last row, alone in its first cell
    assert rows[20]["round"] == "Vault Guards:1"


def test_a_session_groups_the_entries_between_its_start_and_end(tmp_path):
    t = _demo(tmp_path)
    sessions = t.json("session", "list")
    assert [(s["number"], s["first_entry"], s["last_entry"]) for s in sessions] == [(1, 11, t.entries())]
    assert "No session is open" in t.refused("session", "end")
    t("session", "start", "Two")
    assert "still open" in t.refused("session", "start", "Three")
    assert "There is no session 5" in t.refused("export", "--session", "5")
