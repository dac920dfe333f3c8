"""The base of every aggregate: one event that restores state, so undo is an entry, never a delete."""
from __future__ import annotations

import copy
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, ClassVar, Iterator

from eventsourcing.domain import Aggregate, event

from campaign_ledger.ledger.topics import StoredName, register_old_prefix, stored_name

register_old_prefix()

# The (aggregate id, attribute) pairs the running command read or assigned, while one is
# recording (undo's dependencies: see ledger/undo.py). A context variable, so two commands
# running in threads of one process never record into each other's set.
_touched: ContextVar[set[tuple[str, str]] | None] = ContextVar("touched", default=None)


@contextmanager
def recording(touched: set[tuple[str, str]] | None) -> Iterator[None]:
    """Record into `touched` (None: record nothing, e.g. while an aggregate is loaded)."""
    token = _touched.set(touched)
    if touched is not None:
        _hooks(+1)
    try:
        yield
    finally:
        if touched is not None:
            _hooks(-1)
        _touched.reset(token)


_RECORDING = [0]  # recordings open, in every thread
_HOOKS_LOCK = threading.Lock()


def _hooks(by: int) -> None:
    """The attribute hooks that record reads and writes are on the aggregates only while some
    command records (`recording`): a hook written in Python makes every attribute read a call,
    and an audit's snapshot check or an import plays a million events with nothing to record
    (off, an audit of 100,000 entries took 6% less). Setting them on the class reaches every
    subclass; while any thread records, each hook still asks its own context whether to note."""
    with _HOOKS_LOCK:
        _RECORDING[0] += by
        if by > 0 and _RECORDING[0] == 1:
            Reversible.__getattribute__ = _noting_reads  # type: ignore[method-assign]
            Reversible.__setattr__ = _noting_writes  # type: ignore[method-assign]
        elif by < 0 and _RECORDING[0] == 0:
            del Reversible.__getattribute__
            del Reversible.__setattr__


def _noting_reads(self: Any, name: str) -> Any:
    touched = _touched.get()
    if touched is not None and name[0] != "_" and _is_state(self, name):
        touched.add((str(object.__getattribute__(self, "_id")), name))
    return object.__getattribute__(self, name)


def _noting_writes(self: Any, name: str, value: Any) -> None:
    touched = _touched.get()
    if touched is not None and name[0] != "_":
        touched.add((str(object.__getattribute__(self, "_id")), name))
    object.__setattr__(self, name, value)


class Reversible(Aggregate):
    """An aggregate whose changes a later entry can reverse exactly.

    The event stores the values to restore (not a recipe), so replaying it needs no
    knowledge of the round it reverses, and works for every ruleset's aggregates.
    """

    class Event(Aggregate.Event):
        TOPIC = StoredName()  # each event's stored name: `ledger.campaign:Campaign.Joined` (ledger/topics.py)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each aggregate's stored name (`ledger.campaign:Campaign`), never the package's path: set on
        the class itself, as eventsourcing's explicit topics require, before eventsourcing registers it."""
        cls.TOPIC = stored_name(cls)
        super().__init_subclass__(**kwargs)

    # Attributes added after ledgers were written: old events and snapshots lack them, so
    # they read as these values (never mutated in place: bodies assign new values).
    STATE_DEFAULTS: ClassVar[dict[str, Any]] = {}
    # Lists of names, each of an aggregate of its own (the Cohort's PCs): a command that uses a
    # member reads the member's own aggregate, so undo tracks such a list by member, not whole.
    MEMBERS: ClassVar[frozenset[str]] = frozenset()
    # An attribute's items in the ruleset's own words (a Beer Run ability die `d3`), for the lines an
    # undo writes (ledger/words.py `change`); an attribute not named here is written generically.
    WORDS: ClassVar[dict[str, Callable[[Any], str]]] = {}
    # While a command records, every read and write of a state attribute is noted: `_hooks` puts
    # __getattribute__ and __setattr__ on this class then, and takes them off after.

    def __getattr__(self, name: str) -> Any:
        defaults = type(self).STATE_DEFAULTS
        if name in defaults:
            return copy.deepcopy(defaults[name])
        raise AttributeError(name)

    @event("Reversed")
    def reversed_by(self, unit: str, entries: list, changes: dict) -> None:
        for name, value in changes.items():
            setattr(self, name, copy.deepcopy(value))

    @event("Remade")
    def remade(self, created: dict) -> None:
        """Made again after undo unmade it (see ledger/table.py `add`): the id is the name's, so
        the new thing continues the old stream, with the state its own creation event gives."""
        fresh = creation_event(self.id, created, self.modified_on).mutate(None)
        for name in [k for k in vars(self) if not k.startswith("_")]:
            object.__delattr__(self, name)
        for name, value in vars(fresh).items():
            if not name.startswith("_"):
                setattr(self, name, value)

    def state(self) -> dict[str, Any]:
        """The game state the aggregate holds (its bookkeeping attributes left out)."""
        state = copy.deepcopy(type(self).STATE_DEFAULTS)
        state.update({k: v for k, v in vars(self).items() if not k.startswith("_")})
        return state


def creation(event: Any) -> dict[str, Any]:
    """What a later `remade` needs to make the same thing again: its creation event's class and arguments."""
    from eventsourcing.utils import get_topic

    bookkeeping = {"originator_id", "originator_version", "timestamp", "originator_topic"}
    return {"event": get_topic(type(event)), "aggregate": event.originator_topic,
            "kwargs": {k: v for k, v in vars(event).items() if k not in bookkeeping}}


def creation_event(id_: Any, created: dict[str, Any], timestamp: Any, version: int = 1) -> Any:
    """The creation event a `remade` stands for (the read tables apply it as they would the first).
    Its topics are stored strings: checked to name the program's own classes before any is resolved
    (ledger/topic_guard.py), so a forged entry imports nothing."""
    from campaign_ledger.ledger.topic_guard import aggregate_class, event_class

    aggregate_class(created.get("aggregate"), "A remade record")
    return event_class(created.get("event"), "A remade record")(
        originator_id=id_, originator_version=version, timestamp=timestamp,
        originator_topic=created["aggregate"], **created["kwargs"])


def unmade(aggregate: Any) -> bool:
    """Undo reversed the command that made it: as if it had never been made (its id stays taken
    in the store, so making it again continues its stream: see `remade`)."""
    return bool(object.__getattribute__(aggregate, "__dict__").get("unmade"))


def unmaking(event: Any) -> bool:
    """A reversal that unmakes what its unit made."""
    return isinstance(event, Reversible.Reversed) and bool(event.changes.get("unmade"))


def _is_state(aggregate: Any, name: str) -> bool:
    """A game-state attribute (not a method, not bookkeeping)."""
    return name in object.__getattribute__(aggregate, "__dict__") or name in type(aggregate).STATE_DEFAULTS

