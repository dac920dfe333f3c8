"""Relics of the Moon's commands: setting up PCs, traits, Scenarios and Challenges, and playing
rounds (the application reaches them through the ruleset registry)."""
from __future__ import annotations

from typing import Any, Callable

from campaign_ledger.ledger import values
from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.ids import challenge_id, pc_id
from campaign_ledger.ledger.rulesets import Commands
from campaign_ledger.ledger.rulesets.relics import rules as relics
from campaign_ledger.ledger.rulesets.relics import traits, turns
from campaign_ledger.ledger.rulesets.relics.bestiary import defined_as
from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.rulesets.relics.character import Character, expertise_ranks, primary_type
from campaign_ledger.ledger.rulesets.relics.corrections import CorrectionCommands
from campaign_ledger.ledger.rulesets.relics.roster import RosterCommands
from campaign_ledger.ledger.rulesets.relics.recovery import RecoveryCommands
from campaign_ledger.ledger.rulesets.relics.scenes import SceneCommands, frame
from campaign_ledger.ledger.rulesets.relics.tactics import TacticsCommands
from campaign_ledger.ledger.table import Table
from campaign_ledger.ledger.rulesets.relics.house_rules import in_play

COSTS = ("free", "destiny", "doom", "destiny-or-doom")
TARGETS = traits.TARGETS
Report = dict[str, Any]


