"""Correcting more than rounds (issue 13): rename, retire and return a PC, change Expertise, remove or
replace a trait, re-rate, close or abandon a Challenge.

Each is a new entry with its reason (nothing is edited), its own refusals, and a unit `undo` reverses
like any other. None is allowed while a turn is unfinished: the turn's pool names PCs and ratings.
"""
from __future__ import annotations

from typing import Any, Callable

from campaign_ledger.ledger import values
from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.ids import challenge_id, pc_id
from campaign_ledger.ledger.rulesets.relics import rules as relics
from campaign_ledger.ledger.rulesets.relics import traits
from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.rulesets.relics.character import expertise_ranks, primary_type
from campaign_ledger.ledger.table import Table

Report = dict[str, Any]
OUTCOMES = ("closed", "abandoned")


class CorrectionCommands:
    """Mixed into the Relics commands."""

    _relics: Callable[..., Report]

    def rename_pc(self, old: str, new: str) -> Report:
        new = values.name(new, "A PC's name")

        def command(t: Table) -> Report:
            _no_turn(t)
            pc = t.pc(old)
            if new.casefold() == pc.name.casefold() and new == pc.name:
                raise RuleViolation(f"{pc.name} is already named {new}.")
            if new.casefold() != pc.name.casefold():
                _check_name_free(t, new, pc.id)
            key = t.pc_key(old)
            was = pc.name
            t.campaign.pc_renamed(was, new, _first_name(t, key))
            pc.renamed(was, new)
            return {"pc": new, "was": was, "unit": f"rename {was} to {new}"}
        return self._relics(command)

    def retire_pc(self, name: str, reason: str) -> Report:
        reason = _reason(reason)

        def command(t: Table) -> Report:
            _no_turn(t)
            pc = t.pc(name)
            if pc.retired:
                raise RuleViolation(f"{pc.name} is already retired ({pc.retired}).")
            if pc.out:
                raise RuleViolation(f"{pc.name} is out of the game for good ({pc.agony} Agony); there is "
                                    "nothing to retire.")
            pc.retired_from_play(reason)
            return {"pc": pc.name, "retired": reason}
        return self._relics(command)

    def return_pc(self, name: str) -> Report:
        def command(t: Table) -> Report:
            _no_turn(t)
            pc = t.pc(name)
            if not pc.retired:
                raise RuleViolation(f"{pc.name} is not retired; only a retired PC can return.")
            pc.returned(pc.stressed_out)
            return {"pc": pc.name, "retired": None}
        return self._relics(command)

    def change_expertise(self, name: str, expertise: dict[str, int], primary: str | None, reason: str) -> Report:
        """Ranks given are set (0 takes the type away); the others stay. Either may be left out (the
        primary alone changes with no ranks given), not both; the primary keeps a rank."""
        if not expertise and not primary:
            raise BadInput("Give the ranks to change (e.g. Phantom=3; 0 takes a type away), --primary TYPE, or both.")
        given = expertise_ranks(expertise, allow_none=True) if expertise else {}
        reason = _reason(reason)

        def command(t: Table) -> Report:
            _no_turn(t)
            pc = t.pc(name)
            ranks = {k: v for k, v in {**pc.expertise, **given}.items() if v}
            if not ranks:
                raise RuleViolation(f"{pc.name} would have no Expertise left; a PC needs at least one.")
            new_primary = primary_type(primary or pc.primary, ranks)
            if ranks == {k: v for k, v in pc.expertise.items() if v} and new_primary == pc.primary:
                raise RuleViolation(f"{pc.name}'s Expertise is already that.")
            pc.expertise_changed(ranks, new_primary, dict(pc.expertise), pc.primary, reason)
            return {"pc": pc.name, "expertise": ranks, "primary": new_primary}
        return self._relics(command)

    def remove_trait(self, owner: str, name: str, reason: str) -> Report:
        reason = _reason(reason)

        def command(t: Table) -> Report:
            _no_turn(t)
            holder = _holder(t, owner, name)
            _not_temporary(t, holder.name, name)
            trait = holder.trait(name)
            holder.trait_removed(trait["name"], reason)
            return {"owner": holder.name, "trait": trait["name"], "removed": True,
                    "unit": f"remove trait {holder.name}:{trait['name']}"}
        return self._relics(command)

    def replace_trait(self, owner: str, name: str, modifier: str, polarity: str | None, reason: str,
                      target: str | None = None) -> Report:
        """The trait's pool stays unless its polarity flips (then the one pool rule, traits.pool, as
        `trait add` applies it: Stubborn made +1 / 1d helps the Challenge, not the Cohort) or
        `target` names one."""
        mod = relics.parse_modifier(modifier, polarity)
        reason = values.text(reason)

        def command(t: Table) -> Report:
            _no_turn(t)
            holder = _holder(t, owner, name)
            trait = holder.trait(name)
            flipped = mod.polarity != trait["polarity"]
            pool = traits.pool(mod, target, isinstance(holder, Challenge)) if target or flipped else trait["target"]
            if str(mod) == trait["modifier"] and not flipped and pool == trait["target"]:
                raise RuleViolation(f"{holder.name}'s {trait['name']} is already {mod}.")
            if mod.kind == "add" and pool == "challenge":
                raise RuleViolation("Add Dice never change a Challenge pool; it is the Challenge's rating.")
            holder.trait_replaced(trait["name"], str(mod), mod.polarity, trait["modifier"], reason,
                                  **({"target": pool} if pool != trait["target"] else {}))
            return {"owner": holder.name, "trait": trait["name"], "modifier": str(mod), "previous": trait["modifier"],
                    "target": pool, "unit": f"replace trait {holder.name}:{trait['name']}"}
        return self._relics(command)

    def rate_challenge(self, name: str, rating: int, reason: str) -> Report:
        values.integer(rating, "A Challenge's rating", 1, relics.MOST_DICE)
        reason = _reason(reason)

        def command(t: Table) -> Report:
            _no_turn(t)
            ch = _open(t, name)
            if rating == ch.rating:
                raise RuleViolation(f"{ch.name}'s rating is already {rating}.")
            if rating <= ch.resolved:
                raise RuleViolation(f"{ch.name} has {ch.resolved} {'die' if ch.resolved == 1 else 'dice'} "
                                    f"resolved; a rating of {rating} would "
                                    "resolve it: close it instead (`campaign challenge close`).")
            ch.rated(rating, ch.rating, reason)
            return {"challenge": ch.name, "rating": rating, "resolved": ch.resolved}
        return self._relics(command)

    def finish_challenge(self, name: str, outcome: str, reason: str) -> Report:
        """Close (the Cohort got past it) or abandon (walked away from) a Challenge before it resolves."""
        if outcome not in OUTCOMES:
            raise BadInput(f"A Challenge is closed or abandoned, not '{outcome}'.")
        reason = _reason(reason)

        def command(t: Table) -> Report:
            _no_turn(t)
            ch = _open(t, name)
            ch.closed(ch.last_round, outcome, reason)
            traits.expire(t, f"challenge {ch.name}")
            return {"challenge": ch.name, "outcome": outcome, "reason": reason,
                    "unit": f"{'close' if outcome == 'closed' else 'abandon'} {ch.name}"}
        return self._relics(command, "finish_challenge")


