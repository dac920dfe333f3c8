"""Undo lists units without what each touched and reads the touches of only the units it weighs
(a million-entry campaign's units held whole took 1.5 GiB): the dependents it finds, and so every
refusal and cascade, are those of the whole log read with every unit's touches."""
from __future__ import annotations

import pytest

from campaign_ledger.ledger import undo, units
from campaign_ledger.ledger.application import open_ledger
from tests.conftest import Table


@pytest.mark.parametrize("system", ["relics", "beer-run", "action-dice", "decision-2d6"])
def test_the_dependents_read_lazily_are_those_of_the_whole_log(tmp_path, system):
    t = Table(tmp_path / "x.db")
    t("demo", "--system", system)
    listed = t.json("undo", "--list", "--limit", "100")
    t("undo", listed[len(listed) // 2]["unit"], "--cascade", "--yes")  # one undone in the middle
    app = open_ledger(t.path)
    try:
        lazy = units.live_units(app.recorder)
        whole = [u for u, reversal in units.every_unit(app.recorder) if reversal is None]
        assert [u.key for u in lazy] == [u.key for u in whole] and len(lazy) >= 3
        assert all(u.touches == units.NONE for u in lazy if u.touches is not None)  # listed without them
        assert any(w.touches for w in whole)
        for light, full in zip(lazy, whole):
            assert undo.touches(app, light) == undo.touches(app, full)
            assert [d.key for d in undo.dependents(app, lazy, light)] == \
                [d.key for d in undo.dependents(app, whole, full)]
        assert any(undo.dependents(app, lazy, u) for u in lazy)  # the demo's play does depend on earlier play
    finally:
        app.close()
