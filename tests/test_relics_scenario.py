"""One night of Relics of the Moon, played through the CLI with the table's own dice.

Every rule of "Relics of the Moon complete" happens here, in the order a table would meet
it: Scenario > Scene > Event > Challenge, serial and simultaneous Events, Supplies, Motto
(the PC's and the GM's), Rallying Cry, Create an Opportunity, Check This Out, a timed
Challenge with Buy Time running out, Disaster traits and their durations, the Hand of Doom
(trait, stress, challenge), a Stressed Out leader replaced, Push the Limit, a split whose
pool cap does not shrink, a Test with unresolved dice as Stress, everyone Stressed Out
ending the Scene, recovery (set, Test, downtime), Agony traits and Growth Tests, a house
rule, a GM override, and the next Scenario resetting the once-a-scenario traits.

Every face is entered (`--faces`); every number asserted below is worked out by hand in
the comment above it. The chapters share one campaign and run in order. At the end, the
defects met while scripting it (since fixed), each pinned by a test of what the rules require.

Cast: Kira (Phantom 3, Venger 1, Stallion 2; primary Phantom) and Bo (Venger 4, Phantom 2,
Scav 2, Stallion 1; primary Venger). Two PCs: pool cap 6, Destiny cap 6. Rules 0.6.1:
Minor Threat A4, Major A5, Common A3; lead dice = rank, assist rank 3 = 2d6, rank 1-2 = 1d6.
"""
from __future__ import annotations

import pytest

from tests.conftest import Table

OK, SO = "active", "Stressed Out"


class Heist(Table):
    """The campaign, plus the chapters played so far (a chapter needs the one before it)."""

    done: list[str]

    def play(self, *args: str) -> list[str]:
        """Run a command; the history lines it appended."""
        return [r["line"] for r in self.json(*args)["history"]]

    def expect(self, destiny: int, doom: int, kira: tuple, bo: tuple) -> None:
        """The pools, then each sheet as (stress, agony, status)."""
        pools = self.json("pools")
        assert (pools["destiny"], pools["doom"]) == (destiny, doom), pools
        sheets = {s["name"]: (s["stress"], s["agony"], s["status"]) for s in self.json("sheet")}
        assert sheets == {"Kira": kira, "Bo": bo}

    def lines_since(self, entry: int) -> list[str]:
        return [r["line"] for r in self.json("history") if r["entry"] > entry]

    def traits(self, pc: str) -> list[str]:
        return [x["name"] for x in self.json("sheet", pc)["traits"]]

    def after(self, previous: str) -> None:
        """Chapters run in order on one campaign: skip when the one before did not finish."""
        if previous not in self.done:
            pytest.skip(f"needs the chapter '{previous}' to have finished")

    def finish(self, name: str) -> None:
        self.done.append(name)


@pytest.fixture(scope="module")
def t(tmp_path_factory) -> Heist:
    heist = Heist(tmp_path_factory.mktemp("heist") / "campaign.db")
    heist.done = []
    return heist


def test_setting_up_the_heist(t):
    t("new", "The Moon Heist")
    t("pc", "add", "Kira", "--expertise", "Phantom=3,Venger=1,Stallion=2", "--primary", "Phantom")
    t("pc", "add", "Bo", "--expertise", "Venger=4,Phantom=2,Scav=2,Stallion=1", "--primary", "Venger")
    # Traits with frequency limits and Challenge types.
    t("trait", "add", "Kira", "Keen Eye", "+2 / 1d", "--cost", "destiny", "--frequency", "scene",
      "--types", "Phantom,Scav")
    t("trait", "add", "Bo", "Steady Hands", "+1 / 2d", "--frequency", "round")
    t("trait", "add", "Bo", "Smoke Bomb", "-1 / 1d", "--target", "challenge", "--cost", "destiny-or-doom",
      "--frequency", "scenario")
    # Motto: A6 / 1d while leading, Destiny or Doom, once a scenario.
    t("motto", "Kira", "Nobody gets left behind")
    t("motto", "Bo", "Hit first, ask later")
    # Scenario: Destiny and Doom = number of PCs.
    assert t.play("scenario", "start", "Night at the Vault") == [
        "Scenario 'Night at the Vault' started: Destiny 2, Doom 2"]
    assert t.json("pools") == {"scenario": "Night at the Vault", "destiny": 2, "doom": 2, "cohort_traits": []}
    t.expect(2, 2, kira=(0, 0, OK), bo=(0, 0, OK))
    assert t.traits("Kira") == ["Keen Eye", "Motto"]
    assert t.traits("Bo") == ["Steady Hands", "Smoke Bomb", "Motto"]
    t.finish("setup")


