"""The steps of a round at the table (000 "Resolving a Challenge", steps 1-10).

Each step checks the rules, then records events on the aggregates it touches. A
command runs as many steps as its input allows, so a turn can be played in one
command or one step at a time; what is still missing is reported, not guessed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ledger import dice
from ledger.rulesets.relics import traits
from ledger.rulesets.relics.challenge import CHALLENGE, COHORT, NEXT_STEP, Challenge
from ledger.errors import BadInput, NotFound, RuleViolation
from ledger.rulesets.relics import rules as relics
from ledger.table import Table
from ledger.rulesets.relics.house_rules import in_play
from ledger.rulesets.relics.tally import tally_of


@dataclass(frozen=True)
class TraitUse:
    """`Kira:Blaster=doom`: whose trait, which, and how a Destiny-or-Doom cost is paid."""

    owner: str
    name: str
    paid: str | None = None


@dataclass(frozen=True)
class Throw:
    """What the table says about the dice: entered faces, 'roll them', or not yet."""

    faces: tuple[int, ...] | None = None
    roll: bool = False

    @property
    def given(self) -> bool:
        return self.faces is not None or self.roll


@dataclass(frozen=True)
class Placing:
    """Simple modifier placements by trait label (1-based dice), and whether to complete them."""

    given: tuple[tuple[str, tuple[int, ...]], ...] = ()
    best: bool = False

    @property
    def stated(self) -> bool:
        return bool(self.given) or self.best


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
    still_leads = current is not None and not current.stressed_out and not current.out
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


# --- Step 4: roll ----------------------------------------------------------------------------

def roll(t: Table, ch: Challenge, throw: Throw) -> None:
    side = _side(ch)
    ch.expect(f"{side}-roll")
    pending = ch.pending or {}
    count = pending["pool"]["size"] - len(pending["autos"])
    if throw.faces is not None and len(throw.faces) != count and pending["autos"]:
        raise BadInput(f"This pool rolls {count} {'die' if count == 1 else 'dice'}: {pending['pool']['size']} in "
                       f"the pool, {len(pending['autos'])} of them auto results {pending['autos']} that are not "
                       f"rolled; you entered {len(throw.faces)} {'face' if len(throw.faces) == 1 else 'faces'}.")
    rolled = dice.entered(throw.faces, count) if throw.faces is not None else t.dice.roll(count)
    ch.pool_rolled(side, ch.round, list(rolled.faces), rolled.entered)


def _side(ch: Challenge) -> str:
    return ch.pending["side"] if ch.pending else (COHORT if ch.phase.startswith(COHORT) else CHALLENGE)


# --- Steps 5-6: Simple modifiers and the final result ---------------------------------------

def pool_dice(ch: Challenge) -> list[int]:
    pending = ch.pending or {}
    return list(pending.get("autos", [])) + list(pending.get("faces", []))


def offer(ch: Challenge, placing: Placing) -> dict[int, tuple[int, ...]]:
    """The placement the program offers: the given parts, the rest best for each side."""
    mods = [relics.parse_modifier(a["modifier"], a["polarity"]) for a in (ch.pending or {})["simple"]]
    given = _given(ch, placing)
    return relics.best_placement(pool_dice(ch), mods, given)


def _given(ch: Challenge, placing: Placing) -> dict[int, tuple[int, ...]]:
    simple = (ch.pending or {})["simple"]
    given: dict[int, tuple[int, ...]] = {}
    for label, positions in placing.given:
        matches = [i for i, a in enumerate(simple) if _label_matches(a["label"], label)]
        if not matches:
            names = ", ".join(a["label"] for a in simple) or "none"
            raise NotFound(f"No Simple modifier '{label}' is in this pool (in it: {names}).")
        if len(matches) > 1:
            raise BadInput(f"'{label}' names more than one modifier; write OWNER:TRAIT.")
        given[matches[0]] = tuple(p - 1 for p in positions)
    return given


def _label_matches(label: str, wanted: str) -> bool:
    wanted = wanted.strip().casefold()
    return label.casefold() == wanted or label.split(":", 1)[1].casefold() == wanted


def place(t: Table, ch: Challenge, placing: Placing) -> bool:
    """Place and tally if the placement is stated (or nothing needs placing); else wait."""
    side = _side(ch)
    ch.expect(f"{side}-place")
    simple = (ch.pending or {})["simple"]
    if simple and not placing.stated:
        return False
    mods = [relics.parse_modifier(a["modifier"], a["polarity"]) for a in simple]
    placement = offer(ch, placing) if placing.best else _given(ch, placing)
    dice = pool_dice(ch)
    results = t.allow(lambda: relics.apply_simple(dice, mods, placement),
                      fallback=relics.apply_simple(dice, mods, placement, strict=False))
    if simple:
        labels = {simple[i]["label"]: list(d) for i, d in placement.items()}
        ch.modifiers_placed(side, ch.round, labels, list(results), placing.best)
    _tally(t, ch, side, results)
    return True


def _tally(t: Table, ch: Challenge, side: str, results: tuple[int, ...]) -> None:
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
    named = {t.pc(name).name: n for name, n in stress.items()}
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
    return [name for name in in_game if name in ch.group] if ch.group else in_game


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


# --- Running as many steps as the input allows ------------------------------------------------

def advance(t: Table, ch: Challenge, throw: Throw, placing: Placing, stress: dict[str, int] | None,
            stop_before: str | None = None) -> dict[str, Any]:
    """Run the steps the input allows; the report says where the table now waits.

    `stop_before` ("place" or "stress") keeps a refused command's program roll without
    guessing the step that was refused (not even the lone PC's Stress).
    """
    report: dict[str, Any] = {"challenge": ch.name, "round": ch.round, "side": (ch.pending or {}).get("side"),
                              "unit": f"{ch.name}:{ch.round}", "pool": dict(ch.pending or {})}
    if ch.phase.endswith("-roll") and throw.given:
        check_before_rolling(t, ch, placing, stress)
        roll(t, ch, throw)
    if ch.phase.endswith("-place") and stop_before != "place":
        report["pool"] = dict(ch.pending or {})
        if not place(t, ch, placing):
            report["offered"] = {str(i): [d + 1 for d in ds] for i, ds in offer(ch, placing).items()}
    if ch.phase == "challenge-stress" and stop_before is None:
        report["pool"] = dict(ch.pending or {})
        if stress is not None or len(t.pcs_in_game()) == 1:
            distribute(t, ch, stress)
    report.update(phase=ch.phase, resolved=ch.resolved, rating=ch.rating,
                  destiny=t.campaign.destiny, doom=t.campaign.doom, tally=tally_of(t, ch, report["pool"]))
    return report



# --- A program roll is a fact (issue: a refused command must not let the dice be thrown again) ----

def check_before_rolling(t: Table, ch: Challenge, placing: Placing, stress: dict[str, int] | None) -> None:
    """Refuse what the dice cannot change before they are thrown: placements name modifiers of this
    pool and fit its stacking rules (which never depend on the faces), and Stress goes to PCs facing
    the Challenge. Only the Stress total is left to check after the roll. A GM override checks later."""
    if t.override is not None:
        return
    pending = ch.pending or {}
    simple = pending.get("simple", [])
    given = _given(ch, placing)
    if simple and given and not placing.best:
        size = pending["pool"]["size"]
        mods = [relics.parse_modifier(a["modifier"], a["polarity"]) for a in simple]
        relics.apply_simple((1,) * size, mods, given)
    if stress is not None and _side(ch) == CHALLENGE:
        group = facing(t, ch)
        named = {t.pc(name).name: n for name, n in stress.items()}
        relics.check_distribution(sum(named.values()), named, group)


def roll_stands(report: dict[str, Any]) -> dict[str, Any]:
    """A kept roll's report, saying what the turn waits for now (the refusal says the roll stands)."""
    return {**report, "stands": f"{report['challenge']} is waiting for {NEXT_STEP[report['phase']]} "
                                "(see `campaign status`)."}
