"""A session log as one standalone HTML file: the log round by round, and inline SVG charts.

`html_chunks` yields the document piece by piece, reading the read tables through SQL
cursors, so a caller can write a 100,000-entry range to a file or stdout with flat memory:
the log is streamed row by row (a group's summary is written after its rows and shown
under its heading by CSS), and every chart series is reduced while it streams to at most
about a thousand points. The page needs no network and no script: inline CSS, inline SVG,
and a Content-Security-Policy that forbids loading anything at all.
"""
from __future__ import annotations

import math
from html import escape
from typing import Iterable, Iterator

from sqlite_utils import Database

from projections import session_log
from projections.campaign_notes import hidden_sql

FLUSH = 200          # rows rendered before a piece is yielded
BUCKETS = 160        # chart buckets per series: at most 6 points each, so ~1000 points a series
WIDTH, HEIGHT = 900, 280
LEFT, RIGHT, TOP, BOTTOM = 48, 18, 34, 34
COLOURS = ("#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#db2777", "#0891b2", "#65a30d",
           "#475569", "#b45309")
POOL_COLOURS = {"Destiny": "#2563eb", "Doom": "#b91c1c"}

CSS = """
:root { color-scheme: light; --ink: #1f2933; --muted: #627d98; --rule: #d9e2ec; --paper: #fbfaf7;
        --card: #ffffff; --accent: #334e68; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--paper); color: var(--ink);
       font: 15px/1.45 "DejaVu Sans", "Liberation Sans", system-ui, sans-serif; }
header.top { background: var(--accent); color: #fff; padding: 1.4rem 2rem 1.1rem; }
header.top h1 { margin: 0; font-size: 1.6rem; font-weight: 600; }
header.top .subtitle { margin: .2rem 0 .6rem; font-size: 1.1rem; opacity: .92; }
header.top dl { display: flex; flex-wrap: wrap; gap: .2rem 1.6rem; margin: 0; font-size: .9rem; }
header.top dt { opacity: .75; } header.top dd { margin: 0 0 0 .35rem; }
header.top dl div { display: flex; }
nav.toc { padding: .5rem 2rem; border-bottom: 1px solid var(--rule); background: #f0f4f8; font-size: .9rem; }
nav.toc a { color: var(--accent); margin-right: 1.2rem; }
main { max-width: 1100px; margin: 0 auto; padding: 1rem 2rem 3rem; }
h2 { font-size: 1.25rem; border-bottom: 2px solid var(--rule); padding-bottom: .25rem; margin-top: 1.6rem; }
section.group { display: flex; flex-direction: column; background: var(--card); border: 1px solid var(--rule);
                border-radius: 6px; margin: 0 0 1rem; overflow: hidden; }
section.group > h3 { order: 0; margin: 0; padding: .5rem .8rem; font-size: 1rem; background: #e6f0fa; }
section.group.between > h3 { background: #f1f1ee; color: #52606d; }
section.group.reversed > h3 s, tr.reversed td.l { text-decoration: line-through; color: #7b8794; }
section.group.reversed > h3 .undone { font-weight: normal; font-size: .85rem; }
section.group > .summary { order: 1; margin: 0; padding: .35rem .8rem; font-size: .85rem; color: #334e68;
                           border-bottom: 1px solid var(--rule); background: #fafcfe; }
section.group > table { order: 2; }
.summary .changed { font-weight: 600; }
table.entries { width: 100%; border-collapse: collapse; table-layout: fixed; font-size: .88rem; }
table.entries td { padding: .22rem .6rem; vertical-align: top; border-top: 1px solid #f0f2f5; }
table.entries tr:first-child td { border-top: 0; }
table.entries td.n { width: 4.6rem; color: var(--muted); font-variant-numeric: tabular-nums; text-align: right; }
table.entries td.t { width: 6.2rem; color: var(--muted); font-variant-numeric: tabular-nums; white-space: nowrap; }
table.entries td.t.day { width: auto; }
table.entries td.l { overflow-wrap: anywhere; }
table.entries td.c { width: 12rem; text-align: right; }
.chip { display: inline-block; margin: 0 0 .1rem .25rem; padding: 0 .4rem; border-radius: 9px;
        font-size: .75rem; background: #eef2f7; color: #334e68; white-space: nowrap; }
.chip.destiny { background: #dbeafe; color: #1e40af; } .chip.doom { background: #fee2e2; color: #991b1b; }
.chip.stress { background: #fef3c7; color: #92400e; } .chip.agony { background: #ede9fe; color: #5b21b6; }
figure.chart { margin: 0 0 1.4rem; background: var(--card); border: 1px solid var(--rule); border-radius: 6px;
               padding: .6rem .8rem .4rem; }
figure.chart figcaption { font-weight: 600; margin-bottom: .3rem; }
svg.chart { display: block; width: 100%; height: auto; max-width: 900px; font-size: 12px;
            font-family: "DejaVu Sans", "Liberation Sans", sans-serif; }
svg.chart .grid { stroke: #e4e7eb; stroke-width: 1; }
svg.chart .axis { stroke: #9aa5b1; stroke-width: 1; }
svg.chart text { fill: #52606d; }
svg.chart .series { fill: none; stroke-width: 2.2; stroke-linejoin: round; stroke-linecap: round; }
p.empty, p.note { color: var(--muted); font-size: .9rem; }
footer { color: var(--muted); font-size: .8rem; text-align: center; padding: 1rem; }
@media print { nav.toc { display: none; } section.group { break-inside: avoid; } }
"""


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
    yield from _log(db, first, last, (times[0] or "")[:10], gm_notes)
    yield '</section>\n<section id="charts">\n<h2>Charts</h2>\n'
    yield _pools_chart(db, first, last)
    yield _stress_chart(db, first, last)
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
            f'<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n')


