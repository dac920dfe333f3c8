"""One command's view of the campaign: aggregates loaded once, their events saved together.

A command runs against a Table; if another process saved first (a version conflict or
a locked file) the whole command runs again on fresh state, re-using any dice the
program already rolled so a retry never changes the faces.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from campaign_ledger.ledger import dice
from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.errors import NO_CAMPAIGN, NotFound, RuleViolation
from campaign_ledger.ledger.ids import CAMPAIGN_ID, challenge_id, pc_id
from campaign_ledger.ledger.reversible import creation, recording, unmade

if TYPE_CHECKING:
    from eventsourcing.application import Application

A = TypeVar("A")


class DiceBox:
    """Rolls once per position in a command, and hands the same faces to every retry."""

    def __init__(self) -> None:
        self._rolls: list[dice.Roll] = []
        self._next = 0

    def restart(self) -> None:
        self._next = 0

    @property
    def rolled(self) -> bool:
        """Whether the program has rolled in this command: those faces are facts from then on."""
        return bool(self._rolls)

    def roll(self, count: int, sides: int = 6) -> dice.Roll:
        if self._next < len(self._rolls) and (len(self._rolls[self._next].faces), self._rolls[self._next].sides) \
                == (count, sides):
            result = self._rolls[self._next]
        else:
            result = dice.roll(count, sides)
            del self._rolls[self._next:]
            self._rolls.append(result)
        self._next += 1
        return result


class Table:
    def __init__(self, app: Application, box: DiceBox, override: str | None = None) -> None:
        self.app = app
        self.dice = box
        self.override = override.strip() if override and override.strip() else None
        self._loaded: dict[UUID, Any] = {}
        self._order: list[Any] = []
        self._unmade: dict[UUID, Any] = {}  # made once, unmade by undo: absent to play, their ids taken

    def load(self, id_: UUID, missing: str) -> Any:
        """Any aggregate by id, once per command; NotFound with the given sentence if absent."""
        return self._get(id_, lambda: missing)

    def expect_ruleset(self, ruleset: str) -> None:
        if self.campaign.ruleset != ruleset:
            article = "an" if self.campaign.ruleset[0] in "aeiou" else "a"
            raise RuleViolation(f"This is {article} {self.campaign.ruleset} campaign; "
                                f"that command is for {ruleset} campaigns.")

    def _get(self, id_: UUID, missing: Callable[[], str]) -> Any:
        if id_ not in self._loaded:
            loaded = self._stored(id_)
            if loaded is None:
                raise NotFound(missing())
            self._keep(loaded)
        return self._loaded[id_]

    def _stored(self, id_: UUID) -> Any:
        """The stored aggregate, or None when there is none or undo unmade it (kept aside for `add`)."""
        if id_ in self._unmade:
            return None
        try:
            with recording(None):  # replaying its events is loading, not this command reading
                loaded = self.app.repository.get(id_)
        except AggregateNotFoundError:
            return None
        if unmade(loaded):
            self._unmade[id_] = loaded
            return None
        return loaded

    def exists(self, id_: UUID) -> bool:
        try:
            self._get(id_, str)
        except NotFound:
            return False
        return True

    def add(self, aggregate: A) -> A:
        """A newly made aggregate joins the table; one whose id undo unmade is made again on the
        stored stream (a `Remade` entry), since ids derive from names and a stream never restarts."""
        new: Any = aggregate
        if new.version == 1 and len(new.pending_events) == 1 and new.id not in self._loaded:
            self._stored(new.id)
            if new.id in self._unmade:
                again = self._unmade.pop(new.id)
                again.remade(creation(new.collect_events()[0]))
                return self._keep(again)
        return self._keep(aggregate)

    def _keep(self, aggregate: A) -> A:
        self._loaded[aggregate.id] = aggregate  # type: ignore[attr-defined]
        self._order.append(aggregate)
        return aggregate

    @property
    def campaign(self) -> Campaign:
        return self._get(CAMPAIGN_ID, lambda: NO_CAMPAIGN)

    def refuse(self, rule: str) -> None:
        """Refuse a broken rule, unless the GM overrides it: then the ledger records both."""
        if self.override is None:
            raise RuleViolation(rule)
        self.campaign.gm_overrode(rule, self.override)

    def allow(self, check: Callable[[], Any], fallback: Any = None) -> Any:
        """Run a check that may raise a RuleViolation; with a GM override, note it and go on."""
        try:
            return check()
        except RuleViolation as e:
            self.refuse(str(e))
            return fallback

    def pc(self, name: str) -> Any:
        return self._get(pc_id(self.pc_key(name)), lambda: f"There is no PC named '{name}' in this campaign.")

    def pc_key(self, name: str) -> str:
        """The name a PC's id comes from: its first, whatever it is called since (a rename maps the
        new name to it). Only a name that is a rename's counts as reading the renames."""
        with recording(None):
            key = self.campaign.aliases.get(name.strip().casefold()) if self.exists(CAMPAIGN_ID) else None
        if key is None:
            return name
        return self.campaign.aliases[name.strip().casefold()]

    def challenge(self, name: str) -> Any:
        return self._get(challenge_id(name), lambda: f"There is no Challenge named '{name}' in this campaign.")

    def pcs_in_game(self) -> list[Any]:
        return [pc for pc in (self.pc(n) for n in self.campaign.pcs) if not pc.out and not pc.retired]

    def pending_events(self) -> list[Any]:
        """Every new event, in the order the table played them (ties keep aggregate order)."""
        events = [e for agg in self._order for e in agg.collect_events()]
        return sorted(events, key=lambda e: e.timestamp)

    def touched(self) -> list[Any]:
        return list(self._order)
