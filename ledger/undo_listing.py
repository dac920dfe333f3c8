"""What can be undone now: `undo --list`, newest first, each unit with what a cascade would take along.

A listing asks the same questions of unit after unit (each listed unit's dependents weigh the same
later units), so each unit's effects and each aggregate's class are worked out once (`known`)."""
from __future__ import annotations

import json
from typing import Any

from campaign_ledger.ledger.undo import aggregate_class, cascade_refusal, dependents, labelled, unit_effects
from campaign_ledger.ledger.units import Unit
from campaign_ledger.ledger.units_newest import Newest
from campaign_ledger.ledger.words import CHANGES, change, listed


def listing(app: Any, limit: int | None = None, units: Newest | None = None) -> list[dict[str, Any]]:
    """The units that can be undone now, newest first, with what a cascade would take along (read
    from the newest back: ledger/units_newest.py)."""
    units = units or Newest(app.recorder)
    newest = units.newest(limit)
    rows: list[dict[str, Any]] = []
    known: dict[Any, Any] = {}  # each unit's effects and each aggregate's members, once for the whole listing
    for unit in newest:
        deps = dependents(app, units, unit, known)
        did = _did(app, unit, known)
        rows.append({"unit": unit.key, "first_entry": unit.first, "entries": [unit.first, unit.last],
                     "entry_range": [unit.first, unit.last],  # `entries` (the same pair) is kept for old scripts
                     "commands": list(unit.commands), "did": did, "dependents": [u.key for u in deps],
                     "cascade_refused": cascade_refusal(unit, deps), **_who(app, unit)})
    return rows


def _who(app: Any, unit: Unit) -> dict[str, Any]:
    """Who wrote the unit (ledger/actors.py): its first command's "actor" and "channel"; "actors",
    every actor among its commands in order, when more than one wrote it (a round the GM opened
    and a player rolled). Each command's row is found by its first entry, an indexed probe."""
    from campaign_ledger.ledger import actors
    from campaign_ledger.ledger.chain import chained

    log, found = chained(app.recorder), []
    for first, _ in unit.ranges:
        rows = log.command_rows_in_order(first, first)
        found.append(actors.of(json.loads(rows[0][4] or "{}") if rows else None))
    actor, channel, confirmed_by = found[0] if found else actors.of(None)
    who: dict[str, Any] = {"actor": actor, "channel": channel}
    if confirmed_by:
        who["confirmed_by"] = confirmed_by
    every = list(dict.fromkeys(a for a, _, _ in found))
    if len(every) > 1:
        who["actors"] = every
    return who


def _did(app: Any, unit: Unit, known: dict[Any, Any] | None = None) -> str:
    """One line: the commands, and what they changed on whom, in words (`Bo: Stress 0 -> 5`); a
    long list of changes names the first ones and how many more."""
    changed = []
    for aggregate_id, (before, after) in unit_effects(app, unit, known).items():
        if not before or before.get("unmade"):
            keys = ["made"] if not before else ["made again"]
        else:
            words = aggregate_class(app, aggregate_id, known).WORDS
            keys = [change(labelled(k), before.get(k), after.get(k), words.get(k))
                    for k in after if before.get(k) != after.get(k)]
        if keys:  # a thing with no name (a decision-2d6 contest) is the unit's own: its key names it
            who = after.get("name")
            changed.append(f"{who}: {listed(keys, CHANGES)}" if who else listed(keys, CHANGES))
    commands = ", ".join(dict.fromkeys(c.replace("_", " ") for c in unit.commands))
    return f"{commands}; " + (listed(changed, CHANGES, "more changed", "; ") if changed else "changed nothing")
