"""Undo means "as if it had never been played": every command is a named unit, and a later
unit blocks an earlier one only when it read or wrote what the earlier one wrote.

The property: play random commands through the CLI (faces entered), undo a random unit
from `undo --list` (with --cascade when it has dependents), and the game state equals a
scratch campaign built from the same commands without the unit and its listed dependents.
"""
from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from campaign_ledger.ledger import units
from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.ledger.ids import challenge_id, pc_id
from tests.conftest import Table

AD, D, BR = "action-dice", "decision-2d6", "beer-run"
ANN = "Physical:Brawn=d8,Physical:Health=d6,Mental:Wits=d6,Social:Charm=d4"
BOB = "Physical:Brawn=d10,Physical:Health=d4,Mental:Wits=d6,Social:Charm=d2"

SETUP = {
    "relics": [("new", "Heist"),
               ("pc", "add", "Kira", "--expertise", "Phantom=3,Venger=1", "--primary", "Phantom"),
               ("pc", "add", "Bo", "--expertise", "Phantom=3,Venger=4", "--primary", "Venger"),
               ("scenario", "start", "Night"),
               ("challenge", "open", "Guards", "--threat", "Minor", "--type", "Phantom", "--rating", "4")],
    AD: [("new", "Archive", "--ruleset", AD),
         (AD, "character", "Mara", "--asset", "Athletics=d8"),
         (AD, "character", "Tobin", "--asset", "Athletics=d6")],
    D: [("new", "Gate", "--ruleset", D),
        (D, "pc-add", "Billy", "--level", "3", "--will", "2", "--fort", "3", "--stat", "Strength=1"),
        (D, "item-add", "Torches", "--die", "D6", "--holder", "Billy"),
        (D, "tracker-add", "Arrows", "--holder", "Billy")],
    BR: [("new", "Pub", "--ruleset", BR),
         (BR, "character", "add", "Ann", "--ability", ANN),
         (BR, "character", "add", "Bob", "--ability", BOB, "--intensity", "4"),
         (BR, "conflict", "open", "Brawl", "--side", "Ann", "--side", "Bob")],
}

OVERRIDE = ("--gm-override", "the GM allows it")


def faces(n: int, sides: int = 6) -> st.SearchStrategy[str]:
    return st.lists(st.integers(1, sides), min_size=n, max_size=n).map(lambda f: ",".join(map(str, f)))


pc = st.sampled_from(["Kira", "Bo"])