def _header(campaign: dict[str, str], name: str, title: str, first: int, last: int, count: int,
            times: list[str | None]) -> str:
    rules = " ".join(campaign[k] for k in ("ruleset", "rules_version") if campaign.get(k))
    facts = [("Entries", f"#{first}\u2013#{last} ({count} in the log)"),
             ("From", _when(times[0])), ("To", _when(times[1]))]
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


def _when(stamp: str | None) -> str:
    if not stamp:
        return "\u2014"
    return stamp.replace("T", " ").replace("+00:00", " UTC")


# --- the log, streamed group by group ----------------------------------------------------------------

def _log(db: Database, first: int, last: int, day: str, gm_notes: bool = False) -> Iterator[str]:
    """Rows in entry order (each row's chips need the one before it), rendered a whole group at a time."""
    before = db.execute("SELECT destiny, doom FROM balances WHERE entry < ? ORDER BY entry DESC LIMIT 1",
                        [first]).fetchone() or (0, 0)
    pools = tuple(before)
    rows = db.execute("SELECT h.entry, h.time, h.line, h.round, h.reversed_at, b.destiny, b.doom FROM history h "
                      "LEFT JOIN balances b ON b.entry = h.entry WHERE h.entry BETWEEN ? AND ? "
                      f"AND {hidden_sql(gm_notes, 'h.entry')} ORDER BY h.entry", [first, last])
    changes = _Peek(db.execute(
        "SELECT entry, balance, value, delta FROM balance_changes WHERE entry BETWEEN ? AND ? "
        "AND (balance LIKE '%:stress' OR balance LIKE '%:agony') ORDER BY entry, balance", [first, last]))
    grouper = session_log.Grouper(session_log.spans(db, first, last))
    out: list[str] = []
    number = waiting = 0  # groups so far; rows rendered and not yet yielded
    for entry, time, line, round_, undone, destiny, doom in rows:
        now = (destiny, doom) if destiny is not None else pools
        chips = [_chip(label.lower(), f"{label} {after - was:+d}")
                 for label, was, after in zip(("Destiny", "Doom"), pools, now) if after != was]
        notes = []
        for _, balance, value, delta in changes.upto(entry):
            who, _, what = balance.rpartition(":")
            notes.append((who, what, value, delta))
            if delta:
                chips.append(_chip(what, f"{who} {what.capitalize()} {delta:+d}"))
        row = {"entry": entry, "round": round_, "reversed_at": undone, "before": pools, "after": now,
               "notes": notes, "html": _row(entry, time or "", line or "", chips, day, undone)}
        pools = now
        if time and time[:10] != day:
            day = time[:10]
        for group in grouper.add(row):
            number += 1
            out.append(_group(number, group))
            waiting += len(group.rows)
        if waiting >= FLUSH:
            yield "".join(out)
            out.clear()
            waiting = 0
    for group in grouper.finish():
        number += 1
        out.append(_group(number, group))
    if not number:
        out.append('<p class="empty">No entries in this range.</p>\n')
    yield "".join(out)


