"""`history` without --limit prints the rows as it reads them (a million-entry history held whole
took 1.1 GiB as text, 2.7 GiB as JSON): the same bytes the whole list gives, filtered or not."""
from __future__ import annotations

import json

import pytest

from campaign_ledger.projections import history_search as search
from campaign_ledger.projections import runner
from campaign_ledger.projections.text import history_text
from tests.conftest import Table

FILTERS = [((), search.Filters()), (("--kind", "rolls"), search.Filters(kinds=("rolls",))),
           (("--grep", "nothing-says-this"), search.Filters(grep="nothing-says-this"))]


@pytest.mark.parametrize("args, filters", FILTERS)
def test_the_streamed_history_is_the_whole_lists_bytes(tmp_path, args, filters):
    t = Table(tmp_path / "heist.db")
    t("demo")
    db = runner.connect(t.path)
    try:
        rows = search.rows(db, filters)
    finally:
        db.conn.close()
    assert t("history", *args).stdout == history_text(rows) + "\n"
    assert t("history", "--json", *args).stdout == json.dumps(rows, indent=2, default=str) + "\n"
    assert json.loads(t("history", "--json", *args).stdout) == rows
