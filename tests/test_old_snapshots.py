"""A genuine campaign file written by an older program, with snapshots, is never called forged.

The fixture is the SQL dump (gzipped) of a Relics file written by main at commit 814536d: the
demo, fourteen sessions each with a trait, an undo and a session left open, so the campaign's
record passed 50 events and was snapshotted. That program's Campaign had no `scenario_number`
(added since, listed in its STATE_DEFAULTS): the snapshot lacks it, and said what the entries
said about everything it holds. The audit checked it against today's state and called it
"edited or forged", which then refused every write and `rebuild`.
"""
from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path

from tests.conftest import Table

FIXTURE = Path(__file__).parent / "fixtures" / "snapshots_814536d.sql.gz"


def old_file(tmp: Path) -> Table:
    path = tmp / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(gzip.decompress(FIXTURE.read_bytes()).decode())
    conn.close()
    return Table(path)


def _snapshot_state(path: str) -> dict:
    conn = sqlite3.connect(path)
    try:
        return json.loads(conn.execute("SELECT state FROM stored_snapshots").fetchone()[0])
    finally:
        conn.close()


def test_the_fixture_holds_a_snapshot_older_than_the_campaign_state(tmp_path):
    t = old_file(tmp_path)
    state = _snapshot_state(t.path)
    assert state["topic"] == "ledger.campaign:Campaign" and "scenario_number" not in state["state"]


def test_an_old_file_with_snapshots_audits_clean_then_plays_and_rebuilds(tmp_path):
    t = old_file(tmp_path)
    assert t.json("audit", "--chain")["clean"]
    report = t.json("audit")
    assert report["clean"] and report["broken_entry"] is None, report
    t("session", "end")
    t("session", "start", "After the upgrade")
    t("rebuild")
    assert t.json("audit")["clean"]


def test_the_writes_and_rebuild_come_first_too(tmp_path):
    """Played before any audit, as the issue found it: nothing is refused as forged."""
    t = old_file(tmp_path)
    t("session", "end")
    t("session", "start", "Straight away")
    t("rebuild")
    assert t.json("audit")["clean"]


def test_the_audit_writes_an_old_snapshot_again_from_the_entries(tmp_path, chain_check):
    """Loaded as it was, the old snapshot would give `scenario_number` its default, not what the
    entries made it: once audited, a load from the snapshot equals a replay of the entries (written
    by the audit's second process too, which checks a long ledger's snapshots)."""
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.ledger.ids import CAMPAIGN_ID

    t = old_file(tmp_path)
    t("audit")
    state = _snapshot_state(t.path)
    app = open_ledger(t.path)
    try:
        replayed = None
        for event in app.events.get(CAMPAIGN_ID, lte=state.get("originator_version", 50)):
            replayed = event.mutate(replayed)
        assert "scenario_number" in state["state"]
        assert state["state"]["scenario_number"] == replayed.scenario_number == 1
    finally:
        app.close()


def test_a_snapshot_missing_state_the_program_always_had_is_still_forged(tmp_path, chain_check):
    """Only state listed as added later (STATE_DEFAULTS) may be missing from a genuine snapshot."""
    t = old_file(tmp_path)
    conn = sqlite3.connect(t.path, isolation_level=None)
    row = json.loads(conn.execute("SELECT state FROM stored_snapshots").fetchone()[0])
    del row["state"]["pcs"]
    conn.execute("UPDATE stored_snapshots SET state = ?", (json.dumps(row).encode(),))
    conn.close()
    report = json.loads(t("audit", "--json", ok=False).stdout)
    assert not report["clean"] and "snapshot" in report["chain"], report


def test_an_old_snapshot_whose_kept_state_was_changed_is_still_forged(tmp_path, chain_check):
    t = old_file(tmp_path)
    conn = sqlite3.connect(t.path, isolation_level=None)
    row = json.loads(conn.execute("SELECT state FROM stored_snapshots").fetchone()[0])
    row["state"]["pcs"] = row["state"]["pcs"] + ["Mallory"]
    conn.execute("UPDATE stored_snapshots SET state = ?", (json.dumps(row).encode(),))
    conn.close()
    report = json.loads(t("audit", "--json", ok=False).stdout)
    assert not report["clean"] and "snapshot" in report["chain"], report
