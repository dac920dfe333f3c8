"""Every new Relics rule refuses a command that breaks it: one `Error:` line, a non-zero exit, nothing
appended. A rule check (not malformed input) is then accepted with `--gm-override "reason"`, and the
history shows `GM override: reason (the rule set aside: ...)`.

The table: Kira (Phantom 3, Venger 1, Stallion 2) and Bo (Venger 4, Phantom 2, Scav 2); Scenario
"Night" (Destiny 2, Doom 2); Guards, a Minor Phantom 4 Challenge (Kira leads +3d6, Bo assists +1d6).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Table

REASON = "the GM allows it"


@pytest.fixture
def night(tmp_path: Path) -> Table:
    t = Table(tmp_path / "campaign.db")
    t("new", "Refusals")
    t("pc", "add", "Kira", "--expertise", "Phantom=3,Venger=1,Stallion=2", "--primary", "Phantom")
    t("pc", "add", "Bo", "--expertise", "Venger=4,Phantom=2,Scav=2", "--primary", "Venger")
    t("scenario", "start", "Night")
    t("challenge", "open", "Guards", "--threat", "Minor", "--type", "Phantom", "--rating", "4")
    return t


# --- ways to get the table where a rule bites ---------------------------------------------------

def _faces(n: int, face: int = 2) -> str:
    return ",".join([str(face)] * n)


def quiet_round(t: Table, ch: str, *cohort: str) -> None:
    """A round in which nothing much happens: every rolled face a 2, Simple modifiers as offered."""
    pool = t.json("cohort-turn", ch, *cohort)["pool"]
    t("roll", ch, "--faces", _faces(pool["pool"]["size"] - len(pool["autos"])), "--best")
    pool = t.json("challenge-turn", ch)["pool"]
    t("roll", ch, "--faces", _faces(pool["pool"]["size"] - len(pool["autos"])), "--best")


def stress_out(t: Table, name: str, leader: str | None = None) -> None:
    """One round of Storm (Minor Phantom 10) whose ten 6s all go to `name`: 10 Stress, Stressed Out."""
    t("challenge", "open", "Storm", "--threat", "Minor", "--type", "Phantom", "--rating", "10")
    t("cohort-turn", "Storm", "--leader", leader or ("Bo" if name == "Kira" else "Kira"), "--faces", "2,2,2,2")
    t("challenge-turn", "Storm", "--faces", _faces(10, 6), "--stress", f"{name}=10")


def take_out(t: Table, name: str) -> None:
    """Out of the game for good: a house rule makes 1 Agony enough, then a Push the Limit."""
    t("house-rule", "set", "agony_out_at", "1", "--reason", "a deadly campaign")
    stress_out(t, name)
    t("push", name)


def drain_destiny(t: Table) -> None:
    """Both Destiny points spent on dice (6 dice, the cap), no critical: Destiny 0."""
    t("cohort-turn", "Guards", "--leader", "Kira", "--destiny", "2", "--faces", "2,2,2,3,3,4")
    t("challenge-turn", "Guards", "--faces", "2,2,2,2")


def nothing(t: Table) -> None:
    pass


def keen_eye_used(t):
    t("trait", "add", "Kira", "Keen Eye", "+2 / 1d", "--frequency", "scene")
    t("scene", "start", "Vault")
    quiet_round(t, "Guards", "--leader", "Kira", "--trait", "Kira:Keen Eye")


def motto_used(t):
    t("motto", "Kira", "Nobody gets left behind")
    quiet_round(t, "Guards", "--leader", "Kira", "--trait", "Kira:Motto=doom")


def rallying_cry_used(t):
    quiet_round(t, "Guards", "--leader", "Kira", "--trait", "Cohort:Rallying Cry=doom")


def gm_motto_used(t):
    t("motto", "Kira", "Nobody gets left behind")
    quiet_round(t, "Guards", "--leader", "Kira", "--gm-motto", "Kira")


def gunplay(t):
    t("trait", "add", "Kira", "Gunplay", "+1 / 1d", "--types", "Venger,Scav")


def check_this_out_used(t):
    t("scene", "start", "Vault")
    t("check-this-out", "Loose grating", "+1 / 1d", "--pay", "doom")


def bo_stressed_out(t):
    t("trait", "add", "Bo", "Steady Hands", "+1 / 2d")
    stress_out(t, "Bo")


def bo_stressed_out_with_smoke(t):
    t("trait", "add", "Bo", "Smoke Bomb", "-1 / 1d", "--target", "challenge")
    stress_out(t, "Bo")
    t("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2")  # Bo contributes nothing: 3 dice


def kira_stressed_out(t):
    stress_out(t, "Kira")


def kira_stressed_out_leading_storm(t):
    stress_out(t, "Kira", leader="Kira")


def bo_out(t):
    t("trait", "add", "Bo", "Steady Hands", "+1 / 2d")
    t("motto", "Bo", "Hit first")
    take_out(t, "Bo")


def bo_out_then_a_cohort_turn(t):
    bo_out(t)
    t("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2")


def a_timed_challenge_and_no_destiny(t):
    t("challenge", "open", "Clock", "--threat", "Minor", "--type", "Phantom", "--rating", "3", "--rounds", "2")
    drain_destiny(t)


def an_event(t):
    t("event", "start", "The alarm")


def a_serial_event(t):
    t("event", "start", "Getting in")
    t("challenge", "open", "Wall", "--threat", "Minor", "--type", "Phantom", "--rating", "2")
    t("challenge", "open", "Door", "--threat", "Minor", "--type", "Phantom", "--rating", "2")


def a_simultaneous_event(t):
    t("event", "start", "The alarm", "--simultaneous")
    t("challenge", "open", "Post", "--threat", "Minor", "--type", "Phantom", "--rating", "3", "--group", "Bo")
    t("challenge", "open", "Gallery", "--threat", "Minor", "--type", "Phantom", "--rating", "3", "--group", "Kira")


def post_scores(t):
    a_simultaneous_event(t)
    t("cohort-turn", "Post", "--leader", "Bo", "--faces", "2,2")


def supplies_spent(t):
    quiet_round(t, "Guards", "--leader", "Kira", "--supplies", "Phantom:1")


def a_test(t):
    t("challenge", "open", "Jump", "--threat", "Minor", "--type", "Phantom", "--rating", "2", "--test")


def bo_has_a_motto(t):
    t("motto", "Bo", "Hit first")


def bo_creates_an_opportunity(t):
    t("trait", "add", "Bo", "Smoke Bomb", "-1 / 1d", "--target", "challenge")
    t("cohort-turn", "Guards", "--leader", "Kira", "--opportunity", "Bo", "--faces", "2,2,2")


def a_scene(t):
    t("scene", "start", "Vault")


def a_scene_ended(t):
    t("scene", "start", "Vault")
    t("scene", "end")


def recovered(t):
    a_scene_ended(t)
    t("recover", "set", "--stress", "Kira=1")


def recovery_test_opened(t):
    a_scene_ended(t)
    t("recover", "test")


def recovery_test_applied(t):
    recovery_test_opened(t)
    t("cohort-turn", "Recovery after Scene 1", "--leader", "Kira", "--faces", "5,2")  # Stallion 2: 1 success
    t("recover", "apply", "--stress", "Kira=1")


def cohort_disaster(t):
    t("cohort-turn", "Guards", "--leader", "Kira", "--faces", "1,1,2,2")  # -2: a Disaster on the Cohort turn


def challenge_disaster(t):
    t("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2,2")
    t("challenge-turn", "Guards", "--faces", "1,1,1,1")  # -4: a Disaster on the Challenge turn


# --- rule checks: refused, then accepted with the GM's word -------------------------------------

def case(setup, args, rule):
    return pytest.param(setup, args, rule, id=f"{setup.__name__}: {' '.join(args)}")


OVERRIDABLE = [
    # Traits: frequency used up, Challenge types.
    case(keen_eye_used, ["cohort-turn", "Guards", "--trait", "Kira:Keen Eye"],
         "Kira:Keen Eye is once a scene and was used this scene."),
    case(motto_used, ["cohort-turn", "Guards", "--trait", "Kira:Motto=destiny"],
         "Kira:Motto is once a scenario and was used this scenario."),
    case(rallying_cry_used, ["cohort-turn", "Guards", "--trait", "Cohort:Rallying Cry=destiny"],
         "Cohort:Rallying Cry is once a scenario and was used this scenario."),
    case(gm_motto_used, ["cohort-turn", "Guards", "--gm-motto", "Kira"],
         "Kira:Motto (GM) is once a scenario and was used this scenario."),
    case(gunplay, ["cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Gunplay"],
         "Kira:Gunplay applies to Venger, Scav Challenges, not Phantom."),
    # A Stressed Out PC contributes nothing and cannot lead, until it Pushes the Limit.
    case(bo_stressed_out, ["cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo"],
         "Bo is Stressed Out and contributes nothing until they Push the Limit."),
    case(bo_stressed_out, ["cohort-turn", "Guards", "--leader", "Kira", "--trait", "Bo:Steady Hands"],
         "Bo is Stressed Out and contributes nothing"),
    case(bo_stressed_out, ["cohort-turn", "Guards", "--leader", "Kira", "--opportunity", "Bo"],
         "Bo is Stressed Out and contributes nothing"),
    case(bo_stressed_out_with_smoke, ["challenge-turn", "Guards", "--trait", "Bo:Smoke Bomb"],
         "Bo is Stressed Out and contributes nothing"),
    case(kira_stressed_out, ["cohort-turn", "Guards", "--leader", "Kira"],
         "Kira is Stressed Out and contributes nothing"),
    case(kira_stressed_out_leading_storm, ["cohort-turn", "Storm", "--leader", "Kira"],
         "Kira is Stressed Out and contributes nothing"),
    # A PC out of the game for good: the ledger refuses any further action by that PC.
    case(bo_out, ["cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo"],
         "Bo is out of the game for good (1 Agony)."),
    case(bo_out, ["cohort-turn", "Guards", "--leader", "Bo"], "Bo is out of the game for good"),
    case(bo_out, ["cohort-turn", "Guards", "--leader", "Kira", "--opportunity", "Bo"],
         "Bo is out of the game for good"),
    case(bo_out, ["cohort-turn", "Guards", "--leader", "Kira", "--trait", "Bo:Steady Hands"],
         "Bo is out of the game for good"),
    case(bo_out, ["push", "Bo"], "Bo is out of the game for good"),
    case(bo_out_then_a_cohort_turn, ["challenge-turn", "Guards", "--faces", "6,2,2,2", "--stress", "Bo=1"],
         "Bo is not facing this Challenge and cannot take its Stress."),
    case(bo_out, ["growth-test", "Bo", "--pool", "1", "--faces", "6"], "Bo is out of the game for good"),
    case(bo_out, ["challenge", "split", "Guards", "--into", "Side", "--dice", "1", "--group", "Bo", "--pay", "doom"],
         "Bo is out of the game for good"),
    case(bo_out, ["cohort-turn", "Guards", "--leader", "Kira", "--gm-motto", "Bo"], "Bo is out of the game for good"),
    # Not enough Destiny or Doom: Buy Time, a split, Check This Out, the Hand of Doom.
    case(a_timed_challenge_and_no_destiny, ["cohort-turn", "Clock", "--leader", "Kira", "--buy-time"],
         "The Destiny pool is empty."),
    case(drain_destiny, ["challenge", "split", "Guards", "--into", "Side", "--dice", "1", "--group", "Bo",
                         "--pay", "destiny"], "The Destiny pool is empty."),
    case(drain_destiny, ["check-this-out", "Loose grating", "+1 / 1d", "--pay", "destiny"],
         "The Destiny pool is empty."),
    case(an_event, ["hand-of-doom", "stress"], "The Doom pool holds 2; this costs the GM 5."),
    case(an_event, ["hand-of-doom", "trait", "Reinforcements", "-1 / 2d"], "The Doom pool holds 2; this costs the GM 5."),
    case(an_event, ["hand-of-doom", "challenge", "Warden", "--threat", "Major", "--type", "Venger", "--rating", "3"],
         "The Doom pool holds 2; this costs the GM 5."),
    # Events: serial order; a simultaneous Challenge is faced only by its group.
    case(a_serial_event, ["cohort-turn", "Door", "--leader", "Kira"],
         "Door must wait: in this serial Event, Wall comes first."),
    case(a_simultaneous_event, ["cohort-turn", "Post", "--leader", "Kira"], "Kira is not facing Post."),
    case(a_simultaneous_event, ["cohort-turn", "Post", "--leader", "Bo", "--assist", "Kira"], "Kira is not facing Post."),
    case(post_scores, ["challenge-turn", "Post", "--faces", "6,2,2", "--stress", "Kira=1"],
         "Kira is not facing this Challenge and cannot take its Stress."),
    # Splitting.
    case(nothing, ["challenge", "split", "Guards", "--into", "Side", "--dice", "4", "--group", "Bo", "--pay", "doom"],
         "Guards has 4 unresolved dice; a split moves 1 to 3."),
    case(nothing, ["challenge", "split", "Guards", "--into", "Side", "--dice", "2", "--group", "Kira,Bo",
                   "--pay", "doom"], "A split divides the Cohort into two groups, each facing one Challenge."),
    # Supplies: one per Challenge, matching its type.
    case(supplies_spent, ["cohort-turn", "Guards", "--supplies", "Phantom:2"],
         "Guards already has the Cohort's Supplies; only one per Challenge."),
    case(nothing, ["cohort-turn", "Guards", "--leader", "Kira", "--supplies", "Venger:2"],
         "Venger Supplies do not match a Phantom Challenge."),
    # Buy Time: only on a timed Challenge, never on a Test.
    # Motto only while leading; Create an Opportunity: not the leader, and that PC contributes nothing.
    case(bo_has_a_motto, ["cohort-turn", "Guards", "--leader", "Kira", "--trait", "Bo:Motto=doom"],
         "Bo's Motto works only while Bo leads."),
    case(nothing, ["cohort-turn", "Guards", "--leader", "Kira", "--opportunity", "Kira"],
         "Kira leads Guards and cannot also create an opportunity."),
    case(nothing, ["cohort-turn", "Guards", "--leader", "Kira", "--opportunity", "Bo", "--assist", "Bo"],
         "Bo is creating an opportunity and contributes nothing this round."),
    case(bo_creates_an_opportunity, ["challenge-turn", "Guards", "--trait", "Bo:Smoke Bomb"],
         "Bo is creating an opportunity and contributes nothing this round."),
    # Check This Out: once a scene, a rank 1 trait.
    case(check_this_out_used, ["check-this-out", "Smoke", "+1d6", "--pay", "doom"],
         "Cohort:Check This Out is once a scene and was used this scene."),
    case(nothing, ["check-this-out", "Big", "+2 / 1d", "--pay", "doom"], "Check This Out makes a rank 1 trait"),
    case(nothing, ["check-this-out", "Bars", "2 / 1d", "--pay", "doom", "--against", "Guards"],
         "Check This Out makes a rank 1 trait"),
    # The Hand of Doom falls during an Event.
    case(nothing, ["hand-of-doom", "stress"], "The Hand of Doom falls during an Event; no Event is going on."),
    # Recovery: at a Scene's end, once.
    case(a_scene, ["recover", "set", "--stress", "Kira=1"], "Stress is recovered at a Scene's end; end the Scene first."),
    case(a_scene, ["recover", "test"], "Stress is recovered at a Scene's end; end the Scene first."),
    case(nothing, ["recover", "set", "--stress", "Kira=1"], "Stress is recovered at a Scene's end"),
    case(recovered, ["recover", "set", "--stress", "Kira=1"], "The Cohort has already recovered after Scene 1."),
    case(recovered, ["recover", "test"], "The Cohort has already recovered after Scene 1."),
    case(a_scene_ended, ["recover", "set", "--stress", "Kira=1,Bo=1"], "the distribution adds up to 2"),
    # Disaster traits: only after a Disaster, on the side the rules say.
    case(cohort_disaster, ["disaster-trait", "Guards", "Lucky", "+1 / 1d", "--on", "Kira"],
         "A Cohort Disaster makes a Hindering trait on the Cohort or a PC, or a Beneficial one on the Challenge."),
    case(cohort_disaster, ["disaster-trait", "Guards", "Slow", "-1 / 1d", "--on", "Guards"],
         "A Cohort Disaster makes a Hindering trait"),
    case(challenge_disaster, ["disaster-trait", "Guards", "Rattled", "-1 / 1d", "--on", "Kira"],
         "A Challenge Disaster makes a Hindering trait on the Challenge or a Beneficial one on the Cohort."),
    case(nothing, ["disaster-trait", "Guards", "Rattled", "-1 / 1d", "--on", "Kira"],
         "Guards has no Disaster waiting for its trait."),
    # Agony: a Growth Test needs Agony; an Agony trait comes with an Agony.
    case(nothing, ["growth-test", "Kira", "--pool", "2", "--faces", "5,5"], "Kira has no Agony to recover."),
    case(nothing, ["agony-trait", "Kira", "Scar", "-1 / 1d"], "Agony"),
]


@pytest.mark.parametrize("setup, args, rule", OVERRIDABLE)
def test_a_broken_rule_is_refused_then_accepted_with_a_gm_override_history_shows(night, setup, args, rule):
    setup(night)
    assert rule in night.refused(*args)
    before = night.entries()
    report = night.json(*args, "--gm-override", REASON)
    assert night.entries() > before
    lines = [r["line"] for r in report["history"]]
    assert any(line.startswith(f"GM override: {REASON} (the rule set aside: ") and rule in line for line in lines), \
        lines
    assert REASON in [o["reason"] for o in night.json("audit")["overrides"]]


# --- refused, with no override: malformed input, or steps out of order --------------------------

def kira_has_a_motto(t):
    t("motto", "Kira", "Nobody gets left behind")


def split_pending(t):
    t("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2,2")


PLAIN = [
    case(nothing, ["cohort-turn", "Guards", "--leader", "Kira", "--supplies", "Phantom"], "Write Supplies as TYPE:RANK"),
    case(nothing, ["cohort-turn", "Guards", "--leader", "Kira", "--supplies", "Pilot:2"],
         "'Pilot' is not a type of Supplies"),
    case(nothing, ["cohort-turn", "Guards", "--leader", "Kira", "--supplies", "Phantom:2:gift"],
         "Write Supplies as TYPE:RANK"),
    case(kira_has_a_motto, ["cohort-turn", "Guards", "--leader", "Kira", "--trait", "Kira:Motto"],
         "costs Destiny or Doom; say which"),
    case(kira_has_a_motto, ["motto", "Kira", "Again"], "Kira already has a Motto."),
    case(nothing, ["cohort-turn", "Guards", "--leader", "Kira", "--gm-motto", "Kira"], "Kira has no trait named 'Motto'"),
    case(kira_stressed_out_leading_storm, ["cohort-turn", "Storm"], "Choose a leader for Storm"),
    # "Once a round" for Create an Opportunity: a second Cohort turn in the same round is out of order anyway.
    case(bo_creates_an_opportunity, ["cohort-turn", "Guards", "--opportunity", "Bo"],
         "Guards is waiting for the Challenge turn."),
    case(nothing, ["check-this-out", "Bars", "+1d6", "--pay", "doom", "--against", "Guards"],
         "Against a Challenge, name it"),
    case(nothing, ["check-this-out", "Bars", "1 / 1d", "--pay", "doom", "--against", "Nowhere"],
         "no Challenge named 'Nowhere'"),
    case(nothing, ["challenge", "open", "Jump", "--threat", "Minor", "--type", "Phantom", "--rating", "2", "--test",
                   "--rounds", "2"], "A Test is one round; it cannot also be timed."),
    case(nothing, ["challenge", "open", "Jump", "--threat", "Minor", "--type", "Phantom", "--rating", "2",
                   "--needed", "2"], "--needed and --stress-unresolved are for a Test (--test)."),
    case(nothing, ["challenge", "open", "Jump", "--threat", "Minor", "--type", "Phantom", "--rating", "2", "--test",
                   "--needed", "0"], "A Test needs at least 1 success."),
    case(nothing, ["challenge", "open", "Clock", "--threat", "Minor", "--type", "Phantom", "--rating", "2",
                   "--rounds", "0"], "A timed Challenge has at least 1 round."),
    case(split_pending, ["challenge", "split", "Guards", "--into", "Side", "--dice", "1", "--group", "Bo",
                         "--pay", "doom"], "Guards is waiting for the Challenge turn."),
    case(nothing, ["challenge", "split", "Guards", "--into", "Guards", "--dice", "1", "--group", "Bo", "--pay", "doom"],
         "There is already a Challenge named Guards."),
    case(nothing, ["challenge", "split", "Guards", "--into", "Side", "--dice", "1", "--group", "Zed", "--pay", "doom"],
         "no PC named 'Zed'"),
    case(a_scene, ["scene", "start", "Again"], "Scene 1 ('Vault') is still going; end it first."),
    case(nothing, ["scene", "end"], "No Scene is going on."),
    case(an_event, ["event", "start", "Again"], "Event 1 ('The alarm') is still going; end it first."),
    case(nothing, ["event", "end"], "No Event is going on."),
    case(recovery_test_opened, ["recover", "apply", "--stress", "Kira=1"],
         "Play Recovery after Scene 1 first (recover test, then cohort-turn)."),
    case(recovery_test_applied, ["recover", "apply", "--stress", "Kira=1"],
         "Recovery after Scene 1 has already been applied."),
    case(nothing, ["agony-trait", "Kira", "Scar", "+1 / 1d"], "reads as beneficial, not hindering"),
    case(nothing, ["growth-test", "Kira", "--pool", "0"], "A Growth Test rolls at least 1 die."),
    case(nothing, ["disaster-trait", "Nowhere", "Rattled", "-1 / 1d", "--on", "Kira"], "no Challenge named 'Nowhere'"),
    case(cohort_disaster, ["disaster-trait", "Guards", "Rattled", "-1 / 1d", "--on", "Zed"], "no PC named 'Zed'"),
    case(cohort_disaster, ["disaster-trait", "Guards", "Rattled", "-1 / 1d", "--on", "Kira", "--lasts", "forever"],
         "not 'forever'"),
    # Buy Time needs time to buy: no override makes a Challenge timed.
    case(a_test, ["cohort-turn", "Jump", "--leader", "Kira", "--buy-time"], "Jump is a Test; a Test cannot buy time."),
    case(nothing, ["cohort-turn", "Guards", "--leader", "Kira", "--buy-time"],
         "Guards is not timed; there is no time to buy."),
    # With the Doom rule overridden, what cannot be read is still refused.
    case(an_event, ["hand-of-doom", "trait", "Curse", "+1 / 1d", "--gm-override", "plenty of doom"],
         "reads as beneficial, not hindering"),
    case(an_event, ["hand-of-doom", "trait", "Curse", "-1 / 1d", "--on", "Nobody", "--gm-override", "plenty of doom"],
         "no PC named 'Nobody'"),
]


@pytest.mark.parametrize("setup, args, message", PLAIN)
def test_a_malformed_or_out_of_order_command_is_refused_and_appends_nothing(night, setup, args, message):
    setup(night)
    assert message in night.refused(*args)


# --- what an override leads to ---------------------------------------------------------------------

def test_an_override_waives_a_cost_the_pools_cannot_pay_and_history_says_so(night):
    a_timed_challenge_and_no_destiny(night)
    report = night.json("cohort-turn", "Clock", "--leader", "Kira", "--buy-time", "--gm-override", REASON)
    lines = [r["line"] for r in report["history"]]
    assert "The Cohort buys time against Clock: the GM waives the cost" in lines
    assert "Clock round 1: the Cohort buys time (3 rounds left)" in lines
    assert night.json("pools")["destiny"] == 0


def test_no_override_puts_an_untimed_challenge_on_a_clock(night):
    assert "there is no time to buy" in night.refused("cohort-turn", "Guards", "--leader", "Kira", "--buy-time",
                                                      "--gm-override", REASON)
