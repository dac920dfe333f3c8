"""No string stored in a ledger or an export picks code to run: an aggregate's topic in an
entry's data (resolved by eventsourcing's `Created.mutate`, which imports the module it names),
the topics a `Remade` entry carries, and a snapshot's topic are checked against the program's
own classes before anything is imported, in import, rebuild, audit and every command alike."""
from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from campaign_ledger.cli import cli
from campaign_ledger.ledger.chain import V2_KEY
from tests.test_import_checks import _edit, _refused
from tests.test_tamper import recompute

MODULE = "h4_hostile_topic_module"


@pytest.fixture
def hostile(tmp_path, monkeypatch) -> Path:
    """A module on sys.path whose import leaves a marker file: the proof that a stored string ran code."""
    folder = tmp_path / "site"
    folder.mkdir()
    marker = tmp_path / "MARKER"
    (folder / f"{MODULE}.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\nclass Thing: pass\n")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delitem(sys.modules, MODULE, raising=False)
    return marker


def test_an_aggregate_topic_in_an_entry_is_refused_and_its_module_never_imported(tmp_path, hostile):
    def foreign(rows):
        rows[1]["data"]["originator_topic"] = f"{MODULE}:Thing"  # entry #1, the campaign's creation
    message = _refused(tmp_path, _edit(foreign)(tmp_path))
    assert "Line 2" in message and "does not know" in message, message
    assert not hostile.exists() and MODULE not in sys.modules


def test_the_topics_a_remade_entry_names_are_refused_too(tmp_path, hostile):
    def remade(rows):
        first = rows[1]
        rows[2]["type"] = "ledger.reversible:Reversible.Remade"  # entry #2 as if it remade the campaign
        rows[2]["data"] = {"timestamp": first["data"]["timestamp"],
                           "created": {"event": f"{MODULE}:Thing", "aggregate": "ledger.campaign:Campaign",
                                       "kwargs": {}}}
    message = _refused(tmp_path, _edit(remade)(tmp_path))
    assert "Line 3" in message and "does not know" in message, message
    assert not hostile.exists() and MODULE not in sys.modules


def _guarded() -> bool:
    """Every ledger the program opens reads its entries through the guard (ledger.application's open_ledger)."""
    import tempfile

    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.ledger.topic_guard import GuardedMapper

    with tempfile.TemporaryDirectory() as folder:
        app = open_ledger(str(Path(folder) / "probe.db"))
        try:
            return isinstance(app.mapper, GuardedMapper)
        finally:
            app.close()


def test_every_ledger_the_program_opens_reads_through_the_guard():
    assert _guarded()


def test_the_guard_refuses_foreign_topics_and_passes_the_program_own(hostile):
    from campaign_ledger.ledger.topic_guard import ForeignTopic, aggregate_class, check_data, event_class

    assert event_class("ledger.campaign:Campaign.Started").__name__ == "Started"
    assert aggregate_class("ledger.campaign:Campaign").__name__ == "Campaign"
    for topic in (f"{MODULE}:Thing", "os:system", "ledger.campaign:Campaign", 42, None, "ledger.nowhere:X"):
        with pytest.raises(ForeignTopic):
            event_class(topic)
    with pytest.raises(ForeignTopic):
        aggregate_class("ledger.campaign:Campaign.Started")  # an event is no aggregate
    with pytest.raises(ForeignTopic):
        check_data("eventsourcing.domain:Snapshot", {"topic": f"{MODULE}:Thing"})
    assert not hostile.exists() and MODULE not in sys.modules


def test_a_remade_record_names_only_the_program_own_classes(hostile):
    from campaign_ledger.ledger.reversible import creation_event
    from campaign_ledger.ledger.topic_guard import ForeignTopic

    for created in ({"event": f"{MODULE}:Thing", "aggregate": "ledger.campaign:Campaign", "kwargs": {}},
                    {"event": "ledger.campaign:Campaign.Started", "aggregate": f"{MODULE}:Thing", "kwargs": {}}):
        with pytest.raises(ForeignTopic):
            creation_event(None, created, None)
    assert not hostile.exists() and MODULE not in sys.modules


