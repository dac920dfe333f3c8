"""The campaign history: one readable line per ledger entry, with its number and time."""
from __future__ import annotations

import json
from typing import Any, Callable

from sqlite_utils import Database

from ledger.campaign import Campaign
from ledger.reversible import Reversible
from ledger.undo import LABELS
from projections import campaign_notes, rulesets


TABLES = ("history",)


def apply(db: Database, entry: int, e: Any) -> None:
    describe = LINES.get(type(e)) or next((m.LINES[type(e)] for m in rulesets.modules()
                                           if type(e) in getattr(m, "LINES", {})), None)
    line = describe(_Names(db, e), e) if describe else type(e).__qualname__
    db.execute("INSERT INTO history (entry, time, type, line, round, about) VALUES (?, ?, ?, ?, ?, ?)",
               [entry, e.timestamp.isoformat(timespec="seconds"), type(e).__qualname__, line,
                _round_of(db, entry, e), e.originator_id.hex])
    if isinstance(e, Reversible.Reversed) and e.entries:
        db.execute("UPDATE history SET reversed_at = ? WHERE entry BETWEEN ? AND ? AND reversed_at IS NULL "
                   "AND entry IN (SELECT value FROM json_each(?))",
                   [entry, min(e.entries), max(e.entries), json.dumps(list(e.entries))])


def _round_of(db: Database, entry: int, e: Any) -> str | None:
    """The round an entry was played in (`Vault Guards:2`), as the ruleset that knows rounds says."""
    for module in rulesets.modules():
        found = getattr(module, "round_of", None)
        if found is not None and (number := found(db, entry, e, _Names(db, e))) is not None:
            return number
    return None


class _Names:
    """Who an event is about: PCs and Challenges by the name the table knows."""

    def __init__(self, db: Database, e: Any) -> None:
        self.db, self.e = db, e

    @property
    def me(self) -> str:
        for table, column in (pair for module in rulesets.modules() for pair in getattr(module, "NAMED", ())):
            rows = list(self.db.table(table).rows_where("id = ?", [self.e.originator_id.hex]))
            if rows:
                return rows[0][column]
        return "the campaign"


def _rule_value(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={'/'.join(map(str, v)) if isinstance(v, list) else v}" for k, v in value.items())
    return "one per PC" if value is None else str(value)


def _reversed(n: _Names, e: Any) -> str:
    if e.changes.get("unmade"):
        return f"Undo {e.unit} (entries #{e.entries[0]}-#{e.entries[-1]}): {n.me} unmade, as if never made"
    shown = ", ".join(f"{LABELS.get(k, k)} -> {v}" for k, v in e.changes.items() if not isinstance(v, (dict, list)))
    return f"Undo {e.unit} (entries #{e.entries[0]}-#{e.entries[-1]}): {n.me} {shown or 'restored'}"


LINES: dict[type, Callable[[_Names, Any], str]] = {
    Reversible.Reversed: _reversed,
    Campaign.Started: lambda n, e: f"Campaign '{e.name}' started under {e.ruleset} rules {e.rules_version}",
    Campaign.SessionStarted: lambda n, e: f"Session {e.number} starts: {e.title}",
    Campaign.GMOverrode: lambda n, e: f"GM override: {e.gm_override} (the rule set aside: {e.rule})",
    Campaign.HouseRuleChanged: lambda n, e: f"House rule: {e.rule} is now {_rule_value(e.value)} "
    f"(was {_rule_value(e.previous)})" + (f": {e.reason}" if e.reason else ""),
    Campaign.SessionEnded: lambda n, e: f"Session {e.number} ends: {e.title}",
    Campaign.NoteTaken: lambda n, e: campaign_notes.line(e),
}