def _group(number: int, group: session_log.Group) -> str:
    """One round (or a stretch between rounds): heading, rows, and what it did to the balances."""
    undone = group.reversed_at
    kind = ("round reversed" if undone else "round") if group.round else "between"
    attr = f' data-round="{escape(group.round)}"' if group.round else ""
    title = f'<s>{escape(group.title)}</s> <span class="undone">reversed at #{undone}</span>' if undone \
        else escape(group.title)
    head = (f'<section class="group {kind}" id="group-{number}"{attr}>\n'
            f'<h3>{title}</h3>\n<table class="entries">\n')
    first, last = group.rows[0], group.rows[-1]
    parts = [f"#{first['entry']}\u2013#{last['entry']}" if last is not first else f"#{first['entry']}"]
    parts += [_change(label, was, now) for label, was, now in zip(("Destiny", "Doom"), first["before"], last["after"])]
    balances: dict[str, list[int]] = {}
    for row in group.rows:
        for who, what, value, delta in row["notes"]:
            balances.setdefault(f"{what}\x00{who}", [value - delta, value])[1] = value
    for what in ("stress", "agony"):
        moved = [_change(key.split("\x00", 1)[1], was, now)
                 for key, (was, now) in balances.items() if key.startswith(what + "\x00")]
        if moved:
            parts.append(f'{what.capitalize()}: {", ".join(moved)}')
    rows = "".join(r["html"] for r in group.rows)
    return f'{head}{rows}</table>\n<p class="summary">' + " \u00b7 ".join(parts) + '</p>\n</section>\n'


def _round_heading(round_: str) -> str:
    challenge, _, number = round_.rpartition(":")
    return f"{challenge}, round {number}" if challenge and number.isdigit() else round_


def _change(label: str, was: int, now: int) -> str:
    if was == now:
        return f"{escape(label)} {was} \u2192 {now}"
    return f'<span class="changed">{escape(label)} {was} \u2192 {now} ({now - was:+d})</span>'


def _chip(kind: str, text: str) -> str:
    return f'<span class="chip {escape(kind)}">{escape(text)}</span>'


def _row(entry: int, time: str, line: str, chips: list[str], day: str, undone: int | None = None) -> str:
    shown = time[11:19] if time[:10] == day else _when(time)
    cls = "t" if time[:10] == day else "t day"
    mark = f' class="reversed" title="reversed at #{undone}"' if undone else ""
    return (f'<tr id="entry-{entry}"{mark}><td class="n">#{entry}</td>'
            f'<td class="{cls}"><time datetime="{escape(time)}">{escape(shown)}</time></td>'
            f'<td class="l">{escape(line)}</td><td class="c">{"".join(chips)}</td></tr>\n')


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


# --- the charts: step lines reduced while they stream -----------------------------------------------

