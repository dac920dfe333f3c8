"""The aggregates loaded without eventsourcing's per-event protocol check.

eventsourcing's default projector (`project_aggregate`) asserts `isinstance(event,
CanMutateProtocol)` for every event it plays: a runtime Protocol check that lists the protocol's
attributes again on each call, about 50 us an event here. Every event this ledger stores is a
domain event of its own aggregates (ledger/topic_guard.py refuses any other topic), each with its
`mutate`, so the check can only pass; it was most of `undo --list`'s own work at 100,000 entries
(976 events loaded, 47 ms). Loading is otherwise eventsourcing's own: the snapshot, then the events after it.
"""
from __future__ import annotations

from typing import Any, Iterable

from eventsourcing.application import Repository


def played(aggregate: Any, events: Iterable[Any]) -> Any:
    """`project_aggregate` without its assert: each event's `mutate`, in order."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


class PlayedRepository(Repository):
    """eventsourcing's Repository, `played` as the projector unless the caller names one."""

    def get(self, aggregate_id: Any, *, version: int | None = None, projector_func: Any = None,
            **options: Any) -> Any:
        return super().get(aggregate_id, version=version, projector_func=projector_func or played, **options)
