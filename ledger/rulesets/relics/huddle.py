"""The Huddle: steps 1-3 of each turn (000 "Resolving a Challenge" steps 1-3, Challenge Turn steps 1-3).

Who leads and assists, the traits activated and paid for, the Cohort's tactics (Buy Time, Create
an Opportunity, Supplies, the GM's Motto), Destiny spent on dice, and the pool built with its
Auto Results; on a Challenge turn the rating, the Threat's Auto Results and the GM's traits.
Everything is paid in the same command, and the pool waits for its roll (ledger/rulesets/relics/turns.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.relics import rules as relics
from campaign_ledger.ledger.rulesets.relics import traits
from campaign_ledger.ledger.rulesets.relics.challenge import CHALLENGE, COHORT, Challenge
from campaign_ledger.ledger.rulesets.relics.house_rules import in_play
from campaign_ledger.ledger.rulesets.relics.outcome import facing
from campaign_ledger.ledger.table import Table


@dataclass(frozen=True)
class TraitUse:
    """`Kira:Blaster=doom`: whose trait, which, and how a Destiny-or-Doom cost is paid."""

    owner: str
    name: str
    paid: str | None = None



@dataclass(frozen=True)
class Tactics:
    """What else the Cohort does in the Huddle (001 "Starting Cohort Tactics", "Supplies", "Motto")."""

    opportunity: str | None = None  # the PC who creates an opportunity this round
    supplies: tuple[str, int, bool] | None = None  # Challenge type, rank, traded for a Simple modifier
    buy_time: bool = False
    gm_motto: str | None = None  # the GM spends a Doom to turn this PC's Motto into A1 / 1d


def pay(t: Table, cost: str, reason: str, gm: bool = False, amount: int = 1) -> None:
    """A cost outside a trait; short of Destiny or Doom, a GM override waives it."""
    destiny, doom = t.allow(lambda: t.campaign.pay(cost, gm=gm, amount=amount), fallback=(0, 0))
    t.campaign.paid(destiny, doom, reason)


# --- Step 1: the Huddle --------------------------------------------------------------------

def activate(t: Table, ch: Challenge, uses: list[TraitUse], target: str) -> list[dict[str, Any]]:
    """Pay each trait's cost now, in the Huddle, in the same command (000 step 1)."""
    activated: list[dict[str, Any]] = []
    for use in uses:
        owner, trait, gm = traits.find(t, ch, use.owner, use.name)
        if owner not in (traits.COHORT, ch.name):
            t.allow(t.pc(owner).check_can_act)
        label = f"{owner}:{trait['name']}"
        if owner == t.campaign.opportunities.get(f"{ch.name}:{ch.round}"):
            t.refuse(f"{owner} is creating an opportunity and contributes nothing this round.")
        if trait["name"] == MOTTO and owner != ch.leader:
            t.refuse(f"{owner}'s Motto works only while {owner} leads.")
        if any(a["label"] == label for a in activated):
            t.refuse(f"{label} is already activated this turn.")
        if trait["target"] != target:
            t.refuse(f"{label} targets the {trait['target'].capitalize()} pool, not the {target.capitalize()} pool.")
        traits.check_use(t, ch, owner, trait)
        paid = _payment(trait["cost"], use.paid, label)
        d_destiny, d_doom = t.allow(lambda: t.campaign.pay(paid, gm=gm), fallback=(0, 0))
        t.campaign.trait_activated(owner, trait["name"], trait["modifier"], ch.name, paid, d_destiny, d_doom)
        traits.record_use(t, ch, owner, trait)
        activated.append({"label": label, "modifier": trait["modifier"], "polarity": trait["polarity"]})
    return activated


def _payment(cost: str, paid: str | None, label: str) -> str:
    if cost == "destiny-or-doom":
        if paid not in ("destiny", "doom"):
            raise BadInput(f"{label} costs Destiny or Doom; say which, e.g. {label}=doom.")
        return paid
    if paid and paid != cost:
        raise BadInput(f"{label} costs {cost}, not {paid}.")
    return cost


def _modifiers(activated: list[dict[str, Any]], kind: str) -> list[tuple[dict[str, Any], relics.Modifier]]:
    pairs = [(a, relics.parse_modifier(a["modifier"], a["polarity"])) for a in activated]
    pairs = [p for p in pairs if p[1].kind == kind]
    return sorted(pairs, key=lambda p: p[1].polarity != relics.HINDERING)


# --- Steps 1-3 of the Cohort turn: leader, pool, Auto Results ------------------------------

MOTTO = "Motto"