class _Steps:
    """A step line through (entry, value) changes, kept to a few points per bucket of entries.

    Inside a bucket only the first change's place, the lowest and highest values and the last
    value are kept, drawn as steps: at most 6 points a bucket, however many entries it spans.
    With fewer changes than buckets every change is drawn exactly.
    """

    def __init__(self, x0: int, x1: int, start: int, buckets: int = BUCKETS) -> None:
        self.x0, self.x1, self.buckets = x0, x1, buckets
        self.span = max(x1 - x0, 1)
        self.value = start
        self.points: list[tuple[float, int]] = [(x0, start)]
        self.bucket: int | None = None
        self.kept: list[tuple[int, int]] = []   # this bucket's (entry, value): at most 3

    def add(self, x: int, value: int) -> None:
        if value == self.value:
            return
        bucket = min(int((x - self.x0) * self.buckets / self.span), self.buckets - 1)
        if bucket != self.bucket:
            self._flush()
            self.bucket = bucket
        self.value = value
        self._keep(x, value)

    def _keep(self, x: int, value: int) -> None:
        kept = self.kept
        if len(kept) < 3:
            kept.append((x, value))
            return
        # keep the bucket's extremes (in order) and its newest value
        candidates = kept + [(x, value)]
        low = min(candidates[:-1], key=lambda p: p[1])
        high = max(candidates[:-1], key=lambda p: p[1])
        extremes = sorted({low, high})
        self.kept = extremes + [(x, value)]

    def _flush(self) -> None:
        for x, value in self.kept:
            previous = self.points[-1]
            if previous[0] != x:
                self.points.append((x, previous[1]))
            self.points.append((x, value))
        self.kept = []

    def finish(self) -> list[tuple[float, int]]:
        self._flush()
        if self.points[-1][0] != self.x1:
            self.points.append((self.x1, self.points[-1][1]))
        return self.points


def _pools_chart(db: Database, first: int, last: int) -> str:
    x0 = first - 1
    start = db.execute("SELECT destiny, doom FROM balances WHERE entry <= ? ORDER BY entry DESC LIMIT 1",
                       [x0]).fetchone() or (0, 0)
    low, high = db.execute("SELECT min(min(destiny), min(doom)), max(max(destiny), max(doom)) FROM balances "
                           "WHERE entry BETWEEN ? AND ?", [first, last]).fetchone()
    destiny, doom = _Steps(x0, last, start[0]), _Steps(x0, last, start[1])
    undone, previous, offset = _undone(db, first, last), tuple(start), [0, 0]
    for entry, d, m in db.execute("SELECT entry, destiny, doom FROM balances WHERE entry BETWEEN ? AND ? "
                                  "ORDER BY entry", [first, last]):
        if entry in undone:  # an undone round, and the undo that took it back, leave the lines alone
            offset = [offset[0] + d - previous[0], offset[1] + m - previous[1]]
        else:
            destiny.add(entry, d - offset[0])
            doom.add(entry, m - offset[1])
        previous = (d, m)
    series = [("Destiny", POOL_COLOURS["Destiny"], destiny.finish()), ("Doom", POOL_COLOURS["Doom"], doom.finish())]
    values = [v for v in (low, high, *start) if v is not None]
    return _figure("chart-pools", "Destiny and Doom",
                   f"Destiny and Doom after each entry, #{first}\u2013#{last}", x0, last, values, series)


def _undone(db: Database, first: int, last: int) -> set[int]:
    """Entries the charts leave out: those of undone units, and the undos that reversed them."""
    return {r[0] for r in db.execute("SELECT entry FROM history WHERE entry BETWEEN ? AND ? AND "
                                     "(reversed_at IS NOT NULL OR type LIKE '%Reversed')", [first, last])}


