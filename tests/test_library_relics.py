"""Relics of the Moon through the library (issue 37): one night at the vault played twice, once by
calls on a Campaign handle and once by the CLI on another file, must leave the same campaign.

The night: a Scenario and its Scenes and Events, a Challenge played to its end with entered faces,
a Disaster and its trait, Stress, a Stressed Out PC who Pushes the Limit, a round undone while later
play stands, a GM override, a repeated idempotency key, recovery, downtime and a Growth Test, and
every other Relics command once. Each write's report, and afterwards every JSON read view (sheets,
pools, status, history, undo --list, sessions, the Destiny and Doom statements, the roster), are
compared with the CLI's, times and generated keys aside. Refusals carry the CLI's code and rule.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from campaign_ledger import Campaign, CampaignError, new_campaign
from tests.conftest import Table

Call = Callable[[Campaign], Any]
ROSTER = """\
[[pc]]
name = "Ash"
primary = "Scav"
expertise = { Scav = 3, Stallion = 2 }

[[challenge]]
name = "Night Watch"
threat = "Minor"
type = "Venger"
rating = 3
"""

# (the CLI's words, the same as a call): the night, in order. `--key` words ride along as `key=`.
NIGHT: list[tuple[tuple[str, ...], Call]] = [
    (("pc", "add", "Kira", "--expertise", "Phantom=3,Venger=1,Stallion=2", "--primary", "Phantom"),
     lambda c: c.pc_add("Kira", {"Phantom": 3, "Venger": 1, "Stallion": 2}, "Phantom")),
    (("pc", "add", "Bo", "--expertise", "Venger=4,Phantom=2,Stallion=1", "--primary", "Venger"),
     lambda c: c.pc_add("Bo", {"Venger": 4, "Phantom": 2, "Stallion": 1}, "Venger")),
    (("trait", "add", "Kira", "Keen Eye", "+2 / 1d", "--cost", "destiny", "--frequency", "scene"),
     lambda c: c.trait_add("Kira", "Keen Eye", "+2 / 1d", cost="destiny", frequency="scene")),
    (("trait", "add", "Bo", "Old Grudge", "+1 / 1d", "--types", "Venger"),
     lambda c: c.trait_add("Bo", "Old Grudge", "+1 / 1d", types=["Venger"])),
    (("motto", "Bo", "Hit first, ask later"), lambda c: c.motto("Bo", "Hit first, ask later")),
    (("house-rule", "set", "stressed_out_at", "4", "--reason", "a short night"),
     lambda c: c.house_rule_set("stressed_out_at", "4", reason="a short night")),
    (("roster", "load", "{roster}"), lambda c: c.roster_load(roster_beside(c))),
    (("pc", "rename", "Ash", "Ash Vale"), lambda c: c.pc_rename("Ash", "Ash Vale")),
    (("pc", "expertise", "Ash Vale", "Scav=2", "--reason", "misread"),
     lambda c: c.pc_expertise("Ash Vale", {"Scav": 2}, reason="misread")),
    (("pc", "retire", "Ash Vale", "--reason", "moved away"), lambda c: c.pc_retire("Ash Vale", reason="moved away")),
    (("session", "start", "Night one"), lambda c: c.session_start("Night one")),
    (("scenario", "start", "Night at the Vault"), lambda c: c.scenario_start("Night at the Vault")),
    (("scene", "start", "The vault at midnight"), lambda c: c.scene_start("The vault at midnight")),
    (("event", "start", "Getting in"), lambda c: c.event_start("Getting in")),
    (("challenge", "open", "Outer Wall", "--threat", "Minor", "--type", "Phantom", "--rating", "3"),
     lambda c: c.challenge_open("Outer Wall", threat="Minor", type="Phantom", rating=3)),
    # The Cohort turn stops at its pool, rolled with the table's faces: 2 successes, a botch (+1 Doom).
    (("cohort-turn", "Outer Wall", "--leader", "Kira", "--assist", "Bo"),
     lambda c: c.cohort_turn("Outer Wall", leader="Kira", assists=["Bo"])),
    (("roll", "Outer Wall", "--faces", "5,5,6,1"), lambda c: c.roll("Outer Wall", faces=[5, 5, 6, 1])),
    # Two resolved dice are A4, one rolled: 1 success, 1 Stress, spread afterwards.
    (("challenge-turn", "Outer Wall", "--faces", "6"), lambda c: c.challenge_turn("Outer Wall", faces=[6])),
    (("stress", "Outer Wall", "--stress", "Kira=1"), lambda c: c.stress("Outer Wall", {"Kira": 1})),
    # Keen Eye (1 Destiny) placed by hand on the 5: 7 is 2 successes, the Challenge is resolved.
    (("cohort-turn", "Outer Wall", "--trait", "Kira:Keen Eye", "--faces", "5,2,2,2"),
     lambda c: c.cohort_turn("Outer Wall", traits=["Kira:Keen Eye"], faces=[5, 2, 2, 2])),
    (("place", "Outer Wall", "--place", "Keen Eye=1"), lambda c: c.place("Outer Wall", places={"Keen Eye": [1]})),
    (("challenge", "open", "Vault Door", "--threat", "Major", "--type", "Phantom", "--rating", "4"),
     lambda c: c.challenge_open("Vault Door", threat="Major", type="Phantom", rating=4)),
    (("challenge", "split", "Vault Door", "--into", "Back Stairs", "--dice", "2", "--group", "Bo", "--pay", "doom"),
     lambda c: c.challenge_split("Vault Door", into="Back Stairs", dice=2, group=["Bo"], pay="doom")),
    (("challenge", "close", "Back Stairs", "--reason", "bribed the guard"),
     lambda c: c.challenge_close("Back Stairs", reason="bribed the guard")),
    (("event", "end", "--reason", "over the wall"), lambda c: c.event_end(reason="over the wall")),
    (("event", "start", "The alarm", "--simultaneous"), lambda c: c.event_start("The alarm", simultaneous=True)),
    (("challenge", "open", "Lock Gallery", "--threat", "Major", "--type", "Phantom", "--rating", "4",
      "--group", "Kira"),
     lambda c: c.challenge_open("Lock Gallery", threat="Major", type="Phantom", rating=4, group=["Kira"])),
    (("challenge", "open", "Guard Post", "--threat", "Major", "--type", "Venger", "--rating", "5", "--group", "Bo"),
     lambda c: c.challenge_open("Guard Post", threat="Major", type="Venger", rating=5, group=["Bo"])),
    (("cohort-turn", "Guard Post", "--leader", "Bo", "--faces", "2,5,3,4"),
     lambda c: c.cohort_turn("Guard Post", leader="Bo", faces=[2, 5, 3, 4])),
    # A Disaster: three botches (+3 Doom), then the GM's trait for it.
    (("cohort-turn", "Lock Gallery", "--leader", "Kira", "--faces", "1,1,1"),
     lambda c: c.cohort_turn("Lock Gallery", leader="Kira", faces=[1, 1, 1])),
    (("disaster-trait", "Lock Gallery", "Jammed Picks", "-1 / 1d", "--on", "Kira"),
     lambda c: c.disaster_trait("Lock Gallery", "Jammed Picks", "-1 / 1d", on="Kira")),
    # The Guard Post round, played before the Disaster, undone while the Disaster stands; played again.
    (("undo", "Guard Post:1"), lambda c: c.undo("Guard Post:1")),
    (("cohort-turn", "Guard Post", "--leader", "Bo", "--trait", "Bo:Old Grudge", "--faces", "5,5,3,4", "--best"),
     lambda c: c.cohort_turn("Guard Post", leader="Bo", traits=["Bo:Old Grudge"], faces=[5, 5, 3, 4], best=True)),
    # 3 resolved dice are A5, two rolled: 4 Stress on Bo, Stressed Out at 4 (the house rule).
    (("challenge-turn", "Guard Post", "--faces", "5,2", "--stress", "Bo=4"),
     lambda c: c.challenge_turn("Guard Post", faces=[5, 2], stress={"Bo": 4})),
    (("push", "Bo"), lambda c: c.push("Bo")),
    (("agony-trait", "Bo", "Shaking hands", "-1 / 1d"), lambda c: c.agony_trait("Bo", "Shaking hands", "-1 / 1d")),
    (("push", "Kira", "--gm-override", "she insists"), lambda c: c.push("Kira", override="she insists")),
    (("challenge-turn", "Lock Gallery", "--faces", "2,2,3,3"),
     lambda c: c.challenge_turn("Lock Gallery", faces=[2, 2, 3, 3])),
    (("challenge", "rate", "Lock Gallery", "5", "--reason", "reinforcements"),
     lambda c: c.challenge_rate("Lock Gallery", 5, reason="reinforcements")),
    (("check-this-out", "Loose grating", "+1 / 1d", "--pay", "destiny"),
     lambda c: c.check_this_out("Loose grating", "+1 / 1d", pay="destiny")),
    (("hand-of-doom", "stress"), lambda c: c.hand_of_doom_stress()),
    (("hand-of-doom", "trait", "Reinforcements", "-1 / 1d", "--gm-override", "Doom runs dry"),
     lambda c: c.hand_of_doom_trait("Reinforcements", "-1 / 1d", override="Doom runs dry")),
    (("hand-of-doom", "challenge", "The Warden", "--threat", "Major", "--type", "Venger", "--rating", "2",
      "--gm-override", "Doom runs dry"),
     lambda c: c.hand_of_doom_challenge("The Warden", threat="Major", type="Venger", rating=2,
                                        override="Doom runs dry")),
    (("challenge", "abandon", "The Warden", "--reason", "ran"), lambda c: c.challenge_abandon("The Warden", reason="ran")),
    (("trait", "add", "Lock Gallery", "Tripwires", "+1 / 1d", "--challenge"),
     lambda c: c.trait_add("Lock Gallery", "Tripwires", "+1 / 1d", challenge=True)),
    (("trait", "replace", "Kira", "Keen Eye", "+1 / 2d", "--reason", "ranked up"),
     lambda c: c.trait_replace("Kira", "Keen Eye", "+1 / 2d", reason="ranked up")),
    (("trait", "remove", "Bo", "Old Grudge", "--reason", "forgiven"),
     lambda c: c.trait_remove("Bo", "Old Grudge", reason="forgiven")),
    (("event", "end", "--reason", "the guards gave up"), lambda c: c.event_end(reason="the guards gave up")),
    (("--key", "scene-end-1", "scene", "end", "--reason", "out through the sewers"),
     lambda c: c.scene_end(reason="out through the sewers", key="scene-end-1")),
    (("--key", "scene-end-1", "scene", "end", "--reason", "out through the sewers"),  # the retry: nothing appended
     lambda c: c.scene_end(reason="out through the sewers", key="scene-end-1")),
    (("recover", "set", "--stress", "Kira=1"), lambda c: c.recover_set({"Kira": 1})),
    (("scene", "start", "The getaway"), lambda c: c.scene_start("The getaway")),
    (("scene", "end", "--reason", "home free"), lambda c: c.scene_end(reason="home free")),
    (("recover", "test"), lambda c: c.recover_test()),
    (("cohort-turn", "Recovery after Scene 2", "--leader", "Kira", "--faces", "5,6,2"),
     lambda c: c.cohort_turn("Recovery after Scene 2", leader="Kira", faces=[5, 6, 2])),
    (("recover", "apply", "--stress", "Kira=1,Bo=1"), lambda c: c.recover_apply({"Kira": 1, "Bo": 1})),
    (("downtime",), lambda c: c.downtime()),
    (("growth-test", "Bo", "--pool", "2", "--faces", "5,3", "--place", "2"),
     lambda c: c.growth_test("Bo", pool=2, faces=[5, 3], place=[2])),
    (("pc", "return", "Ash Vale"), lambda c: c.pc_return("Ash Vale")),
    (("session", "end"), lambda c: c.session_end()),
]


def roster_beside(camp: Campaign) -> str:
    """The roster file the night loads: heist.toml beside the campaign file."""
    return str(Path(camp.path).parent / "heist.toml")


def played_both(camp: Campaign, cli: Table, steps: list[tuple[tuple[str, ...], Call]]) -> list:
    """Each step by a call on `camp` and by the CLI on `cli`: (words, the call's report, the CLI's)."""
    reports = []
    for words, call in steps:
        said = tuple(roster_beside(camp) if w == "{roster}" else w for w in words)
        reports.append((said, call(camp), cli.json(*said)))
    return reports


def timeless(value: Any) -> Any:
    """A view or report without what differs between two plays of one night: times and generated keys."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k not in ("time", "started", "ended", "key", "channel")}
    if isinstance(value, list):
        return [timeless(v) for v in value]
    return value


