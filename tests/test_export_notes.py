"""The GM's notes in the exports (issue 13): beside the entry or round they are about, in Markdown,
HTML and CSV alike; GM-only ones only with `export --gm-notes`; JSON Lines is the ledger and keeps
every note with what it is about in its data."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from tests.conftest import Table


@pytest.fixture(scope="module")
def noted(tmp_path_factory: pytest.TempPathFactory) -> Table:
    t = Table(tmp_path_factory.mktemp("notes") / "noted.db")
    t("demo")
    t("note", "they fought dirty", "--round", "Vault Guards:2")
    t("note", "that roll was generous", "--entry", "20", "--gm-only")
    t("note", "Bo got the scar", "--about", "Bo")
    t("note", "on the scar note", "--entry", "65")
    return t


def _md_entries(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"^- #(\d+) ", text, re.M)]


def test_markdown_puts_a_round_note_at_the_end_of_its_round_and_an_entry_note_after_its_entry(noted: Table) -> None:
    text = noted("export", "--gm-notes").stdout
    order = _md_entries(text)
    assert order.index(63) == order.index(52) + 1          # round 2 ends at #52; its note follows it
    assert order.index(64) == order.index(20) + 1          # the note on #20 right after #20
    assert order.index(66) == order.index(65) + 1          # a note on a note follows that note
    assert sorted(order) == list(range(1, 67))             # every entry once
    round_2 = text.split("## Vault Guards, round 2", 1)[1].split("\n## ", 1)[0]
    assert "they fought dirty" in round_2 and "Bo got the scar" not in round_2


def test_gm_only_notes_are_left_out_unless_asked_in_every_format(noted: Table) -> None:
    for fmt in ("md", "html", "csv"):
        plain = noted("export", "--format", fmt).stdout
        asked = noted("export", "--format", fmt, "--gm-notes").stdout
        assert "that roll was generous" not in plain and "they fought dirty" in plain, fmt
        assert "that roll was generous" in asked, fmt
    lines = [json.loads(x) for x in noted("export", "--format", "jsonl").stdout.splitlines()[1:-1]]
    gm = [e for e in lines if e["type"].endswith("NoteTaken") and e["data"].get("gm_only")]
    assert len(gm) == 1 and gm[0]["data"]["entry"] == 20


def test_html_and_csv_show_the_notes_beside_what_they_are_about(noted: Table) -> None:
    html = noted("export", "--format", "html", "--gm-notes").stdout
    rows = [int(n) for n in re.findall(r'<tr id="entry-(\d+)"', html)]
    assert rows.index(64) == rows.index(20) + 1 and rows.index(63) == rows.index(52) + 1
    assert re.search(r'<tr id="entry-63" class="note">', html)
    card = re.search(r'<section class="group round" id="group-\d+" data-round="Vault Guards:2">.*?</section>', html, re.S)
    assert card and 'id="entry-63"' in card.group(0)
    assert "#35\u2013#52" in card.group(0)                   # the summary still spans the round's own entries
    table = list(csv.reader(io.StringIO(noted("export", "--format", "csv", "--gm-notes").stdout)))
    numbers = [int(r[0]) for r in table[1:-1]]
    assert numbers.index(64) == numbers.index(20) + 1 and numbers.index(63) == numbers.index(52) + 1


def test_a_note_about_an_entry_outside_the_range_stays_in_entry_order(noted: Table, tmp_path: Path) -> None:
    order = _md_entries(noted("export", "--from", "60", "--to", "66", "--gm-notes").stdout)
    assert order == [60, 61, 62, 63, 64, 65, 66]
