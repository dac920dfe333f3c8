"""The session log's round cards: one card per round (or stretch between rounds), its entries as
rows with chips for what each changed, and a summary of what the round did to the balances.

The HTML export streams them for a range (`log_chunks`); the live page (`campaign serve`) shows
the last few, newest first (`cards`). Rows are read through SQL cursors in entry order, since a
row's chips need the balances before it; the GM's notes stand beside what they are about.
"""
from __future__ import annotations

from html import escape
from typing import Any, Iterable, Iterator

from sqlite_utils import Database

from campaign_ledger.ledger import words
from campaign_ledger.projections import actors, long_reads, session_log
from campaign_ledger.projections.campaign_notes import hidden_sql
from campaign_ledger.projections.export_notes import InlineNotes

FLUSH = 200          # rows rendered before a piece of the export is yielded


def when(stamp: str | None) -> str:
    """A stored time as a GM reads it: '2026-11-22 20:15:03 UTC'."""
    if not stamp:
        return "\u2014"
    return stamp.replace("T", " ").replace("+00:00", " UTC")


def log_chunks(db: Database, first: int, last: int, day: str, gm_notes: bool = False) -> Iterator[str]:
    """The cards of a range in pieces of about FLUSH rows, for a file of any length in flat memory."""
    out: list[str] = []
    waiting = count = 0
    for group, html in cards(db, first, last, day, gm_notes):
        count += 1
        out.append(html)
        waiting += len(group.rows)
        if waiting >= FLUSH:
            yield "".join(out)
            out.clear()
            waiting = 0
    if not count:
        out.append('<p class="empty">No entries in this range.</p>\n')
    yield "".join(out)


def cards(db: Database, first: int, last: int, day: str = "", gm_notes: bool = False,
          numbered: int = 0, hidden: frozenset[int] = frozenset()) -> Iterator[tuple[session_log.Group, str]]:
    """Each card of the range with its HTML, in the order its round began (`hidden`: entries left
    out, as the live page leaves out what only the GM may see)."""
    before = db.execute("SELECT destiny, doom FROM balances WHERE entry < ? ORDER BY entry DESC LIMIT 1",
                        [first]).fetchone() or (0, 0)
    pools = tuple(before)
    rows = long_reads.cursor(db, "SELECT h.entry, h.time, h.line, h.round, h.reversed_at, b.destiny, b.doom, "
                             "h.actor, h.channel, h.confirmed_by FROM "
                             "history h LEFT JOIN balances b ON b.entry = h.entry WHERE h.entry BETWEEN ? AND ? "
                             f"AND {hidden_sql(gm_notes, 'h.entry')} ORDER BY h.entry", [first, last])
    changes = _Peek(long_reads.cursor(
        db, "SELECT entry, balance, value, delta FROM balance_changes WHERE entry BETWEEN ? AND ? "
        "AND (balance LIKE '%:stress' OR balance LIKE '%:agony' OR balance LIKE '%:intensity') ORDER BY entry, balance",
        [first, last]))
    spans = session_log.spans(db, first, last)
    grouper, notes = session_log.Grouper(spans), InlineNotes(db, first, last, gm_notes, spans)
    number = numbered
    shown = {"day": day}

    def note_row(h: dict[str, Any]) -> dict[str, Any]:
        return {"entry": h["entry"], "round": None, "reversed_at": h["reversed_at"], "note": True, "notes": [],
                "html": _row(h["entry"], h["time"] or "", h["line"] or "", [], shown["day"], h["reversed_at"],
                             "note", actors.label(h))}

    for entry, time, line, round_, undone, destiny, doom, *wrote in rows:
        if entry in notes.moved or entry in hidden:
            continue
        now = (destiny, doom) if destiny is not None else pools
        chips = [_chip(label.lower(), f"{label} {after - was:+d}")
                 for label, was, after in zip(("Destiny", "Doom"), pools, now) if after != was]
        moved = []
        for _, balance, value, delta in changes.upto(entry):
            who, _, what = balance.rpartition(":")
            moved.append((who, what, value, delta))
            if delta:
                chips.append(_chip(what, f"{who} {what.capitalize()} {delta:+d}"))
        row = {"entry": entry, "round": round_, "reversed_at": undone, "before": pools, "after": now,
               "notes": moved, "html": _row(entry, time or "", line or "", chips, shown["day"], undone,
                                            "note" if (line or "").startswith("Note ") and round_ is None else "",
                                            words.who(*wrote))}
        pools = now
        if time and time[:10] != shown["day"]:
            shown["day"] = time[:10]
        for group in grouper.add(row):
            number += 1
            yield group, _card(number, notes.beside(group, note_row))
    for group in grouper.finish():
        number += 1
        yield group, _card(number, notes.beside(group, note_row))


