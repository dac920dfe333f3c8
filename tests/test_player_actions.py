"""The player actions catalogue (campaign_ledger/players/): on each ruleset's demo, a seat's player is
offered what the rules leave to them for their own character, with the exact odds of a pool about to
be rolled; `perform` records the faces they entered or the program's roll; everything else (another's
character, the GM's calls, an action that does not exist) is refused and appends nothing."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from campaign_ledger import CampaignError
from campaign_ledger.campaign import demo_campaign
from campaign_ledger.players import actions, check, perform
from campaign_ledger.players.common import GM_ONLY, NOT_YOUR_CHARACTER, SEAT_INACTIVE


def seated(camp: Any, *pcs: str) -> None:
    """A seat for each of these characters (`seat_add`), made before any count of entries."""
    for pc in pcs:
        camp.seat_add(pc, f"{pc}'s player")


def seat(camp: Any, pc: str) -> Any:
    """The character's seat as `seat_list` gives it: {"seat", "pc", "player", "state", "generation", "actor"}."""
    return next(s for s in camp.seat_list() if s["pc"] == pc)


def head(camp: Any) -> int:
    """The ledger's last entry: what a refusal must leave as it was."""
    return camp.history(limit=1)[0]["entry"]


def lines(report: dict[str, Any]) -> list[str]:
    return [h["line"] for h in report["history"]]


def offered(camp: Any, pc: str, action: str) -> list[dict[str, Any]]:
    return [a for a in actions(camp, seat(camp, pc)) if a["action"] == action]


def percent_free(fraction: str) -> str:
    """The exact fraction an odds call answered, as the action's odds line must carry it."""
    return str(Fraction(fraction))


def assert_refused(camp: Any, pc: str, action: str, fields: dict[str, Any], rule: str | None) -> None:
    """`check` and `perform` both refuse in one line, by `rule` (None: malformed, code 2), and the
    ledger is as it was."""
    before = head(camp)
    mine = seat(camp, pc)
    for attempt in (lambda: check(camp, mine, action, fields),
                    lambda: perform(camp, mine, action, fields, "refused")):
        with pytest.raises(CampaignError) as refused:
            attempt()
        assert (refused.value.code, refused.value.rule) == ((2, None) if rule is None else (1, rule))
        assert "\n" not in str(refused.value)
    assert head(camp) == before


# --- Relics -----------------------------------------------------------------------------------

@pytest.fixture
def relics(tmp_path):
    camp = demo_campaign(tmp_path / "relics.db", "relics")
    seated(camp, "Kira", "Bo", "Ash")
    camp.scene_start("The kennels")
    camp.challenge_open("Dogs", threat="Minor", type="Phantom", rating=3)
    yield camp
    camp.close()


def test_a_relics_pc_who_may_lead_is_offered_the_huddle_with_their_own_traits_and_its_exact_odds(relics):
    kira = offered(relics, "Kira", "relics.cohort_turn")
    assert len(kira) == 1 and not kira[0]["waiting"]
    names = [f["name"] for f in kira[0]["fields"]]
    assert names == ["challenge", "trait:Shadowstep", "destiny", "faces", "best"]  # Smoke Bomb is on the Challenge's pool
    odds = relics.odds("Dogs", leader="Kira")
    assert percent_free(odds["at_least"]["1"]) in kira[0]["odds"] and percent_free(odds["disaster"]) in kira[0]["odds"]
    assert next(f for f in kira[0]["fields"] if f["name"] == "faces")["dice"] == odds["pool"]["roll"]
    bo = offered(relics, "Bo", "relics.cohort_turn")[0]
    assert next(f for f in bo["fields"] if f["name"] == "trait:Steady Hands")["choices"] == ["destiny", "doom"]
    assert offered(relics, "Ash", "relics.cohort_turn") == []  # Phantom 1: Ash cannot lead against Phantom


