"""The named rules around the dice: Motto, Check This Out, the Hand of Doom, Disaster traits.

Each is a command the table calls by name (001 "Motto and Rallying Cry", "Starting Cohort
Tactics", "The Hand of Doom"; 000 step 9 "Disaster"). Costs go through the same pay()
as everything else, so a GM override can waive them and the ledger shows it.
"""
from __future__ import annotations

from typing import Any, Callable

from campaign_ledger.ledger import values
from campaign_ledger.ledger.rulesets.relics import traits
from campaign_ledger.ledger.rulesets.relics import turns
from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.relics import rules as relics
from campaign_ledger.ledger.table import Table
from campaign_ledger.ledger.rulesets.relics.house_rules import in_play

Report = dict[str, Any]


class TacticsCommands:
    """Mixed into CampaignLedger."""

    _relics: Callable[..., Report]

    def set_motto(self, pc: str, words: str) -> Report:
        """A PC's Motto: A6 / 1d while leading, paid with Destiny or Doom, once a scenario."""
        def command(t: Table) -> Report:
            owner = t.pc(pc)
            if turns.MOTTO.casefold() in owner.traits:
                raise RuleViolation(f"{owner.name} already has a Motto.")
            if not words.strip():
                raise BadInput("A Motto needs its words.")
            values.text(words, "A Motto")
            owner.trait_gained(turns.MOTTO, str(relics.MOTTO), relics.MOTTO.polarity, "destiny-or-doom", "cohort",
                               "scenario", [], words.strip())
            return {"pc": owner.name, "motto": words.strip()}
        return self._relics(command)

    def check_this_out(self, name: str, modifier: str, paid: str, target: str, challenge: str | None) -> Report:
        """Once a Scene: a temporary rank 1 trait, Beneficial to the Cohort or Hindering to a Challenge."""
        mod = relics.parse_modifier(modifier)

        def command(t: Table) -> Report:
            ch = t.challenge(challenge) if challenge else None
            rank_one = {str(relics.ranked_add(1)), str(relics.ranked_simple(in_play(t), 1))}
            polarity = relics.BENEFICIAL if target == "cohort" else relics.HINDERING
            wanted = relics.Modifier(mod.kind, mod.amount, mod.dice, polarity)
            if str(relics.Modifier(mod.kind, mod.amount, mod.dice, relics.BENEFICIAL)) not in rank_one:
                t.refuse(f"Check This Out makes a rank 1 trait ({' or '.join(sorted(rank_one))}), not {modifier}.")
            if target == "challenge" and (ch is None or wanted.kind == "add"):
                raise BadInput("Against a Challenge, name it (--challenge) and use a Simple modifier, e.g. -1 / 1d.")
            tactic = {"name": "Check This Out", "frequency": "scene", "types": []}
            traits.check_use(t, ch, traits.COHORT, tactic)
            turns.pay(t, paid, "The Cohort calls Check This Out")
            traits.record_use(t, ch, traits.COHORT, tactic)
            owner = traits.COHORT if target == "cohort" else ch.name
            made = traits.create(t, ch, owner, name, str(wanted), polarity, target, "scene", "Check This Out")
            return {"trait": made}
        return self._relics(command)

    def hand_of_doom(self, effect: str, name: str = "", modifier: str = "", owner: str = "",
                     challenge: dict | None = None) -> Report:
        """The GM spends 5 Doom during an Event: 2 unavoidable Stress per PC, a Hindering trait, or a Challenge."""
        if effect not in ("stress", "trait", "challenge"):
            raise BadInput("The Hand of Doom brings stress, a trait, or a challenge.")

        def command(t: Table) -> Report:
            camp = t.campaign
            if camp.encounter is None:
                t.refuse("The Hand of Doom falls during an Event; no Event is going on.")
            turns.pay(t, "doom", "The GM calls the Hand of Doom", gm=True, amount=relics.HAND_OF_DOOM_COST)
            if effect == "stress":
                for pc in t.pcs_in_game():
                    pc.take_stress(in_play(t), relics.HAND_OF_DOOM_STRESS, "the Hand of Doom", 0)
                turns.everyone_stressed_out(t, None)
                return {"effect": "stress", "each": relics.HAND_OF_DOOM_STRESS, "unit": "hand of doom stress"}
            if effect == "trait":
                holder = traits.COHORT if owner.strip().casefold() in ("", traits.COHORT.casefold()) \
                    else t.pc(owner).name
                made = traits.create(t, None, holder, name, modifier, relics.HINDERING, "cohort",
                                     "event", "the Hand of Doom")
                return {"effect": "trait", "trait": made, "unit": f"hand of doom trait {holder}:{made['name']}"}
            return {"effect": "challenge", **self._open_from_doom(t, challenge or {})}
        return self._relics(command)

    def _open_from_doom(self, t: Table, spec: dict[str, Any]) -> Report:
        from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
        from campaign_ledger.ledger.ids import challenge_id
        from campaign_ledger.ledger.rulesets.relics.scenes import frame
        spec = {**spec, "name": values.name(spec.get("name", ""), "A Challenge's name")}
        if t.exists(challenge_id(spec["name"])):
            raise RuleViolation(f"There is already a Challenge named {spec.get('name')}.")
        traits.check_new_owner(t, spec["name"])
        ch = t.add(Challenge(name=spec["name"], threat=relics.canonical(spec["threat"], relics.THREATS, "Threat"),
                             type=relics.canonical(spec["type"], relics.TYPES, "Challenge type"),
                             rating=int(spec["rating"])))
        frame(t, ch, [], None, None)
        return {"challenge": ch.name}

    def disaster_trait(self, challenge: str, name: str, modifier: str, owner: str, duration: str = "event") -> Report:
        """After a Disaster the GM makes a temporary trait (000 step 9): who it sits on follows the side."""
        def command(t: Table) -> Report:
            ch = t.challenge(challenge)
            if not ch.disaster:
                t.refuse(f"{ch.name} has no Disaster waiting for its trait.")
            disaster = ch.disaster or {"side": "cohort", "round": ch.last_round}
            side = disaster["side"]
            mod = relics.parse_modifier(modifier)
            holder = _disaster_holder(t, ch, owner)
            hurts_cohort = holder != ch.name
            if side == "cohort" and hurts_cohort != (mod.polarity == relics.HINDERING):
                t.refuse("A Cohort Disaster makes a Hindering trait on the Cohort or a PC, "
                         "or a Beneficial one on the Challenge.")
            if side == "challenge" and hurts_cohort == (mod.polarity == relics.HINDERING):
                t.refuse("A Challenge Disaster makes a Hindering trait on the Challenge or a Beneficial one "
                         "on the Cohort.")
            target = "challenge" if holder == ch.name else "cohort"
            made = traits.create(t, ch, holder, name, modifier, None, target, duration, f"a Disaster in {ch.name}")
            if ch.disaster:
                ch.disaster_trait_made(disaster["round"], side, made["name"], holder)
            return {"trait": made, "unit": f"disaster trait {ch.name}"}  # was `disaster trait #1`: whose?
        return self._relics(command)


def _disaster_holder(t: Table, ch: Any, owner: str) -> str:
    if owner.strip().casefold() == traits.COHORT.casefold():
        return traits.COHORT
    if owner.strip().casefold() == ch.name.casefold():
        return ch.name
    return t.pc(owner).name

