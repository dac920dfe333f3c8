"""The command log read for the units' names and entries only, without what each command touched.

What a command read and wrote (`touches`, undo's dependencies) is most of the log's bytes and of
the cost of parsing it, and held for every unit of a long campaign it is most of a process's
memory. Naming history rows and finding a round to replay need neither: `every_unit` over this
view reads every unit with an empty `touches` (never None: a named unit still says it was logged
with them, as the naming rules of older units ask).
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

from ledger.chain import ChainQueries, chained
from ledger.units import ROUND, Unit, every_unit

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
    log = chained(recorder)
    filed = log._select(f"SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                        f"WHERE {log.UNIT_NAMED}", (key,))
    rows = [r for r in filed if r[3].casefold() == key.casefold()]
    if not rows:
        return []
    rows += log._select(f"SELECT first_entry, last_entry, command, unit, detail FROM ledger_commands "
                        f"WHERE {REVERSING} AND first_entry > ?", (min(r[0] for r in rows),))
    return every_unit(_Rows(sorted(dict((r[0], r) for r in rows).values())))


class _Rows(ChainQueries):
    """A few command-log rows, read as the log (what `every_unit` walks), touches read as empty."""

    def __init__(self, rows: list[tuple]) -> None:
        self.rows = rows

    def commands(self) -> list[tuple[int, int, str, str | None, dict]]:
        return [(first, last, command, unit, light(detail))
                for first, last, command, unit, detail in self.rows]


Rows = _Rows  # (ledger/units_newest.py reads such subsets for every name, not only a round's)
