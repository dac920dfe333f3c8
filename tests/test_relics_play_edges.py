"""Rough edges a new GM met playing Relics from the README (issue 35's last play-through): each is
a command as the GM typed it and what it must answer instead of what it did."""
from __future__ import annotations

from tests.conftest import Table


def test_a_sheet_asked_of_a_challenge_says_it_is_a_challenge_and_where_to_look(table: Table):
    line = table.refused("sheet", "guards")
    assert line == "Error: 'guards' is not a character of this campaign but a Challenge (campaign status shows it)."
    assert "There is no character named 'Nobody'" in table.refused("sheet", "Nobody")
