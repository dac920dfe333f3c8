"""The command log read for the units' names and entries only, without what each command touched.

What a command read and wrote (`touches`, undo's dependencies) is most of the log's bytes and of
the cost of parsing it, and held for every unit of a long campaign it is most of a process's
memory. Naming history rows and finding a round to replay need neither: `every_unit` over this
view reads every unit with an empty `touches` (never None: a named unit still says it was logged
with them, as the naming rules of older units ask).
"""
from __future__ import annotations

import itertools
import json
import re
from typing import Any, Iterator

from campaign_ledger.ledger.chain import ChainQueries, chained
from campaign_ledger.ledger.unit_walk import ROUND, Unit, every_unit

PAGE = 2000  # command-log rows read at a time
TOUCHES = re.compile(r'"touches": \{[^{}]*\}')  # a nested form is parsed whole


def light(detail: str | None) -> dict:
    """A stored command detail parsed with its `touches` read as empty (the longest part, and the
    part naming units never reads)."""
    return json.loads(TOUCHES.sub('"touches": {}', detail or "{}"))


class WithoutTouches(ChainQueries):
    """A recorder's command log, each row's `touches` read as empty."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = chained(recorder)

    def commands(self) -> Iterator[tuple[int, int, str, str | None, dict]]:  # type: ignore[override]
        """In log order, a page at a time: a long campaign's log is never held whole."""
        for first, last, command, unit, detail in self.recorder.command_rows_from(1, PAGE):
            yield first, last, command, unit, light(detail)


REVERSING = "(command IN ('undo', 'replay') OR detail LIKE '%\"reverses\"%')"  # migrations' m013 indexes these rows


def round_incarnations(recorder: Any, key: str) -> list[tuple[Unit, tuple[int, int] | None]] | None:
    """`every_unit`'s answer for a round name alone, read from the command log rows filed under it
    and the rows that reverse units (both indexed: migrations m013), not the whole log.

    A round's unit is named what its rows are filed under (only a non-round's name gets a count),
    so the rows filed under `key` (in any case) and the reversals after the first of them decide
    every unit of that name exactly as the whole log does. None when `key` is no round name, or
    is not ASCII (SQLite's NOCASE folds ASCII only): the caller reads the whole log then."""
    if not ROUND.match(key) or not key.isascii():
        return None
    return _incarnations(recorder, filed_under(recorder, key))


def filed_under(recorder: Any, key: str) -> list[tuple]:
    """The command-log rows filed under `key`, by the log's index on unit names. SQLite's NOCASE
    folds ASCII letters only, so a name is found in the case its other letters were filed in:
    the names asked for here are made by the program from a thing's own spelling, never typed."""
    log = chained(recorder)
    rows = log._select(f"SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                       f"WHERE {log.UNIT_NAMED}", (key,))
    return [r for r in rows if r[3].casefold() == key.casefold()]


def _incarnations(recorder: Any, rows: list[tuple]) -> list[tuple[Unit, tuple[int, int] | None]]:
    """`every_unit` over the rows filed under one name and the reversals after the first of them."""
    if not rows:
        return []
    rows = rows + chained(recorder)._select(f"SELECT first_entry, last_entry, command, unit, detail FROM "
                                            f"ledger_commands WHERE {REVERSING} AND first_entry > ?",
                                            (min(r[0] for r in rows),))
    return every_unit(_Rows(sorted(dict((r[0], r) for r in rows).values())))


def round_name(recorder: Any, played: str, before: int | None = None) -> str:
    """The name of the round a ruleset calls `played` (`Dogs:1`: the Challenge's or conflict's own
    round count), so that a round name never repeats (issue 35). Filing a command (no `before`):
    the round of that count still standing, which a later command of the same round joins, else
    the first name `Dogs:N` (N counting up from the round's own count) no unit was filed under.
    A round played again after an undo is thus `Dogs:2`, however its lines count. A history row
    about a round outside it (`before`: its entry): the newest round of that count begun before
    it, standing or undone (what the history said before issue 35), else the round to come.

    A round filed under another name says which round it played in its detail (`"round"`); older
    ledgers filed every round under its own count, so their names read as before."""
    if not ROUND.match(played):
        return played
    head, _, count = played.rpartition(":")
    newest = None
    for number in itertools.count(int(count)):
        name = f"{head}:{number}"
        rows = [r for r in filed_under(recorder, name) if before is None or r[0] < before]
        if not rows:
            return newest or name
        if light(rows[0][4]).get("round", rows[0][3]).casefold() != played.casefold():
            continue
        if before is not None:
            newest = name
        elif any(reversal is None and unit.key.casefold() == name.casefold()  # (not a correction among the reversals)
                 for unit, reversal in _incarnations(recorder, rows)):
            return name
    raise AssertionError("unreachable")  # (itertools.count never ends)


class _Rows(ChainQueries):
    """A few command-log rows, read as the log (what `every_unit` walks), touches read as empty."""

    def __init__(self, rows: list[tuple]) -> None:
        self.rows = rows

    def commands(self) -> list[tuple[int, int, str, str | None, dict]]:
        return [(first, last, command, unit, light(detail))
                for first, last, command, unit, detail in self.rows]


Rows = _Rows  # (ledger/units_newest.py reads such subsets for every name, not only a round's)