def test_scene_one_a_serial_event_supplies_opportunity_and_time_running_out(t):
    t.after("setup")
    t("scene", "start", "The vault at midnight")
    lines = t.play("event", "start", "Getting in")
    assert lines == ["Event 1 starts: Getting in (serial Challenges)"]
    t("challenge", "open", "Outer Wall", "--threat", "Minor", "--type", "Phantom", "--rating", "3")
    lines = t.play("challenge", "open", "Vault Door", "--threat", "Major", "--type", "Phantom", "--rating", "4",
                   "--rounds", "2")
    assert "Vault Door is set up: Event 1; timed, 2 rounds" in lines
    # Two Challenges are open at once; a serial Event faces them in the order opened.
    assert "in this serial Event, Outer Wall comes first" in t.refused("cohort-turn", "Vault Door", "--leader", "Kira")

    # Outer Wall, round 1. Kira leads (+3d6), Bo assists (Phantom 2: +1d6), Phantom Supplies rank 1 (+1d6):
    # 5 dice. Keen Eye (+2 / 1d, 1 Destiny, once a scene, Phantom/Scav) and Steady Hands (+1 / 2d, once a round).
    # [1,4,4,5,6]: Steady Hands on dice 2,3 -> 5,5; Keen Eye on die 5 -> 8: [1,5,5,5,8] = -1+1+1+1+2 = 4 successes,
    # one critical (+1 Destiny), one botch (+1 Doom). 3 dice resolve it: no Challenge turn. Destiny 2-1+1, Doom 2+1.
    report = t.json("cohort-turn", "Outer Wall", "--leader", "Kira", "--assist", "Bo", "--trait", "Kira:Keen Eye",
                    "--trait", "Bo:Steady Hands", "--supplies", "Phantom:1", "--faces", "1,4,4,5,6",
                    "--place", "Keen Eye=5", "--place", "Steady Hands=2,3")
    lines = [r["line"] for r in report["history"]]
    assert "Outer Wall round 1: the Cohort spends Phantom Supplies rank 1 (+1d6 every Cohort turn)" in lines
    assert ("Outer Wall round 1: Cohort pool of 5d6 (lead Kira +3d6, assist Bo +1d6, Kira:Keen Eye +2 / 1d, "
            "Bo:Steady Hands +1 / 2d, Cohort:Supplies +1d6)") in lines
    assert "Outer Wall round 1: Cohort result 1, 5, 5, 5, 8 = 4 successes (criticals 1, botches 1)" in lines
    assert "The Tides shift after Outer Wall round 1: Destiny +1, Doom +1" in lines
    assert "Outer Wall is resolved" in lines
    assert (report["phase"], report["resolved"]) == ("resolved", 3)
    t.expect(2, 3, kira=(0, 0, OK), bo=(0, 0, OK))

    # Vault Door (Major Phantom 4, timed: 2 rounds), round 1. Bo creates an opportunity: he contributes
    # nothing, so the pool is Kira's 3 dice. Kira's Motto (leading; paid with Doom: +1 Doom) is A6 / 1d.
    # [6] + [2,5] = 2 successes: 2 of 4 resolved.
    lines = t.play("cohort-turn", "Vault Door", "--leader", "Kira", "--opportunity", "Bo",
                   "--trait", "Kira:Motto=doom", "--faces", "2,5")
    assert ("Bo creates an opportunity in Vault Door round 1: contributes nothing this round, "
            "+1 Destiny at its end") in lines
    assert "Vault Door round 1: Cohort pool of 3d6 (lead Kira +3d6, Kira:Motto A6 / 1d); auto results 6" in lines
    assert "Kira activated Motto (A6 / 1d) on Vault Door: added 1 Doom" in lines
    t.expect(2, 4, kira=(0, 0, OK), bo=(0, 0, OK))
    # Challenge turn: 2 resolved dice are A5 (Major); [6,1] rolled: [5,5,6,1] = 2 Stress, one each.
    # The round ends: +1 Destiny for the opportunity, and the timed Challenge has 1 round left.
    lines = t.play("challenge-turn", "Vault Door", "--faces", "6,1", "--stress", "Kira=1,Bo=1")
    assert "Vault Door round 1: Challenge pool of 4d6 (rating); auto results 5, 5" in lines
    assert "+1 Destiny: Bo created an opportunity" in lines
    assert "Vault Door: 1 rounds left" in lines
    t.expect(3, 4, kira=(1, 0, OK), bo=(1, 0, OK))

    # Round 2. Buy Time: 1 Destiny at the start of the Cohort turn, one more round (1 -> 2 left).
    # Supplies traded (Phantom rank 2 -> ranked Simple +1 / 2d) instead of dice. Kira still leads, Bo assists:
    # 4 dice, [1,2,3,4]; Supplies on dice 1 and 4 -> [2,2,3,5] = 1 success: 3 of 4 resolved.
    lines = t.play("cohort-turn", "Vault Door", "--buy-time", "--supplies", "Phantom:2:trade",
                   "--faces", "1,2,3,4", "--place", "Supplies=1,4")
    assert "The Cohort buys time against Vault Door: Destiny -1" in lines
    assert "Vault Door round 2: the Cohort buys time (2 rounds left)" in lines
    assert ("Vault Door round 2: the Cohort spends Phantom Supplies rank 2 (traded for a ranked Simple modifier)"
            in lines)
    assert "Vault Door round 2: Cohort result 2, 2, 3, 5 = 1 success" in lines
    t.expect(2, 4, kira=(1, 0, OK), bo=(1, 0, OK))
    # Challenge turn: Bo's Smoke Bomb (-1 / 1d on the Challenge, once a scenario, paid with Doom: +1 Doom).
    # 3 resolved dice are A5, one rolled 5: [5,5,5,5], Smoke Bomb on die 4 -> [5,5,5,4] = 3 Stress.
    lines = t.play("challenge-turn", "Vault Door", "--trait", "Bo:Smoke Bomb=doom", "--faces", "5",
                   "--place", "Smoke Bomb=4", "--stress", "Kira=2,Bo=1")
    assert "Vault Door round 2: Challenge result 5, 5, 5, 4 = 3 successes" in lines
    assert "Vault Door: 1 rounds left" in lines
    t.expect(2, 5, kira=(3, 0, OK), bo=(2, 0, OK))

    # Round 3: the traded Supplies last the whole Challenge. [1,2,3,3], +1 on dice 1 and 2 -> [2,3,3,3] = 0.
    lines = t.play("cohort-turn", "Vault Door", "--faces", "1,2,3,3", "--place", "Supplies=1,2")
    assert "Vault Door round 3: placed Cohort:Supplies on 1+2 -> 2, 3, 3, 3" in lines
    # Challenge turn: [5,5,5] + [2] = 3 Stress. Then the time runs out: it ends unresolved.
    lines = t.play("challenge-turn", "Vault Door", "--faces", "2", "--stress", "Kira=1,Bo=2")
    assert lines[-2:] == ["Vault Door: 0 rounds left", "Vault Door ends unresolved after round 3: its time ran out"]
    assert "waiting for nothing: it has ended" in t.refused("cohort-turn", "Vault Door")
    t.expect(2, 5, kira=(4, 0, OK), bo=(4, 0, OK))
    assert t.play("event", "end", "--reason", "around the door") == ["Event 1 (Getting in) ends: around the door"]
    t.finish("getting in")


