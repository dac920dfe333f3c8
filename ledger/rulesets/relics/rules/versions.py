"""Relics of the Moon: the rules versions, the house rules that amend them, the game's named choices.

Versions are data (`VERSIONS`), so a campaign begun under 0.2.0 replays under 0.2.0 forever;
a house rule changes a number from its entry on, never the version. Seeds 000 (0.2.0) and 001
(0.6.1), rulings from shared/RULES.md.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from campaign_ledger.ledger.errors import BadInput

TYPES = ("Scav", "Venger", "Phantom", "Stallion", "Sparrow")
THREATS = ("Common", "Minor", "Major", "Extreme", "Ultimate")
FREQUENCIES = ("always", "round", "scene", "scenario")  # how often a trait may be used (001 traits)
DURATIONS = ("round", "challenge", "event", "scene", "scenario", "semi-permanent")  # how long one lasts
MOST_DICE = 100  # no seed caps a rating or a pool; past this it is a typo, and the program would roll it


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
