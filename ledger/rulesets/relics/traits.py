"""Traits at the table: whose they are, when they may be used, and when they run out.

A trait belongs to a PC, to the Cohort, or to a Challenge. Permanent ones sit on their
owner; temporary ones (from a Disaster, the Hand of Doom, Check This Out, Agony) sit on
the campaign with the scope they expire with, so one place ends them all. Frequency
limits (once a round, a scene, a scenario) are checked against the scope of last use.
"""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.errors import BadInput, NotFound, RuleViolation
from campaign_ledger.ledger import values
from campaign_ledger.ledger.rulesets.relics import rules as relics
from campaign_ledger.ledger.table import Table

COHORT = "Cohort"
TARGETS = ("cohort", "challenge")
RALLYING_CRY = {"name": "Rallying Cry", "modifier": str(relics.RALLYING_CRY),
                "polarity": relics.RALLYING_CRY.polarity, "cost": "destiny-or-doom", "target": "cohort",
                "frequency": "scenario", "types": []}


def pool(mod: relics.Modifier, target: str | None, challenge_side: bool) -> str:
    """The pool a new trait modifies: the one its maker names, else the seeds' rule (001 "Modifiers"):
    a Beneficial modifier helps its owner's own pool, a Hindering one the opposition's (the
    Challenge's -2 / 2d of 000's worked example lands on the Cohort's dice). Hindering Add Dice of
    the Cohort's side stay on the Cohort pool: a Challenge's pool is its rating, never changed by Add
    Dice. `trait add` and `roster load` both ask here, so the two ways give a trait the same pool."""
    if target is None:
        own, opposition = ("challenge", "cohort") if challenge_side else ("cohort", "challenge")
        target = own if mod.polarity == relics.BENEFICIAL or mod.kind == "add" and not challenge_side else opposition
    if target not in TARGETS:
        raise BadInput(f"A trait targets the cohort or the challenge pool, not '{target}'.")
    if mod.kind == "add" and target == "challenge":
        raise RuleViolation("Add Dice never change a Challenge pool; it is the Challenge's rating.")
    return target


def scope(t: Table, ch: Challenge | None, kind: str) -> str | None:
    """The key of the scope a use or a duration belongs to now (None: never ends by itself)."""
    camp = t.campaign
    if kind in ("round",) and ch is not None:
        return f"{ch.name}:{ch.round}"
    if kind == "challenge" and ch is not None:
        return f"challenge {ch.name}"
    if kind == "event" and camp.encounter is not None:
        return f"event {camp.encounter['number']}"
    if kind in ("event", "scene") and camp.scene is not None:
        return f"scene {camp.scene['number']}"
    if kind in ("round", "challenge", "event", "scene", "scenario"):
        return f"scenario {camp.scenario_number}"
    return None


def find(t: Table, ch: Challenge, owner: str, name: str) -> tuple[str, dict[str, Any], bool]:
    """(owner's name, the trait, whether the GM pays for it) for `OWNER:TRAIT`."""
    wanted = name.strip().casefold()
    label = owner.strip()
    gm = label.casefold() == ch.name.casefold()
    if label.casefold() == COHORT.casefold():
        label, permanent = COHORT, dict(t.campaign.cohort_traits)
        permanent.setdefault(RALLYING_CRY["name"].casefold(), RALLYING_CRY)
    elif gm:
        label, permanent = ch.name, ch.traits
    else:
        pc = t.pc(label)
        label, permanent = pc.name, pc.traits
    if wanted in permanent:
        return label, permanent[wanted], gm
    for trait in t.campaign.temporary:
        if trait["owner"].casefold() == label.casefold() and trait["name"].casefold() == wanted:
            return label, trait, gm
    raise NotFound(f"{label} has no trait named '{name.strip()}'.")