def test_the_leader_activates_a_trait_spends_destiny_and_enters_the_faces_rolled(relics):
    destiny = relics.pools()["destiny"]
    report = perform(relics, seat(relics, "Kira"), "relics.cohort_turn",
                     {"challenge": "Dogs", "trait:Shadowstep": True, "destiny": 1, "faces": "6,5,3,2,2,1"}, "k1")
    said = "\n".join(lines(report))
    assert "1 Destiny spent for +1d6 on Dogs" in said and "Kira:Shadowstep" in said
    assert "Cohort dice show 6, 5, 3, 2, 2, 1 (entered from the table)" in said
    assert relics.pools()["destiny"] == destiny - 1
    assert [row["line"] for row in relics.history(limit=len(report["entries"]))] == lines(report)
    # Shadowstep's Simple modifier waits to be placed: the leader's page now waits on that, first.
    first = actions(relics, seat(relics, "Kira"))[0]
    assert (first["action"], first["waiting"]) == ("relics.place", True)
    placed = perform(relics, seat(relics, "Kira"), "relics.place", {"challenge": "Dogs"}, "k2")
    assert any("Cohort result" in line for line in lines(placed))


def test_a_pool_waiting_on_its_roll_waits_on_the_leader_first_and_the_program_rolls_it(relics):
    relics.cohort_turn("Dogs", leader="Kira")  # the GM builds the pool; it waits for the roll
    first = actions(relics, seat(relics, "Kira"))[0]
    assert (first["action"], first["waiting"]) == ("relics.roll", True)
    waiting = relics.odds("Dogs")
    assert next(f for f in first["fields"] if f["name"] == "faces")["dice"] == waiting["pool"]["roll"] == 5
    assert percent_free(waiting["at_least"]["1"]) in first["odds"]
    assert offered(relics, "Bo", "relics.roll") == []  # Kira leads: the Cohort's roll is hers
    report = perform(relics, seat(relics, "Kira"), "relics.roll", {"challenge": "Dogs"}, "k3")
    assert any("(rolled by the program)" in line for line in lines(report))
    again = perform(relics, seat(relics, "Kira"), "relics.roll", {"challenge": "Dogs"}, "k3")  # a double tap
    assert again["repeated"] and again["entries"] == report["entries"] and head(relics) == report["entries"][-1]
    assert offered(relics, "Kira", "relics.roll") == []  # rolled: the turn went on (or resolved Dogs)


def test_a_stressed_out_pc_is_offered_push_the_limit_and_nothing_else(relics):
    relics.challenge_open("Wolves", threat="Minor", type="Phantom", rating=5)
    for _ in range(2):  # two rounds of 5 Stress each, all on Bo
        relics.cohort_turn("Wolves", leader="Kira", faces=[2, 3, 4, 2, 3])
        relics.challenge_turn("Wolves", faces=[6, 6, 6, 6, 6], stress={"Bo": 5})
    assert relics.sheet("Bo")["status"] == "Stressed Out"
    bo = actions(relics, seat(relics, "Bo"))
    assert [(a["action"], a["waiting"]) for a in bo] == [("relics.push", True)]
    report = perform(relics, seat(relics, "Bo"), "relics.push", {}, "k4")
    assert relics.sheet("Bo")["agony"] == 2 and any("Push" in line or "push" in line for line in lines(report))


def test_check_this_out_is_paid_with_the_destiny_the_player_chose(relics):
    destiny = relics.pools()["destiny"]
    perform(relics, seat(relics, "Ash"), "relics.check_this_out",
            {"trait": "Loose grating", "modifier": "-1 / 1d", "pay": "destiny", "against": "Dogs"}, "k5")
    assert relics.pools()["destiny"] == destiny - 1


@pytest.mark.parametrize("pc, action, fields, rule", [
    ("Bo", "relics.cohort_turn", {"challenge": "Dogs", "leader": "Kira"}, NOT_YOUR_CHARACTER),
    ("Bo", "relics.cohort_turn", {"challenge": "Dogs", "trait:Kira:Shadowstep": True}, NOT_YOUR_CHARACTER),
    ("Kira", "relics.push", {"pc": "Bo"}, NOT_YOUR_CHARACTER),
    ("Kira", "relics.cohort_turn", {"challenge": "Dogs", "override": "the GM said so"}, GM_ONLY),
    ("Kira", "relics.challenge_open", {"name": "Cats"}, GM_ONLY),
    ("Kira", "challenge-turn", {"challenge": "Dogs"}, GM_ONLY),
    ("Kira", "undo", {}, GM_ONLY),
    ("Kira", "house_rule_set", {"rule": "lead_dice", "value": "9"}, GM_ONLY),
    ("Kira", "relics.trait_add", {}, GM_ONLY),
    ("Kira", "note", {"text": "x", "gm_only": True}, GM_ONLY),
    ("Kira", "seat_add", {}, GM_ONLY),
    ("Kira", "relics.fly", {}, None),
    ("Kira", "beer_run.roll", {}, None),
    ("Kira", "relics.cohort_turn", {"challenge": "Dogs", "bogus": 1}, None),
    ("Kira", "relics.cohort_turn", {"challenge": "Dogs", "faces": "six"}, None),
])
def test_relics_refusals_append_nothing(relics, pc, action, fields, rule):
    assert_refused(relics, pc, action, fields, rule)


