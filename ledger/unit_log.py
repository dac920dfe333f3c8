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
from typing import Any

from ledger.chain import ChainQueries, chained

TOUCHES = re.compile(r'"touches": \{[^{}]*\}')  # a nested form is parsed whole


class WithoutTouches(ChainQueries):
    """A recorder's command log, each row's `touches` read as empty."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = chained(recorder)

    def commands(self) -> list[tuple[int, int, str, str | None, dict]]:
        rows = sorted(self.recorder.command_rows().items())
        return [(first, last, command, unit, json.loads(TOUCHES.sub('"touches": {}', detail or "{}")))
                for first, (last, command, unit, detail) in rows]
