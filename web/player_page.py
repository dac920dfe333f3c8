"""The player's page and the GM's panel as HTML: the live page's frame (web/page.py `layout`), the
seat's own sheet, the actions its rules let the player take as forms built from their fields, and
the actions waiting on the GM. Everything shown is escaped; the stream sends the same sections.
"""
from __future__ import annotations

from html import escape
from typing import Any, Iterable

from campaign_ledger.web import page
from campaign_ledger.web.pending import Waiting
from campaign_ledger.web.view import TableView

# The forms' own look, beside the live page's stylesheet (projections/ledger.css): thumb-sized
# controls on a 390 px phone, one column, the result line where the thumb is.
STYLE = ("<style>.player form.action label { display: block; font-size: .85rem; color: var(--muted);"
         " margin-top: .4rem; } .player form.action input:not([type=checkbox]), .player form.action select {"
         " width: 100%; box-sizing: border-box; font-size: 1rem; min-height: 2.6rem; padding: .3rem .5rem;"
         " border: 1px solid var(--rule); border-radius: 6px; }"
         ".player button, .gm button { font-size: 1rem; min-height: 2.8rem; min-width: 6rem; margin-top: .5rem;"
         " border: 0; border-radius: 6px; background: var(--accent); color: #fff; padding: .3rem 1rem; }"
         ".player button:disabled, .gm button:disabled { opacity: .5; }"
         ".player form.action.waiting { border-left: 4px solid #d97706; }"
         ".player .said { min-height: 1.2rem; font-weight: 600; white-space: pre-line; }"
         ".player .said.refused { color: #b42318; }"
         ".player ul.pending { padding-left: 1.2rem; font-size: .9rem; } .player ul.pending .declined,"
         " .player ul.pending .refused { color: #b42318; }</style>\n")
SAID = {"pending": "waiting for the GM", "accepting": "being recorded", "accepted": "accepted",
        "declined": "turned down", "refused": "refused"}


def sections(view: TableView, seat: dict[str, Any], actions: list[dict[str, Any]],
             waiting: Iterable[Waiting]) -> dict[str, str]:
    """Each updatable part of the player's page, by the id of the element it fills."""
    parts = page.sections(view)
    sheets = view.own["sheets"]
    mine = [s for s in sheets if s.get("name") == seat["pc"]]
    others = [s for s in sheets if s.get("name") != seat["pc"]]
    return {**parts, "mine": page.sheet_cards(mine) if mine else page.empty(f"{seat['pc']} has no sheet shown."),
            "sheets": page.sheet_cards(others) if others else page.empty("Nobody else."),
            "actions": forms(actions), "pending": pending(waiting)}


def whole(view: TableView, seat: dict[str, Any], csrf: str, parts: dict[str, str], mode: str) -> str:
    """The player's first view of the page; player.js posts its forms and follows /play/stream."""
    who = f"{seat['pc']} ({seat['player']})" if seat.get("player") else seat["pc"]
    confirm = " The GM confirms each action before it is recorded." if mode == "confirm" else ""
    main = (f'<section class="wide"><h2>{escape(who)}</h2><div id="mine">{parts["mine"]}</div></section>\n'
            f'<section class="wide"><h2>Your actions</h2><p class="said" id="said" role="status"></p>'
            f'<div id="pending">{parts["pending"]}</div><div id="actions">{parts["actions"]}</div></section>\n'
            f'<section id="pools-section" class="wide"><h2>Pools</h2><div id="pools">{parts["pools"]}</div></section>\n'
            f'<section><h2>In play</h2><div id="challenges">{parts["challenges"]}</div></section>\n'
            f'<section><h2>The others</h2><div id="sheets">{parts["sheets"]}</div></section>\n'
            f'<section class="wide"><h2>Last rounds</h2><div id="rounds">{parts["rounds"]}</div></section>\n')
    return page.layout(view, f"{seat['pc']}: {view.name}", parts["stage"], main,
                       f"Campaign Ledger: you act for {seat['pc']} alone; every entry names who made it.{confirm}",
                       "/play/player.js", head=f'<meta name="csrf-token" content="{escape(csrf)}">\n{STYLE}',
                       body=f'class="live player" data-page="play" data-seat="{escape(seat["seat"])}"')


