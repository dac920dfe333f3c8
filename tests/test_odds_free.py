"""`campaign odds --ruleset ID`: a pool described in full, no campaign file opened or made; the same
figures as the campaign's own odds of the same pool, and a needed option missing is refused by name."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from campaign_ledger.cli import cli
from campaign_ledger.ledger.rulesets.action_dice import odds as action_odds
from campaign_ledger.ledger.rulesets.beer_run import odds as beer_odds
from tests.conftest import Table


def _free(tmp_path, *args: str, ok: bool = True):
    db = tmp_path / "never.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "odds", *args], catch_exceptions=False)
    assert not db.exists() and not list(tmp_path.iterdir())  # nothing opened, nothing made
    if ok:
        assert result.exit_code == 0, result.output
    return result


def _json(tmp_path, *args: str) -> dict:
    return json.loads(_free(tmp_path, *args, "--json").stdout)


def test_a_relics_pool_described_in_full_has_the_odds_of_the_same_pool_in_a_campaign(tmp_path):
    t = Table(tmp_path / "camp" / "heist.db")
    (tmp_path / "camp").mkdir()
    t("new", "Heist")
    t("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom")
    t("trait", "add", "Kira", "Keen Eye", "+2 / 1d")
    t("trait", "add", "Kira", "Lucky", "A6 / 1d")
    t("scenario", "start", "Night")
    t("challenge", "open", "Guards", "--threat", "Minor", "--type", "Phantom", "--rating", "4")
    played = t.json("odds", "Guards", "--leader", "Kira", "--trait", "Kira:Keen Eye", "--trait", "Kira:Lucky")
    free_dir = tmp_path / "free"
    free_dir.mkdir()
    described = _json(free_dir, "--ruleset", "relics", "--dice", "3", "--trait", "+2 / 1d", "--trait", "A6 / 1d",
                      "--threat", "minor", "--rating", "4", "--pcs", "1", "--destiny-pool", "1")
    for key in ("successes", "at_least", "disaster", "expected", "destiny", "doom", "expected_tides", "resolved",
                "resolves_challenge"):
        assert described[key] == played[key], key
    assert described["pool"]["roll"] == 2 and described["pool"]["autos"] == [6]


def test_a_challenge_turn_described_takes_the_threats_auto_results_on_resolved_dice(tmp_path):
    r = _json(tmp_path, "--ruleset", "relics", "--dice", "4", "--challenge-turn", "--threat", "Major",
              "--resolved", "2", "--trait", "-1 / 1d")
    assert r["pool"]["autos"] == [5, 5] and r["pool"]["roll"] == 2 and r["side"] == "challenge"
    assert sum(Fraction(p) for p in r["stress"].values()) == 1


def test_decision_action_and_beer_run_pools_described_in_full(tmp_path):
    seed = _json(tmp_path, "--ruleset", "decision-2d6", "--target", "12")
    assert seed["success"] == "23/108" and _json(tmp_path, "--ruleset", "decision-2d6", "--target", "12",
                                                 "--bonus", "1")["success"] == "1/4"  # seed 004's 21% and 25%
    contest = _json(tmp_path, "--ruleset", "decision-2d6", "--stat", "2", "--against-stat", "2")
    assert contest["wins"] == {"first": "1/2", "second": "1/2"}
    assert _json(tmp_path, "--ruleset", "decision-2d6", "--tracker-value", "60")["next_use"] == "3/5"
    assert _json(tmp_path, "--ruleset", "decision-2d6", "--die", "d4")["step_down"] == "3/4"
    action = _json(tmp_path, "--ruleset", "action-dice", "--rating", "D8", "--asset", "d8", "--asset", "d10")
    assert action["dice"] == [8, 10, 4] and action["difficulty"] == 4
    assert action["grades"] == {k: str(v) for k, v in action_odds.outcome_odds([8, 10, 4], 4)["grades"].items()}
    opposed = _json(tmp_path, "--ruleset", "beer-run", "--pool", "d8,d6", "--against", "d6,d4,d4")
    exact = beer_odds.opposed_odds(beer_odds.Side((8, 6)), beer_odds.Side((6, 4, 4)))
    assert opposed["upper_hand"] == {k: str(v) for k, v in exact["upper_hand"].items()}
    goal = _json(tmp_path, "--ruleset", "beer-run", "--pool", "d8,d6", "--goal", "d8", "--penalty", "d6")["helping"]
    assert goal["uses"] == {str(k): str(v) for k, v in beer_odds.goal_odds(beer_odds.Side((8, 6)),
                                                                      beer_odds.Side((8, 8, 8, 6)))["uses"].items()}
    text = _free(tmp_path, "--ruleset", "relics", "--dice", "2", "--challenge-turn").stdout
    assert "no campaign" in text and "Stress" in text


@pytest.mark.parametrize("args, words", [
    (["--ruleset", "relics", "--dice", "5"], "need --threat, --rating, --pcs"),
    (["--ruleset", "relics", "--threat", "Minor"], "need --dice"),
    (["--ruleset", "relics", "--dice", "3", "--challenge-turn", "--resolved", "1"], "need --threat"),
    (["--ruleset", "relics", "--dice", "3", "--challenge-turn", "--trait", "+1d6"], "Add Dice do not change it"),
    (["--ruleset", "action-dice", "--asset", "d8"], "challenge rating"),
    (["--ruleset", "beer-run", "--against", "d6"], "need --pool"),
    (["--ruleset", "beer-run", "--pool", "d6"], "--against"),
    (["--ruleset", "chess"], "--ruleset takes one of"),
    (["--ruleset"], "--ruleset takes one of"),
])
def test_a_needed_option_missing_is_refused_by_name_and_nothing_is_made(tmp_path, args, words):
    result = _free(tmp_path, *args, ok=False)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error: ") and words in lines[0], \
        result.stderr


def test_beer_run_odds_write_die_sizes_as_dice_never_as_a_list(tmp_path):
    text = _free(tmp_path, "--ruleset", "beer-run", "--pool", "d8,d6", "--goal", "d8", "--penalty", "d4").stdout
    assert "penalty dice d4" in text and "[" not in text


def test_relics_auto_results_are_written_as_faces_never_as_a_list(tmp_path):
    text = _free(tmp_path, "--ruleset", "relics", "--dice", "3", "--trait", "A6 / 1d", "--challenge-turn").stdout
    assert "auto results 6" in text and "[" not in text


def test_an_action_difficulty_off_the_scale_is_malformed_input(tmp_path):
    for value in ("0", "11"):
        r = _free(tmp_path, "--ruleset", "action-dice", "--difficulty", value, ok=False)
        assert r.exit_code == 2 and "Difficulty runs from 1 to 10" in r.stderr, r.stderr


def test_a_pool_cap_applied_without_a_campaign_is_stated_in_text_and_json(tmp_path):
    args = ("--ruleset", "relics", "--dice", "40", "--threat", "Minor", "--rating", "5", "--pcs", "2")
    pool = _json(tmp_path, *args)["pool"]
    assert (pool["roll"], pool["cap"], pool["lost_to_cap"]) == (6, 6, 34)
    assert "40 dice, capped at 6" in _free(tmp_path, *args).stdout