def cohort_huddle(t: Table, ch: Challenge, leader: str | None, assists: list[str] | None,
                  uses: list[TraitUse], destiny: int, tactics: Tactics = Tactics()) -> None:
    camp, rules = t.campaign, in_play(t)
    camp.check_no_turn_elsewhere(ch.name)
    ch.expect(COHORT)
    _check_serial(t, ch)
    if tactics.buy_time:
        _buy_time(t, ch)
    if tactics.opportunity:
        _create_opportunity(t, ch, tactics.opportunity, leader)
    lead_pc = _leader(t, ch, leader)
    if lead_pc.name not in facing(t, ch):
        t.refuse(f"{lead_pc.name} is not facing {ch.name}.")
    rank = lead_pc.rank(ch.type)
    lead = t.allow(lambda: relics.lead_dice(rules, rank, lead_pc.primary == ch.type),
                   fallback=rules.lead_dice.get(rank, 0))
    contributors = [{"pc": lead_pc.name, "role": "lead", "dice": lead}]
    for pc in _assists(t, ch, lead_pc.name, assists):
        contributors.append({"pc": pc.name, "role": "assist", "dice": relics.assist_dice(rules, pc.rank(ch.type))})
    camp.turn_began(ch.name, COHORT, ch.round)
    if ch.leader != lead_pc.name:
        ch.leader_chosen(lead_pc.name, ch.round)
    activated = activate(t, ch, uses, COHORT)
    if tactics.supplies:
        _spend_supplies(t, ch, *tactics.supplies)
    activated += _supplies(t, ch)
    if tactics.gm_motto:
        activated.append(_gm_motto(t, ch, tactics.gm_motto))
    cap = rules.pool_cap_per_pc * len(t.pcs_in_game())
    adds = [m for _, m in _modifiers(activated, "add")]
    expertise = sum(c["dice"] for c in contributors)
    pool = t.allow(lambda: relics.build_cohort_pool(expertise, adds, destiny, camp.destiny, cap))
    if pool is None:  # the GM allowed more Destiny or dice than the rules do
        pool = relics.build_cohort_pool(expertise, adds, destiny, destiny, max(cap, expertise + destiny + 99))
    if min(destiny, camp.destiny):
        camp.destiny_spent(ch.name, min(destiny, camp.destiny))
    _build(ch, COHORT, pool.size, contributors, activated, vars(pool), ())


def _leader(t: Table, ch: Challenge, name: str | None):
    """One leader per Challenge until it is resolved; a Stressed Out one is replaced (000 step 2)."""
    current = t.pc(ch.leader) if ch.leader else None
    still_leads = current is not None and not current.stressed_out and not current.out and not current.retired
    if name is None:
        if not still_leads:
            raise BadInput(f"Choose a leader for {ch.name} with --leader NAME.")
        return current
    pc = t.pc(name)
    if still_leads and pc.name != current.name:
        t.refuse(f"{current.name} leads {ch.name} until it is resolved.")
    t.allow(pc.check_can_act)
    return pc


def _assists(t: Table, ch: Challenge, leader: str, names: list[str] | None):
    away = t.campaign.opportunities.get(f"{ch.name}:{ch.round}")
    if names is None:
        return [t.pc(n) for n in facing(t, ch) if n not in (leader, away) and not t.pc(n).stressed_out]
    chosen = []
    for name in names:
        pc = t.pc(name)
        t.allow(pc.check_can_act)
        if pc.name == away:
            t.refuse(f"{pc.name} is creating an opportunity and contributes nothing this round.")
        if pc.name not in facing(t, ch):
            t.refuse(f"{pc.name} is not facing {ch.name}.")
        if pc.name == leader or pc in chosen:
            raise BadInput(f"{pc.name} is named twice in the Cohort.")
        chosen.append(pc)
    return chosen


def _check_serial(t: Table, ch: Challenge) -> None:
    """In a serial Event the Challenges are faced one after another, in the order opened."""
    event_ = t.campaign.encounter
    if not event_ or event_["mode"] != "serial" or ch.name not in event_["challenges"]:
        return
    first = next((n for n in event_["challenges"] if not t.challenge(n).finished), ch.name)
    if first != ch.name:
        t.refuse(f"{ch.name} must wait: in this serial Event, {first} comes first.")


def _buy_time(t: Table, ch: Challenge) -> None:
    """Buy Time: 1 Destiny at the start of the Cohort turn, one more round (not for a Test)."""
    if ch.rounds_left is None:  # nothing to buy: no override can make it timed
        raise RuleViolation(f"{ch.name} is a Test; a Test cannot buy time." if ch.test else
                            f"{ch.name} is not timed; there is no time to buy.")
    pay(t, "destiny", f"The Cohort buys time against {ch.name}")
    ch.time_bought(ch.round, (ch.rounds_left or 0) + 1)


