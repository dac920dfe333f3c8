"""Each history entry's undo unit, by the name `campaign undo --list` gives it.

The names come from the command log on the ledger side (the naming rules of `ledger.units`),
never from SQL on the ledger's tables: the ledger may live on PostgreSQL while the read file is
SQLite. The log is append-only, so a name never changes once given: a history row is named
once, in the transaction that applies its entry, and an undo's entries, when applied, mark
the rows of every unit they reversed with what reversed them (`reversed_by`).

The log is read forward, a page at a time, as far as the rows to name reach, and what was read
is let go once its rows are named: a unit's name depends only on the commands before it, so
reading in order gives the names reading it whole gives (`ledger.units.every_unit`). What every
later command may still need (the units still open, which a later undo may name; the names
given; each command's count) grows with the campaign, so it is kept in the read tables' own
file (`Known`, migration m014), not in memory: a rebuild of a million entries holds what one of
a thousand does. With it, in the same transaction as the rows it named, the namer keeps where it
stopped (`unit_namer`), so the next catch-up (a turn) reads only the commands after, never the
whole log again; when that state does not match the rows (a rebuild, a rolled-back entry) it
starts again from the first command, since names count from there.
"""
from __future__ import annotations

import bisect
import functools
import json
from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.chain import chained
from campaign_ledger.ledger.unit_log import light
from campaign_ledger.ledger.units import NOT_UNITS, OWN_COUNT, REOPENS, ROUND
from campaign_ledger.projections.current import NAME as POSITION
from campaign_ledger.projections.schema_cache import flush  # the read tables' position (runner.NAME; runner imports this)

NOBODY = (None, None, None)  # who wrote an entry whose command kept no actor (see who_at)
NO_UNIT = ""  # stored for entries outside every unit (`new`, an undo's own entries); read back as null
PAGE = 2000  # entries of the command log read at a time