def _stress_chart(db: Database, first: int, last: int) -> str:
    x0 = first - 1
    pcs = db.execute("SELECT balance FROM balance_changes WHERE balance LIKE '%:stress' AND entry <= ? "
                     "GROUP BY balance ORDER BY min(entry), balance", [last]).fetchall()
    if not pcs:
        return ('<figure class="chart" id="figure-stress"><figcaption>Stress</figcaption>'
                '<p class="empty">No PC has a Stress track in this range.</p></figure>\n')
    series, values, undone = [], [0], _undone(db, first, last)
    for i, (balance,) in enumerate(pcs):
        row = db.execute("SELECT value FROM balance_changes WHERE balance = ? AND entry <= ? "
                         "ORDER BY entry DESC LIMIT 1", [balance, x0]).fetchone()
        steps, offset = _Steps(x0, last, row[0] if row else 0), 0
        for entry, value, delta in db.execute("SELECT entry, value, delta FROM balance_changes WHERE balance = ? "
                                              "AND entry BETWEEN ? AND ? ORDER BY entry", [balance, first, last]):
            if entry in undone:
                offset += delta
            else:
                steps.add(entry, value - offset)
        points = steps.finish()
        values += [min(v for _, v in points), max(v for _, v in points)]
        series.append((balance.rpartition(":")[0], COLOURS[i % len(COLOURS)], points))
    return _figure("chart-stress", "Stress of each PC",
                   f"Each PC's Stress after each entry, #{first}\u2013#{last}", x0, last, values, series)


def _figure(ident: str, caption: str, description: str, x0: int, x1: int, values: list[int],
            series: list[tuple[str, str, list[tuple[float, int]]]]) -> str:
    low, high = min(min(values), 0), max(max(values), 1)
    step = _nice_step(high - low, 6)
    high = math.ceil(high / step) * step
    low = math.floor(low / step) * step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    span = max(x1 - x0, 1)

    def px(x: float) -> float:
        return LEFT + (x - x0) * plot_w / span

    def py(v: float) -> float:
        return TOP + (high - v) * plot_h / (high - low)

    out = [f'<figure class="chart" id="figure-{ident[6:]}"><figcaption>{escape(caption)}</figcaption>\n'
           f'<svg class="chart" id="{ident}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
           f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="{ident}-title {ident}-desc">\n'
           f'<title id="{ident}-title">{escape(caption)}</title><desc id="{ident}-desc">{escape(description)}</desc>\n'
           '<g class="y-axis">']
    v = low
    while v <= high:
        y = py(v)
        out.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
                   f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end">{v}</text>')
        v += step
    out.append('</g>\n<g class="x-axis">')
    out.append(f'<line class="axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + plot_h}" y2="{TOP + plot_h}"/>')
    xstep = _nice_step(span, 8)
    tick = math.ceil(x0 / xstep) * xstep
    while tick <= x1:
        x = px(tick)
        out.append(f'<line class="axis" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP + plot_h}" y2="{TOP + plot_h + 4}"/>'
                   f'<text x="{x:.1f}" y="{TOP + plot_h + 17}" text-anchor="middle">#{tick}</text>')
        tick += xstep
    out.append(f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 2}" text-anchor="end">entry</text></g>\n')
    # overlapping lines (two PCs both at 0) stay visible: each series is nudged a pixel or two
    n = len(series)
    for i, (label, colour, points) in enumerate(series):
        nudge = (i - (n - 1) / 2) * 2.0
        coords = " ".join(f"{px(x):.1f},{py(v) + nudge:.1f}" for x, v in points)
        out.append(f'<polyline class="series" data-series="{escape(label)}" stroke="{colour}" '
                   f'points="{coords}"><title>{escape(label)}</title></polyline>\n')
    out.append('<g class="legend">')
    x = LEFT
    for label, colour, points in series:
        text = f"{label} ({points[0][1]} \u2192 {points[-1][1]})"
        out.append(f'<rect x="{x}" y="8" width="14" height="4" rx="1" fill="{colour}"/>'
                   f'<text x="{x + 19}" y="14">{escape(text)}</text>')
        x += 30 + 7 * len(text)
    out.append('</g>\n</svg>\n</figure>\n')
    return "".join(out)


def _nice_step(span: float, ticks: int) -> int:
    """1, 2 or 5 times a power of ten, giving at most `ticks` intervals over `span`."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return int(m * power)
    return int(10 * power)


def render(db: Database, first: int, last: int, title: str) -> str:
    """The whole document at once (for small ranges and tests)."""
    return "".join(html_chunks(db, first, last, title))


__all__ = ["html_chunks", "render"]
