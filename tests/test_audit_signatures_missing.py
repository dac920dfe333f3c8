"""Stripped signatures do not pass an audit run with the key: a forger who edits an entry,
recomputes every hash (and the read tables' stored head by a rebuild) and deletes every row of
`ledger_signatures` leaves a file that, audited with CAMPAIGN_KEY, fails and names the first
entry whose signature is missing."""
from __future__ import annotations

import json
import sqlite3

import pytest

from tests.conftest import Table
from tests.test_tamper import recompute

KEY = "the GM's secret"


def _audit(t: Table) -> tuple[int, dict]:
    result = t("audit", "--json", ok=False)
    return result.exit_code, json.loads(result.stdout)


@pytest.fixture
def signed(tmp_path, monkeypatch) -> Table:
    monkeypatch.setenv("CAMPAIGN_KEY", KEY)
    t = Table(tmp_path / "signed.db")
    t("demo")
    assert _audit(t)[0] == 0
    return t


def _forge(t: Table, strip: str) -> None:
    """Entry #5's data edited, every hash recomputed, signatures deleted (`strip`: which), then a rebuild."""
    conn = sqlite3.connect(t.path, isolation_level=None)
    state = json.loads(conn.execute("SELECT state FROM stored_events WHERE rowid = 5").fetchone()[0])
    state["timestamp"]["_data_"] = state["timestamp"]["_data_"].replace("20", "19", 1)
    conn.execute("UPDATE stored_events SET state = ? WHERE rowid = 5", (json.dumps(state, separators=(",", ":")).encode(),))
    recompute(conn)
    conn.execute(f"DELETE FROM ledger_signatures {strip}")
    conn.close()
    t("rebuild", "--force")


def test_every_signature_removed_fails_the_audit_with_the_key_naming_the_first_entry(signed):
    _forge(signed, "")
    code, report = _audit(signed)
    assert code == 1 and report["broken_entry"] == 1 and report["broken_by_key"], report
    assert "not signed with CAMPAIGN_KEY" in report["chain"] and report["signed_from"] is None


def test_signatures_removed_from_the_edited_entry_on_fail_there(signed):
    _forge(signed, "WHERE entry >= 5")
    code, report = _audit(signed)
    assert code == 1 and report["broken_entry"] == 5 and report["broken_by_key"], report


def test_without_the_key_an_unsigned_file_audits_as_before(signed, monkeypatch):
    _forge(signed, "")
    monkeypatch.delenv("CAMPAIGN_KEY")
    code, report = _audit(signed)
    assert code == 0 and report["signed_from"] is None, report  # the README's tell: null on a file you signed


def test_an_empty_ledger_with_the_key_has_nothing_to_sign(tmp_path, monkeypatch):
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.ledger.audit import check_signatures

    monkeypatch.setenv("CAMPAIGN_KEY", KEY)
    app = open_ledger(str(tmp_path / "empty.db"))
    try:
        assert check_signatures(app.recorder, None) is None
    finally:
        app.close()