class UnitNames:
    """The command log's units, read forward lazily, for naming the history rows of one catch-up."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self.db: Any = None
        self.known: Known | None = None
        self._same_to, self._same = 0, ("", *NOBODY)  # see `named`

    def _attach(self, db: Database) -> None:
        """The namer's state as the read tables last kept it, when it matches their rows (stopped at
        the entry they were applied to); else a start from the first command."""
        if self.db is db:
            return
        self.db, self.known, self._same_to = db, Known(db), 0
        kept = db.execute("SELECT at, covered, spans, reversers, whos FROM unit_namer WHERE name = ?",
                          [NAMER]).fetchone()
        at = db.execute("SELECT entry FROM position WHERE name = ?", [POSITION]).fetchone()
        if kept is None or at is None or not kept[0] or kept[0] != at[0]:
            self._restart()
            return
        self.named_to, self.covered = kept[0], kept[1]
        self.spans = [(first, last, name) for first, last, name in json.loads(kept[2])]
        self.starts = [first for first, _, _ in self.spans]
        self.reversers = {int(first): (label, [(name, unit_first) for name, unit_first in units],
                                       [tuple(b) for b in back[0]] if back else [])  # (kept before m015: no back)
                          for first, (label, units, *back) in json.loads(kept[3]).items()}
        self.whos = [tuple(w) for w in json.loads(kept[4] or "[]")]  # (kept before m020: none; none recorded then)
        self.who_starts = [w[0] for w in self.whos]

    def _restart(self) -> None:
        self._same_to = 0  # `named` answers again from the spans read (see there)
        self.covered = 0  # commands starting at or before this entry have been read
        self.named_to = 0  # rows up to here are named: spans ending before it are let go
        self.starts: list[int] = []  # first entries of the spans read and not yet let go, in order
        self.spans: list[tuple[int, int, str]] = []  # (first, last, unit name), same order
        self.reversers: dict[int, tuple[str, list[tuple[str, int]], list]] = {}  # first entry -> (label, units, back)
        self.who_starts: list[int] = []  # first entries of the commands that say who wrote them, not yet let go
        self.whos: list[tuple] = []  # (first, last, actor, channel, confirmed_by), same order (ledger/actors.py)
        # units not reversed (their rows are found by their name in the history when reversed, so
        # they hold no ranges), names given and counts of each command: in the read file, see Known
        assert self.known is not None
        self.known.clear()

    def _save(self, db: Database) -> None:
        """Where the namer stopped, beside the rows it named (see _attach)."""
        assert self.known is not None
        self.known.write()
        db.execute("INSERT INTO unit_namer (name, at, covered, spans, reversers, whos) VALUES (?, ?, ?, ?, ?, ?) "
                   "ON CONFLICT(name) DO UPDATE SET at = excluded.at, covered = excluded.covered, "
                   "spans = excluded.spans, reversers = excluded.reversers, whos = excluded.whos",
                   [NAMER, self.named_to, self.covered, json.dumps(self.spans), json.dumps(self.reversers),
                    json.dumps(self.whos)])

    def fill(self, db: Database) -> None:
        """Name every history row not named yet; mark the rows a newly applied undo reversed; keep
        where the namer stopped (a catch-up calls this once per batch, in its transaction)."""
        self._attach(db)
        flush(db)
        unnamed = [r[0] for r in db.execute("SELECT entry FROM history WHERE unit IS NULL ORDER BY entry")]
        if unnamed:
            if unnamed[0] <= self.named_to:  # a row before those named (not in a catch-up's order): read again
                self._restart()
            self._read_to(unnamed[-1], unnamed[0])
            db.conn.executemany("UPDATE history SET unit = ?, actor = ?, channel = ?, confirmed_by = ? WHERE entry = ?",
                                [(self._unit_of(e), *self.who_at(e), e) for e in unnamed])
            for entry in unnamed:
                if entry in self.reversers:
                    self._mark(db, entry)
            self.named_to = unnamed[-1]
            self._let_go(unnamed[-1] + 1)
        self._save(db)

    def named(self, db: Database, entry: int) -> tuple[str, str | None, str | None, str | None]:
        """`unit_at` and `who_at` at once: (unit, actor, channel, confirmed_by). The later entries of
        the command just named share its answer and change nothing but where naming stands (a
        command starts no unit, reversal or page of the log inside itself), so they take it as it
        was (a rebuild names a hundred thousand rows, five or so a command)."""
        if self.db is db and self._same_to >= entry > self.named_to:
            self.named_to = entry
            return self._same
        unit = self.unit_at(db, entry)
        self._same = (unit, *self.who_at(entry))
        i = bisect.bisect_right(self.starts, entry) - 1  # the span unit_at found: naming holds to its end
        self._same_to = min(self.spans[i][1], self.covered) if i >= 0 and self.spans[i][0] <= entry else 0
        return self._same

    def unit_at(self, db: Database, entry: int) -> str:
        """The unit of an entry whose history row is being inserted now (a catch-up names rows as
        it applies them, instead of updating every row after); an undo's first entry marks the
        rows it reversed, as `fill` does."""
        self._attach(db)
        if entry <= self.named_to:  # applied again after a rollback: read from the start
            self._restart()
        if entry > self.covered:
            self._read_to(max(entry, min(entry + PAGE, self.recorder.max_notification_id() or 0)), entry)
        if entry in self.reversers:
            self._mark(db, entry)
        self.named_to = entry
        if self.spans and self.spans[0][1] < entry:
            self._let_go(entry)
        return self._unit_of(entry)

    def who_at(self, entry: int) -> tuple[str | None, str | None, str | None]:
        """(actor, channel, confirmed_by) as the command holding `entry` recorded them (after
        `unit_at` or `fill` read it); Nones for a command that kept none (written before issue 38),
        which the history reads as the GM's, by an unrecorded channel (projections/actors.py)."""
        i = bisect.bisect_right(self.who_starts, entry) - 1
        if i >= 0 and self.whos[i][0] <= entry <= self.whos[i][1]:
            return self.whos[i][2:]  # type: ignore[return-value]
        return NOBODY

    def _mark(self, db: Database, entry: int) -> None:
        """The rows of the units the command at `entry` reversed: those named so from the unit's
        first entry up to the reversal and not marked yet (an earlier unit of the same name was
        closed before it); and the rows of those an undone correction had reversed, which stand again."""
        label, closed, back = self.reversers.pop(entry)
        flush(db)  # the rows of the units it reversed, some perhaps still waiting
        db.conn.executemany("UPDATE history SET reversed_by = NULL WHERE entry >= ? AND entry < ? AND unit = ? "
                            "AND reversed_by = ?", [(first, closer, name, _by_replay(by))
                                                    for name, first, closer, by in back])
        db.conn.executemany("UPDATE history SET reversed_by = ? WHERE entry >= ? AND entry < ? AND unit = ? "
                            "AND reversed_by IS NULL", [(label, first, entry, name) for name, first in closed])

    def _let_go(self, before: int) -> None:
        """Forget the spans ending before `before` and the reversals starting before it: their rows are named."""
        gone = 0
        while gone < len(self.spans) and self.spans[gone][1] < before:
            gone += 1
        del self.starts[:gone], self.spans[:gone]
        gone = 0
        while gone < len(self.whos) and self.whos[gone][1] < before:
            gone += 1
        del self.who_starts[:gone], self.whos[:gone]
        if self.reversers:
            self.reversers = {first: r for first, r in self.reversers.items() if first >= before}

    def _unit_of(self, entry: int) -> str:
        i = bisect.bisect_right(self.starts, entry) - 1
        if i >= 0 and self.spans[i][0] <= entry <= self.spans[i][1]:
            return self.spans[i][2]
        return NO_UNIT

    def _read_to(self, entry: int, keep_from: int) -> None:
        """Read the commands starting up to `entry`, in log order, a page at a time, keeping only
        what names rows from `keep_from` on (every command before it still counts for the names)."""
        log = chained(self.recorder)
        while self.covered < entry:
            last = min(entry, self.covered + PAGE)  # no further: a command not yet written may start there
            for first, end, command, stored, detail in log.command_rows_in_order(self.covered + 1, last):
                self._command(first, end, command, stored, _parsed(detail or "{}"))
            self.covered = last
            self._let_go(keep_from)

    def _command(self, first: int, last: int, command: str, stored: str | None, detail: dict) -> None:
        """One command of the log, as `ledger.units.every_unit` takes it: the units it reverses
        are closed (their rows learn what reversed them; an undone correction's own reversed units
        stand again), then it is a unit itself, or none."""
        if "actor" in detail or "channel" in detail:
            self.who_starts.append(first)
            self.whos.append((first, last, detail.get("actor"), detail.get("channel"), detail.get("confirmed_by")))
        reverses = detail.get("reverses")  # most commands reverse nothing: no list built for them
        closed = [pair for key in reverses for pair in self.known.close(key)] if reverses else []
        back = [(name, unit_first, by_first, by) for by, (_, by_first) in closed if command in REOPENS
                for name, unit_first in self.known.reopen(by_first)] if closed else []
        named = None
        if stored and command not in NOT_UNITS:
            named = _name(stored, first, detail, self.known)
            self.known.opened(named, stored, first)
            if closed:  # a correction: what it reversed, kept by its first entry (it may continue a unit)
                self.known.closed_by(self.known.first(named), closed)
            self.starts.append(first)
            self.spans.append((first, last, named))
        if closed:
            label = _by_replay(named) if named is not None else "undo " + ", ".join(
                key for key, _ in sorted(closed, key=lambda pair: pair[1][1], reverse=True))
            self.reversers[first] = (label, [(key, unit_first) for key, (_, unit_first) in closed], back)