def forms(actions: list[dict[str, Any]]) -> str:
    """One form per action, its inputs from its fields; a faces field left empty: the program rolls."""
    if not actions:
        return page.empty("Nothing for you to do right now.")
    out = []
    for n, a in enumerate(actions):
        odds = f'<p class="odds">{escape(a["odds"])}</p>' if a.get("odds") else ""
        waiting = " waiting" if a.get("waiting") else ""
        inputs = "".join(_field(f"{a['action']}.{n}", f) for f in a.get("fields", []))
        # an offer's own name (one action may be offered twice: a Cohort turn on each Challenge), by
        # which a redraw gives each form back what was typed into it and its submission key
        out.append(f'<form class="card action{waiting}" data-action="{escape(a["action"])}" '
                   f'data-offer="{escape(a["action"] + " " + a["label"])}">'
                   f'<h3>{escape(a["label"])}</h3>{odds}{inputs}'
                   f'<button type="submit">{escape(a["label"])}</button></form>')
    return "".join(out)


def _field(form: str, f: dict[str, Any]) -> str:
    name, kind = escape(f["name"]), f.get("kind", "text")
    required = " required" if f.get("required") and kind != "faces" else ""
    ident = escape(f"{form}.{f['name']}")
    label = f'<label for="{ident}">{escape(f.get("label") or f["name"])}</label>'
    if kind == "faces":
        dice = f.get("dice")
        hint = f"{dice} faces, e.g. {' '.join(['6'] * int(dice))}" if dice else "faces, e.g. 6 3"
        return (f'{label}<input id="{ident}" name="{name}" data-kind="faces" inputmode="numeric" '
                f'autocomplete="off" placeholder="{escape(hint)}; empty: the program rolls">')
    if kind == "int":
        return (f'{label}<input id="{ident}" name="{name}" data-kind="int" type="number" inputmode="numeric"'
                f'{required}>')
    if kind == "flag":
        words = escape(f.get("label") or f["name"])
        return f'<label><input name="{name}" data-kind="flag" type="checkbox"> {words}</label>'
    if kind == "choice":
        options = "".join(f'<option value="{escape(c)}">{escape(c)}</option>' for c in f.get("choices", []))
        blank = "" if f.get("required") else '<option value=""></option>'
        return f'{label}<select id="{ident}" name="{name}" data-kind="choice"{required}>{blank}{options}</select>'
    return f'{label}<input id="{ident}" name="{name}" data-kind="text" autocomplete="off"{required}>'


def pending(items: Iterable[Waiting]) -> str:
    """The seat's actions sent for the GM's confirmation, newest first, each with its state."""
    rows = [f'<li class="{escape(i.state)}" data-pending="{escape(i.id)}">{escape(i.label)}: '
            f'{SAID.get(i.state, i.state)}{(" (" + escape(i.said) + ")") if i.said else ""}</li>'
            for i in reversed(list(items))]
    return f'<ul class="pending">{"".join(rows)}</ul>' if rows else ""


def gm_panel(items: list[Waiting]) -> str:
    """The GM's list of actions waiting, each with accept and decline buttons."""
    if not items:
        return page.empty("No player's action is waiting.")
    return "".join(f'<article class="card pending" data-pending="{escape(i.id)}">'
                   f'<h3>{escape(i.seat["seat"])}: {escape(i.label)}</h3>'
                   f'<p class="facts">{escape(_fields(i.fields))}</p>'
                   f'<button type="button" data-decide="accept">Accept</button> '
                   f'<button type="button" data-decide="decline">Decline</button></article>' for i in items)


def gm_whole(view: TableView, csrf: str, items: list[Waiting]) -> str:
    main = f'<section class="wide"><h2>Waiting on you</h2><div id="waiting">{gm_panel(items)}</div></section>\n'
    return page.layout(view, f"{view.name}: players' actions", "", main,
                       "Campaign Ledger: accept records a player's action with you as its confirmer; "
                       "decline leaves no trace in the ledger.", "/play/player.js",
                       head=f'<meta name="csrf-token" content="{escape(csrf)}">\n{STYLE}',
                       body='class="live gm" data-page="gm"')


def moved(to: str, text: str) -> str:
    """A page that sends the browser on to `to` (a page of this site, so the SameSite=Strict cookie
    just set goes with it even when the link was opened from another app)."""
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">'
            f'<meta http-equiv="refresh" content="0; url={escape(to)}"><title>{escape(text)}</title></head>'
            f'<body><p><a href="{escape(to)}">{escape(text)}</a></p></body></html>\n')


def _fields(fields: dict[str, Any]) -> str:
    return ", ".join(f"{k} {' '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in fields.items()) or "-"