def _create_opportunity(t: Table, ch: Challenge, name: str, leader: str | None) -> None:
    """Create an Opportunity: once a round; that PC contributes nothing; +1 Destiny at round end."""
    pc = t.pc(name)
    t.allow(pc.check_can_act)
    if pc.name not in facing(t, ch):  # as a leader or an assist: no Destiny from a Challenge one is not in
        t.refuse(f"{pc.name} is not facing {ch.name}.")
    if f"{ch.name}:{ch.round}" in t.campaign.opportunities:
        t.refuse(f"An opportunity was already created in {ch.name} round {ch.round}.")
    if pc.name in (leader, ch.leader) and leader in (None, pc.name):
        t.refuse(f"{pc.name} leads {ch.name} and cannot also create an opportunity.")
    t.campaign.opportunity_created(ch.name, ch.round, pc.name)


def _spend_supplies(t: Table, ch: Challenge, type_: str, rank: int, traded: bool) -> None:
    """One matching Supplies resource per Challenge, lasting the whole Challenge (001 "Supplies")."""
    type_ = relics.canonical(type_, relics.TYPES, "type of Supplies")
    if ch.supplies:
        t.refuse(f"{ch.name} already has the Cohort's Supplies; only one per Challenge.")
    if type_ != ch.type:
        t.refuse(f"{type_} Supplies do not match a {ch.type} Challenge.")
    relics.ranked_simple(in_play(t), rank)  # the rank must exist
    ch.supplies_spent(ch.round, type_, rank, traded)


def _supplies(t: Table, ch: Challenge) -> list[dict[str, Any]]:
    if not ch.supplies:
        return []
    rank = ch.supplies["rank"]
    mod = relics.ranked_simple(in_play(t), rank) if ch.supplies["traded"] else relics.ranked_add(rank)
    return [{"label": f"{traits.COHORT}:Supplies", "modifier": str(mod), "polarity": mod.polarity}]


def _gm_motto(t: Table, ch: Challenge, name: str) -> dict[str, Any]:
    """The GM spends a Doom to activate a PC's Motto as A1 / 1d on the Cohort turn (once a scenario)."""
    owner, trait, _ = traits.find(t, ch, name, MOTTO)
    t.allow(t.pc(owner).check_in_game)
    gm_version = {**trait, "name": f"{MOTTO} (GM)", "frequency": "scenario"}
    traits.check_use(t, ch, owner, gm_version)
    destiny, doom = t.allow(lambda: t.campaign.pay("doom", gm=True), fallback=(0, 0))
    t.campaign.trait_activated(owner, gm_version["name"], str(relics.GM_MOTTO), ch.name, "doom", destiny, doom)
    traits.record_use(t, ch, owner, gm_version)
    return {"label": f"{owner}:{gm_version['name']}", "modifier": str(relics.GM_MOTTO),
            "polarity": relics.GM_MOTTO.polarity}


def _build(ch: Challenge, side: str, size: int, contributors: list, activated: list,
           pool: dict, base_autos: tuple[int, ...]) -> None:
    autos = _modifiers(activated, "auto")
    hindering = [m for _, m in autos if m.polarity == relics.HINDERING]
    beneficial = [m for _, m in autos if m.polarity == relics.BENEFICIAL]
    placed, lost = relics.place_auto_results(size, hindering, beneficial, base_autos)
    simple = [a for a, _ in _modifiers(activated, "simple")]
    ch.pool_built(side, ch.round, contributors, activated, pool, list(placed), lost, simple)


# --- The Challenge turn's pool (000 Challenge Turn steps 1-3) -------------------------------

def challenge_huddle(t: Table, ch: Challenge, uses: list[TraitUse]) -> None:
    t.campaign.check_no_turn_elsewhere(ch.name)
    ch.expect(CHALLENGE)
    t.campaign.turn_began(ch.name, CHALLENGE, ch.round)
    activated = activate(t, ch, uses, CHALLENGE)
    adds = [m for _, m in _modifiers(activated, "add")]
    if adds:
        t.refuse(f"The Challenge pool is its rating ({ch.rating}); Add Dice do not change it.")
    size = max(0, ch.rating + sum(m.signed for m in adds))
    base = relics.threat_autos(in_play(t), ch.threat, ch.resolved)
    _build(ch, CHALLENGE, size, [], activated, {"size": size, "resolved": ch.resolved}, base)
