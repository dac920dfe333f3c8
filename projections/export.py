"""Session logs as Markdown and CSV, written piece by piece from the read tables; the GM's notes
stand beside the entry or round they are about (projections/export_notes.py)."""
from __future__ import annotations

import csv
import io
from typing import Iterator

from sqlite_utils import Database

from campaign_ledger.projections import actors, export_notes, session_log, views


def markdown_chunks(db: Database, first: int, last: int, title: str, gm_notes: bool = False) -> Iterator[str]:
    info = views.campaign(db)
    span = list(session_log.rows(db, first, first)) + list(session_log.rows(db, last, last))
    when = f", {span[0]['time']} to {span[-1]['time']}" if span else ""
    yield f"# {info.get('name', 'Campaign')}: {title}\n\n"
    yield (f"Entries #{first} to #{last}{when}. Rules: {info.get('ruleset')} {info.get('rules_version')}. "
           f"{session_log.summary(db, first, last)}\n")
    for group in export_notes.groups(db, first, last, gm_notes):
        undone = group.reversed_at
        heading = f"~~{group.title}~~ (reversed at #{undone})" if undone else group.title
        yield f"\n## {heading}\n\n{session_log.summary_of(db, group)}\n\n"
        for row in group.rows:
            line = _md(actors.tag(row) + row["line"])
            if row.get("reversed_at"):
                line = f"~~{line}~~ (reversed at #{row['reversed_at']})"
            yield f"- #{row['entry']} `{row['time'][11:19]}` {line}\n"


def _md(text: str) -> str:
    """Keep the log's text literal where Markdown would read it as markup."""
    for ch in "\\`*<~":
        text = text.replace(ch, "\\" + ch)
    return text


def csv_chunks(db: Database, first: int, last: int, gm_notes: bool = False) -> Iterator[str]:
    """The history rows, a CSV line per entry (the header first)."""
    yield _csv_line(["entry", "time", "type", "round", "line", "actor", "channel", "confirmed_by"])
    for row in export_notes.rows(db, first, last, gm_notes):
        actors.shaped(row)
        yield _csv_line([row["entry"], row["time"], row["type"], row["round"] or "", row["line"], row["actor"],
                         row["channel"], row.get("confirmed_by") or ""])


def _csv_line(values: list) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerow(values)
    return buffer.getvalue()
