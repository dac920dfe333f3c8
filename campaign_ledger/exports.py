"""An export's pieces: which entries it holds (a session, a range, the whole campaign), each
format's text, and the anchor line it ends with (`RecordCalls.export`, `campaign export`)."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable, ContextManager, Iterator

FORMATS = ("md", "html", "jsonl", "csv")


@dataclass(frozen=True)
class Span:
    """The entries an export holds, and the title its md and html give them."""

    first: int
    last: int
    title: str


def check_format(fmt: str) -> None:
    from campaign_ledger.ledger.errors import BadInput

    if fmt not in FORMATS:
        raise BadInput(f"An export's format is one of {', '.join(FORMATS)}, not '{fmt}'.")


def span(app: Any, db: Any, session: int | None, first: int | None, last: int | None) -> Span:
    """A session's entries, or `first`-`last` (default: all), refused when it holds none."""
    from campaign_ledger.ledger.errors import NotFound
    from campaign_ledger.projections import sessions

    newest = app.recorder.max_notification_id() or 0
    title = "the whole campaign"
    if session is not None:
        found = sessions.entries_of(db, session)
        if found is None:
            raise NotFound(f"There is no session {session}; see `campaign session list`.")
        first, last = found
        title = next(r["title"] for r in sessions.all_sessions(db) if r["number"] == session)
    first, last = first or 1, min(last or newest, newest)
    if first > last:
        raise NotFound(f"The range #{first}-#{last} holds no entries; the ledger has #1-#{newest}.")
    if (first, last) != (1, newest) and session is None:
        title = f"entries #{first} to #{last}"
    return Span(first, last, title)


def opened(output: str) -> Any:
    """The export's file; one that cannot be made (no such folder, no permission) is refused in one
    line, as `roster dump` refuses it, not "failed unexpectedly"."""
    from campaign_ledger.ledger.errors import BadInput

    try:
        return open(output, "w", encoding="utf-8", newline="")
    except OSError as e:
        raise BadInput(f"Cannot write the export {output}: {e.strerror or e}.") from None


def write(app: Any, db: Any, fmt: str, span: Span, gm_notes: bool, out: Callable[[str], Any],
          progress: Callable[[int], ContextManager[Callable[[int], Any] | None]]) -> None:
    """Each piece of the export to `out` as it is made, each entry a step of `progress`."""
    with progress(span.last - span.first + 1) as step:
        for chunk in chunks(app, db, fmt, span, gm_notes):
            out(chunk)
            if step is not None and chunk.startswith(("{\"entry\"", "- #")):
                step(1)


def chunks(app: Any, db: Any, fmt: str, span: Span, gm_notes: bool = False) -> Iterator[str]:
    """Each format's chunks, ending with the anchor line (the head of the chain when exported)."""
    from campaign_ledger.ledger import interchange
    from campaign_ledger.ledger.chain import anchor_line, chained
    from campaign_ledger.projections import export as exporting

    first, last = span.first, span.last
    anchor = anchor_line(*chained(app.recorder).head())
    if fmt == "jsonl":
        return (line + "\n" for line in interchange.export_lines(app, first, last, anchor=anchor))
    if fmt == "csv":
        return itertools.chain(exporting.csv_chunks(db, first, last, gm_notes), [anchor + "\r\n"])
    if fmt == "html":
        from campaign_ledger.projections.export_html import html_chunks
        return html_chunks(db, first, last, span.title, anchor=anchor, gm_notes=gm_notes)
    return itertools.chain(exporting.markdown_chunks(db, first, last, span.title, gm_notes), [f"\n{anchor}\n"])
