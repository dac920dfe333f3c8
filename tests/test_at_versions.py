"""`sheet --at` and `pools --at` of the rulesets other than Relics read the versions of their rows
(projections/row_versions.py) instead of rebuilding the read tables up to the entry: for every
entry of each demo, after an undo and after a character or item made and unmade again, they must
show exactly what the rebuild shows; and catching up entry by entry must keep the versions a
rebuild keeps."""
import importlib

import pytest

from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.projections import row_versions, runner
from tests.conftest import Table

MADE_AGAIN = {  # something each ruleset makes (undone next: undo unmakes it)
    "beer-run": lambda app: app.beer_run_add_character("Dee", [("Physical", "Health", "d6")]),
    "action-dice": lambda app: app.add_action_character("Zed", {"Lore": "d6"}, []),
    "decision-2d6": lambda app: app.d2d6_add_item("Rope", "D6", holder="Billy"),
}


def _campaign(tmp_path, system: str) -> Table:
    t = Table(tmp_path / f"{system}.db")
    t("demo", "--system", system)
    t("undo", "--yes")
    MADE_AGAIN[system](open_ledger(t.path))
    t("sheet")  # catches up
    t("undo", "--yes")
    t("sheet")
    return t


@pytest.mark.parametrize("system", sorted(MADE_AGAIN))
def test_sheets_and_pools_at_every_entry_read_from_versions_equal_a_rebuild_up_to_it(tmp_path, system):
    t = _campaign(tmp_path, system)
    shown = importlib.import_module(f"campaign_ledger.commands.rulesets.{system.replace('-', '_')}.views")
    app, db = open_ledger(t.path), runner.connect(t.path)
    last = app.recorder.max_notification_id()
    assert db.execute("SELECT count(DISTINCT entry) FROM row_versions").fetchone()[0] > 10
    seen = set()
    for entry in range(last + 2):
        with runner.as_of(app, entry) as past:
            rebuilt = (shown.sheets(past), shown.pools(past))
        with row_versions.standing(db, shown.versioned(), entry) as past:
            assert (shown.sheets(past), shown.pools(past)) == rebuilt, entry
        seen.add(repr(rebuilt))
    assert len(seen) > 5  # the sheets changed along the way


@pytest.mark.parametrize("system", sorted(MADE_AGAIN))
def test_catching_up_keeps_the_versions_a_rebuild_keeps(tmp_path, system):
    t = _campaign(tmp_path, system)
    query = "SELECT * FROM row_versions ORDER BY tbl, key, entry"
    kept = runner.connect(t.path).execute(query).fetchall()
    t("rebuild")
    assert runner.connect(t.path).execute(query).fetchall() == kept
    assert t.json("audit")["clean"]


def test_the_cli_reads_the_versions(tmp_path, monkeypatch):
    t = _campaign(tmp_path, "beer-run")
    before = t.json("sheet", "Ann", "--at", "12"), t.json("pools", "--at", "12")
    monkeypatch.setattr(runner, "as_of", lambda *a: pytest.fail("rebuilt up to the entry"))
    assert (t.json("sheet", "Ann", "--at", "12"), t.json("pools", "--at", "12")) == before


@pytest.mark.parametrize("system", sorted(MADE_AGAIN))
def test_every_versioned_table_has_its_triggers(tmp_path, system):
    t = Table(tmp_path / f"{system}.db")
    t("new", "Empty", "--ruleset", system)
    versioned = importlib.import_module(f"campaign_ledger.projections.rulesets.{system.replace('-', '_')}").VERSIONED
    db = runner.connect(t.path)
    made = {r[0] for r in db.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE ?",
                                     [f"{row_versions.DIRTY}%"])}
    assert set(versioned) <= made