REASON = ("--reason", "the GM says so")
CORRECTIONS = st.one_of(  # issue 13: corrections beyond rounds, each its own unit
    st.tuples(st.just("pc"), st.just("rename"), st.sampled_from(["Kira", "Bo", "Kira Vale"]),
              st.sampled_from(["Kira Vale", "Kira", "Bo"])),
    st.tuples(st.just("pc"), st.just("retire"), pc, *map(st.just, REASON)),
    st.tuples(st.just("pc"), st.just("return"), pc),
    st.tuples(st.just("pc"), st.just("expertise"), pc, st.sampled_from(["Phantom=4", "Venger=2,Sparrow=1"]),
              *map(st.just, REASON)),
    st.tuples(st.just("trait"), st.just("add"), pc, st.just("Quick"), st.just("+1 / 1d")),
    st.tuples(st.just("trait"), st.just("remove"), pc, st.just("Quick"), *map(st.just, REASON)),
    st.tuples(st.just("trait"), st.just("replace"), pc, st.just("Quick"), st.sampled_from(["+2 / 1d", "+1 / 2d"])),
    st.tuples(st.just("challenge"), st.just("rate"), st.just("Guards"), st.sampled_from(["3", "6"]),
              *map(st.just, REASON)),
    st.tuples(st.just("challenge"), st.sampled_from(["close", "abandon"]), st.just("Guards"), *map(st.just, REASON)),
    st.tuples(st.just("roster"), st.just("load"), st.just(str(Path(__file__).parent / "fixtures" / "roster_ash.toml"))),
    st.tuples(st.just("challenge"), st.just("open"), st.just("Dogs")),  # from the bestiary, once loaded
)
RELICS_MOVES = st.one_of(
    st.tuples(st.just("cohort-turn"), st.just("Guards"), st.just("--leader"), pc, st.just("--faces"), faces(5),
              st.just("--best")),
    st.tuples(st.just("challenge-turn"), st.just("Guards"), st.just("--faces"), faces(4)),
    st.tuples(st.just("stress"), st.just("Guards"), st.just("--stress"),
              st.sampled_from(["Kira=1,Bo=1", "Kira=2", "Bo=2", "Kira=2,Bo=2", "Bo=4", "Kira=3,Bo=1", "Kira=1"])),
    st.tuples(st.just("push"), pc),
    st.tuples(st.just("push"), pc, *map(st.just, OVERRIDE)),
    st.tuples(st.just("growth-test"), pc, st.just("--pool"), st.just("2"), st.just("--faces"),
              st.sampled_from(["1,2", "6,6", "4,5"])),
    st.tuples(st.just("disaster-trait"), st.just("Guards"), st.sampled_from(["Rattled", "Shaken"]),
              st.just("-1 / 1d"), st.just("--on"), pc),
    st.tuples(st.just("downtime")),
    st.tuples(st.just("pc"), st.just("add"), st.sampled_from(["Ash", "Kira"]), st.just("--expertise"),
              st.just("Phantom=2"), st.just("--primary"), st.just("Phantom")),
    st.tuples(st.just("challenge"), st.just("open"), st.sampled_from(["Dogs", "Guards"]), st.just("--threat"),
              st.just("Minor"), st.just("--type"), st.just("Phantom"), st.just("--rating"), st.just("3")),
    CORRECTIONS,
)
AD_MOVES = st.one_of(
    st.tuples(st.just(AD), st.just("roll"), st.sampled_from(["Mara", "Tobin"]), st.sampled_from(["climb", "sneak"]),
              st.just("--rating"), st.just("D6"), st.just("--asset"), st.just("Athletics"), st.just("--faces"),
              faces(3)),
    st.tuples(st.just(AD), st.just("condition"), st.sampled_from(["Mara", "Tobin"]),
              st.sampled_from(["Bruised", "Tired"]), st.just("--level"), st.sampled_from(["1", "2", "3"]),
              st.just("--impacts"), st.just("climb")),
    st.tuples(st.just(AD), st.just("character"), st.sampled_from(["Pip", "Mara"]), st.just("--asset"),
              st.just("Athletics=d4")),
    st.tuples(st.just(AD), st.sampled_from(["worsen", "treat", "ease"]), st.sampled_from(["Mara", "Tobin"]),
              st.sampled_from(["Bruised", "Tired"])),
    st.tuples(st.just(AD), st.just("roll"), st.just("Mara"), st.just("climb"), st.just("--rating"), st.just("D6"),
              st.just("--faces"), st.just("2,3,4"), *map(st.just, OVERRIDE)),
)
D_MOVES = st.one_of(
    st.tuples(st.just(D), st.just("roll"), st.just("Billy"), st.just("Strength"), st.just("--target"), st.just("8"),
              st.just("--faces"), faces(2, 5)),
    st.tuples(st.just(D), st.just("supply-roll"), st.just("Torches"), st.just("--faces"),
              st.integers(1, 6).map(str)),
    st.tuples(st.just(D), st.just("supply-roll"), st.just("Torches"), st.just("--faces"), st.just("2"),
              *map(st.just, OVERRIDE)),
    st.tuples(st.just(D), st.just("restock"), st.just("Torches"), st.sampled_from(["D6", "D8"])),
    st.tuples(st.just(D), st.just("tracker-roll"), st.just("Arrows"), st.just("--faces"),
              st.integers(1, 100).map(str)),
    st.tuples(st.just(D), st.just("item-add"), st.sampled_from(["Rope", "Torches"]), st.just("--die"), st.just("D8"),
              st.just("--holder"), st.just("Billy")),
)
BR_MOVES = st.one_of(
    st.tuples(st.just(BR), st.just("goal"), st.just("Brawl"), st.sampled_from(["Ann", "Bob"]),
              st.sampled_from(["win", "leave"])),
    st.tuples(st.just(BR), st.just("roll"), st.just("Brawl"), st.sampled_from(["Ann", "Bob"]), st.just("--faces"),
              st.lists(st.integers(1, 4), min_size=3, max_size=4).map(lambda f: ",".join(map(str, f)))),
    st.tuples(st.just(BR), st.just("pips"), st.just("Brawl"), st.sampled_from(["Ann", "Bob"]),
              st.sampled_from(["Brawn=1", "Wits=1", "Health=1", "Charm=1"])),
    st.tuples(st.just(BR), st.just("intensity"), st.sampled_from(["Ann", "Bob"]), st.sampled_from(["1", "-1"]),
              st.just("--reason"), st.just("the GM")),
    st.tuples(st.just(BR), st.just("character"), st.just("add"), st.sampled_from(["Cid", "Ann"]), st.just("--ability"),
              st.just(BOB)),
)
SETUP["corrections"] = SETUP["relics"]  # a Relics campaign, played mostly with corrections
MOVES = {"relics": RELICS_MOVES, AD: AD_MOVES, D: D_MOVES, BR: BR_MOVES,
         "corrections": st.one_of(CORRECTIONS, CORRECTIONS, RELICS_MOVES)}  # relics, corrections mostly


