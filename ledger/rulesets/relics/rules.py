"""Relics of the Moon: the rules as pure functions over plain values.

Sources: seed 000 (playtest v0.2.0, the step-by-step procedure) and seed 001 (cheat
sheet v0.6.1), with the rulings in shared/RULES.md. Versions are data (`VERSIONS`),
so a campaign begun under 0.2.0 replays under 0.2.0 forever. No I/O, no randomness,
no eventsourcing: the aggregates call these and store what they return.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping, Sequence

from ledger.errors import BadInput, RuleViolation

TYPES = ("Scav", "Venger", "Phantom", "Stallion", "Sparrow")
THREATS = ("Common", "Minor", "Major", "Extreme", "Ultimate")
BENEFICIAL, HINDERING = "beneficial", "hindering"
FREQUENCIES = ("always", "round", "scene", "scenario")  # how often a trait may be used (001 traits)
DURATIONS = ("round", "challenge", "event", "scene", "scenario", "semi-permanent")  # how long one lasts


@dataclass(frozen=True)
class RulesVersion:
    """Every number that differs between versions, or that a house rule may amend."""

    version: str
    threat_auto: Mapping[str, int]
    lead_dice: Mapping[int, int]
    primary_lead_dice: int | None  # 0.2.0: a matching Primary Expertise leads with +3d6
    assist_dice: Mapping[int, int]
    destiny_per_overpowering: int | None  # None: one per PC in the Cohort (0.2.0)
    ranked_simple: Mapping[int, tuple[int, int]] = field(default_factory=lambda: {
        1: (1, 1), 2: (1, 2), 3: (2, 2), 4: (2, 3), 5: (3, 3)})  # RULES.md ruling
    stressed_out_at: int = 10
    agony_out_at: int = 5
    pool_cap_per_pc: int = 3
    destiny_cap_per_pc: int = 3


_ASSIST = {5: 4, 4: 3, 3: 2, 2: 1, 1: 1}  # 001 Expertise table; 000 gives no other
VERSIONS: dict[str, RulesVersion] = {
    "0.6.1": RulesVersion(
        version="0.6.1",
        threat_auto={"Common": 3, "Minor": 4, "Major": 5, "Extreme": 6, "Ultimate": 7},
        lead_dice={5: 5, 4: 4, 3: 3, 2: 2},
        primary_lead_dice=None,
        assist_dice=_ASSIST,
        destiny_per_overpowering=3,
    ),
    "0.2.0": RulesVersion(
        version="0.2.0",
        threat_auto={"Common": 4, "Minor": 5, "Major": 6, "Extreme": 7, "Ultimate": 8},
        lead_dice={5: 3, 4: 3, 3: 3, 2: 2},  # "+3d6 is the highest possible" (000 step 2)
        primary_lead_dice=3,
        assist_dice=_ASSIST,
        destiny_per_overpowering=None,
    ),
}
DEFAULT_VERSION = "0.6.1"


HOUSE_RULES = {
    "ranked_simple": "rank=value/dice,... e.g. 1=1/1,2=1/2,3=2/2,4=2/3,5=3/3",
    "threat_auto": "Threat=face,... e.g. Common=3,Minor=4,Major=5,Extreme=6,Ultimate=7",
    "lead_dice": "rank=dice,... e.g. 5=5,4=4,3=3,2=2",
    "assist_dice": "rank=dice,... e.g. 5=4,4=3,3=2,2=1,1=1",
    "destiny_per_overpowering": "a number, or per-pc",
    "stressed_out_at": "a number", "agony_out_at": "a number",
    "pool_cap_per_pc": "a number", "destiny_cap_per_pc": "a number",
}


def house_rule(key: str, text: str) -> Any:
    """Read a house rule's value as the GM types it; the value stored is what the rules use."""
    if key not in HOUSE_RULES:
        raise BadInput(f"'{key}' is not a rule a house rule can change; choose one of {', '.join(HOUSE_RULES)}.")
    try:
        if key == "ranked_simple":
            table = {str(int(r)): [int(x) for x in v.split("/")] for r, v in _pairs(text)}
            if any(len(v) != 2 for v in table.values()):
                raise ValueError(text)
            return table
        if key == "threat_auto":
            return {canonical(t, THREATS, "Threat"): int(v) for t, v in _pairs(text)}
        if key in ("lead_dice", "assist_dice"):
            return {str(int(r)): int(v) for r, v in _pairs(text)}
        if key == "destiny_per_overpowering" and text.strip().lower() == "per-pc":
            return None
        value = int(text)
    except (ValueError, TypeError):
        raise BadInput(f"{key} is written as {HOUSE_RULES[key]}, not '{text}'.") from None
    if value < 0:
        raise BadInput(f"{key} cannot be negative.")
    return value