def test_scene_one_a_simultaneous_event_until_everyone_is_stressed_out(t):
    t.after("getting in")
    assert t.play("event", "start", "The alarm", "--simultaneous") == [
        "Event 2 starts: The alarm (simultaneous Challenges)"]
    t("challenge", "open", "Guard Post", "--threat", "Major", "--type", "Venger", "--rating", "6", "--group", "Bo")
    t("challenge", "open", "Lock Gallery", "--threat", "Major", "--type", "Phantom", "--rating", "4",
      "--group", "Kira")

    # Guard Post (Bo alone), round 1. Bo leads (Venger 4: +4d6); Kira does not face it, so nobody assists.
    # Bo's Motto (Doom: +1) and the Cohort's Rallying Cry (Doom: +1), each A6 / 1d; Steady Hands again
    # (once a round: a new round). [6,6] + [2,5]; Steady Hands on dice 3,4 -> [6,6,3,6] = 3 successes.
    lines = t.play("cohort-turn", "Guard Post", "--leader", "Bo", "--trait", "Bo:Motto=doom",
                   "--trait", "Cohort:Rallying Cry=doom", "--trait", "Bo:Steady Hands", "--faces", "2,5",
                   "--place", "Steady Hands=3,4")
    assert "Cohort activated Rallying Cry (A6 / 1d) on Guard Post: added 1 Doom" in lines
    assert ("Guard Post round 1: Cohort pool of 4d6 (lead Bo +4d6, Bo:Motto A6 / 1d, Cohort:Rallying Cry A6 / 1d, "
            "Bo:Steady Hands +1 / 2d); auto results 6, 6") in lines
    assert "Guard Post round 1: Cohort result 6, 6, 3, 6 = 3 successes" in lines
    t.expect(2, 7, kira=(4, 0, OK), bo=(4, 0, OK))
    # Challenge turn: [5,5,5] + [6,6,2] = 5 Stress, all Bo's: only Bo faces Guard Post.
    t("challenge-turn", "Guard Post", "--faces", "6,6,2", "--stress", "Bo=5")
    t.expect(2, 7, kira=(4, 0, OK), bo=(9, 0, OK))

    # Lock Gallery (Kira alone), round 1: 3 dice [1,1,1] = -3: a Disaster, 3 botches (+3 Doom).
    lines = t.play("cohort-turn", "Lock Gallery", "--leader", "Kira", "--faces", "1,1,1")
    assert "Lock Gallery round 1: Disaster on the Cohort turn" in lines
    t.expect(2, 10, kira=(4, 0, OK), bo=(9, 0, OK))
    # The GM's Disaster trait: Hindering, on the PC who suffered it, for the rest of the Event.
    lines = t.play("disaster-trait", "Lock Gallery", "Jammed Picks", "-1 / 1d", "--on", "Kira", "--lasts", "event")
    assert lines == ["Kira gains the temporary trait Jammed Picks (a Disaster in Lock Gallery): -1 / 1d hindering, "
                     "costs free, targets the cohort pool, lasts the event",
                     "Lock Gallery: the Disaster of round 1 becomes Kira's trait Jammed Picks"]
    assert t.traits("Kira") == ["Keen Eye", "Motto", "Jammed Picks"]
    # Challenge turn: nothing resolved, 4 dice [5,5,2,2] = 2 Stress for Kira.
    t("challenge-turn", "Lock Gallery", "--faces", "5,5,2,2", "--stress", "Kira=2")
    t.expect(2, 10, kira=(6, 0, OK), bo=(9, 0, OK))

    # The Hand of Doom, during the Event: 5 Doom for a Hindering trait on the Cohort for the rest of the Event.
    lines = t.play("hand-of-doom", "trait", "Reinforcements", "-1 / 2d")
    assert lines == ["The GM calls the Hand of Doom: Doom -5",
                     "Cohort gains the temporary trait Reinforcements (the Hand of Doom): -1 / 2d hindering, "
                     "costs free, targets the cohort pool, lasts the event"]
    t.expect(2, 5, kira=(6, 0, OK), bo=(9, 0, OK))

    # Guard Post, round 2: Bo keeps leading. [5,5,3,2]: Reinforcements on dice 1,2 -> [4,4,3,2];
    # Steady Hands on the same two (a Beneficial may sit on a Hindering) -> [5,5,3,2] = 2: 5 of 6 resolved.
    lines = t.play("cohort-turn", "Guard Post", "--trait", "Bo:Steady Hands", "--trait", "Cohort:Reinforcements",
                   "--faces", "5,5,3,2", "--place", "Reinforcements=1,2", "--place", "Steady Hands=1,2")
    assert "Guard Post round 2: Cohort result 5, 5, 3, 2 = 2 successes" in lines
    # Challenge turn: [5,5,5,5,5] + [6] = 6 Stress: Bo 9 + 6 = 15, Stressed Out. Kira is not: the Event goes on.
    lines = t.play("challenge-turn", "Guard Post", "--faces", "6", "--stress", "Bo=6")
    assert "Bo is Stressed Out (15 Stress)" in lines
    assert not any("ends" in line and "Event" in line for line in lines)
    t.expect(2, 5, kira=(6, 0, OK), bo=(15, 0, SO))

    # Lock Gallery, round 2, with the Disaster trait and the Hand of Doom's: 3 dice [6,6,4];
    # Jammed Picks on die 1, Reinforcements on dice 2,3 -> [5,5,3] = 2 successes: 2 of 4 resolved.
    lines = t.play("cohort-turn", "Lock Gallery", "--trait", "Kira:Jammed Picks", "--trait", "Cohort:Reinforcements",
                   "--faces", "6,6,4", "--place", "Jammed Picks=1", "--place", "Reinforcements=2,3")
    assert "Lock Gallery round 2: Cohort result 5, 5, 3 = 2 successes" in lines
    # Check This Out, once a Scene, this time against a Challenge: a temporary rank 1 Hindering trait on
    # Lock Gallery for the rest of the Scene, paid with Doom (+1). (Written with `--` before the arguments:
    # the documented `check-this-out NAME "-1 / 1d" --against CH` is refused, see the defects below.)
    mark = t.entries()
    t("check-this-out", "--pay", "doom", "--against", "Lock Gallery", "--", "Loose bars", "-1 / 1d")
    assert t.lines_since(mark) == [
        "The Cohort calls Check This Out: Doom +1", "Cohort:Check This Out is used for this scene",
        "Lock Gallery gains the temporary trait Loose bars (Check This Out): -1 / 1d hindering, costs free, "
        "targets the challenge pool, lasts the scene"]
    t.expect(2, 6, kira=(6, 0, OK), bo=(15, 0, SO))
    # Challenge turn: [5,5] + [6,5]; Loose bars on die 3 -> [5,5,5,5] = 4 Stress: Kira 6 + 4 = 10, Stressed Out.
    # Now every PC facing the Event is Stressed Out: its active Challenges end, the Event ends, the Scene ends;
    # the traits that lasted the Event or the Scene end too.
    lines = t.play("challenge-turn", "Lock Gallery", "--trait", "Lock Gallery:Loose bars", "--faces", "6,5",
                   "--place", "Loose bars=3", "--stress", "Kira=4")
    assert "Lock Gallery round 2: Challenge result 5, 5, 5, 5 = 4 successes" in lines
    assert "Kira is Stressed Out (10 Stress)" in lines
    every = "every PC facing it is Stressed Out"
    assert any(line.startswith("Guard Post ends unresolved") and line.endswith(every) for line in lines)
    assert any(line.startswith("Lock Gallery ends unresolved") and line.endswith(every) for line in lines)
    assert f"Event 2 (The alarm) ends: {every}" in lines
    assert f"Scene 1 (The vault at midnight) ends: {every}" in lines
    assert "Kira's temporary trait Jammed Picks ends" in lines
    assert "Cohort's temporary trait Reinforcements ends" in lines
    assert "Lock Gallery's temporary trait Loose bars ends" in lines
    assert t.traits("Kira") == ["Keen Eye", "Motto"]
    assert t.json("status")["challenges"] == []  # all three ended: none is left waiting
    t.expect(2, 6, kira=(10, 0, SO), bo=(15, 0, SO))
    t.finish("the alarm")


