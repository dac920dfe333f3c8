"""A program roll is a fact the moment it happens: a refusal after the dice keeps them."""
from __future__ import annotations

import sqlite3

import pytest

from tests.conftest import Table


def rolls(table: Table, side: str | None = None) -> int:
    """Program rolls in the ledger (PoolRolled events whose faces the program threw)."""
    import json
    db = sqlite3.connect(table.path)
    rows = db.execute("SELECT state FROM stored_events WHERE topic LIKE '%PoolRolled'").fetchall()
    db.close()
    states = [json.loads(bytes(r[0])) for r in rows]
    return sum(1 for s in states if not s.get("entered", True) and (side is None or s.get("side") == side))


@pytest.fixture
def dogs(table: Table) -> Table:
    """Guards is Ultimate: three dice resolved become A7s, so the Challenge always scores Stress."""
    table("challenge", "open", "Dogs", "--threat", "Ultimate", "--type", "Phantom", "--rating", "5")
    table("cohort-turn", "Dogs", "--leader", "Kira", "--assist", "Bo", "--faces", "5,5,5,2,2")
    return table


def test_a_refused_stress_distribution_keeps_the_challenge_roll_however_often_it_is_repeated(dogs):
    first = dogs("challenge-turn", "Dogs", "--roll", "--stress", "Kira=99", ok=False)
    assert first.exit_code == 1
    line = first.stderr.strip()
    assert line.startswith("Error: The Challenge scored ") and "the distribution adds up to 99" in line
    assert "The program's roll stands as entry #" in line and "distributing the Challenge's Stress" in line
    entries = dogs.entries()
    for _ in range(20):
        again = dogs("challenge-turn", "Dogs", "--roll", "--stress", "Kira=99", ok=False)
        assert again.exit_code == 1 and "Dogs is waiting for distributing the Challenge's Stress" in again.stderr
    assert dogs.entries() == entries
    assert rolls(dogs, "challenge") == 1
    assert "campaign stress" in dogs("status").stdout


def test_the_kept_roll_is_finished_with_its_stress(dogs):
    dogs("challenge-turn", "Dogs", "--roll", "--stress", "Kira=99", ok=False)
    dogs("stress", "Dogs", "--stress", f"Kira={_scored(dogs)}")
    assert "Dogs (Ultimate Phantom 5): round 2" in dogs("status").stdout
    assert rolls(dogs, "challenge") == 1


def _scored(table: Table) -> int:
    line = [l for l in table("history", "--limit", "40").stdout.splitlines() if "Challenge result" in l][-1]
    return int(line.split("= ", 1)[1].split()[0])


def test_undoing_the_round_after_a_kept_roll_restores_the_state_before_it_and_audit_lists_the_roll(table):
    table("challenge", "open", "Dogs", "--threat", "Ultimate", "--type", "Phantom", "--rating", "5")
    before = (table("status").stdout, table("sheet").stdout)
    table("cohort-turn", "Dogs", "--leader", "Kira", "--assist", "Bo", "--faces", "5,5,5,2,2")
    table("challenge-turn", "Dogs", "--roll", "--stress", "Kira=99", ok=False)
    table("undo", "Dogs:1", "--yes")
    assert (table("status").stdout, table("sheet").stdout) == before
    undone = table.json("audit")["undone_program_rolls"]
    assert [(r["side"], r["unit"]) for r in undone] == [("challenge", "Dogs:1")]
    assert "Program rolls undone: 1" in table("audit").stdout


def test_a_placement_naming_no_modifier_is_refused_before_any_die(table):
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d")
    entries = table.entries()
    line = table.refused("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Keen Eye", "--roll",
                         "--place", "Nonesuch=1")
    assert "No Simple modifier 'Nonesuch'" in line
    assert table.entries() == entries and rolls(table) == 0


def test_a_placement_against_the_stacking_rules_is_refused_before_any_die(table):
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d")
    line = table.refused("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Keen Eye", "--roll",
                         "--place", "Keen Eye=1,2")
    assert "goes on 1 die, not 2" in line
    assert rolls(table) == 0


def test_stress_for_a_pc_not_facing_the_challenge_is_refused_before_any_die(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,3,3,4,2")
    table.refused("challenge-turn", "Guards", "--roll", "--stress", "Zed=1")
    assert rolls(table) == 0


def test_entered_faces_with_a_refused_step_append_nothing(dogs):
    line = dogs.refused("challenge-turn", "Dogs", "--faces", "6,6", "--stress", "Kira=99")
    assert "The program's roll" not in line


def test_two_beneficial_modifiers_on_one_die_are_refused_before_any_die(table):
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d")
    table("trait", "add", "Bo", "Steady", "+1 / 1d")
    # Both placed on die 1: each alone is fine, stacking two Beneficial Simple modifiers is not.
    result = table("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Keen Eye", "--trait", "Bo:Steady",
                   "--roll", "--place", "Keen Eye=1", "--place", "Steady=1", ok=False)
    assert result.exit_code == 1 and "cannot carry two" in result.stderr and rolls(table) == 0


def test_a_growth_test_placement_against_the_rules_is_refused_before_any_die(table):
    table("pc", "add", "Cy", "--expertise", "Phantom=2", "--primary", "Phantom")
    _give_agony(table, "Cy")
    line = table.refused("growth-test", "Cy", "--pool", "3", "--place", "1,2")  # +1 / 1d on two dice
    assert "goes on 1 die, not 2" in line
    db = sqlite3.connect(table.path)
    assert db.execute("SELECT count(*) FROM stored_events WHERE topic LIKE '%GrowthTested'").fetchone()[0] == 0


def _give_agony(table: Table, name: str) -> None:
    table("challenge", "open", "Pit", "--threat", "Minor", "--type", "Phantom", "--rating", "5", "--group", name)
    for _ in range(2):  # 5 Stress a round: Stressed Out after two
        table("cohort-turn", "Pit", "--leader", name, "--faces", "2,2")
        table("challenge-turn", "Pit", "--faces", "6,6,6,6,6", "--stress", f"{name}=5")
    table("push", name)