def _reason(reason: str) -> str:
    reason = values.text(reason, "A reason")
    if not reason:
        raise BadInput("Say why with --reason: a correction keeps its reason in the history.")
    return reason


def _no_turn(t: Table) -> None:
    turn = t.campaign.turn
    if turn:
        raise RuleViolation(f"The {turn['side']} turn on {turn['challenge']} is unfinished; finish it (or undo "
                            "it) before correcting the campaign.")


def _check_name_free(t: Table, new: str, own: Any) -> None:
    """A name no other PC (now or before a rename), no Challenge and not the Cohort answers to."""
    if new.casefold() == traits.COHORT.casefold():
        raise BadInput(f"'{new}' is the Cohort's name; choose another.")
    if t.exists(pc_id(t.pc_key(new))) and t.pc(new).id != own:
        raise RuleViolation(f"'{new}' is taken: it names {t.pc(new).name}; choose another name.")
    if t.exists(challenge_id(new)):
        raise RuleViolation(f"'{new}' already names a Challenge; choose another name.")


def _first_name(t: Table, key: str) -> str:
    """The name the PC's id came from, as the campaign's list of PCs spells it."""
    return next((n for n in t.campaign.pcs if n.casefold() == key.strip().casefold()), key.strip())


def _holder(t: Table, owner: str, name: str = "") -> Any:
    """A PC (first, as the read tables look owners up) or a Challenge; the Cohort's traits stay
    (its Rallying Cry is the rules', which no `trait add` gave)."""
    if owner.strip().casefold() == traits.COHORT.casefold():
        if name.strip().casefold() == traits.RALLYING_CRY["name"].casefold():
            raise RuleViolation("The Cohort's Rallying Cry comes with the rules (A6 / 1d, once a scenario); "
                                "it cannot be removed or replaced.")
        raise RuleViolation("The Cohort's traits cannot be removed or replaced; undo the `trait add` that gave it.")
    if t.exists(pc_id(t.pc_key(owner))) or not t.exists(challenge_id(owner)):
        return t.pc(owner)
    return t.challenge(owner)


def _not_temporary(t: Table, owner: str, name: str) -> None:
    for trait in t.campaign.temporary:
        if trait["owner"].casefold() == owner.casefold() and trait["name"].casefold() == name.strip().casefold():
            raise RuleViolation(f"{owner}'s {trait['name']} is a temporary trait: it ends with its scope, or undo "
                                "what made it.")


def _open(t: Table, name: str) -> Any:
    ch = t.challenge(name)
    if ch.finished:
        raise RuleViolation(f"{ch.name} is already {'resolved' if ch.phase == 'resolved' else ch.outcome or 'ended'}.")
    return ch