def _play(t: Table, commands) -> list[tuple[tuple[str, ...], int]]:
    """Play each command; keep the accepted ones with the first entry each appended."""
    played = []
    for args in commands:
        before = t.entries()
        result = t(*args, ok=False)
        assert result.exit_code in (0, 1, 2) and "Traceback" not in result.output, result.output
        if result.exit_code == 0 and t.entries() > before:
            played.append((tuple(args), before + 1))
    return played


def _game_state(path: str) -> dict:
    """Every aggregate's game state (times and entry numbers are bookkeeping, left out)."""
    app = open_ledger(path)
    try:
        ids = {n.originator_id for n in app.recorder.select_notifications(1, 10**6)}
        states = {str(i): app.repository.get(i).state() for i in ids}
        return {i: state for i, state in states.items() if not state.get("unmade")}  # undone making: absent
    finally:
        app.close()


def _units(path: str) -> list[units.Unit]:
    app = open_ledger(path)
    try:
        return units.live_units(app.recorder)
    finally:
        app.close()


def _undo_random_unit_equals_scratch(tmp: Path, ruleset: str, data) -> None:
    t = Table(tmp / "played.db")
    setup = _play(t, SETUP[ruleset])
    assert len(setup) == len(SETUP[ruleset])
    played = setup + _play(t, data.draw(st.lists(MOVES[ruleset], min_size=3, max_size=20)))
    listed = t.json("undo", "--list", "--limit", "1000")
    names = [u["unit"] for u in listed]
    assert len(names) == len(set(names))
    target = data.draw(st.sampled_from(listed))
    event("undo with a cascade" if target["dependents"] else "undo of an independent unit")
    event("undo of making" if ": made" in target["did"] else "undo of a change")
    ranges = {u.key: u.ranges for u in _units(t.path)}
    if target["dependents"]:
        refusal = t.refused("undo", target["unit"])
        assert all(d in refusal for d in target["dependents"])
        t("undo", target["unit"], "--cascade", "--yes")
    else:
        t("undo", target["unit"], "--yes")
    gone = {target["unit"], *target["dependents"]}
    removed = {e for name in gone for a, b in ranges[name] for e in range(a, b + 1)}
    scratch = Table(tmp / "scratch.db")
    for args, first in played:
        if first not in removed:
            scratch(*args)  # every kept command is accepted without the undone units
    assert _game_state(t.path) == _game_state(scratch.path)
    assert _read_tables(t) == _read_tables(scratch)
    assert target["unit"] not in [u.key for u in _units(t.path)]


LOGS = ("history", "balances", "balance_changes", "sheet_versions", "row_versions", "row_versions_dirty",  # on record
        "d2d6_supply_rows", "d2d6_tracker_rows", "d2d6_sheet_rows", "beer_run_intensity")
BOOKKEEPING = {"entry", "time", "opened", "joined", "ended", "id", "owner_id", "character_id"}


def _read_tables(t: Table) -> dict[str, list[str]]:
    """Every read table holding game state, caught up, without entry numbers, ids or times."""
    from campaign_ledger.projections import runner
    t("history", "--limit", "1")  # any read catches the tables up
    db = runner.connect(t.path)
    try:
        return {name: sorted(repr({k: v for k, v in row.items() if k not in BOOKKEEPING}) for row in rows
                             if row.get("ended") is None)  # an ended trait's row stays, shown nowhere
                for name, rows in runner.tables(db) if name not in LOGS}
    finally:
        db.conn.close()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                                HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_undoing_a_relics_unit_equals_a_campaign_played_without_it(tmp_path_factory, data):
    _undo_random_unit_equals_scratch(tmp_path_factory.mktemp("relics"), "relics", data)