def _by_replay(correction: str) -> str:
    """What a committed correction's reversed rows say reversed them (history `reversed_by`)."""
    return f"replay {correction}"


NAMER = "read-model"  # unit_namer's row (one namer a read file)
@functools.lru_cache(maxsize=512)
def _parsed(detail: str) -> dict:
    """A detail as naming reads it (what it touched left out, the longest part), kept for the next
    time: a campaign's commands repeat their details turn after turn; a few hundred kept at most
    (naming only reads what it gives back)."""
    return light(detail)


class Known:
    """What naming needs of every command before: the open units, the names given and how many
    times each command was given, in the read tables' file (migration m014), so memory stays flat
    however long the campaign and the next catch-up starts where this one stopped."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.waiting: list[tuple[str, str, int]] = []  # units opened, not yet in unit_open (see `write`)

    def clear(self) -> None:
        self.waiting.clear()
        for table in ("unit_open", "unit_taken", "unit_seen", "unit_closed"):
            self.db.conn.execute(f"DELETE FROM {table}")

    def opened(self, name: str, stored: str, first: int) -> None:
        """A unit now open (a name already open keeps its first coming, as `ledger.units` does)."""
        self.waiting.append((name, stored, first))

    def write(self) -> None:
        """The units opened since the last write, in one statement (a rebuild opens one a round:
        a statement each was 2% of it), before unit_open is read and before the batch is kept."""
        if self.waiting:
            self.db.conn.executemany("INSERT OR IGNORE INTO unit_open (name, stored, first) VALUES (?, ?, ?)",
                                     self.waiting)
            self.waiting.clear()

    def first(self, name: str) -> int:
        """The first entry of the open unit `name`."""
        self.write()
        return self.db.conn.execute("SELECT first FROM unit_open WHERE name = ?", [name]).fetchone()[0]

    def closed_by(self, by_first: int, closed: list[tuple[str, tuple[str, int]]]) -> None:
        """The units a correction (the unit beginning at `by_first`) reversed, kept while it may be undone."""
        self.db.conn.executemany("INSERT INTO unit_closed (closer, name, stored, first) VALUES (?, ?, ?, ?)",
                                 [(by_first, name, stored, first) for name, (stored, first) in closed])

    def reopen(self, by_first: int) -> list[tuple[str, int]]:
        """The units the correction beginning at `by_first` reversed, open again (its undo restored them)."""
        self.write()
        back = self.db.conn.execute("SELECT name, stored, first FROM unit_closed WHERE closer = ? ORDER BY rowid",
                                    [by_first]).fetchall()
        self.db.conn.execute("DELETE FROM unit_closed WHERE closer = ?", [by_first])
        self.db.conn.executemany("INSERT OR IGNORE INTO unit_open (name, stored, first) VALUES (?, ?, ?)", back)
        return [(name, first) for name, _, first in back]

    def close(self, key: str) -> list[tuple[str, tuple[str, int]]]:
        """`ledger.units._close` over the open units: a reversal names units as it saw them; older
        ledgers named every unit of a shared name at once (in the order they opened)."""
        self.write()
        found = self.db.conn.execute("SELECT name, stored, first FROM unit_open WHERE name = ?", [key]).fetchall() or \
            self.db.conn.execute("SELECT name, stored, first FROM unit_open WHERE stored = ? ORDER BY rowid", [key]).fetchall()
        for name, _, _ in found:
            self.db.conn.execute("DELETE FROM unit_open WHERE name = ?", [name])
        return [(name, (stored, first)) for name, stored, first in found]

    def count(self, stored: str) -> int:
        """How many times `stored` has now been given, this one included."""
        row = self.db.conn.execute("SELECT times FROM unit_seen WHERE stored = ?", [stored]).fetchone()
        times = (row[0] if row else 0) + 1
        self.db.conn.execute("INSERT INTO unit_seen (stored, times) VALUES (?, ?) ON CONFLICT(stored) DO UPDATE SET "
                        "times = excluded.times", [stored, times])
        return times

    def take(self, name: str) -> bool:
        """Give `name`; False when it was given before."""
        if self.db.conn.execute("SELECT 1 FROM unit_taken WHERE name = ?", [name]).fetchone():
            return False
        self.db.conn.execute("INSERT INTO unit_taken (name) VALUES (?)", [name])
        return True


def _name(stored: str, first: int, detail: dict, known: Known) -> str:
    """The name `ledger.units` gives a unit (its `_name`, the same rules, kept here because this
    reads the log a page at a time): a round keeps its name; another command gets its
    per-campaign sequence number, counted in log order; a name that would repeat takes its
    first entry number too. tests/test_history_units.py holds the two to the same names."""
    if ROUND.match(stored) and not detail.get("single"):
        return stored
    times = known.count(stored)
    own = OWN_COUNT.search(stored) or ("#" in stored and "touches" not in detail)  # older names: own number
    name = stored if own and times == 1 else f"{stored} #{times}"
    if not known.take(name):
        name = f"{name} (entry {first})"
        known.take(name)
    return name
