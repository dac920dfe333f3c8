"""After the placement: the final result and what follows it (000 "Resolving a Challenge" steps 6-10).

The tally (a Disaster, a Challenge turn with no success ending the round), dice resolved toward
the rating and the Tides after a Cohort turn, a Test decided, the Challenge's Stress shared among
the PCs facing it, and what ends with a round, a Challenge, an Event or a Scene.
"""
from __future__ import annotations

from campaign_ledger.ledger.rulesets.relics import rules as relics
from campaign_ledger.ledger.rulesets.relics import traits
from campaign_ledger.ledger.rulesets.relics.challenge import CHALLENGE, COHORT, Challenge
from campaign_ledger.ledger.rulesets.relics.character import current_names, takers
from campaign_ledger.ledger.rulesets.relics.house_rules import in_play
from campaign_ledger.ledger.table import Table


# --- Step 6: the final result ----------------------------------------------------------------------

def tally_turn(t: Table, ch: Challenge, side: str, results: tuple[int, ...]) -> None:
    result, round_ = relics.tally(results), ch.round  # a Challenge turn with no success ends the round
    ch.round_tallied(side, round_, list(results), result.successes, result.criticals,
                     result.overpowering, result.botches, result.major_botches, result.disaster)
    if result.disaster:
        ch.disaster_struck(side, round_)
    if side == COHORT:
        _after_cohort(t, ch, result)
    elif result.successes <= 0:
        t.campaign.turn_ended(ch.name, CHALLENGE, ch.round - 1)
        end_round(t, ch, ch.round - 1)


# --- Steps 7-8 of the Cohort turn: resolve dice, the Tides ---------------------------------

def _after_cohort(t: Table, ch: Challenge, result: relics.Tally) -> None:
    camp, round_ = t.campaign, ch.round
    resolved = relics.dice_resolved(ch.rating, ch.resolved, result.successes)
    if resolved:
        ch.dice_resolved(round_, resolved, ch.resolved + resolved)
    pcs = len(t.pcs_in_game())
    destiny, doom = relics.tides(in_play(t), result, ch.threat, pcs)
    if destiny or doom:
        applied, lost = relics.cap_destiny(camp.destiny, destiny, in_play(t).destiny_cap_per_pc * pcs)
        camp.tides_shifted(ch.name, round_, applied, doom, lost)
    if ch.test:
        _decide_test(t, ch, result, round_)
    elif ch.unresolved == 0:
        ch.became_resolved(round_)
    camp.turn_ended(ch.name, COHORT, round_)
    if ch.finished:
        end_round(t, ch, round_)


def _decide_test(t: Table, ch: Challenge, result: relics.Tally, round_: int) -> None:
    """A Test is one round: passed on enough successes (the degree kept); maybe Stress from what is left."""
    needed = ch.test["needed"]
    ch.test_decided(round_, result.successes, needed, result.successes >= needed)
    if ch.test.get("stress_unresolved") and ch.unresolved > 0:
        ch.test_stress_due(round_, ch.unresolved)
    elif result.successes >= needed:
        ch.became_resolved(round_)
    else:
        ch.ended(round_, "the Test is failed")


# --- The end of a round: what ends with it ------------------------------------------------------

def end_round(t: Table, ch: Challenge, round_: int) -> None:
    """Round-long traits end, an opportunity pays its Destiny, a timed Challenge spends a round."""
    camp = t.campaign
    traits.expire(t, f"{ch.name}:{round_}")
    creator = camp.opportunities.get(f"{ch.name}:{round_}")
    if creator:
        cap = in_play(t).destiny_cap_per_pc * len(t.pcs_in_game())
        applied, lost = relics.cap_destiny(camp.destiny, 1, cap)
        camp.destiny_gained(ch.name, round_, applied, lost, f"{creator} created an opportunity")
    if ch.rounds_left is not None and not ch.finished:
        ch.round_spent(round_, ch.rounds_left - 1)
        if ch.rounds_left <= 0:
            ch.ended(round_, "its time ran out")
    if ch.finished:
        traits.expire(t, f"challenge {ch.name}")


# --- Step 7 of the Challenge turn: Stress ----------------------------------------------------

def distribute(t: Table, ch: Challenge, stress: dict[str, int] | None) -> bool:
    """Apply the Challenge's Stress by the Cohort's distribution; wait for one if needed."""
    ch.expect("challenge-stress")
    amount = (ch.pending or {})["stress"]
    group = facing(t, ch)
    if stress is None:
        if len(group) != 1:
            return False
        stress = {group[0]: amount}
    named = takers(t, stress)  # a retired PC takes no Stress
    t.allow(lambda: relics.check_distribution(amount, named, group))
    for name, n in named.items():
        if n:
            t.pc(name).take_stress(in_play(t), n, ch.name, ch.round)
    test_over = ch.test is not None
    round_ = ch.round
    ch.stress_distributed(ch.round, named)
    if test_over:
        ch.ended(round_, f"the Test is over; {amount} unresolved dice were Stress")
    else:
        t.campaign.turn_ended(ch.name, CHALLENGE, round_)
    end_round(t, ch, round_)
    everyone_stressed_out(t, ch)
    return True


def facing(t: Table, ch: Challenge) -> list[str]:
    """The PCs facing a Challenge: its group after a split or in a simultaneous Event, else all."""
    in_game = [pc.name for pc in t.pcs_in_game()]
    return [name for name in in_game if name in current_names(t, ch.group)] if ch.group else in_game


def everyone_stressed_out(t: Table, ch: Challenge | None) -> None:
    """When every PC facing an Event is Stressed Out, its Challenges end and so does the Scene."""
    camp = t.campaign
    names = list(camp.encounter["challenges"]) if camp.encounter else []
    if ch is not None and ch.name not in names:
        names = [ch.name]
    challenges = [t.challenge(n) for n in names]
    pcs = {p for c in challenges if not c.finished for p in facing(t, c)}
    if not pcs and ch is None:
        pcs = {pc.name for pc in t.pcs_in_game()}
    if not pcs or not all(t.pc(p).stressed_out for p in pcs):
        return
    reason = "every PC facing it is Stressed Out"
    for c in challenges:
        if not c.finished:
            c.ended(c.last_round, reason)
            traits.expire(t, f"challenge {c.name}")
    if camp.encounter and (ch is None or ch.name in camp.encounter["challenges"]):
        number = camp.encounter["number"]
        camp.encounter_ended(number, camp.encounter["title"], reason)
        traits.expire(t, f"event {number}")
    if camp.scene:
        number = camp.scene["number"]
        camp.scene_ended(number, camp.scene["title"], reason)
        traits.expire(t, f"scene {number}")
