"""The live page is one page for every ruleset: each demo campaign shows its own pools, what is in
play and its characters (from the ruleset's table_view.py), and the last rounds newest first."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import Table

EXPECT = {  # what each demo must show: its characters, and its pools' labels
    "relics": (["Kira", "Bo", "Ash"], ["Destiny", "Doom"]),
    "beer-run": (["Ann", "Cal", "Bouncer"], ["Ann Intensity", "Cal Intensity"]),
    "action-dice": (["Mara", "Tobin"], []),
    "decision-2d6": (["Billy", "Ogre"], ["Torches (Billy)", "Arrows (Billy)"]),
}


@pytest.mark.parametrize("system", sorted(EXPECT))
def test_every_ruleset_gets_its_own_part_of_the_page(tmp_path: Path, system: str) -> None:
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.projections import runner
    from campaign_ledger.web import page
    from campaign_ledger.web.view import build

    t = Table(tmp_path / f"{system}.db")
    t("demo", "--system", system)
    app, db = open_ledger(t.path), runner.connect(t.path)
    try:
        view = build(app, db, show_gm=False)
        html = page.whole(view, None)
    finally:
        db.conn.close()
        app.close()
    names, pools = EXPECT[system]
    for name in names:
        assert f'class="card sheet" data-name="{name}"' in html, name
    assert re.findall(r'data-pool="([^"]+)"', html)[:len(pools)] == pools
    entries = [int(n) for n in re.findall(r'<tr id="entry-(\d+)"', html)]
    assert entries and max(entries) == view.entry                 # the newest entry is on the page
    cards = re.findall(r'<section class="group[^"]*" id="group-(\d+)"', html)
    assert [int(c) for c in cards] == sorted((int(c) for c in cards), reverse=True)   # newest first


def test_an_undone_round_stays_on_the_page_struck(tmp_path: Path) -> None:
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.projections import runner
    from campaign_ledger.web import page
    from campaign_ledger.web.view import build

    t = Table(tmp_path / "undone.db")
    t("demo")
    t("undo", "Vault Guards:3", "--yes")
    app, db = open_ledger(t.path), runner.connect(t.path)
    try:
        html = page.sections(build(app, db, show_gm=False))["rounds"]
    finally:
        db.conn.close()
        app.close()
    card = re.search(r'<section class="group round reversed"[^>]*data-round="Vault Guards:3">.*?</section>', html, re.S)
    assert card and "<s>Vault Guards, round 3</s>" in card.group(0)


def test_a_pool_waiting_on_its_roll_shows_the_odds_line_of_status(tmp_path: Path) -> None:
    from html import unescape

    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.projections import runner
    from campaign_ledger.web import page
    from campaign_ledger.web.view import build

    t = Table(tmp_path / "waiting.db")
    for args in (["new", "Odds"], ["pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom"],
                 ["scenario", "start", "S"], ["challenge", "open", "Guards", "--threat", "Minor", "--type", "Phantom",
                                              "--rating", "3"],
                 ["cohort-turn", "Guards", "--leader", "Kira"]):
        t(*args)
    odds = t.json("status")["challenges"][0]["odds"]
    app, db = open_ledger(t.path), runner.connect(t.path)
    try:
        shown = unescape(page.sections(build(app, db, show_gm=False))["challenges"])
    finally:
        db.conn.close()
        app.close()
    assert odds and odds.startswith("Pool: 3d6 to roll") and odds in shown
    assert "Waiting for the Cohort's roll." in shown


def test_a_beer_run_card_says_what_the_round_waits_for_as_status_does(tmp_path: Path) -> None:
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.projections import runner
    from campaign_ledger.web import page
    from campaign_ledger.web.view import build

    t = Table(tmp_path / "beer.db")
    t("demo", "--system", "beer-run")
    t("beer-run", "conflict", "open", "Side Door", "--side", "Ann", "--side", "Cal", "--side", "Bouncer",
      "--target", "Bouncer")
    t("beer-run", "goal", "Side Door", "Ann", "get in")
    app, db = open_ledger(t.path), runner.connect(t.path)
    try:
        html = page.whole(build(app, db, show_gm=False), None)
    finally:
        db.conn.close()
        app.close()
    card = re.search(r'<article class="card challenge" data-name="Side Door">.*?</article>', html).group(0)
    waiting = t.json("beer-run", "status", "Side Door")[0]["waiting_for"]
    assert waiting == ["Ann's roll", "Cal's goal and roll", "Bouncer's goal and roll"]
    assert f"Waiting for {', '.join(waiting)}.".replace("'", "&#x27;") in card, card
    assert "goal: Bouncer" not in card and "Ann&#x27;s goal: get in" in card and "against Bouncer" in card
