"""Import reads each line once (ledger/import_load.py): what it builds from the decoded line must be
what the slower, separate passes built, and every defence must still refuse by the line or entry."""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from campaign_ledger.ledger import import_load
from campaign_ledger.ledger.chain import GENESIS, link_hash
from campaign_ledger.ledger.interchange import _encode
from campaign_ledger.projections import runner
from tests.conftest import Table

FIXTURE = Path(__file__).parent / "fixtures" / "relics_demo_v1.jsonl"


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """The demo exported today: chain version 2 from its first entry, so hashes cover command rows."""
    folder = tmp_path_factory.mktemp("demo")
    Table(folder / "demo.db")("demo")
    path = folder / "demo.jsonl"
    Table(folder / "demo.db")("export", "--format", "jsonl", "-o", str(path))
    return path


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _forge(rows: list[dict[str, Any]], path: Path) -> Path:
    """Every hash (and the closing line) recomputed as chain version 2 hashes it: a forger who knows the chain."""
    previous, entries, v2_from = GENESIS, [r for r in rows if "entry" in r], rows[0].get("chain_v2_from")
    for row in entries:
        c = row.get("command")
        command = None if c is None else (c.get("last"), c.get("name"), c.get("unit"), c.get("detail"))
        row["hash"] = previous = link_hash(previous, row["entry"], row["aggregate"], row["version"], row["type"],
                                           _encode(row["data"]), command, v2_from)
    rows[-1] = {"end": True, "entries": len(entries), "last_hash": previous}
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _refused(tmp_path: Path, source: Path) -> str:
    """One Error line, and neither the campaign file nor its scratch copy left behind."""
    result = Table(tmp_path / "copy.db")("import", str(source), ok=False)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code != 0 and len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert not [p for p in os.listdir(tmp_path) if p.startswith("copy.db")]
    return lines[0]


def test_snapshots_taken_on_the_way_are_those_the_application_would_take(tmp_path, monkeypatch):
    """At every SNAPSHOT_STEP-th version of a long aggregate and at its last, with the same state."""
    from campaign_ledger.ledger import application
    from campaign_ledger.ledger.application import open_ledger

    monkeypatch.setattr(application, "SNAPSHOT_EVERY", 5)
    monkeypatch.setattr(import_load, "SNAPSHOT_STEP", 4)
    Table(tmp_path / "copy.db")("import", str(FIXTURE))
    app = open_ledger(str(tmp_path / "copy.db"))
    try:
        with sqlite3.connect(tmp_path / "copy.db") as conn:
            taken = sorted(conn.execute("SELECT originator_id, originator_version FROM stored_snapshots").fetchall())
        wanted = sorted((aggregate_id.hex, v) for aggregate_id, last in app.recorder.long_aggregates(5)
                        for v in [*range(4, last, 4), last])
        assert taken == wanted and len(taken) > 5
        for oid, version in taken:
            snapshot = next(s for s in app.snapshots.get(UUID(oid)) if s.originator_version == version)
            aggregate = _replayed(app.events.get(snapshot.originator_id, lte=version))
            expected = type(snapshot).take(aggregate)
            assert {**snapshot.state, "timestamp": None} == {**expected.state, "timestamp": None}
    finally:
        app.close()


def test_snapshots_are_written_batch_by_batch_and_no_aggregate_is_held_past_its_last_entry(tmp_path, monkeypatch):
    """Memory stays flat on a long campaign: what import takes as it plays goes out with each batch."""
    from campaign_ledger.ledger import application

    monkeypatch.setattr(application, "SNAPSHOT_EVERY", 5)
    monkeypatch.setattr(import_load, "SNAPSHOT_STEP", 4)
    monkeypatch.setattr(runner, "BATCH", 10)
    waiting, held, end = [], [], []
    write, see, snapshots = import_load.Played.write, import_load.Played.see, import_load.Played.snapshots
    monkeypatch.setattr(import_load.Played, "write", lambda self, conn: waiting.append(len(self.taken)) or write(self, conn))
    monkeypatch.setattr(import_load.Played, "see", lambda self, n, e: see(self, n, e) or held.append(len(self.live)))
    monkeypatch.setattr(import_load.Played, "snapshots", lambda self: end.append(len(self.taken)) or snapshots(self))
    Table(tmp_path / "copy.db")("import", str(FIXTURE))
    with sqlite3.connect(tmp_path / "copy.db") as conn:
        stored = conn.execute("SELECT count(*) FROM stored_snapshots").fetchone()[0]
        aggregates = conn.execute("SELECT count(DISTINCT originator_id) FROM stored_events").fetchone()[0]
    assert stored > 5 and sum(waiting) == stored and end == [0]  # each batch's, none left for the end
    assert len([w for w in waiting if w]) > 1
    assert held[-1] == 0 and max(held) < aggregates  # let go after their last entries, some before the end


def _replayed(events: Any) -> Any:
    """From the aggregate's events alone (no snapshot): what its snapshot must equal."""
    aggregate = None
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