def _card(number: int, group: session_log.Group) -> str:
    """One round (or a stretch between rounds): heading, rows, and what it did to the balances."""
    undone = group.reversed_at
    kind = ("round reversed" if undone else "round") if group.round else "between"
    attr = f' data-round="{escape(group.round)}"' if group.round else ""
    title = f'<s>{escape(group.title)}</s> <span class="undone">reversed at #{undone}</span>' if undone \
        else escape(group.title)
    head = (f'<section class="group {kind}" id="group-{number}"{attr}>\n'
            f'<h3>{title}</h3>\n<table class="entries">\n')
    own = [r for r in group.rows if not r.get("note")] or group.rows  # a note moved beside changes nothing
    first, last = own[0], own[-1]
    parts = [f"#{first['entry']}\u2013#{last['entry']}" if last is not first else f"#{first['entry']}"]
    parts += [_change(label, was, now) for label, was, now in zip(("Destiny", "Doom"), first["before"], last["after"])
              if was or now]  # a campaign without them (Beer Run) read 'Destiny 0 -> 0 · Doom 0 -> 0'
    balances: dict[str, list[int]] = {}
    for row in group.rows:
        for who, what, value, delta in row["notes"]:
            balances.setdefault(f"{what}\x00{who}", [value - delta, value])[1] = value
    for what in ("stress", "agony", "intensity"):  # a Beer Run character's Intensity as a PC's Stress
        moved = [_change(key.split("\x00", 1)[1], was, now)
                 for key, (was, now) in balances.items() if key.startswith(what + "\x00")]
        if moved:
            parts.append(f'{what.capitalize()}: {", ".join(moved)}')
    rows = "".join(r["html"] for r in group.rows)
    return f'{head}{rows}</table>\n<p class="summary">' + " \u00b7 ".join(parts) + '</p>\n</section>\n'


def _change(label: str, was: int, now: int) -> str:
    if was == now:
        return f"{escape(label)} {was} \u2192 {now}"
    return f'<span class="changed">{escape(label)} {was} \u2192 {now} ({now - was:+d})</span>'


def _chip(kind: str, text: str) -> str:
    return f'<span class="chip {escape(kind)}">{escape(text)}</span>'


def _row(entry: int, time: str, line: str, chips: list[str], day: str, undone: int | None = None,
         kind: str = "", by: str = "") -> str:
    """One entry's row; `by`, who wrote it when not the GM (ledger/words.py `who`), before its line."""
    shown = time[11:19] if time[:10] == day else when(time)
    cls = "t" if time[:10] == day else "t day"
    kinds = " ".join(k for k in (kind, "reversed" if undone else "") if k)
    mark = (f' class="{kinds}"' if kinds else "") + (f' title="reversed at #{undone}"' if undone else "")
    return (f'<tr id="entry-{entry}"{mark}><td class="n">#{entry}</td>'
            f'<td class="{cls}"><time datetime="{escape(time)}">{escape(shown)}</time></td>'
            f'<td class="l">{_by(by)}{escape(line)}</td><td class="c">{"".join(chips)}</td></tr>\n')


def _by(by: str) -> str:
    return f'<span class="who">{escape(by)}</span> ' if by else ""


class _Peek:
    """A cursor read ahead by one row: the rows up to an entry, without loading the rest."""

    def __init__(self, cursor: Iterable[tuple]) -> None:
        self.rows, self.head = iter(cursor), None
        self._advance()

    def _advance(self) -> None:
        self.head = next(self.rows, None)

    def upto(self, entry: int) -> Iterator[tuple]:
        while self.head is not None and self.head[0] <= entry:
            row = self.head
            self._advance()
            yield row
