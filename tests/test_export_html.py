"""The session log as standalone HTML: its structure, a real headless Chromium, and flat memory.

The browser tests drive Debian's `chromium` (/usr/bin/chromium) through Playwright (tests/browser.py,
`executable_path`): no browser is downloaded. A missing browser fails the tests (it must be
installed: `apt-get install -y chromium`, which `sh tests/setup.sh` does).
"""
from __future__ import annotations

import os
import re
import shutil
import sqlite3
import struct
import tracemalloc
import xml.etree.ElementTree as ET
import zlib
from html import escape
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from sqlite_utils import Database

from campaign_ledger.projections import runner
from campaign_ledger.projections.export_html import html_chunks
from campaign_ledger.projections.sessions import entries_of
from tests.browser import browser, phone, screen, visit  # noqa: F401  (browser: the module's fixture)
from tests.conftest import Table

SVG = "{http://www.w3.org/2000/svg}"


# --- the demo session, rendered once -------------------------------------------------------------

@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("export")
    Table(folder / "demo.db")("demo")
    db = Database(sqlite3.connect(folder / "demo.db"))
    first, last = entries_of(db, 1)
    page = folder / "session-1.html"
    pieces = 0
    with page.open("w", encoding="utf-8") as out:
        for chunk in html_chunks(db, first, last, "Session 1: the vault <& 'friends'>"):
            out.write(chunk)
            pieces += 1
    rows = db.execute("SELECT entry, line, round FROM history WHERE entry BETWEEN ? AND ? ORDER BY entry",
                      [first, last]).fetchall()
    yield {"db": db, "first": first, "last": last, "path": page, "html": page.read_text("utf-8"),
           "rows": rows, "pieces": pieces, "folder": folder}
    db.conn.close()


def test_the_page_holds_the_session_log_round_by_round(demo: dict[str, Any]) -> None:
    html, rows = demo["html"], demo["rows"]
    assert demo["pieces"] > 3                        # written as it comes, not in one piece
    assert (demo["first"], demo["last"]) == (11, 62)
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert '<h1 id="campaign-name">The Moon Heist</h1>' in html
    assert "Session 1: the vault &lt;&amp; &#x27;friends&#x27;&gt;" in html          # the title, escaped
    assert "<& 'friends'>" not in html
    assert "#11\u2013#62" in html and "relics 0.6.1" in html
    for entry, line, _ in rows:                     # every line of the range, escaped, in its own row
        assert f'<tr id="entry-{entry}"><td class="n">#{entry}</td>' in html
        assert f'<td class="l">{escape(line)}</td>' in html, line
    assert 'id="entry-10"' not in html and 'id="entry-63"' not in html
    assert "-&gt; 1, 1, 2, 4, 5" in html and "Scenario &#x27;Night at the Vault&#x27;" in html

    headings = re.findall(r"<h3>(.*?)</h3>", html)
    rounds = [h for h in headings if h != "Between rounds"]
    assert rounds == ["Vault Guards, round 1", "Vault Guards, round 2", "Vault Guards, round 3"]
    assert headings[0] == "Between rounds" and headings.count("Between rounds") == 3   # #11-14, #53-54, #62
    assert len(headings) == len(re.findall(r'<p class="summary">', html))

    summaries = dict(zip(headings, re.findall(r'<p class="summary">(.*?)</p>', html)))
    first_round = _text(summaries["Vault Guards, round 1"])
    assert first_round.startswith("#15\u2013#34")
    assert "Destiny 3 \u2192 2 (-1)" in first_round and "Doom 3 \u2192 4 (+1)" in first_round
    assert "Stress: Bo 0 \u2192 5 (+5)" in first_round
    assert "Stress: Bo 5 \u2192 10 (+5)" in _text(summaries["Vault Guards, round 2"])
    between = _text(re.findall(r'<p class="summary">(.*?)</p>', html)[3])
    assert between.startswith("#53\u2013#54") and "Destiny 2 \u2192 2" in between
    assert "Stress: Bo 10 \u2192 0 (-10)" in between and "Agony: Bo 0 \u2192 1 (+1)" in between

    assert "<script" not in html.lower()            # standalone: nothing to fetch, nothing to run
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html) and "url(" not in html


