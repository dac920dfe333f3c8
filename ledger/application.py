"""The campaign ledger application: commands in, events saved, plain reports out.

Each command runs against a fresh Table and saves everything it recorded in one
transaction. A version conflict or a locked file means another process saved first:
the command runs again on fresh state, and is refused only if that keeps happening.
"""
from __future__ import annotations

import os
import random
import time
from typing import Any, Callable

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, OperationalError

from ledger.rulesets.relics import traits
from ledger.rulesets.relics import turns
from ledger import replay as replaying
from ledger import command_keys, replay_rolls, values
from ledger import undo as undoing
from ledger.campaign import Campaign
from ledger.chain import chained
from ledger.rulesets.relics.challenge import Challenge
from ledger.rulesets.relics.character import Character
from ledger.errors import BadInput, Conflict, LedgerError, RollStands, RuleViolation
from ledger.ids import CAMPAIGN_ID, challenge_id, pc_id
from ledger.rulesets.relics.recovery import RecoveryCommands
from ledger.reversible import recording
from ledger.rulesets.relics import rules as relics
from ledger.rulesets.relics.scenes import SceneCommands, frame
from ledger.rulesets.action_dice.commands import ActionDiceCommands
from ledger.rulesets.beer_run.commands import BeerRunCommands
from ledger.rulesets.decision_2d6.commands import Decision2d6Commands
from ledger.table import DiceBox, Table
from ledger import rulesets
from ledger.rulesets.relics.tactics import TacticsCommands

rulesets.load()  # every ruleset declared, and the topics of ledgers written before a move resolving
RULESETS = ("relics", "beer-run", "action-dice", "decision-2d6")
SINGLE_VERSION = "1"  # the three other rulesets have one version each so far
COSTS = ("free", "destiny", "doom", "destiny-or-doom")
TARGETS = ("cohort", "challenge")
ATTEMPTS = 8
SNAPSHOT_EVERY = 50
KEPT_CHANGING = ("Another process kept changing this campaign at the same moment; "
                 "nothing was recorded, try the command again.")

Report = dict[str, Any]


