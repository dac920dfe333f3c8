"""The whole table writes the record (issue 38), as a table meets it: the GM at the terminal (the
CLI) and two players, each on their own phone (a browser context at 390 px), at a real
`campaign serve --players on`. Each player opens their invite link and leads a Cohort turn with
the faces they rolled and a Destiny spent, by tapping their page's form; Kira then rolls the pool
the GM builds for her, which waits on her. The history names each actor, `audit` is clean, and an
edit to one stored actor is caught by `audit`. Then `confirm`: a player's action waits on the
GM's panel, a declined one is recorded nowhere, an accepted one names the player as actor and the
GM as its confirmer."""
from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator

from tests.browser import Visit, browser, phone  # noqa: F401  (browser: the module's fixture)
from tests.conftest import Table
from tests.live_server import Served

COHORT_TURN = "relics.cohort_turn"


@pytest.fixture()
def table(tmp_path: Path) -> tuple[Table, dict[str, str]]:
    """Kira (Ana) and Bo (Ben) seated, a Scenario (Destiny 2) and two Challenges each PC may lead:
    the Cohort's turns wait on the players. Returns the GM's CLI and each seat's link path."""
    gm = Table(tmp_path / "table.db")
    gm("new", "The Moon Heist")
    gm("pc", "add", "Kira", "--expertise", "Phantom=3,Venger=1", "--primary", "Phantom")
    gm("pc", "add", "Bo", "--expertise", "Venger=4,Phantom=2", "--primary", "Venger")
    links = {pc: gm.json("seat", "add", pc, "--player", player)["link_path"]
             for pc, player in (("Kira", "Ana"), ("Bo", "Ben"))}
    gm("session", "start", "Session 1")
    gm("scenario", "start", "Night at the Vault")
    gm("challenge", "open", "Dogs", "--threat", "Minor", "--type", "Phantom", "--rating", "3")
    gm("challenge", "open", "Guards", "--threat", "Minor", "--type", "Venger", "--rating", "3")
    return gm, links


def opened(context: BrowserContext, url: str, landing: str) -> Visit:
    """Open a link that sets its cookie and moves the browser on to `landing` (the token leaves the
    address bar), listening to the page from before it opens (tests/browser.py)."""
    page = Visit(context.new_page())
    page.page.goto(url)
    page.page.wait_for_url(landing, wait_until="load")
    return page


def seated(context: BrowserContext, base: str, link: str) -> Visit:
    """A player's phone opens the invite link: the cookie is set, the browser moves on to /play,
    and the page follows its stream."""
    page = opened(context, base + link, base + "/play")
    page.wait_for("document.body.dataset.page === 'play'")
    page.wait_for("document.getElementById('status').textContent.includes('live')")
    return page


def turn_form(page: Visit, challenge: str) -> Locator:
    """The player's form that leads the Cohort turn on `challenge` (one form per Challenge)."""
    return page.page.locator(f'form[data-action="{COHORT_TURN}"]',
                             has=page.page.locator(f'option[value="{challenge}"]'))


def lead(page: Visit, challenge: str, destiny: int, faces: list[int] | None = None) -> str:
    """Spend `destiny`, enter the faces rolled at the table (as many as the pool plus the Destiny
    dice, read off the field's hint when not given), tap the button; the page's answer line."""
    form = turn_form(page, challenge)
    form.locator('input[name="destiny"]').fill(str(destiny))
    box = form.locator('input[name="faces"]')
    if faces is None:
        shown = re.match(r"(\d+) faces", box.get_attribute("placeholder") or "")
        assert shown, box.get_attribute("placeholder")
        faces = [6, 5, 4, 2, 3, 1, 6, 2][: int(shown.group(1)) + destiny]
    box.fill(" ".join(map(str, faces)))
    return tapped(page, form)


def tapped(page: Visit, form: Locator) -> str:
    """Tap the form's button as a thumb would; once the server answered, the page's answer line."""
    with page.page.expect_response(lambda answer: answer.url.endswith("/play/act")):
        form.locator("button").tap()
    page.wait_for("!['', 'Sending\u2026'].includes(document.getElementById('said').textContent)")
    return str(page.evaluate("document.getElementById('said').textContent"))