def test_another_leaders_pool_and_the_challenges_roll_are_not_a_players(relics):
    relics.cohort_turn("Dogs", leader="Kira")
    before = head(relics)
    with pytest.raises(CampaignError) as theirs:
        perform(relics, seat(relics, "Bo"), "relics.roll", {"challenge": "Dogs"}, "k7")
    assert theirs.value.rule == NOT_YOUR_CHARACTER and "Kira leads Dogs" in str(theirs.value)
    relics.roll("Dogs", faces=[2, 3, 4, 2, 3])
    relics.challenge_turn("Dogs")  # the Challenge's pool waits for the GM's roll
    after = head(relics)
    with pytest.raises(CampaignError) as gm:
        perform(relics, seat(relics, "Kira"), "relics.roll", {"challenge": "Dogs"}, "k8")
    assert gm.value.rule == GM_ONLY
    assert head(relics) == after > before


def test_check_runs_the_huddle_as_a_what_if_and_writes_nothing(relics):
    before = head(relics)
    check(relics, seat(relics, "Kira"), "relics.cohort_turn", {"challenge": "Dogs", "destiny": 1})
    with pytest.raises(CampaignError) as short:  # more Destiny than the pool holds: the turn's own refusal
        check(relics, seat(relics, "Kira"), "relics.cohort_turn", {"challenge": "Dogs", "destiny": 50})
    with pytest.raises(CampaignError) as same:
        perform(relics, seat(relics, "Kira"), "relics.cohort_turn", {"challenge": "Dogs", "destiny": 50}, "k9")
    assert (short.value.code, short.value.rule, str(short.value)) == (same.value.code, same.value.rule, str(same.value))
    assert head(relics) == before


def test_a_seat_no_longer_active_has_no_actions_and_is_refused(relics):
    held = seat(relics, "Kira")
    relics.seat_revoke("Kira")
    gone = seat(relics, "Kira")
    assert (held["state"], gone["state"]) == ("active", "revoked") and actions(relics, gone) == []
    before = head(relics)
    with pytest.raises(CampaignError) as refused:
        perform(relics, gone, "relics.cohort_turn", {"challenge": "Dogs"}, "k10")
    assert refused.value.rule == SEAT_INACTIVE and head(relics) == before
    with pytest.raises(CampaignError) as stale:  # a page still holding the seat as it was: read again, refused
        perform(relics, held, "relics.cohort_turn", {"challenge": "Dogs"}, "k11")
    assert stale.value.rule == SEAT_INACTIVE and head(relics) == before


def test_a_rotated_seat_acts_only_as_it_stands_now(relics):
    before_rotate = seat(relics, "Bo")
    relics.seat_rotate("Bo")
    now = seat(relics, "Bo")
    assert now["generation"] == before_rotate["generation"] + 1
    assert actions(relics, before_rotate) == [] and actions(relics, now)
    before = head(relics)
    with pytest.raises(CampaignError) as stale:
        perform(relics, before_rotate, "relics.check_this_out",
                {"trait": "Loose grating", "modifier": "+1 / 1d", "pay": "doom"}, "k12")
    assert stale.value.rule == SEAT_INACTIVE and head(relics) == before
    perform(relics, now, "relics.check_this_out", {"trait": "Loose grating", "modifier": "+1 / 1d", "pay": "doom"}, "k12")
    assert head(relics) > before


# --- Beer Run ---------------------------------------------------------------------------------

