"""The campaign history: one readable line per ledger entry, with its number and time."""
from __future__ import annotations

import json
import weakref
from datetime import timedelta, timezone
from typing import Any, Callable

from sqlite_utils import Database

from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.undo import labelled
from campaign_ledger.ledger.words import CHANGES, listed, value
from campaign_ledger.ledger.unit_log import round_name
from campaign_ledger.ledger.units import ROUND
from campaign_ledger.projections import campaign_notes, rulesets, seats
from campaign_ledger.projections.schema_cache import append, flush, memo


TABLES = ("history",)


def apply(db: Database, entry: int, e: Any) -> None:
    modules = _MODULES[0] or _modules()
    kind = type(e)
    describe = _lines(modules).get(kind)
    kept = memo(db)
    about = e.originator_id.hex
    names = _Names(db, e, modules, kept, about)
    line = describe(names, e) if describe else kind.__qualname__
    units = kept.get(UNITS) if kept is not None else None  # the catch-up's namer: the unit with the row
    played = _round_of(db, entry, e, names)
    named = units.named(db, entry) if units is not None else UNNAMED  # (unit, actor, channel, confirmed_by)
    append(db, INSERT, (entry, _time(e.timestamp), kind.__qualname__, line,
                        _round_name(played, named[0], units, entry), about, *named), kept)
    if isinstance(e, Reversible.Reversed) and e.entries:
        flush(db)
        entries = json.dumps(list(e.entries))
        _stand_again(db, entries)
        db.conn.execute("UPDATE history SET reversed_at = ? WHERE entry BETWEEN ? AND ? AND reversed_at IS NULL "
                        "AND entry IN (SELECT value FROM json_each(?))", [entry, min(e.entries), max(e.entries), entries])


def _stand_again(db: Database, entries: str) -> None:
    """Rows a reversal among the entries reversed now had marked stand again: an undone committed
    correction restores the round it corrected (ledger/units.py REOPENS). Only an undo reverses a
    correction's own reversal (a correction of it reverses its play alone). The partial index of
    m015 over the marked rows keeps this a probe."""
    db.conn.execute("UPDATE history SET reversed_at = NULL WHERE reversed_at IS NOT NULL "
                    "AND reversed_at IN (SELECT value FROM json_each(?))", [entries])


def _time(timestamp: Any) -> str:
    """An entry's time to the second, as shown: the last one made is kept with the second it
    shows (the entries of one command, and of one busy minute, share their second). Two times of
    one fixed-offset zone compare field by field, cheaper than working out either's POSIX time; a
    zone whose offset may change within a second's fields (a fold) is never kept."""
    tz, start, end, shown = _LAST_TIME
    if timestamp.tzinfo is tz and start <= timestamp < end:
        return shown
    tz, start = timestamp.tzinfo, timestamp.replace(microsecond=0)
    kept = tz is None or type(tz) is timezone
    _LAST_TIME[:] = [tz if kept else _NO_ZONE, start, start + _SECOND, timestamp.isoformat(timespec="seconds")]
    return _LAST_TIME[3]


_NO_ZONE, _SECOND = object(), timedelta(seconds=1)
_LAST_TIME: list[Any] = [_NO_ZONE, None, None, ""]


