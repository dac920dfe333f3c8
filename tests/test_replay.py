"""Replay re-runs a recorded round on its own faces with other choices, and can commit the correction."""
import pytest

from campaign_ledger.ledger import units
from campaign_ledger.ledger.application import open_ledger


@pytest.fixture
def demo(empty):
    empty("demo")
    return empty


def _rounds(t):
    app = open_ledger(t.path)
    return [u.key for u in units.live_units(app.recorder) if units.ROUND.match(u.key)]


def test_replaying_every_round_of_the_demo_with_its_recorded_choices_reproduces_it(demo):
    rounds = _rounds(demo)
    assert rounds == ["Vault Guards:1", "Vault Guards:2", "Vault Guards:3"]
    for key in rounds:
        report = demo.json("replay", key)
        rows = report["after_round"] + report.get("after_later_rounds", [])
        assert [r["figure"] for r in rows if r["changed"]] == [], key
        assert report["notes"] == [], key
    assert "The replay reproduces the record." in demo("replay", "Vault Guards:1").stdout


def test_the_recorded_figures_are_the_ledgers_own(demo):
    report = demo.json("replay", "Vault Guards:2")
    recorded = {r["figure"]: r["recorded"] for r in report["after_round"]}
    assert (recorded["Cohort successes"], recorded["Challenge successes"]) == (3, 5)
    assert (recorded["Bo Stress"], recorded["Vault Guards dice resolved"]) == (10, 3)
    final = {r["figure"]: r["recorded"] for r in report["after_later_rounds"]}
    assert final == {**final, "Destiny": demo.json("pools")["destiny"], "Doom": demo.json("pools")["doom"],
                     "Bo Agony": 1, "Vault Guards dice resolved": 5}


def test_another_choice_shows_what_would_have_changed_and_appends_nothing(demo):
    entries = demo.entries()
    report = demo.json("replay", "Vault Guards:2", "--drop-trait", "Bo:Steady Hands", "--challenge-faces", "6,6,1",
                       "--stress", "Bo=2,Kira=1")
    after = {r["figure"]: (r["recorded"], r["replayed"]) for r in report["after_round"]}
    assert after["Cohort successes"] == (3, 2)
    assert after["Challenge successes"] == (5, 3)
    assert after["Bo Stress"] == (10, 7) and after["Kira Stress"] == (0, 1)
    assert after["Doom"] == (6, 5)
    assert "entry #53 (push_the_limit) (changed): could not be played again: Bo is not Stressed Out; only a Stressed Out PC can Push the Limit." in report["notes"]
    assert demo.entries() == entries


def test_commit_appends_a_reversal_and_the_corrected_round(demo):
    assert "add --cascade" in demo.refused("replay", "Vault Guards:2", "--leader", "Kira", "--destiny", "0",
                                           "--commit")
    entries = demo.entries()
    demo("replay", "Vault Guards:3", "--drop-trait", "nothing", "--commit")
    assert demo.entries() > entries
    lines = [r["line"] for r in demo.json("history")[entries:]]
    assert lines[0].startswith("Undo Vault Guards:3")
    assert any("round 3: Cohort dice show 6, 6, 2, 3, 4" in line for line in lines)
    audit = demo.json("audit")
    assert audit["clean"] and audit["corrections"] == [{"entries": [entries + 1, demo.entries()],
                                                         "entry_range": [entries + 1, demo.entries()],
                                                         "corrects": [55, 61]}]
    assert _rounds(demo)[-1] == "Vault Guards:3"


def test_only_rounds_can_be_replayed(demo):
    demo("undo", "--cascade", "Vault Guards:3")
    assert "not a round" in demo.refused("replay", "push Bo #1")


@pytest.mark.parametrize("system", ["action-dice", "decision-2d6"])
def test_every_roll_of_the_other_rulesets_demos_replays_as_recorded(tmp_path, system):
    from tests.conftest import Table
    t = Table(tmp_path / f"{system}.db")
    t("demo", "--system", system)
    app = open_ledger(t.path)
    rolls = [u.key for u in units.live_units(app.recorder)
             if " roll (#" in u.key and not any(w in u.key for w in ("supply", "tracker"))]
    assert rolls
    for key in rolls:
        report = t.json("replay", key)
        assert [r["figure"] for r in report["after_round"] if r["changed"]] == [] and report["notes"] == [], key


def test_a_roll_replayed_with_other_choices_shows_the_difference_and_appends_nothing(tmp_path):
    from tests.conftest import Table
    t = Table(tmp_path / "gate.db")
    t("demo", "--system", "decision-2d6")
    entries = t.entries()
    report = t.json("replay", "Billy's Strength roll (#1)", "--set", "advantage=major-advantage",
                    "--set", "faces=3,6,6,2,4")
    after = {r["figure"]: (r["recorded"], r["replayed"]) for r in report["after_round"]}
    assert after["total"] == (17, 21) and after["chains"] == ([[3], [6, 6, 2]], [[3], [6, 2], [6, 4]])
    assert t.entries() == entries
    assert "not 'luck'" in t.refused("replay", "Billy's Strength roll (#1)", "--set", "luck=3")
    assert "shown, not committed" in t.refused("replay", "Billy's Strength roll (#1)", "--commit")


def test_set_is_for_single_rolls_not_relics_rounds(demo):
    assert "--set changes a single roll's choices" in demo.refused("replay", "--set", "advantages=1")