@pytest.fixture
def beer_run(tmp_path):
    camp = demo_campaign(tmp_path / "beer.db", "beer-run")
    seated(camp, "Ann", "Bouncer")
    camp.beer_run_conflict_open("Front Door", ["Ann", "Bouncer"])
    yield camp
    camp.close()


def test_beer_run_rolls_with_entered_faces_and_extra_dice_then_the_winner_lands_the_pips(beer_run):
    assert [a["action"] for a in actions(beer_run, seat(beer_run, "Ann"))] == ["beer_run.cede"]  # no goal stated yet
    beer_run.beer_run_goal("Front Door", "Ann", "get the beer in")
    beer_run.beer_run_goal("Front Door", "Bouncer", "keep Ann out")
    ann = actions(beer_run, seat(beer_run, "Ann"))[0]
    assert (ann["action"], ann["waiting"]) == ("beer_run.roll", True)
    odds = beer_run.odds("Front Door", "Ann")
    assert percent_free(odds["upper_hand"]["first"]) in ann["odds"]
    assert "extra:Health" in [f["name"] for f in ann["fields"]]
    intensity = beer_run.beer_run_sheet("Ann")["intensity"]
    report = perform(beer_run, seat(beer_run, "Ann"), "beer_run.roll",
                     {"conflict": "Front Door", "extra:Health": True, "faces": [6, 5, 3, 2]}, "b1")
    assert any("6, 5, 3, 2 (entered from the table)" in line for line in lines(report))
    assert beer_run.beer_run_sheet("Ann")["intensity"] == intensity - 2  # the base pool and one extra die
    bouncer = actions(beer_run, seat(beer_run, "Bouncer"))[0]
    assert "penalty_faces" in [f["name"] for f in bouncer["fields"]]  # the outcome d4 the demo inflicted
    perform(beer_run, seat(beer_run, "Bouncer"), "beer_run.roll", {"conflict": "Front Door"}, "b2")  # the program rolls all
    due = beer_run.beer_run_status("Front Door")[0]["next_pips"]
    winner, loser = due["by"], due["on"]
    first = actions(beer_run, seat(beer_run, winner))[0]
    assert (first["action"], first["waiting"]) == ("beer_run.pips", True)
    before = head(beer_run)
    with pytest.raises(CampaignError) as theirs:  # the pips are landed by the seat's own side: not the one due
        perform(beer_run, seat(beer_run, loser), "beer_run.pips", {"conflict": "Front Door", "pips:Health": 1}, "b3")
    assert theirs.value.rule == "turn-waiting" and f"waiting for {winner} to land" in str(theirs.value)
    assert head(beer_run) == before
    target = next(f["name"] for f in first["fields"] if f["name"].startswith("pips:"))
    landed = perform(beer_run, seat(beer_run, winner), "beer_run.pips", {"conflict": "Front Door", target: due["kept"]}, "b4")
    assert any(f"lands {due['kept']} pip" in line for line in lines(landed))
    again = perform(beer_run, seat(beer_run, winner), "beer_run.pips", {"conflict": "Front Door", target: due["kept"]}, "b4")
    assert again["repeated"] and again["entries"] == landed["entries"]  # a double tap: one entry


def test_beer_run_cede_between_rounds(beer_run):
    report = perform(beer_run, seat(beer_run, "Bouncer"), "beer_run.cede", {"conflict": "Front Door"}, "b5")
    assert report["entries"] and beer_run.beer_run_status("Front Door")[0]["sides"]["Bouncer"]["out"] == "ceded"


@pytest.mark.parametrize("action, fields, rule", [
    ("beer_run.roll", {"conflict": "Front Door", "side": "Bouncer"}, NOT_YOUR_CHARACTER),
    ("beer_run.cede", {"conflict": "Front Door", "by": "Bouncer"}, NOT_YOUR_CHARACTER),
    ("beer_run.roll", {"conflict": "Front Door", "override": "short of Intensity"}, GM_ONLY),
    ("beer_run.intensity", {"gain": 5}, GM_ONLY),
    ("beer_run.conflict_end", {}, GM_ONLY),
    ("beer_run.goal", {}, GM_ONLY),
    ("beer_run.sing", {}, None),
])
def test_beer_run_refusals_append_nothing(beer_run, action, fields, rule):
    assert_refused(beer_run, "Ann", action, fields, rule)