class CampaignLedger(SceneCommands, TacticsCommands, RecoveryCommands, BeerRunCommands, ActionDiceCommands,
                     Decision2d6Commands, Application):
    """One campaign's ledger; its store comes from eventsourcing's persistence settings."""

    name = "CampaignLedger"
    is_snapshotting_enabled = True
    gm_override: str | None = None  # the GM's reason for letting the next commands break a rule
    command_key: str | None = None  # the idempotency key of the next command (see `run`)
    command_invocation: str | None = None  # a digest of the command and its arguments, kept with the key
    read_only = False  # opened from a file that cannot be written: its read tables are not caught up

    # --- plumbing ---------------------------------------------------------------------------

    def run(self, command: Callable[[Table], Report], name: str | None = None,
            fallbacks: tuple[Callable[[Table], Report], ...] = ()) -> Report:
        """Run a command on fresh state and save all it recorded in one transaction.

        The recorder files the entries under the command's name and the unit of play
        the report names (`report["unit"]`, e.g. a round), for undo and replay. If the
        program rolled and a later step was refused, the roll is a fact: the first of the
        `fallbacks` (the same command asking for less) that plays is saved instead.
        """
        box = DiceBox()
        name = name or command.__qualname__.split(".<locals>")[0].rsplit(".", 1)[-1]
        for attempt in range(ATTEMPTS):
            if self.command_key and (done := self.already_recorded(self.command_key, name)):
                return done
            try:
                table, report, touched = self._play(box, command)
            except LedgerError as refusal:
                if isinstance(refusal, Conflict) or not (box.rolled and fallbacks):
                    raise
                return self._keep_the_roll(box, fallbacks, refusal, name)
            saved = self._save(table, report, name, touched)
            if saved is not None:
                return saved[0]
            time.sleep(random.uniform(0.01, 0.05) * (attempt + 1))  # let the other writer finish
        raise Conflict(KEPT_CHANGING)

    def _play(self, box: DiceBox, command: Callable[[Table], Report]) -> tuple[Table, Report, set]:
        """Play a command on fresh state with the dice already thrown, noting what it read and wrote."""
        box.restart()
        table = Table(self, box, self.gm_override)
        touched: set[tuple[str, str]] = set()
        with recording(touched):
            report = command(table)
        return table, report, touched

    def _save(self, table: Table, report: Report, name: str,
              touched: set[tuple[str, str]]) -> tuple[Report, list] | None:
        """Save what the table recorded, filed under its unit with what it read and wrote;
        None when another process saved first (run it again)."""
        versions = {a.id: a.version for a in table.touched()}
        unit, detail = undoing.filed(name, report, touched)
        pending = table.pending_events()  # one call: it empties the aggregates' lists
        values.check_recordable(pending)
        try:
            recordings = self.save(*pending, command=name, unit=unit, detail=self._keyed(detail))
        except (IntegrityError, OperationalError):
            return None
        self._snapshot(table, versions, recordings)
        report["entries"] = [r.notification.id for r in recordings]
        self.command_key = self.command_invocation = None  # one key, one command: a later run is another
        return report, recordings

    def _keep_the_roll(self, box: DiceBox, fallbacks: tuple[Callable[[Table], Report], ...],
                       refusal: LedgerError, name: str) -> Report:
        """Save the roll and every step before the refused one, then refuse, saying where the turn waits."""
        for attempt in range(ATTEMPTS):
            for fallback in fallbacks:
                try:
                    table, report, touched = self._play(box, fallback)
                except LedgerError:
                    continue
                saved = self._save(table, report, name, touched)
                if saved is None:
                    break
                report, recordings = saved
                rolled = next(r.notification.id for r in recordings if getattr(r.domain_event, "entered", None) is False)
                raise RollStands(turns.roll_stands(str(refusal), rolled, report), report["entries"])
            else:
                raise refusal
            time.sleep(random.uniform(0.01, 0.05) * (attempt + 1))
        raise Conflict(KEPT_CHANGING)

    def _keyed(self, detail: dict | None) -> dict | None:
        """The command's detail for the command log, with its key and invocation (see command_keys)."""
        return command_keys.keyed(detail, self.command_key, self.command_invocation)

    def already_recorded(self, key: str, name: str) -> Report | None:
        """A retry of a command the log already holds (see command_keys); a later run in this process is another."""
        done = command_keys.already_recorded(self.recorder, key, name, self.command_invocation)
        if done is not None:
            self.command_key = self.command_invocation = None
        return done

    def _snapshot(self, table: Table, before: dict, recordings: list) -> None:
        """Snapshots make a cold process load fast; losing one to a race costs nothing."""
        lowest: dict[Any, int] = {}
        for r in recordings:
            e = r.domain_event
            lowest.setdefault(e.originator_id, e.originator_version)
        for aggregate in table.touched():
            first = lowest.get(aggregate.id)
            if first is None:
                continue
            if (first - 1) // SNAPSHOT_EVERY != aggregate.version // SNAPSHOT_EVERY:
                try:
                    self.take_snapshot(aggregate.id, version=aggregate.version)
                except (IntegrityError, OperationalError):
                    pass

    def preview(self, command: Callable[[Table], Report]) -> Report:
        """Run a command's checks and show its report, saving nothing (a dry run)."""
        return command(Table(self, DiceBox()))

    def campaign(self) -> Campaign:
        return self.repository.get(CAMPAIGN_ID)

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
        return self._relics(step(placing, stress, None), name, fallbacks=(
            step(placing, None, "stress"), step(turns.Placing(), None, "stress"), step(turns.Placing(), None, "place")))

    # --- setting up ---------------------------------------------------------------------------

    def start(self, name: str, ruleset: str, version: str | None, settings: dict | None = None) -> Report:
        name = values.name(name, "A campaign's name")
        if ruleset not in RULESETS:
            raise BadInput(f"'{ruleset}' is not a ruleset; choose one of {', '.join(RULESETS)}.")
        if ruleset == "relics":
            version = relics.rules_for(version or relics.DEFAULT_VERSION).version
        elif (version or SINGLE_VERSION) != SINGLE_VERSION:
            raise BadInput(f"The {ruleset} ruleset has one rules version so far: {SINGLE_VERSION}.")

        unknown = sorted(set(settings or {}) - set(SETTINGS[ruleset]))
        if unknown:
            known = ", ".join(SETTINGS[ruleset]) or "none"
            raise BadInput(f"'{unknown[0]}' is not a {ruleset} setting; its settings: {known}.")

        def command(t: Table) -> Report:
            if t.exists(CAMPAIGN_ID):
                raise RuleViolation(f"This file already holds the campaign '{t.campaign.name}'.")
            t.add(Campaign(name=name, ruleset=ruleset, rules_version=version or SINGLE_VERSION, settings=settings))
            _check_settings(t, ruleset)
            return {"campaign": name, "ruleset": ruleset, "version": version or SINGLE_VERSION}
        return self.run(command)

    def add_pc(self, name: str, expertise: dict[str, int], primary: str) -> Report:
        name = values.name(name, "A PC's name")
        ranks = {relics.canonical(k, relics.TYPES, "type of Expertise"): v for k, v in expertise.items()}
        if any(not 0 <= v <= 5 for v in ranks.values()):
            raise BadInput("Expertise ranks go from 0 to 5.")
        if not ranks:
            raise BadInput("A PC needs at least one Expertise, e.g. --expertise Phantom=3.")
        primary = relics.canonical(primary, relics.TYPES, "type of Expertise")

        def command(t: Table) -> Report:
            camp = t.campaign
            if t.exists(pc_id(name)):
                raise RuleViolation(f"There is already a PC named {t.pc(name).name}.")
            traits.check_new_owner(t, name)
            camp.pc_joined(name)
            t.add(Character(name=name, expertise=ranks, primary=primary))
            return {"pc": name, "expertise": ranks, "primary": primary}
        return self._relics(command)

    def add_trait(self, owner: str, name: str, modifier: str, polarity: str | None,
                  cost: str, target: str, challenge: bool = False, frequency: str = "always",
                  types: list[str] | None = None) -> Report:
        """A trait for a PC, for the Cohort (owner `Cohort`) or, with `challenge`, for a Challenge."""
        mod = relics.parse_modifier(modifier, polarity)
        if cost not in COSTS:
            raise BadInput(f"A trait's cost is one of {', '.join(COSTS)}, not '{cost}'.")
        if target not in TARGETS:
            raise BadInput(f"A trait targets the cohort or the challenge pool, not '{target}'.")
        if frequency not in relics.FREQUENCIES:
            raise BadInput(f"A trait is used {', once a '.join(relics.FREQUENCIES)}; not '{frequency}'.")
        kinds = [relics.canonical(k, relics.TYPES, "Challenge type") for k in (types or [])]
        if mod.kind == "add" and target == "challenge":
            raise RuleViolation("Add Dice never change a Challenge pool; it is the Challenge's rating.")
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

    def open_challenge(self, name: str, threat: str, type_: str, rating: int, group: list[str] | None = None,
                       rounds: int | None = None, test: dict | None = None) -> Report:
        """Open a Challenge in the Event going on (if any): faced by a group, timed, or a Test."""
        threat = relics.canonical(threat, relics.THREATS, "Threat")
        type_ = relics.canonical(type_, relics.TYPES, "Challenge type")
        name = values.name(name, "A Challenge's name")
        if rating < 1:
            raise BadInput("A Challenge's rating is at least 1.")
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
            ch = t.add(Challenge(name=name.strip(), threat=threat, type=type_, rating=rating))
            frame(t, ch, group or [], rounds, test)
            return {"challenge": name.strip(), "threat": threat, "type": type_, "rating": rating,
                    "group": ch.group, "rounds": ch.rounds_left, "test": ch.test}
        return self._relics(command)

    def set_house_rule(self, rule: str, value: str, reason: str) -> Report:
        """Amend a rule for this campaign; entries from now on use it, history shows when."""
        parsed = relics.house_rule(rule, value)
        reason = values.text(reason)

        def command(t: Table) -> Report:
            camp = t.campaign
            previous = camp.house_rules.get(rule, _plain(getattr(t.rules, rule)))
            if previous == parsed:
                raise RuleViolation(f"{rule} is already {value}.")
            camp.house_rule_changed(rule, parsed, previous, reason.strip())
            return {"rule": rule, "value": parsed, "previous": previous}
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
            pc.push_the_limit(t.rules)
            return {"pc": pc.name, "stress": pc.stress, "agony": pc.agony, "out": pc.out,
                    "unit": f"push {pc.name}"}
        return self._relics(command)


    # --- play sessions (real-world sittings, not the game's Scenes) ------------------------------

    def start_session(self, title: str) -> Report:
        def command(t: Table) -> Report:
            camp = t.campaign
            if camp.session_open is not None:
                raise RuleViolation(f"Session {camp.sessions} ('{camp.session_open}') is still open; end it first.")
            camp.session_started(camp.sessions + 1, values.name(title, "A session's title"))
            return {"session": camp.sessions, "title": camp.session_open}
        return self.run(command)

    def end_session(self) -> Report:
        def command(t: Table) -> Report:
            camp = t.campaign
            if camp.session_open is None:
                raise RuleViolation("No session is open; start one with `campaign session start TITLE`.")
            camp.session_ended(camp.sessions, camp.session_open)
            return {"session": camp.sessions}
        return self.run(command)

    # --- undo ----------------------------------------------------------------------------------

    def undo(self, key: str | None, cascade: bool, dry_run: bool = False) -> Report:
        """Reverse a unit of play (default: the latest); with cascade, the later units that used it first."""
        def command(t: Table) -> Report:
            units = undoing.live_units(self.recorder)
            reversals = undoing.reversals(t, units, undoing.find(units, key), cascade)
            return {"dry_run": dry_run, "detail": {"reverses": [r.unit.key for r in reversals]},
                    "reversed": [{"unit": r.unit.key, "entries": [r.unit.first, r.unit.entries[-1]],
                                  "changes": r.lines} for r in reversals]}
        return self.preview(command) if dry_run else self.run(command, "undo")

    def undo_list(self, limit: int | None = None) -> list[Report]:
        """The units that can be undone now, newest first, each with the dependents a cascade takes."""
        return undoing.listing(self, limit)


    # --- replay --------------------------------------------------------------------------------

    def replay(self, key: str | None, changes: replaying.Changes, commit: bool = False,
               cascade: bool = False) -> Report:
        """Compare a recorded round with the same faces and other choices; --commit corrects it."""
        if commit and self.command_key and (done := self.already_recorded(self.command_key, "replay")):
            return done  # a retried correction: the round it corrected has changed since, compare nothing
        found = replaying.find_unit(self, key)  # undone rounds too: a what-if, or played again
        unit = found.unit
        roll = replay_rolls.roll_event(self, unit)
        if roll is not None:
            if commit:
                raise BadInput("A replayed roll is shown, not committed: undo the roll and roll it again.")
            return replay_rolls.compare_roll(self, found, roll, changes.sets)
        if changes.sets:
            raise BadInput("--set changes a single roll's choices (action-dice, decision-2d6); "
                           "a Relics round takes --leader, --add-trait, --place and the like.")
        comparison = replaying.compare(self, found, changes)
        if not commit:
            return comparison

        def command(t: Table) -> Report:
            units = undoing.live_units(self.recorder)
            # An undone round played again has nothing of itself left to reverse.
            reversed_keys = [r.unit.key for r in undoing.reversals(t, units, unit, cascade)] \
                if found.reversal is None else []
            choices = replaying.changed(replaying.recorded_choices(self, unit), changes)
            played = replaying.play_on(t, choices, {}, strict=True)
            return {**comparison, "unit": played["unit"],
                    "detail": {"reverses": reversed_keys, "corrects": [unit.first, unit.entries[-1]]}}
        return self.run(command, "replay")