def _pairs(text: str) -> list[tuple[str, str]]:
    pairs = [p.partition("=") for p in text.split(",") if p.strip()]
    if not pairs or any(not equals for _, equals, _ in pairs):
        raise ValueError(text)
    return [(a.strip(), b.strip()) for a, _, b in pairs]


def with_house_rules(rules: RulesVersion, house: Mapping[str, Any]) -> RulesVersion:
    """The campaign's rules: its version, amended by the house rules in force."""
    changes: dict[str, Any] = {}
    for key, value in house.items():
        if key in ("ranked_simple", "lead_dice", "assist_dice"):
            amended = {int(r): (tuple(v) if isinstance(v, list) else v) for r, v in value.items()}
            changes[key] = {**getattr(rules, key), **amended}
        elif key == "threat_auto":
            changes[key] = {**rules.threat_auto, **value}
        else:
            changes[key] = value
    return dataclasses.replace(rules, **changes) if changes else rules


def rules_for(version: str) -> RulesVersion:
    try:
        return VERSIONS[version]
    except KeyError:
        known = ", ".join(sorted(VERSIONS))
        raise BadInput(f"Relics has no rules version '{version}'; known versions: {known}.") from None


def canonical(name: str, choices: Sequence[str], what: str) -> str:
    """Accept 'phantom' for 'Phantom': GMs type fast."""
    for choice in choices:
        if choice.lower() == name.strip().lower():
            return choice
    raise BadInput(f"'{name}' is not a {what}; choose one of {', '.join(choices)}.")


# --- Modifiers (001 "Modifiers") -----------------------------------------------------------

@dataclass(frozen=True)
class Modifier:
    """Add Dice (+2d6), Auto Result (A6 / 1d) or Simple (+1 / 2d), with its polarity."""

    kind: str  # "add" | "auto" | "simple"
    amount: int  # dice added, the auto face, or the value added/subtracted
    dice: int  # how many dice it touches (add: same as amount)
    polarity: str

    @property
    def signed(self) -> int:
        return self.amount if self.polarity == BENEFICIAL else -self.amount

    def __str__(self) -> str:
        sign = "+" if self.polarity == BENEFICIAL else "-"
        if self.kind == "add":
            return f"{sign}{self.amount}d6"
        if self.kind == "auto":
            return f"A{self.amount} / {self.dice}d"
        return f"{sign}{self.amount} / {self.dice}d"


_ADD = re.compile(r"^([+-]?)\s*(\d+)\s*d6$", re.I)
_AUTO = re.compile(r"^A\s*(\d+)\s*/\s*(\d+)\s*d$", re.I)
_SIMPLE = re.compile(r"^([+-]?)\s*(\d+)\s*/\s*(\d+)\s*d$", re.I)


