"""The docs' picture of a player's page (docs/img/player-page.png), made again by this script.

Run it from the project root:

    python3 bench/screenshot_player.py [--out docs/img/player-page.png]

It makes a Relics campaign in a temporary folder (Kira played by Ana, Bo by Ben, a Scenario and a
Challenge Kira may lead), starts `campaign serve --players on` on loopback, opens Kira's invite
link in Debian's headless chromium (Playwright, `executable_path`: no browser download) as a
390 px phone, types a Destiny and the faces Ana rolled into the Cohort turn's form (without sending
it), and saves the page from its top to that form as a PNG (1x pixels, kept small for the docs).
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from table_load import ROOT, Server  # bench/ is this script's own folder, first on sys.path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
PHONE = {"width": 390, "height": 844}


def make(folder: Path) -> Path:
    from campaign_ledger import new_campaign

    db = folder / "moon.db"
    with new_campaign(db, "The Moon Heist") as camp:
        camp.pc_add("Kira", {"Phantom": 3, "Venger": 1}, "Phantom")
        camp.pc_add("Bo", {"Venger": 4, "Phantom": 2}, "Venger")
        camp.trait_add("Kira", "Keen Eye", "+2 / 1d", cost="destiny")
        camp.seat_add("Kira", "Ana")
        camp.seat_add("Bo", "Ben")
        camp.session_start("Session 1: the vault")
        camp.scenario_start("Night at the Vault")
        camp.challenge_open("Vault Guards", threat="Minor", type="Phantom", rating=4)
    return db


def shoot(base: str, link: str, out: Path) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            context = browser.new_context(viewport=PHONE, screen=PHONE, is_mobile=True, has_touch=True,
                                          device_scale_factor=1)
            page = context.new_page()
            page.goto(link)
            page.wait_for_url(base + "/play", wait_until="load")
            page.wait_for_function("() => document.getElementById('status').textContent.includes('live')")
            form = page.locator('form[data-action="relics.cohort_turn"]')
            form.locator('input[name="destiny"]').fill("1")
            form.locator('input[name="faces"]').fill("6 5 3 1 4")
            page.evaluate("window.scrollTo(0, 0)")
            bottom = form.bounding_box()
            assert bottom is not None
            out.parent.mkdir(parents=True, exist_ok=True)  # from the top down to the form's button
            height = bottom["y"] + bottom["height"] + 12
            page.screenshot(path=str(out), full_page=True, clip={"x": 0, "y": 0, "width": PHONE["width"], "height": height})
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "player-page.png")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = make(Path(folder))
        with Server(db) as server:
            kira = next(s for s in server.report["seats"] if s["seat"] == "Kira")
            shoot(server.origin, server.origin + "/" + kira["link"].split("/", 3)[3], args.out)
    print(f"{args.out}: {args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