def test_between_scenes_push_the_limit_agony_set_recovery_and_downtime(t):
    t.after("the alarm")
    # Push the Limit: Stress rolls over past 10 (15 -> 5), 1 Agony; the GM names the Agony's trait.
    assert t.play("push", "Bo") == ["Bo Pushes the Limit: Stress 15 -> 5", "Bo gains Agony (now 1)"]
    t("agony-trait", "Bo", "Shaking hands", "-1 / 1d")
    assert t.traits("Bo") == ["Steady Hands", "Smoke Bomb", "Motto", "Shaking hands"]
    t.expect(2, 6, kira=(10, 0, SO), bo=(5, 1, OK))
    # The set recovery at the Scene's end: 1 Stress per PC with Stallion 2+ (Kira only): 1 to share.
    # Kira drops to 9: no longer Stressed Out.
    assert t.play("recover", "set", "--stress", "Kira=1") == [
        "Cohort:Scene recovery is used for this scene",
        "Kira recovers 1 Stress (the Scene's set recovery), now 9"]
    t.expect(2, 6, kira=(9, 0, OK), bo=(5, 1, OK))
    # Extended downtime: 3 more off each PC.
    t("downtime")
    t.expect(2, 6, kira=(6, 0, OK), bo=(2, 1, OK))
    t.finish("between scenes")