def parse_modifier(text: str, polarity: str | None = None) -> Modifier:
    """Read the seeds' notation; the sign is the polarity, except for Auto Results."""
    t = text.strip()
    if polarity not in (None, BENEFICIAL, HINDERING):
        raise BadInput(f"A modifier is {BENEFICIAL} or {HINDERING}, not '{polarity}'.")
    if m := _AUTO.match(t):
        mod = Modifier("auto", int(m[1]), int(m[2]), polarity or BENEFICIAL)
    elif m := _ADD.match(t):
        mod = Modifier("add", int(m[2]), int(m[2]), _sign_polarity(m[1], polarity, t))
    elif m := _SIMPLE.match(t):
        mod = Modifier("simple", int(m[2]), int(m[3]), _sign_polarity(m[1], polarity, t))
    else:
        raise BadInput(f"'{text}' is not a modifier; write it as +2d6, -1d6, A6 / 1d, +1 / 2d or -2 / 1d.")
    if mod.amount < 1 or mod.dice < 1 or (mod.kind == "auto" and mod.amount > 9) \
            or max(mod.amount, mod.dice) > MOST_DICE:
        raise BadInput(f"'{text}' has a size the game does not use.")
    return mod


def _sign_polarity(sign: str, polarity: str | None, text: str) -> str:
    implied = HINDERING if sign == "-" else BENEFICIAL
    if polarity and polarity != implied:
        raise BadInput(f"'{text}' reads as {implied}, not {polarity}.")
    return implied


def ranked_simple(rules: RulesVersion, rank: int, polarity: str = BENEFICIAL) -> Modifier:
    """Ranked Simple modifier; the seeds' table is missing, RULES.md rules it."""
    if rank not in rules.ranked_simple:
        raise RuleViolation(f"Ranked modifiers go from rank 1 to {max(rules.ranked_simple)}, not {rank}.")
    amount, dice = rules.ranked_simple[rank]
    return Modifier("simple", amount, dice, polarity)


def ranked_add(rank: int, polarity: str = BENEFICIAL) -> Modifier:
    """Ranked Add Dice: rank n is n d6 (RULES.md; fits Supplies: rank 3 = +3d6)."""
    if not 1 <= rank <= 5:
        raise RuleViolation(f"Ranked modifiers go from rank 1 to 5, not {rank}.")
    return Modifier("add", rank, rank, polarity)


# --- Building the Cohort pool (000 step 2, 001 Expertise and Destiny) ---------------------

def lead_dice(rules: RulesVersion, rank: int, primary_matches: bool) -> int:
    """Rank 1 or none cannot lead in any version; 0.2.0 gives a matching Primary +3d6."""
    if rank not in rules.lead_dice:
        raise RuleViolation("A leader needs rank 2 or more in the Challenge's type.")
    if rules.primary_lead_dice is not None and primary_matches:
        return rules.primary_lead_dice
    return rules.lead_dice[rank]


def assist_dice(rules: RulesVersion, rank: int) -> int:
    return rules.assist_dice.get(rank, 0)


@dataclass(frozen=True)
class CohortPool:
    expertise: int
    hindering_add: int
    beneficial_add: int
    destiny: int
    size: int
    cap: int
    lost_to_cap: int


def build_cohort_pool(expertise: int, adds: Sequence[Modifier], destiny: int,
                      destiny_available: int, cap: int) -> CohortPool:
    """base = expertise - Hindering + Beneficial Add Dice, floor 0; Destiny 1:1 up to the cap."""
    hindering = sum(m.amount for m in adds if m.polarity == HINDERING)
    beneficial = sum(m.amount for m in adds if m.polarity == BENEFICIAL)
    base = max(0, expertise - hindering + beneficial)
    if destiny < 0:
        raise BadInput("Destiny spent on dice cannot be negative.")
    if destiny > destiny_available:
        raise RuleViolation(f"The Destiny pool holds {destiny_available}; you cannot spend {destiny}.")
    if destiny and base + destiny > cap:
        raise RuleViolation(f"The pool would be {base + destiny} dice; it may not exceed {cap} (3 x PCs).")
    size = min(base + destiny, cap)
    return CohortPool(expertise, hindering, beneficial, destiny, size, cap, base + destiny - size)


