"""The HTML export's charts: Destiny and Doom, and each PC's Stress, as inline SVG step lines.

Every series is reduced while it streams from SQL to at most about a thousand points (a few
per bucket of entries), so a 100,000-entry range draws as fast as a short one. Undone units,
and the undos that reversed them, leave the lines alone.
"""
from __future__ import annotations

import math
from html import escape

from sqlite_utils import Database

from campaign_ledger.projections import long_reads
from campaign_ledger.projections.views import current_names

BUCKETS = 160        # chart buckets per series: at most 6 points each, so ~1000 points a series
WIDTH, HEIGHT = 900, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 18, 20, 34  # the labels' room; ledger.css enlarges them on a phone
COLOURS = ("#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#db2777", "#0891b2", "#65a30d",
           "#475569", "#b45309")
POOL_COLOURS = {"Destiny": "#2563eb", "Doom": "#b91c1c"}


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


def pools_chart(db: Database, first: int, last: int) -> str:
    x0 = first - 1
    start = db.execute("SELECT destiny, doom FROM balances WHERE entry <= ? ORDER BY entry DESC LIMIT 1",
                       [x0]).fetchone() or (0, 0)
    low, high = db.execute("SELECT min(min(destiny), min(doom)), max(max(destiny), max(doom)) FROM balances "
                           "WHERE entry BETWEEN ? AND ?", [first, last]).fetchone()
    destiny, doom = _Steps(x0, last, start[0]), _Steps(x0, last, start[1])
    undone, previous, offset = _undone(db, first, last), tuple(start), [0, 0]
    for entry, d, m in long_reads.cursor(db, "SELECT entry, destiny, doom FROM balances WHERE entry BETWEEN ? AND ? "
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


def stress_chart(db: Database, first: int, last: int) -> str:
    x0 = first - 1
    balances = [r[0] for r in db.execute("SELECT balance FROM balance_changes WHERE balance LIKE '%:stress' AND "
                                         "entry <= ? GROUP BY balance ORDER BY min(entry), balance", [last])]
    if not balances:
        return ('<figure class="chart" id="figure-stress"><figcaption>Stress</figcaption>'
                '<p class="empty">No PC has a Stress track in this range.</p></figure>\n')
    now = current_names(db)
    pcs: dict[str, list[str]] = {}  # a renamed PC's balances (one per name it had), under its name now
    for balance in balances:
        owner = balance.rpartition(":")[0]
        pcs.setdefault(now.get(owner.casefold(), owner), []).append(balance)
    series, values, undone = [], [0], _undone(db, first, last)
    for i, (name, owned) in enumerate(pcs.items()):
        marks = ", ".join("?" for _ in owned)
        row = db.execute(f"SELECT value FROM balance_changes WHERE balance IN ({marks}) AND entry <= ? "
                         "ORDER BY entry DESC LIMIT 1", [*owned, x0]).fetchone()
        previous = row[0] if row else 0
        steps, offset = _Steps(x0, last, previous), 0
        for entry, value in long_reads.cursor(db, f"SELECT entry, value FROM balance_changes WHERE balance IN "
                                                  f"({marks}) AND entry BETWEEN ? AND ? ORDER BY entry",
                                              [*owned, first, last]):
            if entry in undone:  # the change from the line's last value (a new name's row starts from 0)
                offset += value - previous
            else:
                steps.add(entry, value - offset)
            previous = value
        points = steps.finish()
        values += [min(v for _, v in points), max(v for _, v in points)]
        series.append((name, COLOURS[i % len(COLOURS)], points))
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

    legend = "".join(f'<li><span class="swatch" style="background:{colour}"></span>'
                     f'{escape(label)} ({points[0][1]} \u2192 {points[-1][1]})</li>' for label, colour, points in series)
    out = [f'<figure class="chart" id="figure-{ident[6:]}"><figcaption>{escape(caption)}</figcaption>\n'
           f'<ul class="legend">{legend}</ul>\n'  # HTML: it wraps on a phone, in the page's own type size
           f'<svg class="chart" id="{ident}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
           f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="{ident}-title {ident}-desc">\n'
           f'<title id="{ident}-title">{escape(caption)}</title><desc id="{ident}-desc">{escape(description)}</desc>\n'
           '<g class="y-axis">']
    v = low
    while v <= high:
        y = py(v)
        out.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
                   f'<text x="{LEFT - 8}" y="{y:.1f}" text-anchor="end">{v}</text>')
        v += step
    out.append('</g>\n<g class="x-axis">')
    out.append(f'<line class="axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + plot_h}" y2="{TOP + plot_h}"/>')
    xstep = _nice_step(span, 6)  # room for a label of 11 px and more on a phone
    tick = math.ceil(x0 / xstep) * xstep
    while tick <= x1:
        x = px(tick)
        out.append(f'<line class="axis" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP + plot_h}" y2="{TOP + plot_h + 4}"/>'
                   f'<text x="{x:.1f}" y="{TOP + plot_h + 7}" text-anchor="middle">#{tick}</text>')
        tick += xstep
    out.append('</g>\n')
    # overlapping lines (two PCs both at 0) stay visible: each series is nudged a pixel or two
    n = len(series)
    for i, (label, colour, points) in enumerate(series):
        nudge = (i - (n - 1) / 2) * 2.0
        coords = " ".join(f"{px(x):.1f},{py(v) + nudge:.1f}" for x, v in points)
        out.append(f'<polyline class="series" data-series="{escape(label)}" stroke="{colour}" '
                   f'points="{coords}"><title>{escape(label)}</title></polyline>\n')
    out.append('</svg>\n</figure>\n')
    return "".join(out)


def _nice_step(span: float, ticks: int) -> int:
    """1, 2 or 5 times a power of ten, giving at most `ticks` intervals over `span`."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return int(m * power)
    return int(10 * power)