def test_scene_two_check_this_out_gm_motto_a_new_leader_a_split_and_the_hand_of_doom(t):
    t.after("between scenes")
    t("scene", "start", "The getaway")
    # Check This Out, once a scene: a temporary rank 1 trait for the Cohort, paid with Doom (+1).
    lines = t.play("check-this-out", "Loose grating", "+1 / 1d", "--pay", "doom")
    assert "The Cohort calls Check This Out: Doom +1" in lines
    assert ("Cohort gains the temporary trait Loose grating (Check This Out): +1 / 1d beneficial, costs free, "
            "targets the cohort pool, lasts the scene") in lines
    t.expect(2, 7, kira=(6, 0, OK), bo=(2, 1, OK))
    t("event", "start", "Rooftop chase", "--simultaneous")
    t("challenge", "open", "Rooftops", "--threat", "Major", "--type", "Phantom", "--rating", "8")

    # Rooftops, round 1. Kira leads (+3d6), Bo assists (+1d6): 4 dice. Keen Eye again: a new Scene (1 Destiny).
    # The GM spends a Doom on Kira's Motto: A1 / 1d on the Cohort pool. [1] + [4,5,6]: Loose grating on die 2,
    # Keen Eye on die 4 -> [1,5,5,8] = 3 successes, 1 critical (+1 Destiny), 1 botch (+1 Doom). 3 of 8 resolved.
    lines = t.play("cohort-turn", "Rooftops", "--leader", "Kira", "--trait", "Kira:Keen Eye",
                   "--trait", "Cohort:Loose grating", "--gm-motto", "Kira", "--faces", "4,5,6",
                   "--place", "Loose grating=2", "--place", "Keen Eye=4")
    assert "Kira activated Motto (GM) (A1 / 1d) on Rooftops: spent 1 Doom" in lines
    assert "Rooftops round 1: Cohort result 1, 5, 5, 8 = 3 successes (criticals 1, botches 1)" in lines
    t.expect(2, 7, kira=(6, 0, OK), bo=(2, 1, OK))  # Destiny 2-1+1, Doom 7-1+1
    # Challenge turn: [5,5,5] + [6,6,2,2,3] = 5 Stress: Kira 4 (6 -> 10, Stressed Out), Bo 1.
    t("challenge-turn", "Rooftops", "--faces", "6,6,2,2,3", "--stress", "Kira=4,Bo=1")
    t.expect(2, 7, kira=(10, 0, SO), bo=(3, 1, OK))

    # Round 2: the Stressed Out leader is replaced on this Cohort turn; Stressed Out Kira contributes nothing.
    # Bo leads (Phantom 2: +2d6) with the Cohort's Loose grating: [3,4] -> [3,5] = 1 success: 4 of 8.
    lines = t.play("cohort-turn", "Rooftops", "--leader", "Bo", "--trait", "Cohort:Loose grating",
                   "--faces", "3,4", "--place", "Loose grating=2")
    assert "Bo leads Rooftops" in lines
    assert "Rooftops round 2: Cohort pool of 2d6 (lead Bo +2d6, Cohort:Loose grating +1 / 1d)" in lines
    t.expect(2, 7, kira=(10, 0, SO), bo=(3, 1, OK))
    # Challenge turn. Smoke Bomb is once a scenario and was used: the GM overrides, the table agreed (+1 Doom).
    # [5,5,5,5] + [2,2,2,3], Smoke Bomb on die 1 -> [4,5,5,5,2,2,2,3] = 3 Stress: Kira 12, Bo 4.
    assert "once a scenario" in t.refused("challenge-turn", "Rooftops", "--trait", "Bo:Smoke Bomb=doom")
    lines = t.play("challenge-turn", "Rooftops", "--trait", "Bo:Smoke Bomb=doom", "--faces", "2,2,2,3",
                   "--place", "Smoke Bomb=1", "--stress", "Kira=2,Bo=1",
                   "--gm-override", "Bo kept one smoke bomb back")
    assert ("GM override: Bo kept one smoke bomb back (the rule set aside: Bo:Smoke Bomb is once a scenario and "
            "was used this scenario.)") in lines
    assert "Rooftops round 2: Challenge result 4, 5, 5, 5, 2, 2, 2, 3 = 3 successes" in lines
    t.expect(2, 8, kira=(12, 0, SO), bo=(4, 1, OK))
    # Kira Pushes the Limit: 12 becomes 2, 1 Agony, and she acts again.
    assert t.play("push", "Kira") == ["Kira Pushes the Limit: Stress 12 -> 2", "Kira gains Agony (now 1)"]
    t.expect(2, 8, kira=(2, 1, OK), bo=(4, 1, OK))

    # Split (paid with Doom: +1): 2 of Rooftops' 4 unresolved dice become Back Alley, faced by Kira;
    # Rooftops keeps rating 6 (4 resolved, 2 left), faced by Bo.
    lines = t.play("challenge", "split", "Rooftops", "--into", "Back Alley", "--dice", "2", "--group", "Kira",
                   "--pay", "doom")
    assert "The Cohort splits Rooftops: Doom +1" in lines
    assert "Rooftops is split: 2 of its dice become Back Alley, faced by Kira; Rooftops keeps rating 6, faced by Bo" \
        in lines
    t.expect(2, 9, kira=(2, 1, OK), bo=(4, 1, OK))
    # Rooftops, round 3: Bo alone, yet the pool cap stays 3 x all PCs = 6 (not 3): lead 2 + Phantom Supplies
    # rank 2 (+2d6) + 1 Destiny = 5 dice. [5,5,2,2,3] = 2 successes: 6 of 6, resolved.
    report = t.json("cohort-turn", "Rooftops", "--supplies", "Phantom:2", "--destiny", "1", "--faces", "5,5,2,2,3")
    pool = report["pool"]["pool"]
    assert (pool["size"], pool["cap"], report["phase"]) == (5, 6, "resolved")
    t.expect(1, 9, kira=(2, 1, OK), bo=(4, 1, OK))

    # Back Alley (Major Phantom 2, Kira), round 1: [1,1,1] = -3, a Disaster (+3 Doom).
    t("cohort-turn", "Back Alley", "--leader", "Kira", "--faces", "1,1,1")
    t.expect(1, 12, kira=(2, 1, OK), bo=(4, 1, OK))
    # A Cohort Disaster may instead make a Beneficial trait on the Challenge; this one lasts the round.
    t("disaster-trait", "Back Alley", "Dead End", "+1 / 1d", "--on", "Back Alley", "--lasts", "round")
    # Challenge turn with it: [4,3], Dead End on die 1 -> [5,3] = 1 Stress for Kira; the round ends, so does the trait.
    lines = t.play("challenge-turn", "Back Alley", "--trait", "Back Alley:Dead End", "--faces", "4,3",
                   "--place", "Dead End=1", "--stress", "Kira=1")
    assert "The GM activated Dead End (+1 / 1d) for Back Alley: free" in lines
    assert "Back Alley's temporary trait Dead End ends" in lines
    t.expect(1, 12, kira=(3, 1, OK), bo=(4, 1, OK))
    # The Hand of Doom again: 5 Doom, 2 unavoidable Stress for each PC.
    lines = t.play("hand-of-doom", "stress")
    assert lines[0] == "The GM calls the Hand of Doom: Doom -5"
    assert "Kira takes 2 Stress from the Hand of Doom (now 5)" in lines
    t.expect(1, 7, kira=(5, 1, OK), bo=(6, 1, OK))
    # Back Alley, round 2: [5,6,6] = 3 successes; 2 resolve it (the third is kept on the round, resolves nothing).
    lines = t.play("cohort-turn", "Back Alley", "--faces", "5,6,6")
    assert "Back Alley round 2: Cohort result 5, 6, 6 = 3 successes" in lines
    assert "Back Alley: 2 more dice resolved (2 in all)" in lines
    t("event", "end")
    t.expect(1, 7, kira=(5, 1, OK), bo=(6, 1, OK))

    # Event 4 (serial): a Test, then whatever the Hand of Doom adds.
    t("event", "start", "The skiff")
    lines = t.play("challenge", "open", "Hotwire", "--threat", "Minor", "--type", "Scav", "--rating", "3",
                   "--test", "--needed", "2", "--stress-unresolved")
    assert "Hotwire is set up: Event 4; a Test needing 2, unresolved dice as Stress" in lines
    # The Hand of Doom's third form: 5 Doom for a new Challenge in the Event.
    lines = t.play("hand-of-doom", "challenge", "The Warden", "--threat", "Major", "--type", "Venger", "--rating", "3")
    assert lines[0] == "The GM calls the Hand of Doom: Doom -5"
    assert "The Warden joins Event 4" in lines
    t.expect(1, 2, kira=(5, 1, OK), bo=(6, 1, OK))
    assert "Hotwire comes first" in t.refused("cohort-turn", "The Warden", "--leader", "Bo")
    # The Test: one round. Bo leads (Scav 2: +2d6); Kira has no Scav, she assists with 0 dice.
    # [5,3] = 1 success of 2 needed: failed (degree kept); its 2 unresolved dice become Stress.
    lines = t.play("cohort-turn", "Hotwire", "--leader", "Bo", "--faces", "5,3")
    assert "Hotwire (a Test) is failed: 1 success, 2 needed" in lines
    assert "Hotwire: 2 unresolved dice become Stress" in lines
    lines = t.play("stress", "Hotwire", "--stress", "Kira=1,Bo=1")
    assert "Hotwire ends unresolved after round 1: the Test is over; 2 unresolved dice were Stress" in lines
    t.expect(1, 2, kira=(6, 1, OK), bo=(7, 1, OK))
    # The Warden: Bo leads (Venger 4), Kira assists (Venger 1: +1d6): [5,5,6,2,2] = 3, resolved at once.
    report = t.json("cohort-turn", "The Warden", "--leader", "Bo", "--faces", "5,5,6,2,2")
    assert (report["phase"], report["resolved"]) == ("resolved", 3)
    t("event", "end")
    # The Scene ends; Check This Out's trait lasted the Scene.
    lines = t.play("scene", "end", "--reason", "away on the skiff")
    assert lines == ["Scene 2 (The getaway) ends: away on the skiff", "Cohort's temporary trait Loose grating ends"]
    t.expect(1, 2, kira=(6, 1, OK), bo=(7, 1, OK))
    t.finish("the getaway")