# --- Auto Results (000 step 3, 001 Auto Result) -------------------------------------------

def place_auto_results(size: int, hindering: Sequence[Modifier], beneficial: Sequence[Modifier],
                       base: Sequence[int] = ()) -> tuple[tuple[int, ...], int]:
    """Return the auto faces (they occupy the first dice) and how many parts were lost.

    Each part takes a die without an Auto Result while one is left, else it replaces one:
    a Hindering part the highest, a Beneficial part the lowest (A5 before A6, 000 step 3).
    """
    autos = list(base[:size])
    lost = 0
    parts = [(m.amount, HINDERING) for m in hindering for _ in range(m.dice)]
    parts += sorted((m.amount, BENEFICIAL) for m in beneficial for _ in range(m.dice))
    for value, polarity in parts:
        if len(autos) < size:
            autos.append(value)
        elif autos:
            pick = max if polarity == HINDERING else min
            autos[autos.index(pick(autos))] = value
        else:
            lost += 1
    return tuple(autos), lost


# --- Simple modifiers (000 step 5, 001 Simple) ---------------------------------------------

Placement = Mapping[int, Sequence[int]]  # modifier index -> 0-based dice positions


def apply_simple(faces: Sequence[int], mods: Sequence[Modifier], placement: Placement,
                 strict: bool = True) -> tuple[int, ...]:
    """Check a placement against the stacking rules and return the final results.

    Not `strict`: the GM has overridden the stacking rules; only dice off the pool are refused.
    """
    results = list(faces)
    for polarity in (HINDERING, BENEFICIAL):
        used: set[int] = set()
        parts = sum(m.dice for m in mods if m.polarity == polarity)
        for index, mod in enumerate(mods):
            if mod.polarity != polarity:
                continue
            dice = list(placement.get(index, ()))
            if strict:
                _check_dice(mod, dice, len(results), used)
            elif any(not 0 <= d < len(results) for d in dice):
                raise BadInput(f"The pool has dice 1 to {len(results)}; {mod} was placed off it.")
            used.update(dice)
            for d in dice:
                results[d] += mod.signed
        if strict and len(used) < min(parts, len(results)):
            raise RuleViolation(f"Every {polarity} Simple modifier must be placed while a die can take it.")
    return tuple(results)


def _check_dice(mod: Modifier, dice: list[int], size: int, used: set[int]) -> None:
    if any(not 0 <= d < size for d in dice):
        raise BadInput(f"The pool has dice 1 to {size}; {mod} was placed off it.")
    if len(set(dice)) != len(dice):
        raise RuleViolation(f"{mod} must go on {mod.dice} different dice.")
    if len(dice) > mod.dice:
        raise RuleViolation(f"{mod} goes on {mod.dice} {'die' if mod.dice == 1 else 'dice'}, not {len(dice)}.")
    if used.intersection(dice):
        raise RuleViolation(f"A die cannot carry two {mod.polarity} Simple modifiers.")


def best_placement(faces: Sequence[int], mods: Sequence[Modifier], given: Placement) -> dict[int, tuple[int, ...]]:
    """Complete a placement: each side places what it has not placed, best for itself.

    Hindering parts go where they cost the pool most, then Beneficial parts where they
    gain most: net successes first, then fewest botches, then most criticals.
    """
    placement = {i: tuple(d) for i, d in given.items()}
    for polarity, sign in ((HINDERING, -1), (BENEFICIAL, 1)):
        current = list(faces)
        for i, dice in placement.items():
            # Only dice not yet taken by this side are offered, and only the GM's pieces
            # change those: the Cohort's own pieces sit on dice it already took.
            if mods[i].polarity == HINDERING:
                for d in dice:
                    current[d] += mods[i].signed
        open_mods = [i for i, m in enumerate(mods) if m.polarity == polarity and i not in placement]
        if open_mods:
            placement.update(_optimise(current, mods, placement, polarity, open_mods, sign))
    return placement


