"""`campaign odds` at the table: the pool a turn would build, exact fractions, and nothing recorded."""
from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest

from campaign_ledger.ledger.rulesets.relics import rules


def _ledger(t) -> list:
    """Every entry as stored: an odds command must leave this exactly as it was."""
    return t.json("history")


def _brute_force_successes(rolled: int, simple: list[rules.Modifier]) -> dict[str, str]:
    found: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=rolled):
        placement = rules.best_placement(faces, simple, {})
        n = rules.tally(rules.apply_simple(faces, simple, placement)).successes
        found[n] = found.get(n, 0) + Fraction(1, 6 ** rolled)
    return {str(k): str(v) for k, v in sorted(found.items())}


def test_a_described_huddle_gives_exact_fractions_and_records_nothing(table):
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d", "--cost", "destiny")
    before = _ledger(table)
    r = table.json("odds", "Guards", "--leader", "Kira", "--assist", "Bo", "--trait", "Kira:Keen Eye")
    assert _ledger(table) == before
    assert r["waiting"] is False and r["pool"]["roll"] == 5  # lead 3 + Bo's assist 2 (Phantom 3)
    assert r["successes"] == _brute_force_successes(5, [rules.parse_modifier("+2 / 1d")])
    assert all("/" in v or v in ("0", "1") for v in r["at_least"].values())


def test_the_described_pool_is_the_pool_the_turn_then_builds(table):
    table("trait", "add", "Guards", "Stubborn", "-1 / 1d", "--challenge", "--cost", "doom")
    args = ["--leader", "Bo", "--trait", "Guards:Stubborn", "--destiny", "1"]
    described = table.json("odds", "Guards", *args)
    table("cohort-turn", "Guards", *args)
    waiting = table.json("odds", "Guards")
    assert waiting["waiting"] is True
    assert {k: v for k, v in waiting.items() if k != "waiting"} == {k: v for k, v in described.items() if k != "waiting"}
    assert described["pool"]["roll"] == 6  # Bo leads (Phantom 3) with 3, Kira assists with 2, one Destiny


def test_the_challenge_turn_pool_gives_stress(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "5,5,2,2,2")  # two resolved
    r = table.json("odds", "Guards")
    assert r["side"] == "challenge" and r["pool"] == {"roll": 2, "autos": [4, 4], "simple": []}
    assert sum(Fraction(p) for p in r["stress"].values()) == 1
    assert "Stress for the group facing it" in table("odds", "Guards").stdout


def test_the_text_view_draws_the_distribution(table):
    out = table("odds", "Guards", "--leader", "Kira").stdout
    assert "Net successes" in out and "\u2588" in out and "Disaster:" in out and "Tides:" in out
    assert "nothing recorded" in out


@pytest.mark.parametrize("args, code, words", [
    (["Guards", "--destiny", "many"], 2, "not a valid integer"),
    (["Guards", "--supplies", "Phantom"], 2, "Write Supplies as TYPE:RANK"),
    (["Guards", "--leader", "Kira", "--trait", "nocolon"], 2, "OWNER:TRAIT"),
    ([], 2, "Missing argument"),
    (["Guards", "--leader", "Nobody"], 1, "no PC named 'Nobody'"),
    (["Guards", "--leader", "Kira", "--destiny", "9"], 1, "Destiny pool holds"),
    (["Nowhere"], 1, "no Challenge named 'Nowhere'"),
    (["Guards", "--challenge-turn"], 1, "waiting for the Cohort turn"),
])
def test_refusals_are_one_error_line_and_append_nothing(table, args, code, words):
    before = _ledger(table)
    result = table("odds", *args, ok=False)
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and words in lines[0], result.stderr
    assert _ledger(table) == before


def test_a_rolled_pool_has_no_odds_left(table):
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d")
    table("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Keen Eye")
    table("roll", "Guards", "--faces", "1,2,3,4,5")
    assert "already rolled" in table.refused("odds", "Guards")