def test_after_scene_two_a_recovery_test_growth_tests_and_a_house_rule(t):
    t.after("the getaway")
    # The Stallion recovery Test (Common Stallion, 10 dice a PC). Kira leads (Stallion 2: +2d6), Bo assists
    # (Stallion 1: +1d6): [5,6,3] = 2 successes, passed; a Common Threat shifts no Tides.
    assert t.play("recover", "test")[-1] == "Recovery after Scene 2 is set up: a Test needing 1"
    lines = t.play("cohort-turn", "Recovery after Scene 2", "--leader", "Kira", "--faces", "5,6,3")
    assert "Recovery after Scene 2 (a Test) is passed: 2 successes, 1 needed" in lines
    assert not any(line.startswith("The Tides shift") for line in lines)
    # Each success removes 1 Stress, distributed by consensus.
    lines = t.play("recover", "apply", "--stress", "Kira=1,Bo=1")
    assert "Kira recovers 1 Stress (Recovery after Scene 2), now 5" in lines
    t.expect(1, 2, kira=(5, 1, OK), bo=(6, 1, OK))

    # Growth Tests: each Agony adds its ranked Simple modifier (1 Agony: rank 1 = +1 / 1d).
    # Kira: [4,3], +1 on the 4 -> [5,3] = 1 success: passed, 1 Agony removed.
    lines = t.play("growth-test", "Kira", "--pool", "2", "--faces", "4,3")
    assert lines == ["Kira's Growth Test: 2d6 show 4, 3 (entered from the table), with +1 / 1d for Agony "
                     "-> 5, 3 = 1 success: passed", "Kira recovers from Agony (now 0)"]
    t.expect(1, 2, kira=(5, 0, OK), bo=(6, 1, OK))
    # Bo: [3] + 1 = 4: no success, failed; his Agony stays.
    lines = t.play("growth-test", "Bo", "--pool", "1", "--faces", "3")
    assert lines[-1].endswith("-> 4 = 0 successes: failed")
    t.expect(1, 2, kira=(5, 0, OK), bo=(6, 1, OK))
    # A house rule amends the ranked Simple table for this campaign; the next Growth Test uses it:
    # rank 1 = +2 / 1d, so [3] -> [5]: passed.
    assert t.play("house-rule", "set", "ranked_simple", "1=2/1", "--reason", "gentler ranks") == [
        "House rule: ranked_simple is now 1=2/1,2=1/2,3=2/2,4=2/3,5=3/3 (was 1=1/1,2=1/2,3=2/2,4=2/3,5=3/3): "
        "gentler ranks"]
    lines = t.play("growth-test", "Bo", "--pool", "1", "--faces", "3")
    assert lines == ["Bo's Growth Test: 1d6 show 3 (entered from the table), with +2 / 1d for Agony -> 5 = "
                     "1 success: passed", "Bo recovers from Agony (now 0)"]
    t.expect(1, 2, kira=(5, 0, OK), bo=(6, 0, OK))
    t.finish("recovery")