def roll_waiting(page: Visit, challenge: str) -> str:
    """The pool the GM built waits on this player's roll: its form comes first, marked waiting; the
    player enters as many faces as it asks for and taps. The page's answer line."""
    form = page.page.locator('form.action.waiting[data-action="relics.roll"]',
                             has=page.page.locator(f'option[value="{challenge}"]'))
    form.wait_for()
    shown = re.match(r"(\d+) faces", form.locator('input[name="faces"]').get_attribute("placeholder") or "")
    assert shown
    form.locator('input[name="faces"]').fill(" ".join(["6", "4", "2", "3", "1"][: int(shown.group(1))]))
    return tapped(page, form)


def caught_up(gm: Table, *pages: Visit) -> None:
    """Until each page shows the ledger as the GM's terminal reads it now (its stream delivered it)."""
    head = gm.json("history", "--limit", "1")[-1]["entry"]
    for page in pages:
        page.wait_for(f"Number(document.body.dataset.entry) >= {head}")


def decided(player: Visit, panel: Visit, faces: list[int], decision: str) -> None:
    """The player sends a Cohort turn on Dogs with `faces`; the GM taps `decision` on its card; the
    player's page shows the action's new state."""
    assert "sent to the GM" in lead(player, "Dogs", 0, faces)
    card = panel.page.locator("article.pending", has_text="faces " + " ".join(map(str, faces)))
    card.locator(f'button[data-decide="{decision}"]').tap()
    state = {"accept": "accepted", "decline": "declined"}[decision]
    player.wait_for(f"document.querySelector('#pending li.{state}') !== null")


def rows(gm: Table) -> list[dict[str, Any]]:
    return gm.json("history")


def test_two_players_roll_and_spend_destiny_from_their_phones_and_the_record_names_each(
        table: tuple[Table, dict[str, str]], browser: Browser) -> None:  # noqa: F811
    gm, links = table
    with Served(Path(gm.path), "--players", "on") as served:
        base = f"http://127.0.0.1:{served.port}"
        ana, ben = phone(browser), phone(browser)
        kira, bo = seated(ana, base, links["Kira"]), seated(ben, base, links["Bo"])
        assert kira.evaluate("document.body.dataset.seat") == "Kira"
        assert bo.evaluate("document.body.dataset.seat") == "Bo"
        assert turn_form(kira, "Guards").count() == 0       # Kira (Venger 1) may not lead the Guards
        assert "at least 1 success" in turn_form(bo, "Guards").locator(".odds").inner_text()   # the exact odds

        said = lead(kira, "Dogs", 1, [6, 5, 2, 1, 3])
        assert "1 Destiny spent for +1d6 on Dogs" in said
        assert "Cohort dice show 6, 5, 2, 1, 3 (entered from the table)" in said
        caught_up(gm, bo)       # Kira's turn reached Bo's page
        said = lead(bo, "Guards", 1)
        assert "1 Destiny spent for +1d6 on Guards" in said and "(entered from the table)" in said
        caught_up(gm, kira)
        gm("challenge-turn", "Dogs", "--faces", "2,3")          # the GM's turn: no Stress
        gm("cohort-turn", "Dogs", "--leader", "Kira")           # the GM builds the pool: it waits on Kira's roll
        said = roll_waiting(kira, "Dogs")
        assert "Cohort dice show 6, 4" in said and "(entered from the table)" in said
        caught_up(gm, kira, bo)
        assert kira.heard() == [] and bo.heard() == []
        ana.close()
        ben.close()

    history = rows(gm)
    by = {(r["actor"], r["channel"]) for r in history}
    assert {("seat:Kira", "page"), ("seat:Bo", "page"), ("gm", "cli")} <= by
    kiras = [r["line"] for r in history if r["actor"] == "seat:Kira"]
    bos = [r["line"] for r in history if r["actor"] == "seat:Bo"]
    assert "1 Destiny spent for +1d6 on Dogs" in kiras and "Kira leads Dogs" in kiras
    assert any("Dogs round 2: Cohort dice show 6, 4" in line for line in kiras)   # her roll of the GM's pool
    assert "1 Destiny spent for +1d6 on Guards" in bos and "Bo leads Guards" in bos
    assert not any("Guards" in line for line in kiras) and not any("Dogs" in line for line in bos)

    clean = gm("audit")
    assert clean.exit_code == 0 and "Clean." in clean.output
    assert re.search(r"Entries by actor: GM \d+, seat Bo \d+, seat Kira \d+", clean.output), clean.output

    broken = next(r["entry"] for r in history if r["actor"] == "seat:Bo")
    with sqlite3.connect(gm.path) as db:    # someone edits who wrote Bo's turn: the GM, says the file now
        changed = db.execute("UPDATE ledger_commands SET detail = replace(detail, '\"actor\": \"seat:Bo\"', "
                             "'\"actor\": \"gm\"') WHERE first_entry <= ? AND ? <= last_entry",
                             (broken, broken)).rowcount
    db.close()
    assert changed == 1
    caught = gm("audit", ok=False)
    assert caught.exit_code == 1 and "BROKEN" in caught.output, caught.output
    found = json.loads(gm("audit", "--json", ok=False).stdout)
    assert found["clean"] is False and found["broken_entry"] is not None and found["broken_entry"] <= broken


