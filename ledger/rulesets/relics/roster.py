"""Loading a Relics roster (issue 13): PCs with their traits, and a bestiary of Challenges, all in
one command (one unit: one undo takes it all back). Every value is checked before anything is
recorded, and a refusal names the file's line and key."""
from __future__ import annotations

from typing import Any, Callable

from campaign_ledger.ledger import values
from campaign_ledger.ledger.errors import BadInput, LedgerError, RuleViolation
from campaign_ledger.ledger.ids import challenge_id, pc_id
from campaign_ledger.ledger.roster import Path, Roster
from campaign_ledger.ledger.rulesets.relics import rules as relics
from campaign_ledger.ledger.rulesets.relics import traits as trait_rules
from campaign_ledger.ledger.rulesets.relics.bestiary import BESTIARY_ID, Bestiary
from campaign_ledger.ledger.rulesets.relics.character import Character, expertise_ranks, primary_type
from campaign_ledger.ledger.table import Table

Report = dict[str, Any]
PC_KEYS = ("name", "expertise", "primary", "trait", "retired")
CHALLENGE_KEYS = ("name", "threat", "type", "rating", "trait")
TRAIT_KEYS = ("name", "modifier", "polarity", "cost", "target", "frequency", "types", "words")


class RosterCommands:
    """Mixed into the Relics commands."""

    _relics: Callable[..., Report]

    def load_roster(self, text: str, source: str) -> Report:
        roster = Roster(text, source)
        pcs = [_pc(roster, ("pc", i), table) for i, table in enumerate(roster.tables("pc"))]
        challenges = [_challenge(roster, ("challenge", i), table) for i, table in enumerate(roster.tables("challenge"))]
        extra = [k for k in roster.data if k not in ("pc", "challenge")]
        if extra:
            raise roster.refuse((extra[0],), "unknown key; a roster holds [[pc]] and [[challenge]] tables.")
        if not pcs and not challenges:
            raise roster.refuse(("pc",), "the file holds no [[pc]] or [[challenge]] table.")
        _no_twins(roster, ("pc",), [p["name"] for p in pcs])
        _no_twins(roster, ("challenge",), [c["name"] for c in challenges])

        def command(t: Table) -> Report:
            for i, pc in enumerate(pcs):
                _add_pc(t, roster, ("pc", i), pc)
            bestiary = _bestiary(t) if challenges else None
            for i, challenge in enumerate(challenges):
                _define(t, roster, ("challenge", i), bestiary, challenge)
            return {"pcs": [p["name"] for p in pcs], "challenges": [c["name"] for c in challenges],
                    "unit": "load roster"}
        return self._relics(command, "load_roster")


def _pc(roster: Roster, path: Path, table: dict[str, Any]) -> dict[str, Any]:
    roster.check_keys(path, table, PC_KEYS)
    with _at(roster, path, "name"):
        name = values.name(roster.value(path, table, "name", str), "A PC's name")
    expertise = roster.value(path, table, "expertise", dict)
    with _at(roster, path, "expertise"):
        ranks = expertise_ranks({k: roster.value((*path, "expertise"), expertise, k, int) for k in expertise})
    with _at(roster, path, "primary"):
        primary = primary_type(roster.value(path, table, "primary", str), ranks)
    retired = roster.value(path, table, "retired", str, None)
    with _at(roster, path, "retired"):  # as `pc retire --reason` takes it: one line, and not blank
        if retired is not None and not (retired := values.text(retired)):
            raise BadInput("Say why the PC is retired; leave the key out for a PC in play.")
    return {"name": name, "expertise": ranks, "primary": primary, "retired": retired,
            "traits": _traits(roster, path, table, False)}


def _challenge(roster: Roster, path: Path, table: dict[str, Any]) -> dict[str, Any]:
    roster.check_keys(path, table, CHALLENGE_KEYS)
    with _at(roster, path, "name"):
        name = values.name(roster.value(path, table, "name", str), "A Challenge's name")
    with _at(roster, path, "threat"):
        threat = relics.canonical(roster.value(path, table, "threat", str), relics.THREATS, "Threat")
    with _at(roster, path, "type"):
        type_ = relics.canonical(roster.value(path, table, "type", str), relics.TYPES, "Challenge type")
    with _at(roster, path, "rating"):
        rating = values.integer(roster.value(path, table, "rating", int), "A Challenge's rating", 1, relics.MOST_DICE)
    return {"name": name, "threat": threat, "type": type_, "rating": rating,
            "traits": _traits(roster, path, table, True)}