class RelicsCommands(SceneCommands, TacticsCommands, RecoveryCommands, CorrectionCommands, RosterCommands,
                     Commands):
    """Every Relics command; refused on a campaign of another ruleset."""

    def _relics(self, command: Callable[[Table], Report], name: str | None = None,
                fallbacks: tuple[Callable[[Table], Report], ...] = ()) -> Report:
        """Run a Relics of the Moon command, refused on a campaign of another ruleset."""
        def relics_only(play: Callable[[Table], Report]) -> Callable[[Table], Report]:
            def checked(t: Table) -> Report:
                t.expect_ruleset("relics")
                return play(t)
            return checked
        name = name or command.__qualname__.split(".<locals>")[0].rsplit(".", 1)[-1]
        return self.run(relics_only(command), name, tuple(relics_only(f) for f in fallbacks))

    def _turn(self, name: str, play: Callable[[Table, turns.Placing, dict | None, str | None], Report],
              placing: turns.Placing, stress: dict[str, int] | None) -> Report:
        """A turn step that may roll. Refused after the program rolled, it keeps as much as
        still plays: up to the Stress, then up to the placements (none to make), then the roll."""
        def step(p: turns.Placing, s: dict[str, int] | None, stop: str | None) -> Callable[[Table], Report]:
            return lambda t: play(t, p, s, stop)

        def kept(p: turns.Placing, stop: str) -> Callable[[Table], Report]:  # what a kept roll's refusal says
            return lambda t: turns.roll_stands(play(t, p, None, stop))
        return _with_odds(self._relics(step(placing, stress, None), name, fallbacks=(
            kept(placing, "stress"), kept(turns.Placing(), "stress"), kept(turns.Placing(), "place"))))

    # --- setting up ---------------------------------------------------------------------------

    def add_pc(self, name: str, expertise: dict[str, int], primary: str) -> Report:
        name = values.name(name, "A PC's name")
        ranks = expertise_ranks(expertise)
        primary = primary_type(primary, ranks)

        def command(t: Table) -> Report:
            camp = t.campaign
            if t.exists(pc_id(t.pc_key(name))):
                raise RuleViolation(f"There is already a PC named {t.pc(name).name}.")
            traits.check_new_owner(t, name)
            camp.pc_joined(name)
            t.add(Character(name=name, expertise=ranks, primary=primary))
            return {"pc": name, "expertise": ranks, "primary": primary}
        return self._relics(command)

    def add_trait(self, owner: str, name: str, modifier: str, polarity: str | None,
                  cost: str, target: str | None = None, challenge: bool = False, frequency: str = "always",
                  types: list[str] | None = None) -> Report:
        """A trait for a PC, for the Cohort (owner `Cohort`) or, with `challenge`, for a Challenge;
        without a target, the pool traits.pool gives it."""
        mod = relics.parse_modifier(modifier, polarity)
        if cost not in COSTS:
            raise BadInput(f"A trait's cost is one of {', '.join(COSTS)}, not '{cost}'.")
        if frequency not in relics.FREQUENCIES:
            raise BadInput(f"A trait is used {', once a '.join(relics.FREQUENCIES)}; not '{frequency}'.")
        kinds = [relics.canonical(k, relics.TYPES, "Challenge type") for k in (types or [])]
        target = traits.pool(mod, target, challenge)
        name = values.name(name, "A trait's name")
        trait = {"name": name, "modifier": str(mod), "polarity": mod.polarity, "cost": cost,
                 "target": target, "frequency": frequency, "types": kinds}

        def command(t: Table) -> Report:
            if owner.strip().casefold() == traits.COHORT.casefold() and not challenge:
                traits.check_free(t, traits.COHORT, trait["name"])
                t.campaign.cohort_trait_gained(trait)
                return {"owner": traits.COHORT, **trait}
            holder = t.challenge(owner) if challenge else t.pc(owner)
            traits.check_free(t, holder.name, trait["name"], holder.traits)
            holder.trait_gained(**trait)
            return {"owner": holder.name, **trait}
        return self._relics(command)

    def start_scenario(self, title: str) -> Report:
        title = values.name(title, "A Scenario's title")

        def command(t: Table) -> Report:
            camp = t.campaign
            if camp.turn:
                raise RuleViolation(f"The {camp.turn['side']} turn on {camp.turn['challenge']} is unfinished; "
                                    "finish it before a new Scenario.")
            pcs = len(t.pcs_in_game())
            if not pcs:
                raise RuleViolation("A Scenario needs at least one PC; add one with `campaign pc add`.")
            if camp.scenario_number:
                traits.expire(t, f"scenario {camp.scenario_number}")
            camp.scenario_started(title, pcs, pcs)
            return {"scenario": title, "destiny": pcs, "doom": pcs}
        return self._relics(command)

    def open_challenge(self, name: str, threat: str | None, type_: str | None, rating: int | None,
                       group: list[str] | None = None, rounds: int | None = None, test: dict | None = None) -> Report:
        """Open a Challenge in the Event going on (if any): faced by a group, timed, or a Test. One the
        bestiary defines (a roster) takes its Threat, type, rating and traits from there, unless given."""
        name = values.name(name, "A Challenge's name")
        threat = relics.canonical(threat, relics.THREATS, "Threat") if threat is not None else None
        type_ = relics.canonical(type_, relics.TYPES, "Challenge type") if type_ is not None else None
        if rating is not None and rating < 1:
            raise BadInput("A Challenge's rating is at least 1.")
        if rating is not None:
            values.integer(rating, "A Challenge's rating", 1, relics.MOST_DICE)
        if rounds is not None:  # the lower bounds are the rules' own, checked where the Challenge is framed
            values.integer(rounds, "A timed Challenge's rounds", high=relics.MOST_DICE)
        if test is not None:
            values.integer(test["needed"], "A Test's successes needed", high=relics.MOST_DICE)

        def command(t: Table) -> Report:
            t.campaign.check_scenario()
            if t.exists(challenge_id(name)):
                raise RuleViolation(f"There is already a Challenge named {t.challenge(name).name}.")
            traits.check_new_owner(t, name)
            spec = defined_as(t, name, threat, type_, rating)
            called = spec.get("name", name.strip())  # the bestiary's spelling, when it defines it
            ch = t.add(Challenge(name=called, threat=spec["threat"], type=spec["type"], rating=spec["rating"]))
            for trait in spec["traits"]:
                ch.trait_gained(**trait)
            frame(t, ch, group or [], rounds, test)
            return {"challenge": called, "threat": ch.threat, "type": ch.type, "rating": ch.rating,
                    "group": ch.group, "rounds": ch.rounds_left, "test": ch.test}
        return self._relics(command)

    def set_house_rule(self, rule: str, value: str, reason: str) -> Report:
        """Amend a rule for this campaign; entries from now on use it, history shows when."""
        parsed = relics.house_rule(rule, value)
        reason = values.text(reason)

        def command(t: Table) -> Report:
            camp = t.campaign
            previous = _plain(getattr(in_play(t), rule))  # the whole rule in force, earlier house rules in
            # A table's rows given amend it (3=2/3 changes rank 3 alone); the entry keeps the whole table,
            # so a later amendment keeps this one and the history says what is in force.
            now = {**previous, **parsed} if isinstance(parsed, dict) and isinstance(previous, dict) else parsed
            if previous == now:
                raise RuleViolation(f"{rule} is already {value}.")
            camp.house_rule_changed(rule, now, previous, reason.strip())
            return {"rule": rule, "value": now, "previous": previous}
        return self._relics(command)

    # --- playing --------------------------------------------------------------------------------

    def cohort_turn(self, challenge: str, leader: str | None, assists: list[str] | None,
                    uses: list[turns.TraitUse], destiny: int, throw: turns.Throw,
                    placing: turns.Placing, tactics: turns.Tactics = turns.Tactics()) -> Report:
        def play(t: Table, placing_: turns.Placing, _: Any, stop: str | None) -> Report:
            ch = t.challenge(challenge)
            turns.cohort_huddle(t, ch, leader, assists, uses, destiny, tactics)
            return turns.advance(t, ch, throw, placing_, None, stop_before=stop)
        return self._turn("cohort_turn", play, placing, None)

    def challenge_turn(self, challenge: str, uses: list[turns.TraitUse], throw: turns.Throw,
                       placing: turns.Placing, stress: dict[str, int] | None) -> Report:
        def play(t: Table, placing_: turns.Placing, stress_: dict[str, int] | None, stop: str | None) -> Report:
            ch = t.challenge(challenge)
            turns.challenge_huddle(t, ch, uses)
            return turns.advance(t, ch, throw, placing_, stress_, stop_before=stop)
        return self._turn("challenge_turn", play, placing, stress)

    def roll(self, challenge: str, throw: turns.Throw, placing: turns.Placing,
             stress: dict[str, int] | None) -> Report:
        def play(t: Table, placing_: turns.Placing, stress_: dict[str, int] | None, stop: str | None) -> Report:
            ch = t.challenge(challenge)
            ch.expect("cohort-roll", "challenge-roll")
            return turns.advance(t, ch, turns.Throw(throw.faces, True), placing_, stress_, stop_before=stop)
        return self._turn("roll", play, placing, stress)

    def place(self, challenge: str, placing: turns.Placing, stress: dict[str, int] | None) -> Report:
        if not placing.stated:
            raise BadInput("Give placements with --place TRAIT=DICE, or --best to take the offered one.")

        def command(t: Table) -> Report:
            ch = t.challenge(challenge)
            ch.expect("cohort-place", "challenge-place")
            return turns.advance(t, ch, turns.Throw(), placing, stress)
        return self._relics(command)

    def distribute(self, challenge: str, stress: dict[str, int]) -> Report:
        def command(t: Table) -> Report:
            ch = t.challenge(challenge)
            ch.expect("challenge-stress")
            return turns.advance(t, ch, turns.Throw(), turns.Placing(), stress)
        return self._relics(command)

    def push_the_limit(self, name: str) -> Report:
        def command(t: Table) -> Report:
            pc = t.pc(name)
            t.allow(pc.check_in_game)
            t.allow(pc.check_stressed_out)
            pc.push_the_limit(in_play(t))
            return {"pc": pc.name, "stress": pc.stress, "agony": pc.agony, "out": pc.out,
                    "unit": f"push {pc.name}"}
        return self._relics(command)


def _plain(value: Any) -> Any:
    """A rules value as the ledger stores it (JSON: string keys, lists)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return list(value)
    return value


def _with_odds(report: Report) -> Report:
    """A pool left waiting for its roll (a Huddle without faces) comes with its one line of odds,
    as `campaign status` shows it; nothing is computed once the dice are in."""
    pending = report.get("pool")
    if not str(report.get("phase", "")).endswith("-roll") or not pending:
        return report
    from campaign_ledger.ledger.rulesets.relics.odds import pool_line
    return {**report, "odds": pool_line(pending)}