INSERT = ("INSERT INTO history (entry, time, type, line, round, about, unit, actor, channel, confirmed_by) "
          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
UNNAMED = (None, None, None, None)  # no namer: unit and actor are filled in later (projections/units.py `fill`)
UNITS = "history.units"  # a catch-up's projections.units.UnitNames, in the read file's memo
_MODULES: list[Any] = [None]


def _modules() -> tuple:
    """The rulesets' projection modules, asked for once until the runner's `refresh` (every
    registration calls it) says they changed: a rebuild asks for them once per entry."""
    _MODULES[0] = rulesets.modules()
    return _MODULES[0]


def forget_modules() -> None:
    _MODULES[0] = None


def _lines(modules: tuple) -> dict[type, Callable[[Any, Any], str]]:
    """Every event type's line, the core's first: worked out once per set of rulesets (a rebuild
    asks for one per entry)."""
    if _LINES_OF[0] is not modules:  # the same tuple until the rulesets change (see _modules)
        found: dict[type, Callable[[Any, Any], str]] = {}
        for module in modules:
            for kind, describe in getattr(module, "LINES", {}).items():
                found.setdefault(kind, describe)
        _LINES_OF[:] = [modules, {**found, **LINES}]
    return _LINES_OF[1]


_LINES_OF: list[Any] = [None, {}]


def _round_of(db: Database, entry: int, e: Any, names: "_Names") -> str | None:
    """The round an entry was played in (`Vault Guards:2`), as the ruleset that knows rounds says."""
    for found in _round_finders(names.modules):
        if (number := found(db, entry, e, names)) is not None:
            return number
    return None


def _round_name(played: str | None, unit: str | None, units: Any, entry: int) -> str | None:
    """The round an entry belongs to by the name undo gives it: its own unit's, when that is a
    round of the same Challenge; else the name of the round the ruleset says it was played in
    (`played`): the newest round of that count begun before it, or the round to come (ledger/unit_log.py
    `round_name`: asked of the command log only for the few entries about a round outside it). A
    ruleset that says no round (Beer Run's conflicts) files its entries under their round unit's name,
    so `history --round "Back Door:1"` finds what `undo "Back Door:1"` would take."""
    if played is None:  # a ruleset that files no rounds of its own (Beer Run): the round undo names
        return unit if unit is not None and ROUND.match(unit) else None
    if unit is None or unit == played:  # most rows: the round undo names is the one played (no regex)
        return played
    if ROUND.match(unit) and unit.rpartition(":")[0].casefold() == played.rpartition(":")[0].casefold():
        return unit
    return round_name(units.recorder, played, before=entry)


def _round_finders(modules: tuple) -> tuple:
    """The rulesets' `round_of` functions, found once per set of rulesets (a module without one
    costs a failed attribute lookup, an exception inside Python, on every entry of a rebuild)."""
    if _FINDERS_OF[0] is not modules:
        _FINDERS_OF[:] = [modules, tuple(f for m in modules if (f := getattr(m, "round_of", None)) is not None)]
    return _FINDERS_OF[1]


_FINDERS_OF: list[Any] = [None, ()]


class _Names:
    """Who an event is about: PCs and Challenges by the name the table knows (looked up once
    per entry, in one statement over every ruleset's naming tables)."""

    def __init__(self, db: Database, e: Any, modules: tuple | None = None, kept: Any = False,
                 about: str | None = None) -> None:
        self.db, self.e = db, e
        self.modules = rulesets.modules() if modules is None else modules
        self._me: str | None = None
        self._kept, self._about = kept, about  # the memo and the id's hex, when the caller has them

    @property
    def me(self) -> str:
        if self._me is None:
            known = _known_names(self.db, self.modules, self._kept)
            id_ = self._about or self.e.originator_id.hex
            if known is not None and id_ in known:
                self._me = known[id_]
                return self._me
            sql = _named_sql(self.db, self.modules)
            row = self.db.conn.execute(sql, [id_]).fetchone() if sql else None
            self._me = row[0] if row else "the campaign"
            if known is not None:
                known[id_] = self._me
        return self._me


def _known_names(db: Database, modules: tuple, kept: Any = False) -> dict[str, str] | None:
    """Names already looked up in this batch (most entries name a PC or Challenge named just
    before), or None outside a batch. Any insert, rename or delete on a naming table empties it
    (`_watched`), whichever projection or undo makes it, so it never says a stale name."""
    kept = memo(db) if kept is False else kept
    if kept is None:
        return None
    known = kept.get(NAMES)
    if known is None:
        if not _watched(db, modules):
            return None
        known = kept[NAMES] = {}
    return known


NAMES = "history.names"


def _watched(db: Any, modules: tuple) -> bool:
    """Whether a change to a naming table forgets the names kept (set up once while the schema
    stands, kept with it: see schema_cache): the read store watches its own writes
    (`watch_writes`: temporary triggers in a SQLite read file, each statement on PostgreSQL).
    False when a naming table is a view (a write to what it shows would not be seen)."""
    if not hasattr(db, "watch_writes"):
        return False
    watched = db._kept("names watched", lambda: [modules, _watch_names(db, modules)])
    if watched[0] is not modules:
        watched[:] = [modules, _watch_names(db, modules)]
    return watched[1]


def _watch_names(db: Any, modules: tuple) -> bool:
    """Ask the read store to forget the names kept on any write to a naming table."""
    present = dict(db.conn.execute("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')").fetchall())
    pairs = [pair for module in (*modules, seats) for pair in getattr(module, "NAMED", ()) if pair[0] in present]
    if any(present[table] != "table" for table, _ in pairs):
        return False
    ref = weakref.ref(db)
    db.watch_writes(pairs, lambda: _names_changed(ref))
    return True


def _names_changed(ref: Any) -> None:
    kept = memo(ref())
    if kept:
        kept.pop(NAMES, None)


_NAMED_SQL: "weakref.WeakKeyDictionary[Any, tuple[tuple, str]]" = weakref.WeakKeyDictionary()


def _named_sql(db: Database, modules: tuple) -> str:
    """One query naming an id from the first naming table that holds it, in the rulesets' order;
    built once per read file and set of rulesets (the tables come from the migrations)."""
    known = _NAMED_SQL.get(db)
    if known is None or known[0] != modules:
        present = {r[0] for r in db.conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
        pairs = [pair for module in (*modules, seats) for pair in getattr(module, "NAMED", ()) if pair[0] in present]
        parts = [f"SELECT {i} AS rank, [{column}] AS name FROM [{table}] WHERE id = ?1"
                 for i, (table, column) in enumerate(pairs)]
        known = (modules, f"SELECT name FROM ({' UNION ALL '.join(parts)}) ORDER BY rank LIMIT 1" if parts else "")
        _NAMED_SQL[db] = known
    return known[1]


def _rule_value(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={'/'.join(map(str, v)) if isinstance(v, list) else v}" for k, v in value.items())
    return "one per PC" if value is None else str(value)


def _reversed(n: _Names, e: Any) -> str:
    if e.changes.get("unmade"):
        return f"Undo {e.unit} (entries #{e.entries[0]}-#{e.entries[-1]}): {n.me} unmade, as if never made"
    words = {k: w for m in (*n.modules, seats) for k, w in getattr(m, "WORDS", {}).items()}  # the rulesets' own words
    shown = listed([f"{labelled(k)} -> {value(v, words.get(k))}" for k, v in e.changes.items()], CHANGES)
    return f"Undo {e.unit} (entries #{e.entries[0]}-#{e.entries[-1]}): {n.me} {shown if e.changes else 'restored'}"


LINES: dict[type, Callable[[_Names, Any], str]] = {
    Reversible.Reversed: _reversed,
    Campaign.Started: lambda n, e: f"Campaign '{e.name}' started under {e.ruleset} rules {e.rules_version}",
    Campaign.SessionStarted: lambda n, e: f"Session {e.number} starts: {e.title}",
    Campaign.GMOverrode: lambda n, e: f"GM override: {e.gm_override} (the rule set aside: {e.rule})",
    Campaign.HouseRuleChanged: lambda n, e: f"House rule: {e.rule} is now {_rule_value(e.value)} "
    f"(was {_rule_value(e.previous)})" + (f": {e.reason}" if e.reason else ""),
    Campaign.SessionEnded: lambda n, e: f"Session {e.number} ends: {e.title}",
    Campaign.NoteTaken: lambda n, e: campaign_notes.line(e),
    **seats.LINES,
}
