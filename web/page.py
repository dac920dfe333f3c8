"""The live page as HTML: the whole page for a first visit, and the same sections alone for the
stream, so the page and its updates come from one renderer and the page reads well before (or
without) its script. Everything shown is escaped; the rounds are the HTML export's own cards.
"""
from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

from campaign_ledger.projections.export_html import stylesheet
from campaign_ledger.web.view import TableView

SECTIONS = ("stage", "pools", "challenges", "sheets", "rounds", "notes")


def sections(view: TableView) -> dict[str, str]:
    """Each updatable part of the page, by the id of the element it fills."""
    own = view.own
    return {"stage": _stage(view), "pools": _pools(own["pools"]), "challenges": _challenges(own["challenges"]),
            "sheets": sheet_cards(own["sheets"]), "rounds": "".join(view.rounds) or empty("No entries yet."),
            "notes": _notes(view.notes)}


def whole(view: TableView, token: str | None) -> str:
    """The page for a first visit: the sections, the stylesheet inline, the script by URL."""
    parts = sections(view)
    query = f"?token={quote(token)}" if token else ""
    main = (f'<section id="pools-section" class="wide"><h2>Pools</h2><div id="pools">{parts["pools"]}</div></section>\n'
            f'<section><h2>In play</h2><div id="challenges">{parts["challenges"]}</div></section>\n'
            f'<section><h2>Characters</h2><div id="sheets">{parts["sheets"]}</div></section>\n'
            f'<section class="wide"><h2>Last rounds</h2><div id="rounds">{parts["rounds"]}</div></section>\n'
            f'<section class="wide beside"><h2>Notes</h2><div id="notes">{parts["notes"]}</div></section>\n')
    return layout(view, f"{view.name}: at the table", parts["stage"], main,
                  "Campaign Ledger, read only: this page follows the ledger and cannot change it.",
                  f"/static/live.js{query}")


def layout(view: TableView, title: str, stage: str, main: str, footer: str, script: str,
           head: str = "", body: str = 'class="live"') -> str:
    """The live page's frame, shared by the players' pages (web/players.py): the header with the
    campaign's name and where play stands, `main`'s sections, one script by URL. `head` adds
    to the head (a meta the script reads), `body` is the body's attributes besides the entry."""
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'self'; "
            "style-src 'unsafe-inline'; connect-src 'self'; img-src data:\">\n"
            f'<link rel="icon" href="data:,">\n{head}'
            f'<title>{escape(title)}</title>\n<style>{stylesheet()}</style>\n</head>\n'
            f'<body {body} data-entry="{view.entry}">\n'
            f'<header class="top">\n<h1 id="campaign-name">{escape(view.name)}</h1>\n'
            f'<p class="where" id="stage">{stage}</p>\n'
            f'<p class="status" id="status" role="status">As of entry #{view.entry}.</p>\n</header>\n'
            f'<main>\n{main}</main>\n<footer>{escape(footer)}</footer>\n'
            f'<script src="{escape(script)}"></script>\n</body>\n</html>\n')


def empty(text: str) -> str:
    """A section with nothing to show says so in words."""
    return f'<p class="empty">{escape(text)}</p>'


def _stage(view: TableView) -> str:
    bits = [escape(s) for s in view.own["stage"]]
    if view.warning:
        bits.append(f'<span class="warning">{escape(view.warning)}</span>')
    return " \u00b7 ".join(bits)


def _pools(pools: list[dict[str, Any]]) -> str:
    if not pools:
        return empty("No pools in this campaign.")
    items = "".join(f'<li class="{escape(str(p.get("kind", "")))}" data-pool="{escape(p["label"])}">'
                    f'{escape(p["label"])}<b>{escape(str(p["value"]))}</b></li>' for p in pools)
    return f'<ul class="pools">{items}</ul>'


def _bar(bar: dict[str, Any]) -> str:
    top = max(int(bar["max"] or 0), 1)
    share = min(max(int(bar["value"] or 0), 0), top) * 100 // top
    return (f'<div class="bar {escape(bar.get("kind", ""))}" data-bar="{escape(bar["label"])}">'
            f'<span class="label">{escape(bar["label"])}</span>'
            f'<span class="track" role="meter" aria-valuemin="0" aria-valuemax="{top}" aria-valuenow="{bar["value"]}">'
            f'<span class="fill" style="width: {share}%"></span></span>'
            f'<span class="value">{bar["value"]}/{bar["max"]}</span></div>')


def _challenges(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return empty("Nothing in play.")
    out = []
    for c in rows:
        parts = [f'<article class="card challenge" data-name="{escape(c["name"])}"><h3>{escape(c["name"])}</h3>',
                 f'<p class="facts">{escape(", ".join(c["facts"]))}</p>']
        if c.get("progress"):
            parts.append(_bar(c["progress"]))
        if c.get("waiting"):
            parts.append(f'<p class="waiting">Waiting for {escape(c["waiting"])}.</p>')
        if c.get("odds"):
            parts.append(f'<p class="odds">{escape(c["odds"])}</p>')
        if c.get("gm"):
            parts.append(f'<p class="gm">GM: {escape(", ".join(c["gm"]))}</p>')
        out.append("".join(parts) + "</article>")
    return "".join(out)


def sheet_cards(rows: list[dict[str, Any]]) -> str:
    """The short sheets as cards (a player's page shows its own apart from the rest)."""
    if not rows:
        return empty("No characters yet.")
    return "".join(f'<article class="card sheet" data-name="{escape(s["name"])}"><h3>{escape(s["name"])}</h3>'
                   + "".join(f'<p class="facts">{escape(f)}</p>' for f in s["facts"])
                   + "".join(_bar(b) for b in s["bars"]) + "</article>" for s in rows)


def _notes(notes: tuple[dict[str, Any], ...]) -> str:
    if not notes:
        return empty("No notes.")
    out = []
    for n in notes:
        about = (f"about {n['about']}" if n["about"] else f"on round {n['round']}" if n["round"]
                 else f"on entry #{n['target_entry']}" if n["target_entry"] is not None else "")
        tags = " ".join(f"#{t}" for t in n["tags"])
        out.append(f'<article class="card note{" gm" if n["gm_only"] else ""}" data-entry="{n["entry"]}">'
                   f'<p>{escape(n["text"])}</p><p class="facts">#{n["entry"]} {escape(about)} {escape(tags)}'
                   f'{" (GM only)" if n["gm_only"] else ""}</p></article>')
    return "".join(out)
