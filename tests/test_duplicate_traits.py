"""Campaigns written before validation may hold an entry the read tables could not apply: a second
trait of one name for one owner (issue 16's `disaster-trait ... Shadowstep --on Kira`). Such a ledger
is built here through the application, past the command's check. The read tables keep the later
trait, with a warning naming the entry, so `rebuild`, reads and writes work again."""
import sqlite3

import pytest

from tests.conftest import Table

LATER = {"name": "Shadowstep", "modifier": "-1 / 1d", "polarity": "hindering", "cost": "free",
         "target": "cohort", "frequency": "always", "types": []}


@pytest.fixture
def broken(tmp_path) -> tuple[Table, int]:
    """The demo, then Kira's Shadowstep recorded a second time as the old program let it be."""
    from campaign_ledger.ledger.application import open_ledger
    t = Table(tmp_path / "demo.db")
    t("demo")
    app = open_ledger(t.path)

    def unchecked(table):  # what `trait add` does, without traits.check_free
        table.pc("Kira").trait_gained(**LATER)
        return {"owner": "Kira", **LATER}
    entry = app.run(unchecked, "add_trait")["entries"][0]
    app.close()
    return t, entry


def _kira_shadowstep(t: Table) -> list[tuple]:
    with sqlite3.connect(t.path) as conn:
        rows = conn.execute("SELECT modifier, entry FROM traits WHERE owner = 'Kira' AND name = 'Shadowstep'").fetchall()
    conn.close()
    return rows


def test_rebuild_gets_past_a_second_trait_of_one_name_keeping_the_later(broken):
    t, entry = broken
    result = t("rebuild")
    warnings = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
    assert len(warnings) == 1 and f"entry #{entry}" in warnings[0] and "Shadowstep" in warnings[0]
    assert f"Rebuilt the read model from {entry} ledger entries" in result.stdout
    assert _kira_shadowstep(t) == [("-1 / 1d", entry)]


def test_the_campaign_is_usable_again_reads_writes_and_a_clean_audit(broken):
    t, entry = broken
    first = t("sheet", "Kira")  # catching up applies the entry once, with the warning
    assert f"Warning: entry #{entry}" in first.stderr and "Shadowstep" in first.stderr
    assert t("sheet", "Kira").stderr == ""  # said once, when applied
    t("pc", "add", "Zed", "--expertise", "Phantom=2", "--primary", "Phantom")
    assert "Zed" in t("sheet", "Zed").stdout
    audit = t.json("audit")
    assert audit["clean"] and audit["stuck_entry"] is None
    assert [n["entry"] for n in audit["read_notes"]] == [entry]
    assert "Shadowstep" in t("audit").stdout


def _traits(t: Table, pc: str = "Kira") -> set[tuple[str, str]]:
    return {(x["name"], x["modifier"]) for x in t.json("sheet", pc)["traits"]}


def test_undo_of_the_second_trait_gives_the_first_back_to_the_sheet(tmp_path):
    from campaign_ledger.ledger.application import open_ledger
    t = Table(tmp_path / "demo.db")
    t("demo")
    original = _traits(t)
    app = open_ledger(t.path)
    app.run(lambda table: table.pc("Kira").trait_gained(**LATER) or {"owner": "Kira"}, "add_trait")
    app.close()
    t("rebuild")
    assert ("Shadowstep", "-1 / 1d") in _traits(t) and ("Shadowstep", "-1 / 1d") not in original
    t("undo", "--yes")
    assert _traits(t) == original and t.json("audit")["clean"]


def test_an_undone_trait_leaves_the_sheet(tmp_path):
    t = Table(tmp_path / "demo.db")
    t("demo")
    before = t.json("sheet", "Kira")["traits"]
    t("trait", "add", "Kira", "Lucky", "+1 / 1d")
    assert ("Lucky", "+1 / 1d") in _traits(t)
    t("undo", "--yes")
    assert t.json("sheet", "Kira")["traits"] == before
    assert t.json("audit")["clean"]