def _optimise(current: list[int], mods: Sequence[Modifier], placement: Placement, polarity: str,
              open_mods: list[int], sign: int) -> dict[int, tuple[int, ...]]:
    taken = {d for i, ds in placement.items() if mods[i].polarity == polarity for d in ds}
    # By value, not by the order the dice came up: among equally good placements the one
    # offered then depends on the faces alone, so the odds of --best play are well defined.
    free = sorted((d for d in range(len(current)) if d not in taken), key=lambda d: current[d])
    values = sorted({mods[i].signed for i in open_mods})
    counts = tuple(sum(mods[i].dice for i in open_mods if mods[i].signed == v) for v in values)
    parts_total = sum(m.dice for m in mods if m.polarity == polarity)
    need = min(parts_total, len(current)) - len(taken)
    chosen = _assign(tuple(current[d] for d in free), tuple(values), counts, need, sign)
    result: dict[int, list[int]] = {i: [] for i in open_mods}
    for die, value in zip(free, chosen):
        if value is None:
            continue
        index = next(i for i in open_mods if mods[i].signed == value and len(result[i]) < mods[i].dice)
        result[index].append(die)
    return {i: tuple(ds) for i, ds in result.items()}


def _assign(results: tuple[int, ...], values: tuple[int, ...], counts: tuple[int, ...],
            need: int, sign: int) -> list[int | None]:
    """Exact search (memoised) for the best value per die; pools are at most 3 x PCs dice.

    A score (net successes, then fewest botches, then most criticals) is one whole number
    whose order is that of the three, so the search adds numbers, not tuples; among equal
    scores the first option (leave the die, then the values in order) is kept.
    """
    weight = 2 * len(results) + 3  # each of the last two sums stays within +-len(results)

    def score(result: int) -> int:
        s = successes_of(result)
        return sign * ((s * weight - (s < 0)) * weight + (s >= 2))

    @lru_cache(maxsize=None)
    def best(i: int, left: tuple[int, ...], need_left: int) -> tuple[int, int]:
        if i == len(results):
            return (-10**18 if need_left > 0 else 0), -1
        top, pick = None, -1
        if len(results) - i > need_left:
            top = best(i + 1, left, need_left)[0] + score(results[i])
        if need_left > 0:
            for k, v in enumerate(values):
                if left[k]:
                    total = best(i + 1, left[:k] + (left[k] - 1,) + left[k + 1:], need_left - 1)[0] \
                        + score(results[i] + v)
                    if top is None or total > top:
                        top, pick = total, k
        return top, pick  # type: ignore[return-value]

    picks: list[int | None] = []
    left, need_left = counts, min(need, sum(counts))  # need <= 0 (all taken) places nothing
    for i in range(len(results)):
        k = best(i, left, need_left)[1]
        picks.append(None if k < 0 else values[k])
        if k >= 0:
            left, need_left = left[:k] + (left[k] - 1,) + left[k + 1:], need_left - 1
    return picks


# --- Final result (000 step 6, 001 Results and Successes) ---------------------------------

def successes_of(result: int) -> int:
    if result >= 9:
        return 3
    if result >= 7:
        return 2
    if result >= 5:
        return 1
    if result >= 2:
        return 0
    return -1 if result >= 0 else -2


@dataclass(frozen=True)
class Tally:
    results: tuple[int, ...]
    successes: int
    criticals: int
    overpowering: int
    botches: int
    major_botches: int

    @property
    def disaster(self) -> bool:
        return self.successes <= -1


def tally(results: Sequence[int]) -> Tally:
    counts = [successes_of(r) for r in results]
    return Tally(tuple(results), sum(counts), counts.count(2), counts.count(3),
                 counts.count(-1), counts.count(-2))