def test_the_charts_are_inline_svg_with_a_line_per_series(demo: dict[str, Any]) -> None:
    charts = _charts(demo["html"])
    assert set(charts) == {"chart-pools", "chart-stress"}
    pools, stress = charts["chart-pools"], charts["chart-stress"]
    assert sorted(pools) == ["Destiny", "Doom"] and sorted(stress) == ["Ash", "Bo", "Kira"]
    # read back through the axis: the step lines pass through every value of the session
    assert [v for _, v in pools["Destiny"]] == [0, 0, 3, 3, 2, 2, 1, 1, 2, 2]
    assert [v for _, v in pools["Doom"]] == [0, 0, 3, 3, 2, 2, 4, 4, 5, 5, 6, 6]
    assert [v for _, v in stress["Bo"]] == [0, 0, 5, 5, 10, 10, 0, 0]
    assert [v for _, v in stress["Kira"]] == [0, 0]
    assert {x for x, _ in stress["Bo"]} == {10, 32, 49, 53, 62}          # the entries where it moved
    legend = re.search(r'id="figure-stress".*?<ul class="legend">(.*?)</ul>', demo["html"], re.S).group(1)
    assert [t for t in re.findall(r">([^<>]+)</li>", legend)] == \
        ["Kira (0 \u2192 0)", "Bo (0 \u2192 0)", "Ash (0 \u2192 0)"]


def test_a_long_range_streams_in_flat_memory_with_small_charts(tmp_path: Path) -> None:
    entries, db = 100_000, _long_campaign(tmp_path / "long.db", 100_000)
    tracemalloc.start()
    try:
        size = pieces = 0
        svg = []
        for chunk in html_chunks(db, 1, entries, "Everything"):
            size += len(chunk)
            pieces += 1
            if "<svg" in chunk:
                svg.append(chunk)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert size > 10_000_000 and pieces > 100
    assert peak < 3_000_000, f"peak {peak} bytes while streaming {size} bytes"
    charts = _charts("".join(svg))
    assert sum(len(s) for s in svg) < 200_000
    for chart in charts.values():
        for series, points in chart.items():
            assert 100 < len(points) <= 1000, (series, len(points))
            xs = [x for x, _ in points]
            assert xs == sorted(xs) and xs[0] == 0 and xs[-1] == entries
    # the lines keep each series' extremes, however far they are thinned
    for series, column in (("Destiny", "destiny"), ("Doom", "doom")):
        low, high = db.execute(f"SELECT min({column}), max({column}) FROM balances").fetchone()
        values = {v for _, v in charts["chart-pools"][series]}
        assert low in values and high in values
    for pc in ("Ann", "Ben"):
        low, high = db.execute("SELECT min(value), max(value) FROM balance_changes WHERE balance = ?",
                               [f"{pc}:stress"]).fetchone()
        values = {v for _, v in charts["chart-stress"][pc]}
        assert low in values and high in values
    db.conn.close()


# --- a real headless Chromium ---------------------------------------------------------------------

def test_chromium_dumps_the_rendered_log_and_charts(demo: dict[str, Any], browser: Browser) -> None:
    """The DOM chromium built from the file, serialized again (as `--dump-dom` would print it)."""
    with screen(browser) as context:
        dom = visit(context, demo["path"].as_uri()).page.content()
    assert '<h1 id="campaign-name">The Moon Heist</h1>' in dom
    for _, line, _ in demo["rows"]:
        assert _serialized(line) in dom, line
    assert dom.count("<h3>Vault Guards, round") == 3
    for ident in ("chart-pools", "chart-stress"):
        svg = re.search(rf'<svg class="chart" id="{ident}".*?</svg>', dom, re.S)
        assert svg and len(re.findall(r'<polyline [^>]*points="[^"]+"', svg.group(0))) >= 2, ident


