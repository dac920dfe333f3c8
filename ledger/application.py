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

from campaign_ledger.ledger import actors, command_keys, server_waits, storage_faults, values
from campaign_ledger.ledger import undo as undoing
from campaign_ledger.ledger import units
from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.chain_queries import ChainQueries
from campaign_ledger.ledger.errors import NO_CAMPAIGN, BadInput, Conflict, LedgerError, NotFound, RollStands, RuleViolation
from campaign_ledger.ledger.ids import CAMPAIGN_ID
from campaign_ledger.ledger.reversible import recording
from campaign_ledger.ledger.table import DiceBox, Table
from campaign_ledger.ledger import rulesets

rulesets.load()  # every ruleset declared (not imported), and the topics of ledgers written before a move resolving
ATTEMPTS = 8
SNAPSHOT_EVERY = 50
KEPT_CHANGING = ("Another process kept changing this campaign at the same moment; "
                 "nothing was recorded, try the command again.")

Report = dict[str, Any]


class CampaignLedger(Application):
    """One campaign's ledger; its store comes from eventsourcing's persistence settings."""

    name = "CampaignLedger"
    is_snapshotting_enabled = True
    gm_override: str | None = None  # the GM's reason for letting the next commands break a rule
    command_key: str | None = None  # the idempotency key of the next command (see `run`)
    command_invocation: str | None = None  # a digest of the command and its arguments, kept with the key
    command_actor: str = "gm"  # who writes the next commands: "gm" or "seat:<name>" (ledger/actors.py)
    command_channel: str = "api"  # how they came: cli, shell, page, api, import (set per call by the library)
    command_confirmed_by: str | None = None  # the GM, when a player's pending action was accepted
    read_only = False  # opened from a file that cannot be written: its read tables are not caught up

    def construct_repository(self) -> Any:
        """eventsourcing's repository, loading aggregates without its per-event protocol check
        (ledger/repository.py)."""
        from campaign_ledger.ledger.repository import PlayedRepository

        repository = super().construct_repository()
        repository.__class__ = PlayedRepository  # the same object and settings; only `get`'s projector differs
        return repository

    def __getattr__(self, name: str) -> Any:
        """A ruleset's command (`app.cohort_turn`, `app.beer_run_roll`): the application composes
        the rulesets' commands, each bound to it (see ledger/rulesets `Commands`)."""
        if name.startswith("__") or name.startswith("_ruleset"):
            raise AttributeError(name)
        for commands in rulesets.commands_of(self, self.ruleset_id()):
            if hasattr(type(commands), name):
                return getattr(commands, name)
        raise AttributeError(f"{type(self).__name__} has no command {name!r}")

    def ruleset_id(self) -> str | None:
        """The campaign's own ruleset (its commands are looked up, and its read tables imported,
        before any other's), read from its first entry: it is set once, when the campaign starts, so
        the campaign's events are not replayed for it (an import's scratch ledger has no snapshot
        yet while its read tables are built). None before the campaign starts."""
        if "_ruleset" not in self.__dict__:
            try:
                started = next(iter(self.events.get(CAMPAIGN_ID, lte=1)), None)
            except Exception:  # a ledger that cannot say: look through them all
                return None
            if started is None:
                return None
            self.__dict__["_ruleset"] = started.ruleset
        return self.__dict__["_ruleset"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().__init__(*args, **kwargs)
        except Exception:  # a server that cannot be reached: its pool is closed here, not by a later
            factory = self.__dict__.get("factory")  # garbage collection in one of the pool's own threads
            if factory is not None:
                factory.close()
            raise

    def construct_factory(self, env: Any) -> Any:
        """eventsourcing's factory for the store; on PostgreSQL, with every wait for the server bounded."""
        factory = super().construct_factory(env)
        server_waits.bound(factory, env.get("POSTGRES_CONNECT_TIMEOUT"))
        return factory

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
        log = self.recorder if isinstance(self.recorder, ChainQueries) else None  # (an in-memory store keeps none)
        unit, detail = units.filed(name, report, touched, log)
        pending = table.pending_events()  # one call: it empties the aggregates' lists
        values.check_recordable(pending)
        try:
            recordings = self.save(*pending, command=name, unit=unit, detail=self._keyed(detail))
        except (IntegrityError, OperationalError) as e:
            if storage_faults.not_a_race(e):  # a full disk or a lost server: no retry cures it (see storage_faults)
                raise
            return None
        self._snapshot(table, versions, recordings)
        report["entries"] = [r.notification.id for r in recordings]
        if log is not None and unit and name not in units.NOT_UNITS and recordings:  # the name `undo` takes
            report["unit"] = units.given(log, unit, detail, report["entries"][0])
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
                raise RollStands(f"{str(refusal).rstrip('.')}. The program's roll stands as entry #{rolled}; "
                                 f"{report.get('stands', 'see `campaign status`.')}", report["entries"])
            else:
                raise refusal
            time.sleep(random.uniform(0.01, 0.05) * (attempt + 1))
        raise Conflict(KEPT_CHANGING)

    def _keyed(self, detail: dict | None) -> dict | None:
        """The command's detail for the command log, with who wrote it (ledger/actors.py) and its key
        and invocation (see command_keys): the one place a command's detail is made."""
        who = actors.recorded(self.command_actor, self.command_channel, self.command_confirmed_by)
        return command_keys.keyed({**(detail or {}), **who}, self.command_key, self.command_invocation)

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
        """The campaign; a ledger with none (empty: a `new` or `demo` killed before its first entry) is
        refused in one line, as it is by every command's Table."""
        from eventsourcing.application import AggregateNotFoundError

        try:
            return self.repository.get(CAMPAIGN_ID)
        except AggregateNotFoundError:
            raise NotFound(NO_CAMPAIGN) from None

    def holds_no_campaign(self) -> bool:
        """No campaign has started in this ledger: no entries, or none that starts the campaign."""
        return next(iter(self.events.get(CAMPAIGN_ID, lte=1)), None) is None

    # --- setting up ---------------------------------------------------------------------------

    def start(self, name: str, ruleset: str, version: str | None, settings: dict | None = None) -> Report:
        name = values.name(name, "A campaign's name")
        chosen = rulesets.find(ruleset)
        version = chosen.version_of(version)
        unknown = sorted(set(settings or {}) - set(chosen.settings))
        if unknown:
            known = ", ".join(chosen.settings) or "none"
            raise BadInput(f"'{unknown[0]}' is not a {chosen.id} setting; its settings: {known}.")

        def command(t: Table) -> Report:
            if t.exists(CAMPAIGN_ID):
                raise RuleViolation(f"The ledger already holds the campaign '{t.campaign.name}'.")
            t.add(Campaign(name=name, ruleset=chosen.id, rules_version=version, settings=settings))
            chosen.check_settings(t)
            return {"campaign": name, "ruleset": chosen.id, "version": version}
        return self.run(command)

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

    def note(self, text: str, tags: tuple[str, ...] = (), about: str | None = None, round_: str | None = None,
             entry: int | None = None, gm_only: bool = False) -> Report:
        """The GM's note on the campaign, a thing, a round or an entry (see ledger/notes.py)."""
        from campaign_ledger.ledger import notes
        return notes.take(self, text, tags, about, round_, entry, gm_only)

    # --- player seats (ledger/seats.py) -----------------------------------------------------------

    def seat_add(self, pc: str, player: str, key: bytes, characters: list[str]) -> Report:
        """Seat a player at their character; `key` is the seat key its link is derived from."""
        from campaign_ledger.ledger import seats
        return seats.add(self, pc, player, key, characters)

    def seat_revoke(self, name: str) -> Report:
        from campaign_ledger.ledger import seats
        return seats.revoke(self, name)

    def seat_rotate(self, name: str, key: bytes) -> Report:
        from campaign_ledger.ledger import seats
        return seats.rotate(self, name, key)

    # --- undo ----------------------------------------------------------------------------------

    def undo(self, key: str | None, cascade: bool, dry_run: bool = False, checked: tuple | None = None) -> Report:
        """Reverse a unit of play (default: the latest); with cascade, the later units that used it first.
        The units are read from the newest back, and what was read verified from `checked`, where the
        read tables last verified the chain (None: the whole chain), before anything is shown or
        appended (ledger/undo_reads.py)."""
        from campaign_ledger.ledger.undo_reads import planned
        from campaign_ledger.ledger.units_newest import Newest

        def command(t: Table) -> Report:
            live = Newest(self.recorder)
            reversals = planned(self, checked, live, lambda: undoing.reversals(t, live, live.find(key), cascade))
            return {"dry_run": dry_run, "detail": {"reverses": [r.unit.key for r in reversals]},
                    "reversed": [{"unit": r.unit.key, "entries": [r.unit.first, r.unit.entries[-1]],
                                  "entry_range": [r.unit.first, r.unit.entries[-1]],
                                  "changes": r.lines} for r in reversals]}
        return self.preview(command) if dry_run else self.run(command, "undo")

    def undo_list(self, limit: int | None = None, checked: tuple | None = None) -> list[Report]:
        """The units that can be undone now, newest first, each with the dependents a cascade takes
        (what was read verified from `checked`, as `undo` verifies it)."""
        from campaign_ledger.ledger.undo_listing import listing
        from campaign_ledger.ledger.undo_reads import planned
        from campaign_ledger.ledger.units_newest import Newest

        live = Newest(self.recorder)
        return planned(self, checked, live, lambda: listing(self, limit, live))


    def scratch_ledger(self, path: str) -> "CampaignLedger":
        """A ledger in a scratch file, always SQLite whatever this one's store (a what-if, a replay:
        ledger/what_if.py asks the ledger it copies, and so needs nothing of this module)."""
        return open_ledger(path, store="eventsourcing.sqlite")

    # --- replay --------------------------------------------------------------------------------

    def replay(self, key: str | None, changes: Any, commit: bool = False, cascade: bool = False) -> Report:
        """Compare a recorded round (or roll) with the same faces and other choices; --commit corrects a round
        (ledger/replay.py `replay`; `changes` is the ruleset's own, `changes.sets` for a single roll)."""
        from campaign_ledger.ledger import replay as replaying  # imported by the one command that replays

        return replaying.replay(self, key, changes, commit, cascade)


def open_ledger(db: str, store: str | None = None, read_only: str | None = None) -> CampaignLedger:
    """The ledger for one campaign file; PERSISTENCE_MODULE in the environment can move it
    (`store` pins it, e.g. a scratch copy that must stay in a file). `read_only`, an SQLite URI
    from ledger.read_only, reads a file that cannot be written: no table is created, nothing written."""
    env = {"SQLITE_DBNAME": db, "SQLITE_LOCK_TIMEOUT": os.environ.get("SQLITE_LOCK_TIMEOUT", "10"),
           "MAPPER_TOPIC": "ledger.topic_guard:GuardedMapper"}  # no stored topic imports foreign code
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