class Played:
    """The night, played by the library on one file and by the CLI on another; each write's report."""

    def __init__(self, folder: Path) -> None:
        (folder / "heist.toml").write_text(ROSTER, encoding="utf-8")
        self.cli = Table(folder / "cli.db")
        self.cli("new", "Moon Heist")
        self.camp = new_campaign(folder / "library.db", "Moon Heist")
        self.reports = played_both(self.camp, self.cli, NIGHT)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return Played(tmp_path_factory.mktemp("night"))


def test_every_write_reports_what_the_cli_reports(played: Played) -> None:
    for words, by_call, by_cli in played.reports:
        assert timeless(by_call) == timeless(by_cli), words
    assert len(played.reports) == len(NIGHT) > 50


def test_the_night_is_the_one_the_brief_asks_for(played: Played) -> None:
    lines = [h["line"] for _, report, _ in played.reports for h in report.get("history", [])]
    assert "Outer Wall is resolved" in lines
    assert "Lock Gallery round 1: Disaster on the Cohort turn" in lines
    assert "Bo is Stressed Out (4 Stress)" in lines and "Bo Pushes the Limit: Stress 4 -> 0" in lines
    assert any(line.startswith("Undo Guard Post:1 ") for line in lines)
    assert any(line.startswith("GM override: she insists") for line in lines)
    first, retry = (report for words, report, _ in played.reports if "scene-end-1" in words)
    assert retry["repeated"] and retry["entries"] == first["entries"] and not first.get("repeated")


