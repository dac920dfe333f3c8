"""Undo reads the command log from the newest command backwards (ledger/units_newest.py): the units
it finds, lists and weighs as dependents must be exactly those the whole log gives
(`ledger.units.every_unit`), names, ranges and what stands included, whatever was played, undone,
corrected or named oddly."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_ledger.ledger import units
from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.ledger.errors import LedgerError
from campaign_ledger.ledger.units_newest import Newest, producers
from tests.conftest import Table
from tests.test_undo_units import MOVES, SETUP as RULESET_SETUP, _play as _play_moves


def _answer(call):
    try:
        return call()
    except LedgerError as e:
        return type(e).__name__, str(e)


def assert_same_as_whole_log(path: str, subsets: bool = True) -> None:
    app = open_ledger(path)
    try:
        live = units.live_units(app.recorder)
        reader = Newest(app.recorder)
        reader.newest(None)
        assert reader.read_whole is not subsets  # each unit from its own rows, not the whole log's
        newest = sorted(live, key=lambda u: u.last, reverse=True)
        assert Newest(app.recorder).newest(None) == newest
        assert Newest(app.recorder).newest(3) == newest[:3]
        assert Newest(app.recorder).latest() == (newest[0] if newest else None)
        for entry in sorted({0, *(u.first for u in live), *(u.last for u in live)}):
            assert Newest(app.recorder).ending_after(entry) == [u for u in live if u.last > entry]
        keys = [None, "nobody:9", "#1", str(2**63), f"#{2**70}"] + [k for u in live for k in (u.key, u.key.upper(), u.stored, str(u.first),
                                                                     f"#{u.first}", str(u.last))]
        for key in keys:
            assert _answer(lambda: Newest(app.recorder).find(key)) == _answer(lambda: units.find(live, key)), key
    finally:
        app.close()


def test_odd_names_corrections_and_undone_corrections_are_named_as_the_whole_log_names_them(tmp_path: Path):
    t = Table(tmp_path / "c.db")
    t("demo")
    t("pc", "add", "Kira #2", "--expertise", "Phantom=2", "--primary", "Phantom")  # `push Kira #2` by name
    for who in ("Kira", "Kira #2", "Kira", "Kira #2"):
        t("push", who, "--gm-override", "she insists")
    assert_same_as_whole_log(t.path)
    assert {"push Kira #2", "push Kira #2 #1", "push Kira #2 #2"} <= {u["unit"] for u in t.json("undo", "--list")}
    t("replay", "Vault Guards:3", "--drop-trait", "nothing", "--commit")
    assert_same_as_whole_log(t.path)
    t("undo", "Vault Guards:3", "--yes")  # the correction undone: the round it corrected stands again
    assert_same_as_whole_log(t.path)
    t("undo", "push Kira #2", "--yes")
    t("undo", "--yes")
    assert_same_as_whole_log(t.path)


def test_a_name_is_produced_by_the_names_it_counts_from():
    assert producers("push Kira #2") == {"push Kira #2", "push Kira"}
    assert producers("push Kira #2 #1 (entry 40)") == {"push Kira #2 #1 (entry 40)", "push Kira #2 #1",
                                                        "push Kira #2"}


@pytest.mark.parametrize("monkey_limit", [0])
def test_a_subset_too_large_reads_the_whole_log(tmp_path: Path, monkeypatch, monkey_limit):
    from campaign_ledger.ledger import units_newest

    monkeypatch.setattr(units_newest, "SUBSET_MAX", monkey_limit)
    t = Table(tmp_path / "c.db")
    t("demo")
    assert_same_as_whole_log(t.path, subsets=False)
    app = open_ledger(t.path)
    try:
        reader = Newest(app.recorder)
        reader.latest()
        assert reader.read_whole
    finally:
        app.close()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                                HealthCheck.function_scoped_fixture])
@given(data=st.data(), ruleset=st.sampled_from(sorted(MOVES)))
def test_random_play_and_undo_read_backwards_give_the_whole_logs_units(tmp_path_factory, data, ruleset):
    t = Table(tmp_path_factory.mktemp("newest") / "c.db")
    for args in RULESET_SETUP[ruleset]:
        t(*args)
    for _ in range(2):
        _play_moves(t, data.draw(st.lists(MOVES[ruleset], min_size=2, max_size=8)))
        listed = [u for u in t.json("undo", "--list", "--limit", "1000") if ": made" not in u["did"]]
        if listed:
            t("undo", data.draw(st.sampled_from(listed))["unit"], "--cascade", "--yes", ok=False)
    assert_same_as_whole_log(t.path)
