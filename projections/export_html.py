"""A session log as one standalone HTML file: the log round by round, and inline SVG charts.

`html_chunks` yields the document piece by piece, reading the read tables through SQL
cursors, so a caller can write a 100,000-entry range to a file or stdout with flat memory:
the log is streamed row by row (export_cards.py: a group's summary is written after its rows
and shown under its heading by CSS), and every chart series is reduced while it streams to at
most about a thousand points (export_charts.py). The page needs no network and no script:
inline CSS (ledger.css, the stylesheet the live page shares), inline SVG, and a
Content-Security-Policy that forbids loading anything at all.
"""
from __future__ import annotations

from functools import lru_cache
from html import escape
from importlib import resources
from typing import Iterator

from sqlite_utils import Database

from campaign_ledger.projections.campaign_notes import hidden_sql
from campaign_ledger.projections.export_cards import log_chunks, when
from campaign_ledger.projections.export_charts import pools_chart, stress_chart


@lru_cache(maxsize=1)
def stylesheet() -> str:
    """The one stylesheet of the export and the live page, shipped as package data."""
    return resources.files("campaign_ledger.projections").joinpath("ledger.css").read_text(encoding="utf-8")


def html_chunks(db: Database, first: int, last: int, title: str, anchor: str | None = None,
                gm_notes: bool = False) -> Iterator[str]:
    """The log of entries `first`..`last` as one standalone HTML document, in pieces (the footer
    ends with the anchor line, when given, for a printout to keep)."""
    campaign = {k: v for k, v in db.execute("SELECT key, value FROM campaign")}
    name = campaign.get("name") or "Campaign"
    yield _head(f"{name}: {title}")
    span = db.execute("SELECT min(entry), max(entry), count(*) FROM history WHERE entry BETWEEN ? AND ? "
                      f"AND {hidden_sql(gm_notes)}", [first, last]).fetchone()
    times = [_time_of(db, e) for e in span[:2]]
    yield _header(campaign, name, title, first, last, span[2], times)
    yield '<main>\n<section id="log">\n<h2>Log</h2>\n'
    yield from log_chunks(db, first, last, (times[0] or "")[:10], gm_notes)
    yield '</section>\n<section id="charts">\n<h2>Charts</h2>\n'
    yield pools_chart(db, first, last)
    yield stress_chart(db, first, last)
    yield ('</section>\n</main>\n<footer>Exported by Campaign Ledger from the read model; '
           'a standalone file: no network, no script.'
           + (f'<br><code class="anchor">{escape(anchor)}</code>' if anchor else '') + '</footer>\n</body>\n</html>\n')


# --- the page's head and header --------------------------------------------------------------------

def _head(title: str) -> str:
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            'style-src \'unsafe-inline\'; img-src data:">\n'
            '<link rel="icon" href="data:,">\n'
            f'<title>{escape(title)}</title>\n<style>{stylesheet()}</style>\n</head>\n<body>\n')


def _header(campaign: dict[str, str], name: str, title: str, first: int, last: int, count: int,
            times: list[str | None]) -> str:
    rules = " ".join(campaign[k] for k in ("ruleset", "rules_version") if campaign.get(k))
    facts = [("Entries", f"#{first}\u2013#{last} ({count} in the log)"),
             ("From", when(times[0])), ("To", when(times[1]))]
    if rules:
        facts.append(("Rules", rules))
    dl = "".join(f"<div><dt>{escape(k)}</dt><dd>{escape(v)}</dd></div>" for k, v in facts)
    return (f'<header class="top">\n<h1 id="campaign-name">{escape(name)}</h1>\n'
            f'<p class="subtitle" id="log-title">{escape(title)}</p>\n<dl class="range">{dl}</dl>\n</header>\n'
            '<nav class="toc"><a href="#log">Log, round by round</a><a href="#charts">Charts</a></nav>\n')


def _time_of(db: Database, entry: int | None) -> str | None:
    if entry is None:
        return None
    row = db.execute("SELECT time FROM history WHERE entry = ?", [entry]).fetchone()
    return row[0] if row else None


def render(db: Database, first: int, last: int, title: str) -> str:
    """The whole document at once (for small ranges and tests)."""
    return "".join(html_chunks(db, first, last, title))


__all__ = ["html_chunks", "render", "stylesheet"]
