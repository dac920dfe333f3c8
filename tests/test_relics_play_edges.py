"""Rough edges a new GM met playing Relics from the README (issue 35's last play-through): each is
a command as the GM typed it and what it must answer instead of what it did."""
from __future__ import annotations

from tests.conftest import Table


def test_a_sheet_asked_of_a_challenge_says_it_is_a_challenge_and_where_to_look(table: Table):
    line = table.refused("sheet", "guards")
    assert line == "Error: 'guards' is not a character of this campaign but a Challenge (campaign status shows it)."
    assert "There is no character named 'Nobody'" in table.refused("sheet", "Nobody")


def test_stress_no_step_can_distribute_is_refused_not_dropped(table: Table):
    """`challenge-turn --stress` on a turn that scored nothing, `roll --stress` on a Cohort turn and
    `--stress` before the placements are refused (nothing appended), never silently ignored."""
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2,2,2")
    line = table.refused("challenge-turn", "Guards", "--faces", "1,1,1,1", "--stress", "Kira=1,Bo=1")
    assert line == "Error: The Challenge scored no Stress this turn; --stress Kira=1,Bo=1 has nothing to distribute."
    table("challenge-turn", "Guards", "--faces", "1,1,1,1")
    table("cohort-turn", "Guards")
    assert "Cohort turn deals no Stress" in table.refused("roll", "Guards", "--faces", "2,2,2,2,2", "--stress", "Kira=1")
    table("roll", "Guards", "--faces", "2,2,2,2,2")
    table("trait", "add", "Bo", "Smoke Bomb", "-1 / 1d", "--target", "challenge")
    table("challenge-turn", "Guards", "--trait", "Bo:Smoke Bomb")
    assert "waits for the Simple modifiers to be placed" in table.refused(
        "roll", "Guards", "--faces", "5,5,5,5", "--stress", "Kira=1")
    table("roll", "Guards", "--faces", "5,5,5,5", "--best", "--stress", "Kira=2,Bo=1")
    assert table.json("status")["turn"] is None
