"""Scenario > Scene > Event > Challenge: the structure a Relics session is played in.

The game's "Event" is an `encounter` in code, so it never collides with a ledger event.
An Event holds Challenges faced one after another (serial) or at once (simultaneous,
each by its own group of PCs); a Challenge can be split, timed, or a one-round Test.
"""
from __future__ import annotations

from typing import Any, Callable

from campaign_ledger.ledger import values
from campaign_ledger.ledger.rulesets.relics import traits
from campaign_ledger.ledger.rulesets.relics import turns
from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.ids import challenge_id
from campaign_ledger.ledger.table import Table

Report = dict[str, Any]
MODES = ("serial", "simultaneous")


class SceneCommands:
    """Mixed into CampaignLedger: scenes, Events, how Challenges are framed and split."""

    _relics: Callable[..., Report]

    def start_scene(self, title: str) -> Report:
        def command(t: Table) -> Report:
            camp = t.campaign
            camp.check_scenario()
            if camp.scene is not None:
                raise RuleViolation(f"Scene {camp.scene['number']} ('{camp.scene['title']}') is still going; "
                                    "end it first.")
            camp.scene_started(camp.scenes + 1, _title(title, "A Scene"))
            return {"scene": camp.scenes, "title": camp.scene["title"]}
        return self._relics(command)

    def end_scene(self, reason: str = "") -> Report:
        reason = values.text(reason)

        def command(t: Table) -> Report:
            camp = t.campaign
            if camp.scene is None:
                raise RuleViolation("No Scene is going on.")
            if camp.encounter is not None:
                _end_encounter(t, "the Scene ends")
            number = camp.scene["number"]
            camp.scene_ended(number, camp.scene["title"], reason)
            traits.expire(t, f"scene {number}")
            return {"scene": number}
        return self._relics(command)

    def start_encounter(self, title: str, mode: str = "serial") -> Report:
        if mode not in MODES:
            raise BadInput(f"An Event's Challenges are serial or simultaneous, not '{mode}'.")

        def command(t: Table) -> Report:
            camp = t.campaign
            camp.check_scenario()
            if camp.encounter is not None:
                raise RuleViolation(f"Event {camp.encounter['number']} ('{camp.encounter['title']}') is still "
                                    "going; end it first.")
            camp.encounter_started(camp.encounters + 1, _title(title, "An Event"), mode)
            return {"event": camp.encounters, "title": camp.encounter["title"], "mode": mode,
                    "unit": f"start event {camp.encounter['title']}"}  # the game's word, not the code's
        return self._relics(command)

    def end_encounter(self, reason: str = "") -> Report:
        reason = values.text(reason)

        def command(t: Table) -> Report:
            if t.campaign.encounter is None:
                raise RuleViolation("No Event is going on.")
            number, title = t.campaign.encounter["number"], t.campaign.encounter["title"]
            _end_encounter(t, reason)
            return {"event": number, "unit": f"end event {title}"}  # was `end encounter #1`: whose?
        return self._relics(command)

    def split_challenge(self, name: str, into: str, dice: int, group: list[str], paid: str) -> Report:
        """Split a Challenge (Destiny or Doom; the GM running the command approves it)."""
        if paid not in ("destiny", "doom"):
            raise BadInput("A split is paid with Destiny or Doom: --pay destiny or --pay doom.")
        into = values.name(into, "The new Challenge's name")

        def command(t: Table) -> Report:
            ch = t.challenge(name)
            ch.expect("cohort")
            if t.exists(challenge_id(into)):
                raise RuleViolation(f"There is already a Challenge named {into.strip()}.")
            traits.check_new_owner(t, into)
            if not 1 <= dice < ch.unresolved:
                t.refuse(f"{ch.name} has {ch.unresolved} unresolved dice; a split moves 1 to {ch.unresolved - 1}.")
            pcs = [t.pc(n) for n in group]
            for pc in pcs:
                t.allow(pc.check_in_game)
            names = [pc.name for pc in pcs]
            keeps = [n for n in turns.facing(t, ch) if n not in names]
            if not names or not keeps:
                t.refuse("A split divides the Cohort into two groups, each facing one Challenge.")
            turns.pay(t, paid, f"The Cohort splits {ch.name}")
            ch.split_off(into.strip(), dice, ch.rating - dice, names, keeps)
            new = t.add(Challenge(name=into.strip(), threat=ch.threat, type=ch.type, rating=dice))
            event_ = t.campaign.encounter
            in_event = event_ is not None and ch.name in event_["challenges"]
            new.configured(event_["number"] if in_event else None, names, ch.rounds_left, None)
            if in_event:
                t.campaign.encounter_challenge_added(event_["number"], new.name)
            return {"challenge": ch.name, "into": new.name, "dice": dice, "group": names, "keeps": keeps}
        return self._relics(command)


def frame(t: Table, ch: Challenge, group: list[str], rounds: int | None, test: dict | None) -> None:
    """Put a new Challenge in the Event going on, with its group, its time or its Test terms."""
    encounter = t.campaign.encounter
    names = [t.pc(n).name for n in group]
    if rounds is not None and rounds < 1:
        raise BadInput("A timed Challenge has at least 1 round.")
    if test is not None and rounds is not None:
        raise BadInput("A Test is one round; it cannot also be timed.")
    if test is not None and test["needed"] < 1:
        raise BadInput("A Test needs at least 1 success.")
    if names or rounds or test:
        ch.configured(encounter["number"] if encounter else None, names, rounds, test)
    if encounter:
        t.campaign.encounter_challenge_added(encounter["number"], ch.name)


def _end_encounter(t: Table, reason: str) -> None:
    camp = t.campaign
    number = camp.encounter["number"]
    for name in camp.encounter["challenges"]:
        ch = t.challenge(name)
        if camp.turn and camp.turn["challenge"] == ch.name:
            camp.turn_ended(ch.name, camp.turn["side"], camp.turn["round"])
        if not ch.finished:
            ch.ended(ch.last_round, f"its Event ended{': ' + reason if reason else ''}")
            traits.expire(t, f"challenge {ch.name}")
    camp.encounter_ended(number, camp.encounter["title"], reason)
    traits.expire(t, f"event {number}")


def _title(text: str, what: str) -> str:
    if not text.strip():
        raise BadInput(f"{what} needs a title.")
    return values.name(text, f"{what}'s title")

