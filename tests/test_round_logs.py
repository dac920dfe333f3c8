"""Every entry belongs to the round it happened in; logs head each round once, an undone one marked."""
from __future__ import annotations

import re

from campaign_ledger.ledger.upcasts import disaster_v1_v2
from tests.conftest import Table


def _disaster_on_the_challenge_turn(table: Table) -> None:
    """Guards round 1: a Cohort turn, then a Challenge turn of all botches (a Disaster), then round 2."""
    table("cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo", "--faces", "2,3,3,4,2")
    table("challenge-turn", "Guards", "--faces", "1,1,1,1")
    table("disaster-trait", "Guards", "Opening", "+1 / 1d", "--on", "Cohort")
    table("cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo", "--faces", "5,5,2,3,2")


def test_a_challenge_turn_disaster_is_filed_under_its_own_round(table):
    _disaster_on_the_challenge_turn(table)
    rows = table.json("history", "--limit", "100")
    disaster = next(r for r in rows if "Disaster on the Challenge turn" in r["line"])
    assert disaster["round"] == "Guards:1" and "round 1:" in disaster["line"]
    trait = next(r for r in rows if "Disaster of round" in r["line"])
    assert "the Disaster of round 1 becomes" in trait["line"]


def test_an_old_ledgers_challenge_turn_disaster_reads_as_its_own_round():
    old = {"side": "challenge", "round": 2}
    disaster_v1_v2(old)
    assert old == {"side": "challenge", "round": 1}
    cohort = {"side": "cohort", "round": 2}
    disaster_v1_v2(cohort)
    assert cohort == {"side": "cohort", "round": 2}


def _headings(markdown: str) -> list[str]:
    return [line[3:] for line in markdown.splitlines() if line.startswith("## ")]


def test_each_round_is_headed_once_even_with_entries_between_its_turns(table, tmp_path):
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d")
    table("cohort-turn", "Guards", "--leader", "Kira")  # the huddle; the dice come later
    table("trait", "add", "Bo", "Steady", "+1 / 1d")  # between the huddle and the roll
    table("roll", "Guards", "--faces", "2,3,3,4,2")
    _disaster_on_the_challenge_turn_rest(table)
    text = table("export", "--format", "md").stdout
    rounds = [h for h in _headings(text) if h != "Between rounds"]
    assert rounds == ["Guards, round 1", "Guards, round 2"]
    html = table("export", "--format", "html").stdout
    assert re.findall(r"<h3>(Guards, round \d)</h3>", html) == ["Guards, round 1", "Guards, round 2"]


def _disaster_on_the_challenge_turn_rest(table: Table) -> None:
    table("challenge-turn", "Guards", "--faces", "1,1,1,1")
    table("cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo", "--faces", "5,5,2,3,2")


def test_an_undone_round_stays_in_the_logs_marked_reversed_and_out_of_the_charts(table):
    _disaster_on_the_challenge_turn(table)
    table("challenge-turn", "Guards", "--faces", "6,6", "--stress", "Kira=1,Bo=1")
    undone = table.json("undo", "--yes")
    at = undone["entries"][0]
    text = table("export", "--format", "md").stdout
    rounds = [h for h in _headings(text) if h != "Between rounds"]
    assert rounds == ["Guards, round 1", f"~~Guards, round 2~~ (reversed at #{at})"]
    assert f"(reversed at #{at})" in text.split("~~Guards, round 2~~", 1)[1].split("\n## ", 1)[0]
    html = table("export", "--format", "html").stdout
    assert f'<h3><s>Guards, round 2</s> <span class="undone">reversed at #{at}</span></h3>' in html
    assert re.findall(r"<h3>(?:<s>)?(Guards, round \d)", html) == ["Guards, round 1", "Guards, round 2"]
    # The Stress chart never shows the undone Stress: Kira's line stays at 0 throughout.
    kira = re.search(r'<polyline[^>]*data-series="Kira"[^>]*points="([^"]*)"', html)
    assert kira, "Kira's Stress line is drawn"
    assert {float(p.split(",")[1]) for p in kira.group(1).split()} == {
        float(kira.group(1).split()[0].split(",")[1])}


def test_history_rebuilt_keeps_the_reversed_marks(table):
    _disaster_on_the_challenge_turn(table)
    table("undo", "--yes")
    before = table("export", "--format", "md").stdout
    table("rebuild")
    assert table("export", "--format", "md").stdout == before