def test_odds_modules_are_pure_one_per_ruleset():
    """A later issue moves each into its ruleset's package: no I/O, no eventsourcing, no CLI."""
    import ast
    from pathlib import Path

    ledger = Path(__file__).resolve().parent.parent / "ledger"
    modules = [ledger / "odds.py", *(ledger / "rulesets").glob("*/odds.py")]
    assert {p.parent.name for p in modules} >= {"relics", "decision_2d6", "action_dice", "beer_run"}
    for path in modules:
        tree = ast.parse(path.read_text())
        imported = {a.name.removeprefix("campaign_ledger.").split(".")[0] for n in ast.walk(tree)
                    if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module.removeprefix("campaign_ledger.").split(".")[0] for n in ast.walk(tree)
                     if isinstance(n, ast.ImportFrom) and n.module}
        assert not imported & {"eventsourcing", "sqlite3", "sqlite_utils", "os", "random", "click", "projections",
                               "commands", "cli"}, path
        ledger_parts = {n.module.removeprefix("campaign_ledger.") + "." + a.name for n in ast.walk(tree)
                        if isinstance(n, ast.ImportFrom) and n.module
                        and n.module.removeprefix("campaign_ledger.").startswith("ledger") for a in n.names}
        assert all(m.startswith("ledger.odds.") or m.startswith("ledger.errors.") or
                   re.match(r"ledger\.rulesets\.\w+\.(rules|odds)\b", m) for m in ledger_parts), (path, ledger_parts)


def test_status_shows_the_pool_waiting_on_its_roll_with_one_line_of_odds(table):
    from campaign_ledger.ledger.odds import percent
    from campaign_ledger.ledger.rulesets.relics import odds as odds

    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d")
    assert table.json("status")["challenges"][0]["odds"] is None  # no pool yet
    table("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Keen Eye")
    row = table.json("status")["challenges"][0]
    figures = odds.summary(odds.outcomes(odds.Pool(5, (), (rules.parse_modifier("+2 / 1d"),))))
    assert row["odds"] == (f"Pool: 5d6 to roll; to place: Kira:Keen Eye +2 / 1d. Odds: at least 1 success "
                           f"{percent(figures['at_least'][1])}, Disaster {percent(figures['disaster'])}.")
    assert row["odds"] in table("status").stdout


def test_a_face_count_that_does_not_fit_says_how_many_and_why(table):
    table("trait", "add", "Kira", "Lucky", "A6 / 1d")
    table("cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Lucky")
    message = table.refused("roll", "Guards", "--faces", "1,2,3,4,5")
    assert "rolls 4 dice: 5 in the pool, 1 of them auto results (6) that are not rolled; you entered 5 faces" \
        in message


def test_a_tests_odds_say_the_chance_it_passes(table):
    table("challenge", "open", "Lock", "--threat", "Common", "--type", "Phantom", "--rating", "3", "--test",
          "--needed", "2")
    r = table.json("odds", "Lock", "--leader", "Kira")
    assert r["passes_test"] == r["at_least"]["2"]
    assert r["destiny"] == {"0": "1"}  # no Tides against a Common Threat
    assert table.json("odds", "Guards", "--leader", "Kira")["passes_test"] is None


def test_a_huddle_left_waiting_for_its_roll_shows_the_same_line_of_odds_as_status(table):
    report = table.json("cohort-turn", "Guards", "--leader", "Kira")
    status = table.json("status")["challenges"][0]["odds"]
    assert report["odds"] == status and status.startswith("Pool: ")
    text = table("challenge-turn", "Guards", ok=False)  # refused (the roll waits): the odds stay
    assert "Pool:" in table("status").stdout
    rolled = table.json("roll", "Guards", "--faces", ",".join(["2"] * int(status.split("d6")[0].split()[-1])))
    assert "odds" not in rolled and text.exit_code != 0


def test_at_the_start_of_a_round_odds_build_the_next_turns_pool_with_the_likeliest_leader(table):
    r = table.json("odds", "Guards")  # the README: "or the pool its next turn would build"
    leader = r["assumed_leader"]
    assert leader and r["waiting"] is False and r["side"] == "cohort"
    given = table.json("odds", "Guards", "--leader", leader)
    assert given["assumed_leader"] is None
    assert {k: v for k, v in given.items() if k != "assumed_leader"} == \
        {k: v for k, v in r.items() if k != "assumed_leader"}
    assert f"Led by {leader}" in table("odds", "Guards").output