# --- action dice --------------------------------------------------------------------------------

@pytest.fixture
def action_dice(tmp_path):
    camp = demo_campaign(tmp_path / "archive.db", "action-dice")
    seated(camp, "Mara", "Tobin")
    yield camp
    camp.close()


def test_an_action_roll_for_ones_own_character_entered_or_rolled(action_dice):
    mara = actions(action_dice, seat(action_dice, "Mara"))
    assert [a["action"] for a in mara] == ["action_dice.roll"]
    odds = action_dice.odds("Mara", "an action", difficulty=1, assets=["Nerve", "Athletics", "Lockpicks"])
    assert percent_free(odds["test_passes_at"]["4"]) in mara[0]["odds"]
    assert {"asset:Athletics", "asset:Nerve", "feature:Cat-like"} <= {f["name"] for f in mara[0]["fields"]}
    entered = perform(action_dice, seat(action_dice, "Mara"), "action_dice.roll",
                      {"action": "climb", "rating": "D6", "asset:Athletics": True, "faces": "7,3,2"}, "a1")
    assert "Athletics d8=7, d4=3, d4=2 (entered from the table)" in lines(entered)[0]
    rolled = perform(action_dice, seat(action_dice, "Mara"), "action_dice.roll",
                     {"action": "sneak", "rating": "D4", "circumstances": "advantage"}, "a2")
    assert "(rolled by the program)" in lines(rolled)[0]
    assert [r["action"] for r in action_dice.action_dice_rolls("Mara", limit=2)] == ["climb", "sneak"]


def test_an_incapacitated_roll_is_refused_by_check_as_perform_refuses_it(action_dice):
    action_dice.action_dice_condition("Mara", "Sprained Ankle", level=3, impacts=["climb"])
    before = head(action_dice)
    fields = {"action": "climb", "rating": "D6"}
    with pytest.raises(CampaignError) as checked:
        check(action_dice, seat(action_dice, "Mara"), "action_dice.roll", fields)
    with pytest.raises(CampaignError) as performed:
        perform(action_dice, seat(action_dice, "Mara"), "action_dice.roll", fields, "a3")
    assert (checked.value.code, checked.value.rule, str(checked.value)) == \
        (performed.value.code, performed.value.rule, str(performed.value))
    assert head(action_dice) == before


@pytest.mark.parametrize("action, fields, rule", [
    ("action_dice.roll", {"action": "climb", "character": "Tobin"}, NOT_YOUR_CHARACTER),
    ("action_dice.roll", {"action": "climb", "override": "Tobin holds the rope"}, GM_ONLY),
    ("action_dice.condition", {}, GM_ONLY),
    ("action_dice.treat", {}, GM_ONLY),
    ("action_dice.roll", {"action": "climb", "faces": [1.5, 2, 3]}, None),
])
def test_action_dice_refusals_append_nothing(action_dice, action, fields, rule):
    assert_refused(action_dice, "Mara", action, fields, rule)


# --- decision-2d6 -------------------------------------------------------------------------------

@pytest.fixture
def decision(tmp_path):
    camp = demo_campaign(tmp_path / "gate.db", "decision-2d6")
    camp.decision_2d6_item_add("Rope", die="D8", holder="Billy")
    camp.decision_2d6_item_add("Cart", die="D8")
    seated(camp, "Billy", "Ogre")
    yield camp
    camp.close()


def test_a_decision_roll_per_stat_with_its_exact_odds_and_the_faces_entered_or_rolled(decision):
    billy = actions(decision, seat(decision, "Billy"))
    assert [a["label"] for a in billy] == ["Roll Strength (+0)", "Roll Agility (+1)", "Roll Stealth (+2)",
                                           "Supply roll: Rope (D8)"]  # the Empty torches and the spent arrows: none
    odds = decision.odds("Billy", "Strength")
    assert percent_free(odds["at_least"]["12"]) in billy[0]["odds"]
    entered = perform(decision, seat(decision, "Billy"), "decision_2d6.roll",
                      {"stat": "Strength", "difficulty": "challenging", "faces": [3, 6, 6, 2]}, "d1")
    assert "= 17 vs 12" in lines(entered)[0] and "(entered)" in lines(entered)[0]
    rolled = perform(decision, seat(decision, "Billy"), "decision_2d6.roll", {"stat": "Agility", "target": 8}, "d2")
    assert "(rolled by the program)" in lines(rolled)[0]
    supply = perform(decision, seat(decision, "Billy"), "decision_2d6.supply_roll", {"item": "Rope", "faces": [2]}, "d3")
    assert "lowered to D6" in lines(supply)[-1]


