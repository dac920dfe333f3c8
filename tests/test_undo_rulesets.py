"""Undo works the same for every ruleset: reversing the latest units returns the state before them."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_ledger.ledger import units
from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.ledger.errors import LedgerError
from campaign_ledger.projections import runner

STATE_TABLES = {"action-dice": ("action_dice_characters", "action_dice_assets", "action_dice_conditions",
                                "action_dice_rolls"),
                "decision-2d6": ("d2d6_sheets", "d2d6_supplies", "d2d6_trackers", "d2d6_rolls")}


def _action_dice(app, data) -> None:
    name = data.draw(st.sampled_from(["Mara", "Tobin"]))
    move = data.draw(st.sampled_from(["roll", "condition", "worsen", "treat"]))
    if move == "roll":
        app.roll_action(name, data.draw(st.sampled_from(["climb", "sneak"])), rating="D6",
                        advantages=data.draw(st.integers(0, 1)), assets=["Athletics"],
                        faces=data.draw(st.lists(st.integers(1, 4), min_size=3, max_size=3)))
    elif move == "condition":
        app.set_action_condition(name, "Bruised", data.draw(st.integers(1, 3)), ["climb"])
    elif move == "worsen":
        app.change_action_condition(name, "Bruised", 1)
    else:
        app.treat_action_condition(name, "Bruised")


def _decision(app, data) -> None:
    move = data.draw(st.sampled_from(["roll", "supply", "tracker"]))
    if move == "roll":
        app.d2d6_roll("Billy", "Strength", target=8, faces=data.draw(st.lists(st.integers(1, 5), min_size=2,
                                                                              max_size=2)))
    elif move == "supply":
        app.d2d6_supply_roll("Torches", faces=[data.draw(st.integers(1, 12))])
    else:
        app.d2d6_tracker_roll("Arrows", faces=[data.draw(st.integers(1, 100))])


def _setup(path: str, ruleset: str):
    app = open_ledger(path)
    app.start("Undo everywhere", ruleset, None)
    if ruleset == "action-dice":
        for name in ("Mara", "Tobin"):
            app.add_action_character(name, {"Athletics": "d8"})
        return app, _action_dice
    app.d2d6_add_character("Billy", 3, 2, 3, {"Strength": 1})
    app.d2d6_add_item("Torches", "D12", "Billy")
    app.d2d6_add_tracker("Arrows", 100, None, "Billy")
    return app, _decision


def _state(db, ruleset):
    """The current-state tables, without the column that only says which entry last touched a row."""
    return {t: [{k: v for k, v in row.items() if k != "entry" or t.endswith("_rolls")} for row in rows]
            for t, rows in runner.tables(db) if t in STATE_TABLES[ruleset]}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), ruleset=st.sampled_from(sorted(STATE_TABLES)))
def test_undoing_back_to_any_unit_returns_every_ruleset_to_its_state_before(tmp_path_factory, data, ruleset):
    path = str(tmp_path_factory.mktemp("undo") / "c.db")
    app, move = _setup(path, ruleset)
    db = runner.connect(path)
    runner.catch_up(app, db)
    set_up = app.recorder.max_notification_id()
    states = {set_up: _state(db, ruleset)}
    for _ in range(data.draw(st.integers(1, 6))):
        try:
            move(app, data)
        except LedgerError:
            pass
        runner.catch_up(app, db)
        states.setdefault(app.recorder.max_notification_id(), _state(db, ruleset))
    live = [u for u in units.live_units(app.recorder) if u.first > set_up]  # making things is not undone
    if not live:
        return
    target = data.draw(st.sampled_from(live))
    for unit in sorted((u for u in live if u.last >= target.first), key=lambda u: u.last, reverse=True):
        app.undo(unit.key, cascade=False)  # newest first: nothing later is left to depend on it
    runner.catch_up(app, db)
    assert _state(db, ruleset) == states[target.first - 1]



def test_undoing_a_beer_run_round_restores_intensity_abilities_and_the_conflict(tmp_path):
    from tests.conftest import Table
    from tests.test_beer_run_ledger import ANN, BOB, br_cmd
    t = Table(tmp_path / "beer.db")
    t("new", "Pub Night", "--ruleset", "beer-run")
    t(*br_cmd("character", "add", "Ann", "--ability", ANN))
    t(*br_cmd("character", "add", "Bob", "--ability", BOB, "--intensity", "4"))
    t(*br_cmd("conflict", "open", "Brawl", "--side", "Ann", "--side", "Bob"))
    before = (t.json("sheet"), t.json("pools"), t.json(*br_cmd("status", "Brawl")))
    t(*br_cmd("goal", "Brawl", "Ann", "talk Bob down", "--ability", "Charm"))
    t(*br_cmd("goal", "Brawl", "Bob", "throw Ann out"))
    t(*br_cmd("roll", "Brawl", "Ann", "--faces", "8,6,4"))
    t(*br_cmd("roll", "Brawl", "Bob", "--faces", "3,2,1"))
    t(*br_cmd("pips", "Brawl", "Ann", "Charm=2,Wits=1"))
    assert (t.json("sheet"), t.json("pools")) != before[:2]
    plan = t.json("undo", "--dry-run")
    assert [r["unit"] for r in plan["reversed"]] == ["Brawl:1"]
    t("undo", "--yes")
    assert (t.json("sheet"), t.json("pools"), t.json(*br_cmd("status", "Brawl"))) == before
    assert t.json("audit")["clean"]