def test_the_next_scenario_resets_the_pools_and_the_once_a_scenario_traits(t):
    t.after("recovery")
    assert t.play("scenario", "start", "The Fence") == ["Scenario 'The Fence' started: Destiny 2, Doom 2"]
    t.expect(2, 2, kira=(5, 0, OK), bo=(6, 0, OK))
    t("challenge", "open", "Fence", "--threat", "Minor", "--type", "Phantom", "--rating", "2")
    # Kira's Motto again (once a scenario: a new one), paid with Destiny. Kira +3d6, Bo +1d6: [6] + [5,2,2] = 2.
    lines = t.play("cohort-turn", "Fence", "--leader", "Kira", "--trait", "Kira:Motto=destiny", "--faces", "5,2,2")
    assert "Kira activated Motto (A6 / 1d) on Fence: paid 1 Destiny" in lines
    assert "Fence is resolved" in lines
    t.expect(1, 2, kira=(5, 0, OK), bo=(6, 0, OK))
    audit = t.json("audit")
    assert audit["clean"]
    assert [o["reason"] for o in audit["overrides"]] == ["Bo kept one smoke bomb back"]
    t.finish("the fence")


# --- Defects found while scripting the night: each test states what the rules require ---------------
# (These use the shared `table` fixture: Kira Phantom 3, Bo Phantom 3 / Venger 4, Guards Minor Phantom 4,
# Scenario "Night" with Destiny 2 and Doom 2.)