# --- After the Cohort turn (000 steps 7-8, 001 Destiny and Doom) ---------------------------

def dice_resolved(rating: int, resolved: int, successes: int) -> int:
    """Each success resolves one die; resolved dice never exceed the rating."""
    return max(0, min(successes, rating - resolved))


def tides(rules: RulesVersion, result: Tally, threat: str, pcs: int) -> tuple[int, int]:
    """Destiny and Doom gained on a Cohort turn; none against a Common Threat."""
    if threat == "Common":
        return 0, 0
    per_over = pcs if rules.destiny_per_overpowering is None else rules.destiny_per_overpowering
    destiny = result.criticals + per_over * result.overpowering
    doom = result.botches + result.major_botches + result.overpowering
    return destiny, doom


def cap_destiny(current: int, gain: int, cap: int) -> tuple[int, int]:
    """Return (applied, lost): Destiny never exceeds 3 x PCs and the excess is lost."""
    applied = max(0, min(gain, cap - current))
    return applied, gain - applied


# --- The Challenge turn (000 Challenge Turn, 001 Facing a Challenge) -----------------------

def threat_autos(rules: RulesVersion, threat: str, resolved: int) -> tuple[int, ...]:
    return (rules.threat_auto[threat],) * resolved


def check_distribution(stress: int, distribution: Mapping[str, int], group: Sequence[str],
                       what: str | None = None) -> None:
    """A distribution of Stress (taken or recovered) names the PCs concerned and adds up."""
    strangers = [name for name in distribution if name not in group]
    if strangers:
        raise RuleViolation(f"{strangers[0]} is not facing this Challenge and cannot take its Stress." if what is None
                            else f"{strangers[0]} is not among the PCs in play.")
    if any(n < 0 for n in distribution.values()):
        raise BadInput("Stress given to a PC cannot be negative.")
    if sum(distribution.values()) != stress:
        raise RuleViolation(f"{what or f'The Challenge scored {stress} Stress'}; the distribution adds up to "
                            f"{sum(distribution.values())}.")


# --- Stress and Agony (001 Stress and Agony) -----------------------------------------------

def stressed_out(rules: RulesVersion, stress: int) -> bool:
    return stress >= rules.stressed_out_at


def push_the_limit(rules: RulesVersion, stress: int) -> int:
    """Stress rolls over: 12 becomes 2."""
    if stress < rules.stressed_out_at:
        raise RuleViolation(f"Only a Stressed Out PC ({rules.stressed_out_at}+ Stress) can Push the Limit.")
    return stress - rules.stressed_out_at


def out_of_the_game(rules: RulesVersion, agony: int) -> bool:
    return agony >= rules.agony_out_at


# --- Named rules (001 "Motto and Rallying Cry", "The Hand of Doom", "Removing Stress/Agony") -----

MOTTO = Modifier("auto", 6, 1, BENEFICIAL)  # A6 / 1d while the PC leads
GM_MOTTO = Modifier("auto", 1, 1, HINDERING)  # the GM's Doom turns a Motto into A1 / 1d
RALLYING_CRY = Modifier("auto", 6, 1, BENEFICIAL)
HAND_OF_DOOM_COST = 5
HAND_OF_DOOM_STRESS = 2  # unavoidable, for each PC
DOWNTIME_STRESS = 3  # extended downtime, for each PC
MOST_DICE = 100  # no seed caps a rating or a pool; past this it is a typo, and the program would roll it


def set_recovery(stallion_ranks: Sequence[int]) -> int:
    """The set amount at a Scene's end: 1 Stress per PC with Stallion rank 2+."""
    return sum(1 for rank in stallion_ranks if rank >= 2)


def growth_bonus(rules: RulesVersion, agony: int) -> list[Modifier]:
    """k Agony add one Beneficial ranked Simple modifier of rank k (ruling; at most rank 5)."""
    return [ranked_simple(rules, min(agony, max(rules.ranked_simple)))] if agony else []
