"""The GM's notes, shown in an export beside what they are about.

A note taken `--entry N` or `--round "Guards:2"` is written after the fact, often many
entries later; in a session log it belongs beside that entry, or at the end of that round's
card, not where it fell in time. Notes whose entry or round lies in the exported range are
held back from their own place and shown there instead; a note about a PC (`--about`), or
about something outside the range, stays in entry order. GM-only notes are left out unless
the GM asks for them (`export --gm-notes`), as everywhere else.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from sqlite_utils import Database

from campaign_ledger.projections import session_log
from campaign_ledger.projections.campaign_notes import hidden_sql


class InlineNotes:
    """The notes of a range that move beside what they are about (few: they are loaded whole)."""

    def __init__(self, db: Database, first: int, last: int, gm_notes: bool = False,
                 spans: dict[str, tuple[int, int]] | None = None) -> None:
        self.spans = spans if spans is not None else session_log.spans(db, first, last)
        rows = db.execute(
            "SELECT n.entry, n.target_entry, n.round FROM notes n WHERE n.entry BETWEEN ? AND ? "
            f"AND (n.target_entry IS NOT NULL OR n.round IS NOT NULL) AND {hidden_sql(gm_notes, 'n.entry')} "
            "ORDER BY n.entry", [first, last]).fetchall()
        self.after_entry: dict[int, list[dict[str, Any]]] = {}
        self.of_round: dict[str, list[dict[str, Any]]] = {}
        hidden = {r[0] for r in db.execute("SELECT entry FROM notes WHERE gm_only = 1")} if not gm_notes else set()
        for entry, target, round_ in rows:
            if target is not None and first <= target <= last and target not in hidden:
                self.after_entry.setdefault(target, []).append(_history_row(db, entry))
            elif round_ is not None and round_ in self.spans:
                self.of_round.setdefault(round_, []).append(_history_row(db, entry))
        self.moved = {r["entry"] for held in (*self.after_entry.values(), *self.of_round.values()) for r in held}

    def stream(self, rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """Rows in entry order with the moved notes left out of their own place."""
        return (row for row in rows if row["entry"] not in self.moved)

    def beside(self, group: session_log.Group, row_of: Any = None) -> session_log.Group:
        """The group with each moved note after the entry it is about, and the round's notes at its end.

        `row_of(history_row)` turns a note's history row into the caller's row (the HTML's rows carry
        their rendering); by default the history row itself."""
        made = row_of or (lambda r: r)
        rows: list[dict[str, Any]] = []
        for row in group.rows:
            rows.append(row)
            rows.extend(made(n) for n in self.notes_after(row["entry"]))
        for note in self.of_round.pop(group.round, []) if group.round else []:
            rows.append(made(note))
            rows.extend(made(n) for n in self.notes_after(note["entry"]))
        group.rows = rows
        return group

    def notes_after(self, entry: int) -> list[dict[str, Any]]:
        """The notes about an entry, each followed by the notes about it in turn."""
        found = []
        for note in self.after_entry.pop(entry, []):
            found += [note, *self.notes_after(note["entry"])]
        return found

    def flat(self, rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """For a log with no cards (CSV): each moved note right after its entry, or after its round's last."""
        ends = {end: name for name, (_, end) in self.spans.items()}
        for row in self.stream(rows):
            yield row
            yield from self.notes_after(row["entry"])
            if row["entry"] in ends:
                for note in self.of_round.pop(ends[row["entry"]], []):
                    yield note
                    yield from self.notes_after(note["entry"])


def _history_row(db: Database, entry: int) -> dict[str, Any]:
    cursor = db.execute("SELECT entry, time, type, round, line, reversed_at FROM history WHERE entry = ?", [entry])
    names = [d[0] for d in cursor.description]
    return {**dict(zip(names, cursor.fetchone())), "note": True}


def groups(db: Database, first: int, last: int, gm_notes: bool = False) -> Iterator[session_log.Group]:
    """session_log's groups, with the notes beside what they are about."""
    spans = session_log.spans(db, first, last)
    notes = InlineNotes(db, first, last, gm_notes, spans)
    grouper = session_log.Grouper(spans)
    for row in notes.stream(session_log.rows(db, first, last, gm_notes)):
        for group in grouper.add(row):
            yield notes.beside(group)
    for group in grouper.finish():
        yield notes.beside(group)


def rows(db: Database, first: int, last: int, gm_notes: bool = False) -> Iterator[dict[str, Any]]:
    """session_log's rows in entry order, each moved note right after what it is about."""
    return InlineNotes(db, first, last, gm_notes).flat(session_log.rows(db, first, last, gm_notes))