def check_use(t: Table, ch: Challenge | None, label: str, trait: dict[str, Any]) -> None:
    """The trait's Challenge types and its frequency limit (each refusal a GM may override)."""
    types = trait.get("types") or []
    if types and ch is not None and ch.type not in types:
        t.refuse(f"{label}:{trait['name']} applies to {', '.join(types)} Challenges, not {ch.type}.")
    frequency = trait.get("frequency", "always")
    if frequency != "always":
        last = t.campaign.uses.get(f"{label}:{trait['name']}".casefold())
        if last is not None and last == scope(t, ch, frequency):
            t.refuse(f"{label}:{trait['name']} is once a {frequency} and was used this {frequency}.")


def record_use(t: Table, ch: Challenge | None, label: str, trait: dict[str, Any]) -> None:
    frequency = trait.get("frequency", "always")
    if frequency != "always":
        t.campaign.trait_used(f"{label}:{trait['name']}", scope(t, ch, frequency))


def create(t: Table, ch: Challenge | None, owner: str, name: str, modifier: str, polarity: str | None,
           target: str, duration: str, source: str) -> dict[str, Any]:
    """A temporary trait (free to activate) that ends with its scope."""
    if duration not in relics.DURATIONS:
        raise BadInput(f"A trait lasts a {', a '.join(relics.DURATIONS)}; not '{duration}'.")
    mod = relics.parse_modifier(modifier, polarity)
    name = values.name(name, "A trait's name")
    trait = {"owner": owner, "name": name, "modifier": str(mod), "polarity": mod.polarity, "cost": "free",
             "target": target, "frequency": "always", "types": [], "duration": duration,
             "expires": scope(t, ch, duration) if duration != "semi-permanent" else None, "source": source}
    check_free(t, owner, trait["name"])
    t.campaign.temporary_trait_created(owner, trait)
    return trait


def check_free(t: Table, owner: str, name: str, holder: dict[str, Any] | None = None) -> None:
    """One trait of a name per owner, permanent and temporary alike: the read tables key traits
    by owner and name, so a second one would be an entry they cannot apply (issue 16).
    `holder` is the owner's own traits when the name alone could mean a PC or a Challenge."""
    wanted = name.strip().casefold()
    temporary = any(x["owner"].casefold() == owner.casefold() and x["name"].casefold() == wanted
                    for x in t.campaign.temporary)
    if temporary or wanted in _permanent(t, owner) or wanted in (holder or {}):
        raise RuleViolation(f"{owner} already has a trait named '{name.strip()}'.")


def check_new_owner(t: Table, name: str) -> None:
    """A new PC's or Challenge's name must not already mean another owner of traits: OWNER:TRAIT,
    trait add and the read tables all find an owner by its name (the Cohort, a PC, then a Challenge)."""
    from campaign_ledger.ledger.ids import challenge_id, pc_id
    if name.strip().casefold() == COHORT.casefold():
        raise BadInput(f"'{name.strip()}' is the Cohort's name; choose another.")
    if t.exists(pc_id(t.pc_key(name))) or t.exists(challenge_id(name)):
        raise RuleViolation(f"'{name.strip()}' already names a PC or a Challenge; choose another name.")


def _permanent(t: Table, owner: str) -> dict[str, Any]:
    """The permanent traits of the owner a name means, looked up as the read tables do (a PC first)."""
    from campaign_ledger.ledger.ids import challenge_id, pc_id
    if owner.casefold() == COHORT.casefold():
        return {**t.campaign.cohort_traits, RALLYING_CRY["name"].casefold(): RALLYING_CRY}
    if t.exists(pc_id(t.pc_key(owner))):
        return t.pc(owner).traits
    if t.exists(challenge_id(owner)):
        return t.challenge(owner).traits
    return {}


def expire(t: Table, key: str | None) -> None:
    """End every temporary trait whose scope just closed."""
    if key is None:
        return
    for trait in list(t.campaign.temporary):
        if trait.get("expires") == key:
            t.campaign.trait_expired(trait["owner"], trait["name"], key)