def _statement(camp: Campaign, balance: str) -> Any:
    """`statement` is the record's call (campaign_ledger/records.py)."""
    return camp.statement(balance)


VIEWS: dict[str, tuple[Call, tuple[str, ...]]] = {
    "sheets": (lambda c: c.sheet(), ("sheet",)),
    "sheet Bo": (lambda c: c.sheet("Bo"), ("sheet", "Bo")),
    "sheet Kira at 60": (lambda c: c.sheet("Kira", at=60), ("sheet", "Kira", "--at", "60")),
    "pools": (lambda c: c.pools(), ("pools",)),
    "pools at 40": (lambda c: c.pools(at=40), ("pools", "--at", "40")),
    "status": (lambda c: c.status(), ("status",)),
    "history": (lambda c: c.history(), ("history",)),
    "history of Bo": (lambda c: c.history(pc="Bo"), ("history", "--pc", "Bo")),
    "undo list": (lambda c: c.undo_list(100), ("undo", "--list", "--limit", "100")),
    "sessions": (lambda c: c.session_list(), ("session", "list")),
    "statement destiny": (lambda c: _statement(c, "destiny"), ("statement", "destiny")),
    "statement doom": (lambda c: _statement(c, "doom"), ("statement", "doom")),
    "roster": (lambda c: c.roster_dump(), ("roster", "dump")),
}


