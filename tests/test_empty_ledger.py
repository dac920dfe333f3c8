"""An empty ledger is no campaign (issue 34, finding 8): a `demo` killed before its first entry left
a campaign file with every table and no entry, which `demo` then refused ("holds another campaign")
and `status` failed on ("failed unexpectedly (AggregateNotFoundError ...)"). Commands say it holds
no campaign, and `demo` and `new` use it."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_ledger.ledger.errors import NO_CAMPAIGN
from tests.conftest import Table

ROOT = Path(__file__).parent.parent
# `campaign demo`, killed (SIGKILL: no cleanup runs) as its first entry is about to be saved.
KILLED_DEMO = ("import os, signal\n"
               "from campaign_ledger.ledger.application import CampaignLedger\n"
               "CampaignLedger.start = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)\n"
               "from campaign_ledger.cli import main\n"
               "main()\n")


@pytest.fixture
def left_by_a_killed_demo(tmp_path: Path) -> Table:
    path = tmp_path / "demo.db"
    done = subprocess.run([sys.executable, "-c", KILLED_DEMO, "--db", str(path), "demo"], cwd=ROOT,
                          capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGKILL
    with sqlite3.connect(path) as conn:  # the file the kill left: the ledger's tables, no entry
        assert conn.execute("SELECT count(*) FROM stored_events").fetchone()[0] == 0
    return Table(path)


def test_demo_plays_into_the_file_a_killed_demo_left(left_by_a_killed_demo):
    t = left_by_a_killed_demo
    shown = t.json("demo")
    assert len(shown["history"]) == t.entries() == 62
    assert t.json("demo")["history"] == shown["history"]  # run again, it shows the demo as it stands


def test_new_starts_a_campaign_in_the_file_a_killed_demo_left(left_by_a_killed_demo):
    t = left_by_a_killed_demo
    t("new", "The Moon Heist")
    assert t.entries() == 1
    assert "already holds a campaign" in t.refused("new", "Another")


@pytest.mark.parametrize("args", [("status",), ("sheet",), ("session", "start", "One"), ("pools",)])
def test_commands_on_an_empty_ledger_say_it_holds_no_campaign(left_by_a_killed_demo, args):
    assert left_by_a_killed_demo.refused(*args) == f"Error: {NO_CAMPAIGN}"


def test_a_demo_of_another_ruleset_plays_into_an_empty_ledger(left_by_a_killed_demo):
    t = left_by_a_killed_demo
    t("demo", "--system", "beer-run")
    assert t.entries() > 0 and "beer-run" in t.json("history")[0]["line"]


def test_a_file_with_a_campaign_is_still_refused_by_the_demo(table):
    assert "holds another campaign" in table.refused("demo")
    assert os.path.exists(table.path)