def _traits(roster: Roster, path: Path, table: dict[str, Any], challenge_side: bool) -> list[dict[str, Any]]:
    found = []
    for i, trait in enumerate(roster.value(path, table, "trait", list, [])):
        where = (*path, "trait", i)
        if not isinstance(trait, dict):
            raise roster.refuse(where, "write each trait as a [[...trait]] table.")
        roster.check_keys(where, trait, TRAIT_KEYS)
        found.append(_trait(roster, where, trait, challenge_side))
    _no_twins(roster, (*path, "trait"), [t["name"] for t in found])
    return found


def _trait(roster: Roster, where: Path, trait: dict[str, Any], challenge_side: bool) -> dict[str, Any]:
    """A trait as `trait add` takes it, each value checked by the same rules (its pool by the same
    default, traits.pool)."""
    with _at(roster, where, "name"):
        name = values.name(roster.value(where, trait, "name", str), "A trait's name")
    with _at(roster, where, "modifier"):
        mod = relics.parse_modifier(roster.value(where, trait, "modifier", str), trait.get("polarity"))
    cost = roster.value(where, trait, "cost", str, "free")
    if cost not in ("free", "destiny", "doom", "destiny-or-doom"):
        raise roster.refuse((*where, "cost"), "free, destiny, doom or destiny-or-doom.")
    with _at(roster, where, "target"):
        aims = trait_rules.pool(mod, roster.value(where, trait, "target", str, None), challenge_side)
    frequency = roster.value(where, trait, "frequency", str, "always")
    if frequency not in relics.FREQUENCIES:
        raise roster.refuse((*where, "frequency"), f"one of {', '.join(relics.FREQUENCIES)}.")
    with _at(roster, where, "types"):
        types = [relics.canonical(k, relics.TYPES, "Challenge type") for k in roster.value(where, trait, "types", list, [])]
    words = roster.value(where, trait, "words", str, "")  # a Motto's, as `campaign motto` keeps them
    with _at(roster, where, "words"):
        words = values.text(words, "A Motto") if words else ""
    return {"name": name, "modifier": str(mod), "polarity": mod.polarity, "cost": cost, "target": aims,
            "frequency": frequency, "types": types, **({"words": words} if words else {})}


def _add_pc(t: Table, roster: Roster, path: Path, pc: dict[str, Any]) -> None:
    if t.exists(pc_id(t.pc_key(pc["name"]))):
        raise _rule(roster, (*path, "name"), f"there is already a PC named {t.pc(pc['name']).name}.")
    with _at(roster, path, "name", RuleViolation):
        trait_rules.check_new_owner(t, pc["name"])
    t.campaign.pc_joined(pc["name"])
    character = t.add(Character(name=pc["name"], expertise=pc["expertise"], primary=pc["primary"]))
    for trait in pc["traits"]:
        character.trait_gained(**trait)
    if pc["retired"]:
        character.retired_from_play(pc["retired"])


def _bestiary(t: Table) -> Any:
    return t.load(BESTIARY_ID, "") if t.exists(BESTIARY_ID) else t.add(Bestiary())


def _define(t: Table, roster: Roster, path: Path, bestiary: Any, challenge: dict[str, Any]) -> None:
    if bestiary.entry(challenge["name"]) is not None:
        raise _rule(roster, (*path, "name"), f"the bestiary already holds {challenge['name']}.")
    if t.exists(challenge_id(challenge["name"])):
        raise _rule(roster, (*path, "name"), f"a Challenge named {challenge['name']} is already open.")
    if t.exists(pc_id(t.pc_key(challenge["name"]))):
        raise _rule(roster, (*path, "name"), f"'{challenge['name']}' names a PC.")
    with _at(roster, path, "name", RuleViolation):  # a name `challenge open` would refuse (the Cohort's)
        trait_rules.check_new_owner(t, challenge["name"])
    bestiary.defined(challenge)


def _rule(roster: Roster, path: Path, problem: str) -> RuleViolation:
    return RuleViolation(str(roster.refuse(path, problem)))


def _no_twins(roster: Roster, where: Path, names: list[str]) -> None:
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name.casefold() in seen:
            raise roster.refuse((*where, i, "name"), f"'{name}' is named twice in the file.")
        seen.add(name.casefold())


class _at:
    """Re-raise a value's own refusal (the rule's sentence) at the file's line and key."""

    def __init__(self, roster: Roster, path: Path, key: str, kind: type = LedgerError) -> None:
        self.roster, self.path, self.kind = roster, (*path, key), kind

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc: Any, _: Any) -> bool:
        if exc is not None and isinstance(exc, LedgerError) and not str(exc).startswith(self.roster.source):
            error = self.roster.refuse(self.path, str(exc))
            raise (RuleViolation(str(error)) if isinstance(exc, RuleViolation) else error) from None
        return False