def test_chromium_renders_it_with_no_console_errors_and_no_network(demo: dict[str, Any], browser: Browser,
                                                                    tmp_path: Path) -> None:
    with screen(browser) as context:
        # first prove the listener hears errors: a page that logs one, throws one and misses an image
        bad = tmp_path / "bad.html"
        bad.write_text('<!DOCTYPE html><title>bad</title><img src="missing.png" alt="">'
                       '<script>console.error("logged on purpose"); undefined_function();</script>')
        heard = visit(context, bad.as_uri()).heard()
        kinds = {kind for kind, _ in heard}
        assert {"console.error", "exception", "request failed"} <= kinds, heard

        seen = visit(context, demo["path"].as_uri())
        assert seen.heard() == [], seen.errors
        assert seen.requests == [demo["path"].as_uri()], seen.requests   # nothing but the file itself
        page = seen.evaluate("""(() => {
            const all = s => Array.from(document.querySelectorAll(s));
            const box = e => { const r = e.getBoundingClientRect(); return [r.width, r.height, r.top]; };
            return {
              title: document.title,
              headings: all('section.group > h3').map(h => h.textContent),
              rows: all('table.entries tr').length,
              text: document.body.innerText,
              summaryUnderHeading: all('section.group').every(g =>
                  box(g.querySelector('.summary'))[2] < box(g.querySelector('table'))[2]),
              charts: all('svg.chart').map(s => ({
                id: s.id, box: box(s),
                lines: Array.from(s.querySelectorAll('polyline')).map(p => ({
                  series: p.dataset.series, points: p.points.numberOfItems,
                  length: p.getTotalLength(), stroke: getComputedStyle(p).stroke,
                  fill: getComputedStyle(p).fill})),
                legend: Array.from(s.closest('figure').querySelectorAll('.legend li')).map(t => t.textContent)}))};
        })()""")
        shot = seen.screenshot(tmp_path / "session-1.png")
        stress_shot = seen.screenshot(tmp_path / "stress.png", "#chart-stress")

    assert page["title"] == "The Moon Heist: Session 1: the vault <& 'friends'>"
    assert [h for h in page["headings"] if h != "Between rounds"] == \
        ["Vault Guards, round 1", "Vault Guards, round 2", "Vault Guards, round 3"]
    assert page["rows"] == len(demo["rows"])
    for _, line, _ in demo["rows"]:
        assert line in page["text"], line
    assert page["summaryUnderHeading"]              # written after the rows, shown under the heading
    charts = {c["id"]: c for c in page["charts"]}
    assert set(charts) == {"chart-pools", "chart-stress"}
    for chart in charts.values():
        width, height, _ = chart["box"]
        assert width > 300 and height > 100, chart["box"]
        for line in chart["lines"]:                  # drawn: a visible stroke of some length
            assert line["points"] >= 2 and line["length"] > 100, line
            assert line["stroke"] not in ("none", "") and line["fill"] == "none", line
    assert [l["series"] for l in charts["chart-pools"]["lines"]] == ["Destiny", "Doom"]
    assert [l["series"] for l in charts["chart-stress"]["lines"]] == ["Kira", "Bo", "Ash"]
    assert charts["chart-stress"]["legend"][1] == "Bo (0 \u2192 0)"

    width, height = struct.unpack(">II", shot.read_bytes()[16:24])      # the whole page, as a picture
    assert width == 1200 and height > 1500 and shot.stat().st_size > 50_000, (width, height, shot.stat())
    width, height, rows = _png(stress_shot)                               # the Stress chart, pixel by pixel
    assert width > 800 and height > 200, (width, height)
    colours = _colours(rows)
    assert len(colours) > 20
    for colour in ("#2563eb", "#dc2626", "#059669"):                     # Kira, Bo and Ash are drawn
        assert _near(colours, colour), colour
    keep = os.environ.get("EXPORT_HTML_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)


# --- helpers --------------------------------------------------------------------------------------

def _text(fragment: str) -> str:
    return re.sub(r"<[^>]+>", "", fragment)


def _serialized(text: str) -> str:
    """Text as Chromium serializes it in a dumped DOM (only &, <, > and no-break spaces escaped)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\xa0", "&nbsp;")


def _charts(html: str) -> dict[str, dict[str, list[tuple[int, int]]]]:
    """Each chart's series as (entry, value) points, read back through the chart's own axis labels."""
    charts = {}
    for svg in re.findall(r'<svg class="chart".*?</svg>', html, re.S):
        root = ET.fromstring(svg)                    # inline SVG that is well-formed XML
        ticks = [(float(t.get("y")), float(t.text)) for t in root.find(f"{SVG}g[@class='y-axis']")
                 .iter(f"{SVG}text")]
        (y0, v0), (y1, v1) = ticks[0], ticks[-1]
        xs = [(float(t.get("x")), int(t.text.lstrip("#"))) for t in root.find(f"{SVG}g[@class='x-axis']")
              .iter(f"{SVG}text") if t.text.startswith("#")]
        (px0, e0), (px1, e1) = xs[0], xs[-1]
        series = {}
        for line in root.iter(f"{SVG}polyline"):
            points = []
            for pair in line.get("points").split():
                x, y = (float(c) for c in pair.split(","))
                points.append((round(e0 + (x - px0) * (e1 - e0) / (px1 - px0)),
                               round(v0 + (y - y0) * (v1 - v0) / (y1 - y0))))
            series[line.get("data-series")] = points
        charts[root.get("id")] = series
    return charts


def _png(path: Path) -> tuple[int, int, list[bytearray]]:
    """Width, height and RGB rows of an 8-bit RGB or RGBA PNG (what Chromium writes), by the standard library."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height, depth, kind, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    assert depth == 8 and kind in (2, 6) and interlace == 0, (depth, kind, interlace)
    idat, at = [], 8
    while at < len(data):
        length, tag = struct.unpack(">I4s", data[at:at + 8])
        if tag == b"IDAT":
            idat.append(data[at + 8:at + 8 + length])
        at += 12 + length
    raw, bpp = zlib.decompress(b"".join(idat)), 3 if kind == 2 else 4
    stride, above, rows = width * bpp, bytearray(width * bpp), []
    for y in range(height):
        kind_of_filter, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind_of_filter == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, above))
        elif kind_of_filter:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = above[i], above[i - bpp] if i >= bpp else 0
                if kind_of_filter == 1:
                    line[i] = (line[i] + a) & 255
                elif kind_of_filter == 3:
                    line[i] = (line[i] + (a + b) // 2) & 255
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line if bpp == 3 else bytearray(v for i, v in enumerate(line) if i % 4 != 3))
        above = line
    return width, height, rows