@settings(max_examples=int(os.environ.get("UNDO_EXAMPLES", 15)), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_undoing_a_correction_equals_a_campaign_played_without_it(tmp_path_factory, data):
    _undo_random_unit_equals_scratch(tmp_path_factory.mktemp("corrections"), "corrections", data)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_undoing_an_action_dice_unit_equals_a_campaign_played_without_it(tmp_path_factory, data):
    _undo_random_unit_equals_scratch(tmp_path_factory.mktemp("ad"), AD, data)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_undoing_a_decision_2d6_unit_equals_a_campaign_played_without_it(tmp_path_factory, data):
    _undo_random_unit_equals_scratch(tmp_path_factory.mktemp("d2"), D, data)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_undoing_a_beer_run_unit_equals_a_campaign_played_without_it(tmp_path_factory, data):
    _undo_random_unit_equals_scratch(tmp_path_factory.mktemp("br"), BR, data)


# --- the findings, as a GM met them ------------------------------------------------------------------


def _heist(tmp: Path) -> Table:
    t = Table(tmp / "heist.db")
    for args in SETUP["relics"]:
        t(*args)
    t("challenge", "open", "Vault Guards", "--threat", "Minor", "--type", "Phantom", "--rating", "4")
    return t



def _aggregate(t: Table, id_) -> dict:
    """An aggregate's game state as the ledger holds it now."""
    app = open_ledger(t.path)
    try:
        return app.repository.get(id_).state()
    finally:
        app.close()


def test_undo_of_a_middle_round_needs_cascade_when_a_later_round_of_the_challenge_followed(tmp_path):
    t = _heist(tmp_path)
    rounds = [("2,2,3,3,4", "6,6,2,2", "Kira=1,Bo=1"), ("1,1,1,1,1", "1,1,1,1", None)]
    for cohort, challenge, stress in rounds:
        t("cohort-turn", "Vault Guards", "--leader", "Kira", "--faces", cohort, "--best")
        t("challenge-turn", "Vault Guards", "--faces", challenge, *(["--stress", stress] if stress else []))
    t("cohort-turn", "Vault Guards", "--leader", "Kira", "--faces", "6,6,6,6,6", "--best")
    assert _aggregate(t, challenge_id("Vault Guards"))["phase"] == "resolved"
    refusal = t.refused("undo", "Vault Guards:2")
    assert "Vault Guards:3" in refusal and "--cascade" in refusal
    t("undo", "Vault Guards:2", "--cascade", "--yes")
    guards = _aggregate(t, challenge_id("Vault Guards"))
    assert (guards["round"], guards["phase"], guards["resolved"]) == (2, "cohort", 0)


def test_two_pushes_get_two_names_and_undo_takes_one_push_only(tmp_path):
    t = _heist(tmp_path)
    t("push", "Kira", *OVERRIDE)
    t("growth-test", "Kira", "--pool", "2", "--faces", "6,6")
    t("push", "Kira", *OVERRIDE)
    names = [u["unit"] for u in t.json("undo", "--list")]
    assert names[:3] == ["push Kira #2", "Growth Test Kira #1", "push Kira #1"]
    second = next(u for u in t.json("undo", "--list") if u["unit"] == "push Kira #2")
    plan = t.json("undo", "push Kira #2", "--dry-run")
    assert [r["entries"] for r in plan["reversed"]] == [second["entries"]]
    assert "push Kira #2" in t.refused("undo", "push Kira #1") and "Growth Test Kira #1" in t.refused(
        "undo", "push Kira #1")


def _gate(tmp: Path) -> Table:
    t = Table(tmp / "gate.db")
    for args in SETUP[D]:
        t(*args)
    t(D, "item-add", "Rope", "--die", "D4")
    return t


def test_restocks_and_overrides_are_units_and_a_cascade_takes_only_what_used_the_unit(tmp_path):
    t = _gate(tmp_path)
    t(D, "supply-roll", "Rope", "--faces", "1")  # D4 shows 1: Rope is Empty
    t(D, "tracker-roll", "Arrows", "--faces", "40")
    t(D, "supply-roll", "Rope", *OVERRIDE)  # the GM lets the Empty Rope be used (no die, no faces)
    t(D, "restock", "Torches", "D8")
    listed = {u["unit"]: u for u in t.json("undo", "--list")}
    assert {"restock Torches #1", "supply roll Rope #2", "tracker roll Arrows #1"} <= set(listed)
    assert listed["supply roll Rope #1"]["dependents"] == ["supply roll Rope #2"]
    refusal = t.refused("undo", "supply roll Rope #1")
    assert "supply roll Rope #2" in refusal
    t("undo", "supply roll Rope #1", "--cascade", "--yes")
    left = [u["unit"] for u in t.json("undo", "--list")]
    assert "tracker roll Arrows #1" in left and "restock Torches #1" in left
    assert not {"supply roll Rope #1", "supply roll Rope #2"} & set(left)
    t("undo", "restock Torches #1", "--yes")


def test_an_undone_treatment_takes_the_later_roll_of_that_action_with_it(tmp_path):
    t = Table(tmp_path / "archive.db")
    for args in SETUP[AD]:
        t(*args)
    t(AD, "condition", "Mara", "Broken Arm", "--level", "3", "--impacts", "climb")
    t(AD, "treat", "Mara", "Broken Arm")
    t(AD, "roll", "Mara", "climb", "--rating", "D6", "--faces", "2,3,4")
    t(AD, "roll", "Tobin", "climb", "--rating", "D6", "--faces", "2,3,4")
    treat = t.json("undo", "--list")[2]
    assert treat["unit"] == "condition Mara Broken Arm #2" and treat["dependents"] == ["Mara's climb roll (#1)"]
    t("undo", str(treat["first_entry"]), "--cascade", "--yes")  # named by its first entry number
    assert [u["unit"] for u in t.json("undo", "--list")][:2] == ["Tobin's climb roll (#1)",
                                                                   "condition Mara Broken Arm #1"]
    assert "incapacitated" in t.refused(AD, "roll", "Mara", "climb", "--rating", "D6", "--faces", "2,3,4")


def test_undoing_a_condition_keeps_the_characters_other_conditions_in_their_order(tmp_path):
    t = Table(tmp_path / "archive.db")
    for args in SETUP[AD]:
        t(*args)
    for name in ("Tired", "Bruised", "Achy"):
        t(AD, "condition", "Mara", name, "--level", "1", "--impacts", "climb")
    t(AD, "worsen", "Mara", "Tired")
    t("undo", "--yes")
    assert [c["name"] for c in _aggregate(t, pc_id("Mara"))["conditions"].values()] == ["Tired", "Bruised", "Achy"]


def test_odd_names_never_make_two_units_share_a_name(tmp_path):
    t = _heist(tmp_path)
    t("pc", "add", "Kira #2", "--expertise", "Phantom=3", "--primary", "Phantom")
    t("pc", "add", "Bo:1", "--expertise", "Phantom=3", "--primary", "Phantom")
    for owner, trait in (("Kira", "Quick"), ("Kira", "Sly"), ("Kira #2", "Quick"), ("Kira #2", "Slow")):
        t("trait", "add", owner, trait, "+1 / 1d")
    t("push", "Bo:1", *OVERRIDE)
    t("push", "Bo:1", *OVERRIDE)
    names = [u["unit"] for u in t.json("undo", "--list", "--limit", "100")]
    assert len(names) == len(set(names)) and {"push Bo:1 #1", "push Bo:1 #2"} <= set(names)
    assert [r["unit"] for r in t.json("undo", "push Bo:1 #2", "--dry-run")["reversed"]] == ["push Bo:1 #2"]


def test_a_unit_played_in_the_middle_of_a_round_is_reversed_together_with_it(tmp_path):
    t = _heist(tmp_path)
    t("cohort-turn", "Vault Guards", "--leader", "Kira", "--assist", "Bo", "--faces", "1,1,1,1,1")  # a Disaster
    t("disaster-trait", "Vault Guards", "Rattled", "-1 / 1d", "--on", "Bo")  # between the round's turns
    t("challenge-turn", "Vault Guards", "--faces", "5,2,3,5", "--stress", "Kira=1,Bo=1")
    listed = {u["unit"]: u for u in t.json("undo", "--list")}
    assert listed["Vault Guards:1"]["dependents"] == ["disaster trait Vault Guards #1"]
    undone = t.json("undo", "Vault Guards:1", "--cascade", "--yes")
    assert [r["unit"] for r in undone["reversed"]] == ["Vault Guards:1", "disaster trait Vault Guards #1"]
    guards = _aggregate(t, challenge_id("Vault Guards"))
    assert (guards["round"], guards["phase"], guards["disaster"]) == (1, "cohort", None)
    assert "Rattled" not in t("sheet", "Bo").stdout
    assert not {"Vault Guards:1", "disaster trait Vault Guards #1"} & {u["unit"] for u in t.json("undo", "--list")}