def test_the_hand_of_doom_stressing_out_everyone_ends_the_scene(table):
    table("scene", "start", "Vault")
    table("event", "start", "The alarm")
    table("challenge", "open", "Dogs", "--threat", "Minor", "--type", "Phantom", "--rating", "3")
    # Kira +3d6, Bo +2d6: [1,1,1,2,2] = -3, three botches: Doom 2 + 3 = 5, enough for the Hand of Doom.
    table("cohort-turn", "Dogs", "--leader", "Kira", "--faces", "1,1,1,2,2")
    table("challenge-turn", "Dogs", "--faces", "2,2,2")
    table("house-rule", "set", "stressed_out_at", "2", "--reason", "a grittier campaign")
    lines = [r["line"] for r in table.json("hand-of-doom", "stress")["history"]]
    assert "Kira is Stressed Out (2 Stress)" in lines and "Bo is Stressed Out (2 Stress)" in lines
    assert "Scene 1 (Vault) ends: every PC facing it is Stressed Out" in lines
    assert any(line.startswith("Dogs ends unresolved") for line in lines)


def test_a_trait_that_lasts_the_scenario_ends_with_it(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "1,1,2,2,3")  # -2: a Disaster
    table("disaster-trait", "Guards", "Shaken", "-1 / 1d", "--on", "Kira", "--lasts", "scenario")
    assert [x["name"] for x in table.json("sheet", "Kira")["traits"]] == ["Shaken"]
    table("challenge-turn", "Guards", "--faces", "2,2,2,2")
    lines = [r["line"] for r in table.json("scenario", "start", "The next night")["history"]]
    assert "Kira's temporary trait Shaken ends" in lines
    assert table.json("sheet", "Kira")["traits"] == []


def test_a_challenge_split_off_in_an_event_belongs_to_that_event(table):
    table("event", "start", "Rooftop chase")
    table("challenge", "open", "Rooftops", "--threat", "Minor", "--type", "Phantom", "--rating", "6")
    lines = [r["line"] for r in table.json("challenge", "split", "Rooftops", "--into", "Back Alley", "--dice", "2",
                                           "--group", "Bo", "--pay", "doom")["history"]]
    assert "Back Alley joins Event 1" in lines
    ended = [r["line"] for r in table.json("event", "end")["history"]]
    assert "Back Alley ends unresolved after round 1: its Event ended" in ended
    assert "Back Alley" not in {c["name"] for c in table.json("status")["challenges"]}


def test_status_shows_the_rating_a_split_leaves(table):
    table("challenge", "split", "Guards", "--into", "Side", "--dice", "1", "--group", "Bo", "--pay", "doom")
    ratings = {c["name"]: c["rating"] for c in table.json("status")["challenges"]}
    assert ratings == {"Guards": 3, "Side": 1}


def test_the_text_report_does_not_call_a_challenge_that_ran_out_of_time_resolved(table):
    table("challenge", "open", "Clock", "--threat", "Minor", "--type", "Phantom", "--rating", "3", "--rounds", "1")
    table("cohort-turn", "Clock", "--leader", "Kira", "--faces", "2,2,2,2,2")
    output = table("challenge-turn", "Clock", "--faces", "2,2,2").output
    assert "Clock ends unresolved after round 1: its time ran out" in output
    assert "Clock is resolved." not in output


def test_the_history_of_a_once_a_round_use_says_round(table):
    table("trait", "add", "Bo", "Steady Hands", "+1 / 2d", "--frequency", "round")
    table("challenge", "open", "Vault Door", "--threat", "Minor", "--type", "Phantom", "--rating", "3")
    report = table.json("cohort-turn", "Vault Door", "--leader", "Kira", "--trait", "Bo:Steady Hands")
    assert "Bo:Steady Hands is used for this round" in [r["line"] for r in report["history"]]


def test_a_challenge_ended_by_its_event_ends_after_the_round_it_played(table):
    table("event", "start", "The alarm")
    table("challenge", "open", "Dogs", "--threat", "Minor", "--type", "Phantom", "--rating", "3")
    table("cohort-turn", "Dogs", "--leader", "Kira", "--faces", "2,2,2,2,2")
    table("challenge-turn", "Dogs", "--faces", "2,2,2")
    lines = [r["line"] for r in table.json("event", "end")["history"]]
    assert "Dogs ends unresolved after round 1: its Event ended" in lines


def test_check_this_out_against_a_challenge_takes_the_documented_modifier(table):
    table("scene", "start", "Vault")
    result = table("check-this-out", "Loose bars", "-1 / 1d", "--pay", "doom", "--against", "Guards", ok=False)
    assert result.exit_code == 0, result.output