def _demo(tmp_path: Path) -> Path:
    path = tmp_path / "demo.db"
    result = CliRunner().invoke(cli, ["--db", str(path), "demo"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return path


def _run(path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--db", str(path), *args], catch_exceptions=False)
    return result.exit_code, result.stderr


def _rewrite_first_entry(path: Path, change) -> None:
    """Edit entry #1's data and recompute every hash, as a forger with the source would."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        state = json.loads(conn.execute("SELECT state FROM stored_events WHERE rowid = 1").fetchone()[0])
        change(state)
        conn.execute("UPDATE stored_events SET state = ? WHERE rowid = 1", (json.dumps(state).encode(),))
        conn.execute("DELETE FROM stored_snapshots")
        assert conn.execute("SELECT value FROM ledger_meta WHERE key = ?", (V2_KEY,)).fetchone()
        recompute(conn)
    finally:
        conn.close()


SEQUENCE = (("rebuild", "--force"), ("audit",), ("session", "start", "Next"), ("undo", "--yes"), ("export",))


def _runs_no_code(path: Path, marker: Path) -> None:
    """Every command that reads the ledger, in turn (a forced rebuild first: the read tables then
    trust the forged hashes), runs none of the named module's code and says no more than one line."""
    for command in SEQUENCE:
        code, stderr = _run(path, *command)
        assert not marker.exists() and MODULE not in sys.modules, command
        if stderr.strip():  # refused in one line, never a traceback (audit's verdict is its report)
            lines = stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith(("Error: ", "Warning: ")) and "Traceback" not in stderr, stderr


def test_a_forged_ledger_naming_a_module_as_an_aggregate_runs_no_code(tmp_path, hostile):
    path = _demo(tmp_path)
    _rewrite_first_entry(path, lambda state: state.update(originator_topic=f"{MODULE}:Thing"))
    _runs_no_code(path, hostile)


def test_a_stored_event_type_naming_a_module_runs_no_code(tmp_path, hostile):
    path = _demo(tmp_path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE stored_events SET topic = ? WHERE rowid = 2", (f"{MODULE}:Thing",))
    conn.execute("DELETE FROM stored_snapshots")
    recompute(conn)
    conn.close()
    _runs_no_code(path, hostile)


def test_a_snapshot_naming_a_module_runs_no_code(tmp_path, hostile):
    path = _demo(tmp_path)
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.ledger.ids import CAMPAIGN_ID

    app = open_ledger(str(path))
    app.take_snapshot(CAMPAIGN_ID)
    app.close()
    conn = sqlite3.connect(path, isolation_level=None)
    state = json.loads(conn.execute("SELECT state FROM stored_snapshots").fetchone()[0])
    state["topic"] = f"{MODULE}:Thing"
    conn.execute("UPDATE stored_snapshots SET state = ?", (json.dumps(state).encode(),))
    conn.close()
    _runs_no_code(path, hostile)


def test_an_aggregate_topic_in_data_sent_as_bytes_is_refused_too(tmp_path, hostile):
    """`state_base64` (how an export carries a state that is not plain JSON) is decoded at replay:
    the topics it names are checked there, before the aggregate is played."""
    import base64

    from campaign_ledger.ledger.chain import GENESIS, entry_hash
    from campaign_ledger.ledger.interchange import _encode
    from tests.test_import_checks import _rows

    rows = _rows()
    rows[1]["data"]["originator_topic"] = f"{MODULE}:Thing"
    state = _encode(rows[1].pop("data"))
    rows[1]["state_base64"] = base64.b64encode(state).decode()
    previous, entries = GENESIS, [r for r in rows if "entry" in r]
    for row in entries:
        encoded = state if "state_base64" in row else _encode(row["data"])
        row["hash"] = previous = entry_hash(previous, row["entry"], row["aggregate"], row["version"], row["type"],
                                            encoded)
    rows[-1] = {"end": True, "entries": len(entries), "last_hash": previous}
    source = tmp_path / "bytes.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    message = _refused(tmp_path, source)
    assert "names code this program does not have" in message, message
    assert not hostile.exists() and MODULE not in sys.modules
