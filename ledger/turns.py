"""The steps of a round at the table (000 "Resolving a Challenge", steps 1-10).

Each step checks the rules, then records events on the aggregates it touches. A
command runs as many steps as its input allows, so a turn can be played in one
command or one step at a time; what is still missing is reported, not guessed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ledger import dice, traits
from ledger.challenge import CHALLENGE, COHORT, Challenge
from ledger.errors import BadInput, RuleViolation
from ledger.rules import relics
from ledger.table import Table


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


# --- Step 1: the Huddle --------------------------------------------------------------------

def activate(t: Table, ch: Challenge, uses: list[TraitUse], target: str) -> list[dict[str, Any]]:
    """Pay each trait's cost now, in the Huddle, in the same command (000 step 1)."""
    activated: list[dict[str, Any]] = []
    for use in uses:
        owner, trait, gm = traits.find(t, ch, use.owner, use.name)
        if owner not in (traits.COHORT, ch.name):
            t.allow(t.pc(owner).check_can_act)
        label = f"{owner}:{trait['name']}"
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

def cohort_huddle(t: Table, ch: Challenge, leader: str | None, assists: list[str] | None,
                  uses: list[TraitUse], destiny: int) -> None:
    camp, rules = t.campaign, t.rules
    camp.check_no_turn_elsewhere(ch.name)
    ch.expect(COHORT)
    lead_pc = _leader(t, ch, leader)
    rank = lead_pc.rank(ch.type)
    lead = t.allow(lambda: relics.lead_dice(rules, rank, lead_pc.primary == ch.type),
                   fallback=rules.lead_dice.get(rank, 0))
    contributors = [{"pc": lead_pc.name, "role": "lead", "dice": lead}]
    for pc in _assists(t, lead_pc.name, assists):
        contributors.append({"pc": pc.name, "role": "assist", "dice": relics.assist_dice(rules, pc.rank(ch.type))})
    camp.turn_began(ch.name, COHORT, ch.round)
    if ch.leader != lead_pc.name:
        ch.leader_chosen(lead_pc.name, ch.round)
    activated = activate(t, ch, uses, COHORT)
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


def _assists(t: Table, leader: str, names: list[str] | None):
    if names is None:
        return [pc for pc in t.pcs_in_game() if pc.name != leader and not pc.stressed_out]
    chosen = []
    for name in names:
        pc = t.pc(name)
        t.allow(pc.check_can_act)
        if pc.name == leader or pc in chosen:
            raise BadInput(f"{pc.name} is named twice in the Cohort.")
        chosen.append(pc)
    return chosen


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
    base = relics.threat_autos(t.rules, ch.threat, ch.resolved)
    _build(ch, CHALLENGE, size, [], activated, {"size": size, "resolved": ch.resolved}, base)


# --- Step 4: roll ----------------------------------------------------------------------------

def roll(t: Table, ch: Challenge, throw: Throw) -> None:
    side = _side(ch)
    ch.expect(f"{side}-roll")
    pending = ch.pending or {}
    count = pending["pool"]["size"] - len(pending["autos"])
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
            raise BadInput(f"No Simple modifier '{label}' is in this pool (in it: {names}).")
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
    result = relics.tally(results)
    ch.round_tallied(side, ch.round, list(results), result.successes, result.criticals,
                     result.overpowering, result.botches, result.major_botches, result.disaster)
    if result.disaster:
        ch.disaster_struck(side, ch.round)
    if side == COHORT:
        _after_cohort(t, ch, result)
    elif result.successes <= 0:
        t.campaign.turn_ended(ch.name, CHALLENGE, ch.round - 1)


# --- Steps 7-8 of the Cohort turn: resolve dice, the Tides ---------------------------------

def _after_cohort(t: Table, ch: Challenge, result: relics.Tally) -> None:
    camp, round_ = t.campaign, ch.round
    resolved = relics.dice_resolved(ch.rating, ch.resolved, result.successes)
    if resolved:
        ch.dice_resolved(round_, resolved, ch.resolved + resolved)
    pcs = len(t.pcs_in_game())
    destiny, doom = relics.tides(t.rules, result, ch.threat, pcs)
    if destiny or doom:
        applied, lost = relics.cap_destiny(camp.destiny, destiny, t.rules.destiny_cap_per_pc * pcs)
        camp.tides_shifted(ch.name, round_, applied, doom, lost)
    if ch.unresolved == 0:
        ch.became_resolved(round_)
    camp.turn_ended(ch.name, COHORT, round_)


# --- Step 7 of the Challenge turn: Stress ----------------------------------------------------

def distribute(t: Table, ch: Challenge, stress: dict[str, int] | None) -> bool:
    """Apply the Challenge's Stress by the Cohort's distribution; wait for one if needed."""
    ch.expect("challenge-stress")
    amount = (ch.pending or {})["stress"]
    group = [pc.name for pc in t.pcs_in_game()]
    if stress is None:
        if len(group) != 1:
            return False
        stress = {group[0]: amount}
    named = {t.pc(name).name: n for name, n in stress.items()}
    t.allow(lambda: relics.check_distribution(amount, named, group))
    for name, n in named.items():
        if n:
            t.pc(name).take_stress(t.rules, n, ch.name, ch.round)
    ch.stress_distributed(ch.round, named)
    t.campaign.turn_ended(ch.name, CHALLENGE, ch.round - 1)
    return True


# --- Running as many steps as the input allows ------------------------------------------------

def advance(t: Table, ch: Challenge, throw: Throw, placing: Placing, stress: dict[str, int] | None) -> dict[str, Any]:
    """Run the steps the input allows; the report says where the table now waits."""
    report: dict[str, Any] = {"challenge": ch.name, "round": ch.round, "side": (ch.pending or {}).get("side"),
                              "unit": f"{ch.name}:{ch.round}", "pool": dict(ch.pending or {})}
    if ch.phase.endswith("-roll") and throw.given:
        roll(t, ch, throw)
    if ch.phase.endswith("-place"):
        report["pool"] = dict(ch.pending or {})
        if not place(t, ch, placing):
            report["offered"] = {str(i): [d + 1 for d in ds] for i, ds in offer(ch, placing).items()}
    if ch.phase == "challenge-stress":
        report["pool"] = dict(ch.pending or {})
        if stress is not None or len(t.pcs_in_game()) == 1:
            distribute(t, ch, stress)
    report.update(phase=ch.phase, resolved=ch.resolved, rating=ch.rating,
                  destiny=t.campaign.destiny, doom=t.campaign.doom)
    return report