@pytest.mark.parametrize("pc, action, fields, rule", [
    ("Ogre", "decision_2d6.supply_roll", {"item": "Rope"}, NOT_YOUR_CHARACTER),
    ("Billy", "decision_2d6.supply_roll", {"item": "Cart"}, GM_ONLY),
    ("Billy", "decision_2d6.roll", {"stat": "Wits", "name": "Ogre"}, NOT_YOUR_CHARACTER),
    ("Billy", "decision_2d6.contest", {}, GM_ONLY),
    ("Billy", "decision_2d6.restock", {}, GM_ONLY),
    ("Billy", "decision_2d6.roll", {"stat": "Strength", "advantage": "huge"}, None),
])
def test_decision_refusals_append_nothing(decision, pc, action, fields, rule):
    assert_refused(decision, pc, action, fields, rule)


# --- through a seat's own handle: the entries name the seat and the page -------------------------

ONE_ACTION = {  # per ruleset: the demo's character, a setup by the GM, and an action entered from a phone
    "relics": ("Kira", lambda camp: camp.challenge_open("Dogs", threat="Minor", type="Phantom", rating=3),
               "relics.cohort_turn", {"challenge": "Dogs", "faces": [2, 3, 4, 2, 3]}),
    "beer-run": ("Ann", lambda camp: (camp.beer_run_conflict_open("Front Door", ["Ann", "Bouncer"]),
                                      camp.beer_run_goal("Front Door", "Ann", "get in")),
                 "beer_run.roll", {"conflict": "Front Door", "faces": [6, 5, 3]}),
    "action-dice": ("Mara", lambda camp: None, "action_dice.roll", {"action": "climb", "rating": "D6", "faces": [4, 3, 2]}),
    "decision-2d6": ("Billy", lambda camp: None, "decision_2d6.roll", {"stat": "Agility", "target": 8, "faces": [3, 4]}),
}


@pytest.mark.parametrize("ruleset", list(ONE_ACTION))
def test_an_action_through_the_seats_handle_is_recorded_as_the_seat_on_the_page(tmp_path, ruleset):
    pc, setup, action, fields = ONE_ACTION[ruleset]
    camp = demo_campaign(tmp_path / "demo.db", ruleset)
    setup(camp)
    camp.seat_add(pc, "Ana")
    mine = next(s for s in camp.seat_list() if s["pc"] == pc)
    assert mine["actor"] == f"seat:{pc}" and [a["action"] for a in actions(camp, mine)][:1] == [action]
    report = perform(camp.acting(mine["actor"], "page"), mine, action, fields, "phone-1")
    rows = camp.history(limit=len(report["entries"]))
    assert [r["entry"] for r in rows] == report["entries"]
    assert {(r["actor"], r["channel"]) for r in rows} == {(f"seat:{pc}", "page")}
    assert (report["actor"], report["channel"]) == (f"seat:{pc}", "page")
    assert camp.history(limit=len(report["entries"]) + 1)[0]["actor"] == "gm"  # the GM's seat add before it
    assert any("entered" in r["line"] for r in rows)
    again = perform(camp.acting(mine["actor"], "page"), mine, action, fields, "phone-1")  # a double tap
    assert again["repeated"] and camp.history(limit=1)[0]["entry"] == report["entries"][-1]
    camp.seat_revoke(mine["seat"])
    gone = next(s for s in camp.seat_list() if s["pc"] == pc)
    before = head(camp)
    with pytest.raises(CampaignError) as refused:
        perform(camp.acting(gone["actor"], "page"), gone, action, fields, "phone-2")
    assert refused.value.rule == SEAT_INACTIVE and head(camp) == before
    camp.close()
