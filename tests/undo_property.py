"""What the undo properties of issue 33 share (tests/test_undo_property_relics.py, _rulesets.py).

Play is driven through the ledger application; once it is over, every unit from one onward is
undone, newest first, and the read tables must be as the entries before that unit alone make
them (runner.as_of: the campaign that never played the rest), incrementally and after a rebuild.
Tables are compared as bench/undo_oracle.py compares a scratch campaign: all but its logs and
ledger internals, through its norm (entry numbers and times dropped, an `ended` column as ended
or not), so a row a reversal should have removed or restored shows as a difference.
"""
from __future__ import annotations

from typing import Any, Callable

from hypothesis import Phase
from hypothesis import strategies as st

from bench.undo_oracle import LOG_TABLES, diff_views, norm
from ledger import units
from ledger.errors import LedgerError
from projections import runner

# A failing example is reported as drawn: shrinking one of these takes minutes (measured: >5 min).
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


def attempt(command: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    """One command; a refusal appends nothing (tests/test_refusals.py) and is no failure here."""
    try:
        command(*args, **kwargs)
        return True
    except LedgerError:
        return False


def state(db: Any) -> dict[str, list]:
    """Every read table but the logs and ledger internals, each as a sorted list of normalized rows."""
    return {t: sorted((norm(r) for r in rows), key=repr) for t, rows in runner.tables(db) if t not in LOG_TABLES}


def same(now: dict, expected: dict, label: str) -> None:
    assert now == expected, "\n".join(diff_views(now, expected, label, "never played"))


def undo_back_to_a_unit(app: Any, db: Any, set_up: int, data: st.DataObject) -> str | None:
    """Undo every unit from one drawn among those after `set_up`, and check the property. The first
    unit undone is one no other unit began before and ended after (a relics round's commands may
    interleave with others'). Returns the unit undone back to (None: nothing to undo)."""
    runner.catch_up(app, db)
    live = [u for u in units.live_units(app.recorder) if u.first > set_up]
    whole = [u for u in live if not any(v.first < u.first <= v.last for v in live)]
    if not whole:
        return None
    target = data.draw(st.sampled_from(whole))
    while later := [u for u in units.live_units(app.recorder) if u.first >= target.first]:
        app.undo(max(later, key=lambda u: u.last).key, cascade=True)  # newest first, with its dependents
    runner.catch_up(app, db)
    with runner.as_of(app, target.first - 1) as before:
        expected = state(before)
    same(state(db), expected, "undone")
    runner.rebuild(app, db)
    same(state(db), expected, "undone, rebuilt")
    return target.key
