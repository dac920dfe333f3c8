"""Challenges at a glance: rating, dice resolved, leader, round."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.projections.schema_cache import flush, update_later, update_rows


TABLES = ("challenges",)
OWNED = {"challenges": "id"}  # unmade by undo: see runner.unmake
COLUMNS = ("name", "threat", "type", "rating", "resolved", "leader", "round")  # the Challenge's attributes, by name
RESTORED = {Challenge: (*COLUMNS, "phase")}  # what an undo restores that the row shows (`_reversed`)
HANDLED = (Challenge.Event, Reversible.Reversed)  # the runner calls `apply` for these only


def apply(db: Database, entry: int, e: Any) -> None:
    quiet = _QUIET.get(type(e))
    if quiet or (quiet is None and _quiet(type(e))):  # two in five entries of a round: a pool built, dice rolled
        return
    if isinstance(e, Challenge.Opened):
        db.conn.execute("INSERT INTO challenges (id, name, threat, type, rating, resolved, leader, round, phase, opened) "
                        "VALUES (?, ?, ?, ?, ?, 0, NULL, 1, 'open', ?)",
                        [e.originator_id.hex, e.name, e.threat, e.type, e.rating, entry])
        return
    if isinstance(e, Reversible.Reversed):
        flush(db)  # the batch's waiting changes first: the undo's are written at once, over them
        if db.table("challenges").count_where("id = ?", [e.originator_id.hex]):
            _reversed(db, e)
            return
    if not isinstance(e, Challenge.Event):
        return
    changes: dict[str, Any] = {}
    for change in _changes_of(type(e)):
        changes.update(change(e))
    if changes and not update_later(db, "challenges", "id", e.originator_id.hex, changes):
        _update(db, e.originator_id.hex, changes)


CHANGES: tuple[tuple[Any, Any], ...] = (  # what each kind of event changes in its row, in this order
    (Challenge.LeaderChosen, lambda e: {"leader": e.leader}),
    (Challenge.DiceResolved, lambda e: {"resolved": e.resolved}),
    (Challenge.Resolved, lambda e: {"phase": "resolved"}),
    ((Challenge.Ended, Challenge.Closed), lambda e: {"phase": "ended"}),
    (Challenge.Rated, lambda e: {"rating": e.rating}),
    (Challenge.SplitOff, lambda e: {"rating": e.rating}),
    (Challenge.StressDistributed, lambda e: {"round": e.round + 1}),  # the round the table plays next
    (Challenge.RoundTallied, lambda e: {"round": e.round + 1} if e.side == "challenge" and e.successes <= 0 else {}),
)
_CHANGES_OF: dict[type, tuple[Any, ...]] = {}


def _changes_of(kind: type) -> tuple[Any, ...]:
    """The changes that apply to an event type, found once per type (not nine isinstance an event)."""
    found = _CHANGES_OF.get(kind)
    if found is None:
        found = _CHANGES_OF[kind] = tuple(change for cls, change in CHANGES if issubclass(kind, cls))
    return found


_QUIET: dict[type, bool] = {}


def _quiet(kind: type) -> bool:
    """Whether an event type leaves the row as it is, found once per type (a rebuild asked three
    isinstance and the changes of every Challenge event, to change nothing for most)."""
    _QUIET[kind] = not issubclass(kind, (Challenge.Opened, Reversible.Reversed)) and not _changes_of(kind)
    return _QUIET[kind]


def _update(db: Database, id_: str, changes: dict[str, Any]) -> None:
    """One UPDATE statement: sqlite-utils' `update` reads the row first and the schema with it, a
    fifth of a rebuild's time at a Challenge event each round. A row not there is still an error."""
    update_rows(db, "challenges", "id", {id_: changes})


def _reversed(db: Database, e: Any) -> None:
    changes = {k: e.changes[k] for k in COLUMNS if k in e.changes}
    if "phase" in e.changes:
        changes["phase"] = e.changes["phase"] if e.changes["phase"] in ("resolved", "ended") else "open"
    if changes:
        _update(db, e.originator_id.hex, changes)
