"""Which stored strings may name code: no topic read from a ledger or an export reaches an import
unless it names one of the program's own classes.

eventsourcing resolves a topic ("module:Class") by importing its module: an entry's type when
it is read (`Mapper.to_domain_event`), the aggregate an entry creates when it is played
(`Created.mutate` reads `originator_topic` from the entry's data), a snapshot's aggregate
(`Snapshot.mutate`), and the creation event a `Remade` entry carries (ledger/reversible.py
`creation_event`). A forger who recomputes the hashes can write any string there, and importing a
module runs its top-level code. So every such string is checked here first: its module must be
one of the program's (`ledger.` and each ruleset's package, or an old name a ruleset moved), and
what it names must be an event class (or, for an aggregate, a Reversible) defined there.
`GuardedMapper` checks each entry as it is read, before anything can play it, in every command.
"""
from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Mapper
from eventsourcing.utils import get_topic, resolve_topic

from campaign_ledger.ledger.errors import Unusable

SNAPSHOT = "eventsourcing.domain:Snapshot"  # the snapshot class the store keeps (eventsourcing's own)
_EVENTS: set[str] = set()       # topics checked already: naming an event class of the program's
_AGGREGATES: set[str] = set()   # topics checked already: naming an aggregate class of the program's


class ForeignTopic(Unusable):
    """A stored string names code the program does not have: the file was forged or damaged."""

    def __init__(self, topic: Any, where: str) -> None:
        shown = str(topic)[:80]
        super().__init__(f"{where} names code this program does not have ({shown}); nothing of it was run. "
                         "The file was changed outside the program: restore it from a copy you trust.")
        self.topic = topic


def event_class(topic: Any, where: str = "An entry") -> type:
    """The event class a stored type names, once the topic is known to be the program's own."""
    from eventsourcing.domain import DomainEvent

    return _checked(topic, where, DomainEvent, _EVENTS)


def aggregate_class(topic: Any, where: str = "An entry") -> type:
    """The aggregate class an entry's data (or a snapshot) names, checked as `event_class` is (every
    aggregate class in the program's modules is a Reversible one; checked against eventsourcing's
    base, this module needs nothing of ledger/reversible.py, which asks it to check)."""
    from eventsourcing.domain import BaseAggregate

    return _checked(topic, where, BaseAggregate, _AGGREGATES)


def _checked(topic: Any, where: str, base: type, known: set) -> type:
    """The class `topic` names, once it is known to be the program's own and a `base` (kept in `known`)."""
    if topic not in known:
        cls = _resolved(topic, where)
        if not (isinstance(cls, type) and issubclass(cls, base)):
            raise ForeignTopic(topic, where)
        known.add(topic)
    return resolve_topic(topic)


def check_data(topic: Any, data: Any, where: str = "An entry") -> None:
    """The topics an entry's data names (what `mutate` or `creation_event` would resolve), checked
    before anything plays it: the aggregate a creation names, a snapshot's, a `Remade` entry's."""
    if not isinstance(data, dict):
        return
    if "originator_topic" in data:
        aggregate_class(data["originator_topic"], where)
    if topic == SNAPSHOT and "topic" in data:
        aggregate_class(data["topic"], where)
    created = data.get("created")
    if isinstance(created, dict) and (topic is None or topic.endswith(".Remade")):  # None: any event
        check_creation(created, where)


def check_creation(created: dict, where: str = "An entry") -> None:
    """What a `Remade` entry makes again: a creation event of the program's, of one of its aggregates."""
    event_class(created.get("event"), where)
    aggregate_class(created.get("aggregate"), where)


def _resolved(topic: Any, where: str) -> Any:
    """The object a topic names, imported only when its module is one of the program's own."""
    if not isinstance(topic, str) or ":" not in topic or not _ours(topic.partition(":")[0]):
        raise ForeignTopic(topic, where)
    try:
        return resolve_topic(topic)
    except Exception:  # the program's module, but no such class in it (or no such module)
        raise ForeignTopic(topic, where) from None


def _ours(module: str) -> bool:
    """A module of the program's (or the old name of one a ruleset moved): only these are imported.
    Asked once per topic (the answer is kept above); installed plug-ins are read only when the
    rulesets declared so far do not hold the module."""
    from campaign_ledger.ledger import rulesets

    if module == SNAPSHOT.partition(":")[0]:
        return True
    return _within(module, rulesets.declared()) or _within(module, rulesets.all_rulesets())


def _within(module: str, declared: list[Any]) -> bool:
    homes = ("ledger", *(r.package for r in declared), *(old for r in declared for old in r.moved))
    return any(module == home or module.startswith(f"{home}.") for home in homes)


class GuardedMapper(Mapper):
    """eventsourcing's mapper, refusing a stored entry whose type or data names code the program
    does not have, before that code could be imported (chosen by MAPPER_TOPIC: ledger.application)."""

    def to_domain_event(self, stored_event: Any) -> Any:
        topic = stored_event.topic
        if topic not in _EVENTS and topic != SNAPSHOT:  # a set lookup per entry once its type was seen
            event_class(topic, _where(stored_event))
        event = super().to_domain_event(stored_event)
        data = event.__dict__
        if "originator_topic" in data or "created" in data or topic == SNAPSHOT:
            check_data(topic, data, _where(stored_event))
        return event


def _where(stored_event: Any) -> str:
    entry = getattr(stored_event, "id", None)
    if isinstance(entry, int):
        return f"Entry #{entry}"
    return f"An entry of record {stored_event.originator_id} (its version {stored_event.originator_version})"


TOPIC = get_topic(GuardedMapper)  # what open_ledger sets as MAPPER_TOPIC