def _colours(rows: list[bytearray]) -> set[tuple[int, int, int]]:
    return {tuple(row[i:i + 3]) for row in rows for i in range(0, len(row), 3)}


def _near(colours: set[tuple[int, int, int]], hex_colour: str, slack: int = 40) -> bool:
    want = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return any(all(abs(c - w) <= slack for c, w in zip(colour, want)) for colour in colours)


def _long_campaign(path: Path, entries: int) -> Database:
    """A read model of `entries` entries, written straight into the read tables."""
    import random

    rng = random.Random(7)
    db = runner.connect(str(path))
    conn = db.conn
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO campaign VALUES (?, ?)",
                     [("name", "The Long Haul"), ("ruleset", "relics"), ("rules_version", "0.6.1")])

    def rows():
        destiny = doom = 3
        stress = {"Ann": 0, "Ben": 0}
        for entry in range(1, entries + 1):
            block = entry // 40
            round_ = f"Fight {block // 10}:{block % 10 + 1}" if block % 11 else None
            changes = []
            if rng.random() < 0.2:
                destiny = max(0, min(12, destiny + rng.choice((-1, 1))))
                doom = max(0, min(20, doom + rng.choice((-1, 1, 2))))
            if entry in (1, 2) or rng.random() < 0.1:
                pc = "Ann" if entry == 1 or (entry > 2 and rng.random() < 0.5) else "Ben"
                before = stress[pc]
                stress[pc] = 0 if before >= 10 else before + rng.randint(0, 3)
                changes.append((entry, f"{pc}:stress", stress[pc], stress[pc] - before))
            yield (entry, f"2026-11-{1 + entry * 20 // entries:02d}T10:00:00+00:00", "Event",
                   f"Entry {entry} <happened> & was noted", round_), (entry, destiny, doom), changes

    for history, balance, changes in rows():
        conn.execute("INSERT INTO history (entry, time, type, line, round) VALUES (?, ?, ?, ?, ?)", history)
        conn.execute("INSERT INTO balances VALUES (?, ?, ?)", balance)
        conn.executemany("INSERT INTO balance_changes (entry, balance, value, delta) VALUES (?, ?, ?, ?)",
                         changes)
    conn.execute("COMMIT")
    return db


PHONE = 390


def test_on_a_phone_the_log_wraps_by_words_and_nothing_scrolls_sideways(demo: dict[str, Any], browser: Browser,
                                                                         tmp_path: Path) -> None:
    """The export as `campaign export` writes it (its footer ends with the anchor line, a long hash),
    at a phone's width: the page is no wider than the phone, and the charts' labels are readable."""
    page_file = tmp_path / "session-1.html"
    Table(demo["folder"] / "demo.db")("export", "--format", "html", "--session", "1", "-o", str(page_file))
    assert "sha256:" in page_file.read_text("utf-8").split('<code class="anchor">')[1]
    with phone(browser) as context:
        seen = visit(context, page_file.as_uri())
        page = seen.evaluate("""(() => {
            const lines = Array.from(document.querySelectorAll('table.entries td.l'));
            const labels = Array.from(document.querySelectorAll('svg.chart text')).map(t => {
                const svg = t.closest('svg'), scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                return {text: t.textContent, height: t.getBoundingClientRect().height,
                        px: parseFloat(getComputedStyle(t).fontSize) * scale}; });
            return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth, labels: labels,
                    wider: Array.from(document.querySelectorAll('body *')).filter(e =>
                        e.getBoundingClientRect().right > innerWidth + 0.5).map(e => e.outerHTML.slice(0, 60)),
                    narrowest: Math.min(...lines.map(l => l.getBoundingClientRect().width)),
                    words: lines.every(l => !/\\S-\\n/.test(l.innerText))};
        })()""")
        assert seen.heard() == [], seen.errors
    # against the phone's width: a mobile viewport widens itself to hold what overflows it
    assert page["scroll"] <= PHONE and page["inner"] == PHONE and page["wider"] == [], page
    assert page["narrowest"] > 250, page          # a line has the card's width, not a sliver of it
    assert len(page["labels"]) > 10
    for label in page["labels"]:                  # the axis labels as drawn: 11 px and more
        assert label["px"] >= 11 and label["height"] >= 11, label