SETTINGS = {"relics": (), "beer-run": ("categories", "intensity", "dead_strike_back"),
            "action-dice": ("features_limit",), "decision-2d6": ("supply_threshold", "d100_step")}


def _check_settings(t: Table, ruleset: str) -> None:
    """Read every setting once when the campaign is made, so a bad one is refused now, not later."""
    from ledger.rulesets.action_dice import commands as action_dice
    from ledger.rulesets.beer_run import play as beer_run_play
    from ledger.rulesets.decision_2d6 import pools as decision_2d6_pools
    if ruleset == "beer-run":
        beer_run_play.categories(t)
        beer_run_play.starting_intensity(t)
    elif ruleset == "action-dice":
        action_dice.check_settings(t.campaign.settings)
    elif ruleset == "decision-2d6":
        for key in SETTINGS[ruleset]:
            decision_2d6_pools._setting(t, key, 0)


def _plain(value: Any) -> Any:
    """A rules value as the ledger stores it (JSON: string keys, lists)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return list(value)
    return value


def open_ledger(db: str, store: str | None = None, read_only: str | None = None) -> CampaignLedger:
    """The ledger for one campaign file; PERSISTENCE_MODULE in the environment can move it
    (`store` pins it, e.g. a scratch copy that must stay in a file). `read_only`, an SQLite URI
    from ledger.read_only, reads a file that cannot be written: no table is created, nothing written."""
    env = {"SQLITE_DBNAME": db, "SQLITE_LOCK_TIMEOUT": os.environ.get("SQLITE_LOCK_TIMEOUT", "10")}
    env["PERSISTENCE_MODULE"] = store or os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite")
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        env["APPLICATION_RECORDER_TOPIC"] = "ledger.chain:ChainedSQLiteRecorder"
        if read_only:  # eventsourcing passes the name to sqlite3.connect(uri=True)
            env.update(SQLITE_DBNAME=read_only, CREATE_TABLE="no")
    elif env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
        env["APPLICATION_RECORDER_TOPIC"] = "ledger.chain_postgres:ChainedPostgresRecorder"
        env["POSTGRES_ENABLE_DB_FUNCTIONS"] = "no"  # the chain is written beside each insert
        # An unreachable server is said within seconds, not eventsourcing's default half minute.
        env["POSTGRES_CONNECT_TIMEOUT"] = os.environ.get("POSTGRES_CONNECT_TIMEOUT") or str(CONNECT_TIMEOUT)
    return CampaignLedger(env=env)


CONNECT_TIMEOUT = 5  # seconds; `campaign --timeout` or POSTGRES_CONNECT_TIMEOUT changes it