@pytest.mark.parametrize("view", VIEWS)
def test_every_read_view_matches_the_cli_s(played: Played, view: str) -> None:
    call, words = VIEWS[view]
    by_call = call(played.camp)
    assert timeless(by_call) == timeless(played.cli.json(*words))
    assert by_call  # a view with nothing in it would match vacuously


def test_status_mid_round_and_a_dumped_roster_file(tmp_path: Path) -> None:
    """The status of a round waiting for its roll, and `roster_dump(path)` writing the file."""
    (tmp_path / "heist.toml").write_text(ROSTER, encoding="utf-8")
    camp = new_campaign(tmp_path / "mid.db", "Mid")
    cli = Table(tmp_path / "mid-cli.db")
    cli("new", "Mid")
    played_both(camp, cli, NIGHT[:16])  # up to the Cohort turn on Outer Wall, waiting for its dice
    status = camp.status()
    assert status["turn"] and status["challenges"][0]["waiting_for"] == "the Cohort's roll"
    assert timeless(status) == timeless(cli.json("status"))
    written = tmp_path / "out.toml"
    assert camp.roster_dump(str(written)) == cli.json("roster", "dump", str(tmp_path / "out-cli.toml"))
    assert written.read_text(encoding="utf-8") == (tmp_path / "out-cli.toml").read_text(encoding="utf-8")
    assert 'name = "Ash Vale"' in written.read_text(encoding="utf-8")


# --- refusals: the library's CampaignError carries the CLI's --json refusal ------------------------

