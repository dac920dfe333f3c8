"""Time arguments (issue 13): a time without a zone is the GM's local time, and `--at` or `--until`
past the last entry is refused with that entry's number and time; `history --scene`."""
from __future__ import annotations

import time
from datetime import datetime, timezone

import pytest

from campaign_ledger.views import parse_time


@pytest.fixture
def auckland(monkeypatch):
    """The GM's machine twelve or thirteen hours ahead of UTC."""
    monkeypatch.setenv("TZ", "Pacific/Auckland")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_a_time_without_a_zone_is_local_and_one_with_a_zone_is_its_own(auckland):
    local = datetime(2026, 11, 22, 20, 15).astimezone()  # 20:15 on an Auckland clock
    assert parse_time("2026-11-22T20:15", "--at") == local.astimezone(timezone.utc).isoformat(timespec="seconds")
    assert parse_time("2026-11-22T20:15", "--at") == "2026-11-22T07:15:00+00:00"  # NZDT is UTC+13
    assert parse_time("2026-11-22T20:15+00:00", "--at") == "2026-11-22T20:15:00+00:00"
    assert parse_time("2026-11-22T20:15Z", "--at") == "2026-11-22T20:15:00+00:00"


def test_the_cli_reads_a_local_time_as_local(table, auckland):
    rows = table.json("history")
    last = datetime.fromisoformat(rows[-1]["time"])
    on_the_wall = last.astimezone().replace(tzinfo=None).isoformat(timespec="seconds")  # no zone: local
    assert [r["entry"] for r in table.json("history", "--until", on_the_wall)] == [r["entry"] for r in rows]
    assert table.json("sheet", "--at", on_the_wall) == table.json("sheet")
    as_if_utc = last.replace(tzinfo=None).isoformat(timespec="seconds")  # read as Auckland's: 13 hours earlier
    assert table.json("history", "--until", as_if_utc) == []  # before the campaign began
    refusal = table.refused("history", "--until", on_the_wall + "+00:00")  # 13 hours after the last entry
    assert f"#{rows[-1]['entry']} at {last.astimezone().isoformat(timespec='seconds')}" in refusal


def test_at_or_until_past_the_last_entry_is_refused_naming_it(table):
    rows = table.json("history")
    last = rows[-1]["entry"]
    for args in (("sheet", "--at", str(last + 1)), ("pools", "--at", str(last + 5)),
                 ("history", "--until", str(last + 1)), ("history", "--at", "2999-01-01T00:00")):
        refusal = table.refused(*args)
        assert f"past the campaign's last entry, #{last} at " in refusal
    assert table.json("sheet", "--at", str(last)) == table.json("sheet")


def test_help_says_a_time_without_a_zone_is_local(table):
    for command in (("history",), ("sheet",), ("pools",)):
        shown = " ".join(table(*command, "--help").stdout.split())
        assert "local time unless it gives its zone" in shown and "UTC unless" not in shown


def test_history_scene_finds_the_entries_of_a_scene_by_title_or_number(table):
    table("scene", "start", "The vault at midnight")
    table("note", "in the vault")
    table("scene", "end")
    table("scene", "start", "The roof")
    table("note", "on the roof")
    vault = [r["line"] for r in table.json("history", "--scene", "the vault at midnight")]
    assert vault[0] == "Scene 1 starts: The vault at midnight" and vault[-1].startswith("Scene 1 (The vault")
    assert any("in the vault" in line for line in vault) and not any("roof" in line for line in vault)
    assert [r["line"] for r in table.json("history", "--scene", "2")][1].endswith("on the roof")
    assert "no Scene 'cellar'" in table.refused("history", "--scene", "cellar")
    table("undo", "--yes")
    table("undo", "--yes")  # the roof's Scene undone: no Scene 2 any more
    assert "no Scene '2'" in table.refused("history", "--scene", "2")