def test_confirm_the_gm_accepts_one_action_and_declines_another_from_the_panel(
        table: tuple[Table, dict[str, str]], browser: Browser) -> None:  # noqa: F811
    gm, links = table
    with Served(Path(gm.path), "--players", "confirm") as served:
        base = f"http://127.0.0.1:{served.port}"
        ana, desk = phone(browser), phone(browser)
        kira = seated(ana, base, links["Kira"])
        panel = opened(desk, f"{base}/gm?token={served.report['gm_token']}", base + "/gm")
        panel.wait_for("document.body.dataset.page === 'gm'")

        decided(kira, panel, [1, 1, 1, 1], "decline")
        decided(kira, panel, [6, 6, 5, 4], "accept")
        caught_up(gm, kira)
        assert kira.heard() == [] and panel.heard() == []
        ana.close()
        desk.close()

    history = rows(gm)
    accepted = [r for r in history if r["actor"] == "seat:Kira"]
    assert accepted and all(r["channel"] == "page" and r.get("confirmed_by") == "gm" for r in accepted)
    assert any("Cohort dice show 6, 6, 5, 4" in r["line"] for r in accepted)
    assert not any("1, 1, 1, 1" in r["line"] for r in history)      # the declined turn is nowhere
    with sqlite3.connect(gm.path) as db:
        logged = [d for (d,) in db.execute("SELECT detail FROM ledger_commands")]
    db.close()
    assert not any("1, 1, 1, 1" in d or "[1, 1, 1, 1]" in d for d in logged)
    assert gm("audit").exit_code == 0


def test_two_offers_of_one_action_keep_their_own_typing_through_a_redraw(
        table: tuple[Table, dict[str, str]], browser: Browser) -> None:  # noqa: F811
    """Bo may lead the Cohort turn on either Challenge: two forms of one action. What he types into
    one stays in that one when the page redraws its actions (the GM opens a third Challenge), and the other keeps
    nothing of it (a shared memory gave both the same typing and the same submission key, so a tap
    on the other within 2 s was answered as a repeat and never recorded)."""
    gm, links = table
    with Served(Path(gm.path), "--players", "on") as served:
        base = f"http://127.0.0.1:{served.port}"
        ben = phone(browser)
        bo = seated(ben, base, links["Bo"])
        guards, dogs = turn_form(bo, "Guards"), turn_form(bo, "Dogs")
        assert guards.count() == 1 and dogs.count() == 1
        ids = bo.evaluate("Array.from(document.querySelectorAll('[id]'), e => e.id)")
        assert len(ids) == len(set(ids)), ids
        guards.locator('input[name="destiny"]').fill("2")
        gm("challenge", "open", "Cameras", "--threat", "Minor", "--type", "Phantom", "--rating", "2")
        caught_up(gm, bo)                   # a third offer: the page redraws its actions
        assert turn_form(bo, "Cameras").count() == 1
        caught_up(gm, bo)
        assert turn_form(bo, "Guards").locator('input[name="destiny"]').input_value() == "2"
        assert turn_form(bo, "Dogs").locator('input[name="destiny"]').input_value() == ""
        assert bo.heard() == []
        ben.close()