def test_a_command_row_rehashed_to_cover_other_entries_is_refused_by_its_line(tmp_path, exported):
    """From chain version 2 on a hash covers its command row: the row must be the one the entries make."""
    rows = _rows(exported)
    line = next(i for i, r in enumerate(rows) if "command" in r and r["command"]["last"] > r["entry"]) + 1
    rows[line - 1]["command"]["last"] -= 1  # the command now claims one entry fewer than lie before the next
    message = _refused(tmp_path, _forge(rows, tmp_path / "forged.jsonl"))
    assert message == f"Error: {import_load.CHANGED.format(line)}"


def test_the_forger_helper_reproduces_the_real_hashes(tmp_path, exported):
    """The refusals here mean something only if a re-hashed, unchanged file imports and audits clean."""
    copy = Table(tmp_path / "copy.db")
    copy("import", str(_forge(_rows(exported), tmp_path / "same.jsonl")))
    assert copy.json("audit")["clean"]


def test_a_command_key_used_twice_is_refused_by_its_line(tmp_path, exported):
    rows = _rows(exported)
    commands = [i for i, r in enumerate(rows) if "command" in r]
    for i in commands[2], commands[5]:
        rows[i]["command"]["detail"] = {**rows[i]["command"]["detail"], "key": "same-key"}
    message = _refused(tmp_path, _forge(rows, tmp_path / "forged.jsonl"))
    assert message == f"Error: Line {commands[5] + 1} repeats the command key same-key; the file was edited."


def test_an_entry_the_read_tables_cannot_take_is_refused_by_its_number(tmp_path, exported, monkeypatch):
    original = runner.apply_entry

    def refuse_seventh(db: Any, entry: int, event: Any) -> None:
        if entry == 7:
            raise ValueError("no table takes this")
        original(db, entry, event)
    monkeypatch.setattr(runner, "apply_entry", refuse_seventh)
    message = _refused(tmp_path, exported)
    assert message.startswith("Error: Entry #7 (line 8) does not replay (") and "no table takes this" in message
    assert message.endswith("nothing was imported.")


def test_with_campaign_key_the_import_signs_every_entry(tmp_path, exported, monkeypatch):
    monkeypatch.setenv("CAMPAIGN_KEY", "the GM's secret")
    copy = Table(tmp_path / "copy.db")
    copy("import", str(exported))
    report = copy.json("audit")
    assert report["clean"] and report["signed_from"] == 1
    monkeypatch.setenv("CAMPAIGN_KEY", "another key")  # the signatures are the key's, not a copy of anything
    result = copy("audit", "--json", ok=False)
    assert result.exit_code == 1 and json.loads(result.stdout)["broken_entry"] == 1


def test_a_line_refused_after_many_commits_of_the_scratch_file_still_leaves_nothing(tmp_path, exported, monkeypatch):
    """The scratch file is committed every few batches (a small write-ahead log); the file as a whole is the unit."""
    monkeypatch.setattr(import_load, "BATCH", 5)
    monkeypatch.setattr(import_load, "COMMIT_EVERY", 1)
    lines = exported.read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[-3])
    row["data"]["timestamp"]["_data_"] = "2020-01-01T00:00:00+00:00"
    lines[-3] = json.dumps(row, ensure_ascii=False)
    (tmp_path / "late.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    message = _refused(tmp_path, tmp_path / "late.jsonl")
    assert message == f"Error: Line {len(lines) - 2} (entry #{row['entry']}) does not match its hash: it was edited."
    Table(tmp_path / "copy.db")("import", str(exported))  # and the same import, whole, commits every batch too
    assert Table(tmp_path / "copy.db").json("audit")["clean"]


@pytest.mark.parametrize("field, value", [("name", None), ("unit", 7), ("detail", ["a", "list"])])
def test_a_command_the_program_never_writes_is_refused_by_its_line(tmp_path, exported, field, value):
    """Not a traceback from the command log's NOT NULL column, nor a detail later code cannot read."""
    rows = _rows(exported)
    line = next(i for i, r in enumerate(rows) if "command" in r and i > 3) + 1
    rows[line - 1]["command"][field] = value
    message = _refused(tmp_path, _forge(rows, tmp_path / "forged.jsonl"))
    assert message == (f"Error: Line {line} holds a command this program never writes (its name, unit or detail); "
                       "the file is damaged.")


def test_an_entry_its_aggregate_cannot_replay_is_refused_by_its_number(tmp_path, exported, monkeypatch):
    """The aggregates are played from the events the read tables' rebuild maps: an event its
    aggregate refuses stops the import at its entry, and nothing is kept."""
    from eventsourcing.utils import resolve_topic

    rows = [r for r in _rows(exported) if "entry" in r]
    kind = resolve_topic(rows[8]["type"])  # the ninth entry's kind; its first entry is the one refused
    first = next(r["entry"] for r in rows if resolve_topic(r["type"]) is kind)

    def refuse(self: Any, aggregate: Any) -> None:
        raise ValueError("this aggregate will not take it")
    monkeypatch.setattr(kind, "apply", refuse)
    message = _refused(tmp_path, exported)
    assert message.startswith(f"Error: Entry #{first} (line {first + 1}) does not replay (")
    assert "this aggregate will not take it" in message and message.endswith("nothing was imported.")