REFUSALS: list[tuple[tuple[str, ...], Call]] = [
    (("cohort-turn", "Lock Gallery"), lambda c: c.cohort_turn("Lock Gallery")),  # it has ended
    (("cohort-turn", "Nowhere"), lambda c: c.cohort_turn("Nowhere")),
    (("cohort-turn", "Guard Post", "--trait", "Kira"), lambda c: c.cohort_turn("Guard Post", traits=["Kira"])),
    (("challenge-turn", "Guard Post", "--faces", "2"), lambda c: c.challenge_turn("Guard Post", faces=[2])),
    (("push", "Kira"), lambda c: c.push("Kira")),
    (("pc", "add", "Kira", "--expertise", "Phantom=1", "--primary", "Phantom"),
     lambda c: c.pc_add("Kira", {"Phantom": 1}, "Phantom")),
    (("trait", "add", "Kira", "Odd", "+1 / zz"), lambda c: c.trait_add("Kira", "Odd", "+1 / zz")),
    (("hand-of-doom", "stress"), lambda c: c.hand_of_doom_stress()),
    (("disaster-trait", "Outer Wall", "X", "-1 / 1d", "--on", "Kira"),
     lambda c: c.disaster_trait("Outer Wall", "X", "-1 / 1d", on="Kira")),
    (("growth-test", "Kira", "--pool", "0"), lambda c: c.growth_test("Kira", pool=0)),
    (("recover", "apply", "--stress", "Kira=1"), lambda c: c.recover_apply({"Kira": 1})),
    (("house-rule", "set", "stressed_out_at", "4"), lambda c: c.house_rule_set("stressed_out_at", "4")),
    (("challenge", "split", "Outer Wall", "--into", "B", "--dice", "1", "--group", "Bo", "--pay", "doom"),
     lambda c: c.challenge_split("Outer Wall", into="B", dice=1, group=["Bo"], pay="doom")),
    (("pc", "return", "Kira"), lambda c: c.pc_return("Kira")),
    (("roster", "load", "no-such-roster.toml"), lambda c: c.roster_load("no-such-roster.toml")),
    (("roster", "dump", " "), lambda c: c.roster_dump(" ")),
    (("--key", "scene-end-1", "scene", "end"), lambda c: c.scene_end(key="scene-end-1")),  # the key, other words
]


@pytest.mark.parametrize("words,call", REFUSALS, ids=[" ".join(w) for w, _ in REFUSALS])
def test_a_refusal_carries_the_cli_s_code_and_rule(played: Played, words: tuple[str, ...], call: Call) -> None:
    before = played.camp.history(limit=1)
    with pytest.raises(CampaignError) as refusal:
        call(played.camp)
    result = played.cli(*words, "--json", ok=False)
    by_cli = json.loads(result.stdout)
    assert refusal.value.as_json() == by_cli and result.exit_code == refusal.value.code
    assert played.camp.history(limit=1) == before  # nothing appended


# The same refusal in each one's words: the CLI names its options, the library its arguments.
WORDED_APART: list[tuple[tuple[str, ...], Call]] = [
    (("cohort-turn", "Guard Post", "--faces", "1", "--roll"), lambda c: c.cohort_turn("Guard Post", faces=[1], roll=True)),
    (("challenge", "open", "X", "--needed", "2"), lambda c: c.challenge_open("X", needed=2)),
]


@pytest.mark.parametrize("words,call", WORDED_APART, ids=[" ".join(w) for w, _ in WORDED_APART])
def test_a_refusal_worded_for_the_library_has_the_cli_s_code_and_rule(played: Played, words: tuple[str, ...],
                                                                     call: Call) -> None:
    with pytest.raises(CampaignError) as refusal:
        call(played.camp)
    by_cli = json.loads(played.cli(*words, "--json", ok=False).stdout)
    assert (refusal.value.code, refusal.value.rule) == (by_cli["code"], by_cli["rule"]) == (2, None)
    assert "--" not in refusal.value.message and "--" in by_cli["error"]


def test_a_call_of_another_ruleset_is_refused_as_the_cli_refuses_it(tmp_path: Path) -> None:
    camp = new_campaign(tmp_path / "beer.db", "Beer", ruleset="beer-run")
    cli = Table(tmp_path / "beer-cli.db")
    cli("new", "Beer", "--ruleset", "beer-run")
    for call, words in ((lambda c: c.status(), ("status",)), (lambda c: c.roster_dump(), ("roster", "dump")),
                        (lambda c: c.scenario_start("Night"), ("scenario", "start", "Night"))):
        with pytest.raises(CampaignError) as refusal:
            call(camp)
        by_cli = json.loads(cli(*words, "--json", ok=False).stdout)
        assert refusal.value.as_json() == by_cli, words
