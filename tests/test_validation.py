"""Issue 16: the ledger never holds an entry its read tables cannot apply; when one does, the
campaign says which, stays usable, and a retried command is recognised by its key."""
from __future__ import annotations

import json
import sqlite3

import pytest

from campaign_ledger.ledger import values
from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.projections import runner, sessions
from tests.conftest import Table
from tests.test_postgres import postgres_ledger  # noqa: F401 (a fixture)


def _commands(path: str) -> list[tuple[int, int, str, dict]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT first_entry, last_entry, command, detail FROM ledger_commands").fetchall()
    return [(first, last, command, json.loads(detail)) for first, last, command, detail in rows]


@pytest.fixture
def relics_demo(tmp_path) -> Table:
    t = Table(tmp_path / "demo.db")
    t("demo")
    return t


# --- 1. an accepted input that broke the campaign for good ------------------------------------------

def test_a_disaster_trait_may_not_take_the_name_of_a_trait_its_owner_already_has(relics_demo):
    message = relics_demo.refused("disaster-trait", "Vault Guards", "Shadowstep", "-1 / 1d", "--on", "Kira")
    assert "Kira already has a trait named 'Shadowstep'" in message
    assert relics_demo("audit").exit_code == 0


def test_a_permanent_trait_may_not_take_the_name_of_a_temporary_one(relics_demo):
    relics_demo("disaster-trait", "Vault Guards", "Jumpy", "-1 / 1d", "--on", "Kira", "--lasts", "scenario")
    message = relics_demo.refused("trait", "add", "Kira", "jumpy", "-1 / 1d")
    assert "already has a trait named 'jumpy'" in message


def test_an_intensity_past_what_sqlite_holds_is_refused_before_the_ledger(tmp_path):
    t = Table(tmp_path / "beer.db")
    t("demo", "--system", "beer-run")
    assert "Intensity change" in t.refused("beer-run", "intensity", "Ann", "--gain", "9" * 23)
    assert "Intensity" in t.refused("beer-run", "intensity", "Ann", "--gain", str(2**63 - 1))
    assert t("audit").exit_code == 0


def test_the_last_net_refuses_any_number_sqlite_cannot_store():
    class Event:
        def __init__(self, **kw):
            vars(self).update(kw)
    values.check_recordable([Event(originator_id=1, amounts={"x": [2**63 - 1]}, note="fine")])
    with pytest.raises(BadInput, match="too large"):
        values.check_recordable([Event(amounts={"x": [2**63]})])
    with pytest.raises(BadInput, match="control characters"):
        values.check_recordable([Event(note="two\nlines")])


# --- 2. a refusal that recorded entries -----------------------------------------------------------------

@pytest.fixture
def fragile(table, monkeypatch) -> Table:
    """A read side that cannot apply a session titled 'Boom' (a disk that fills, a bug not yet found)."""
    def apply(db, entry, event):
        if getattr(event, "title", None) == "Boom":
            raise sqlite3.IntegrityError("the read tables refuse this one")
        original(db, entry, event)
    original = sessions.apply
    monkeypatch.setattr(runner, "PROJECTIONS", tuple(apply if p is original else p for p in runner.PROJECTIONS))
    return table


def test_a_failing_read_side_reports_the_entries_recorded_and_the_key_to_retry_with(fragile):
    before = fragile.entries()
    result = fragile("session", "start", "Boom", "--key", "boom-1", ok=False)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "unexpectedly" not in result.stderr
    assert f"entries #{before + 1} were recorded (key boom-1)" in result.stderr
    assert f"cannot apply entry #{before + 1}" in result.stderr
    retry = fragile("session", "start", "Boom", "--key", "boom-1", ok=False)
    assert "Already recorded under key boom-1" in retry.stdout
    assert fragile.entries() == before + 1


def test_a_campaign_whose_read_side_is_stuck_stays_usable_and_says_where_it_stopped(fragile):
    fragile("session", "start", "Boom", ok=False)
    stuck = fragile.entries()
    history = fragile("history")
    assert f"Warning: the read tables cannot apply entry #{stuck}" in history.stderr
    assert f"as of entry #{stuck - 1}" in history.stderr and "Traceback" not in history.output
    audit = fragile("audit", ok=False)
    assert audit.exit_code == 1 and f"STUCK at entry #{stuck}" in audit.stdout
    rebuild = fragile("rebuild", ok=False)
    assert rebuild.exit_code == 1 and f"cannot apply entry #{stuck}" in rebuild.stderr
    added = fragile("pc", "add", "Ash", "--expertise", "Sparrow=2", "--primary", "Sparrow")
    assert f"Recorded entries #{stuck + 1}" in added.stdout and "Warning" in added.stderr
    assert fragile.entries() > stuck
    assert "Traceback" not in fragile("undo", "--yes", ok=False).output


def test_a_failure_the_projection_does_not_foresee_still_names_the_recorded_entries(table, monkeypatch):
    calls = []
    real = runner.catch_up

    def full(*args):  # the check before the command passes; the disk fills before the read tables catch up
        calls.append(1)
        if len(calls) > 1:
            raise OSError("No space left on device")
        return real(*args)
    monkeypatch.setattr(runner, "catch_up", full)
    before = table.entries()
    result = table("session", "start", "Night one", ok=False)
    assert f"entries #{before + 1} were recorded" in result.stderr and "(key " in result.stderr


# --- the idempotency key ---------------------------------------------------------------------------------

def test_a_command_run_again_with_its_key_appends_nothing(table):
    first = table.json("--key", "night-1", "session", "start", "Night one")
    before = table.entries()
    again = table.json("session", "start", "Night one", "--key", "night-1")
    assert table.entries() == before
    assert again["repeated"] and again["entries"] == first["entries"] and again["key"] == "night-1"


def test_growth_test_faces_given_empty_are_refused_not_rolled(relics_demo):
    assert "you entered 0 faces" in relics_demo.refused("growth-test", "Bo", "--pool", "2", "--faces", "")


def test_a_key_already_used_by_another_command_is_refused(table):
    entry = table.json("--key", "k1", "session", "start", "Night one")["entries"][0]
    assert table.refused("--key", "k1", "scene", "start", "The vault") == (
        f"Error: key k1 was already used for start session Night one (entries #{entry}); "
        "use a new key for a different command.")


def test_the_key_may_come_from_the_environment(table, monkeypatch):
    monkeypatch.setenv("CAMPAIGN_COMMAND_KEY", "from-env")
    table("session", "start", "Night one")
    before = table.entries()
    assert "Already recorded" in table("session", "start", "Night one").stdout
    assert table.entries() == before


def test_every_command_is_logged_with_a_key_generated_when_none_is_given(table):
    report = table.json("pc", "add", "Ash", "--expertise", "Sparrow=2", "--primary", "Sparrow")
    logged = [detail.get("key") for first, _, _, detail in _commands(table.path) if first == report["entries"][0]]
    assert logged == [report["key"]] and len(report["key"]) == 12


@pytest.mark.parametrize("key", ["", "two words", "x" * 65, "ключ", "a%b"])
def test_a_key_that_would_not_read_back_is_refused(table, key):
    assert "command key" in table.refused("--key", key, "session", "start", "Night one")


# --- 7. weak validation ------------------------------------------------------------------------------------

WEAK = [
    (["trait", "add", "Kira", "  ", "+1 / 1d"], "A trait's name cannot be empty"),
    (["pc", "add", "Zed", "--expertise", "", "--primary", "Scav"], "at least one Expertise"),
    (["pc", "add", "Z" * 100_000, "--expertise", "Scav=1", "--primary", "Scav"], "the most is 200"),
    (["session", "start", "Night\none"], "line breaks"),
    (["scene", "start", "tab\there"], "control characters"),
    (["scene", "end", "--reason", "x" * 2001], "the most is 2,000"),
    (["challenge", "open", "Rats", "--threat", "Minor", "--type", "Scav", "--rating", "9" * 30], "rating"),
    (["challenge", "open", "Rats", "--threat", "Minor", "--type", "Scav", "--rating", "3", "--rounds", "9" * 30],
     "rounds can be at most 100"),
    (["trait", "add", "Kira", "Huge", "+" + "9" * 30 + " / 1d"], "size the game does not use"),
    (["history", "--at", "1" + "0" * 400], "--at is too large"),
    (["history", "--limit", "9" * 30], "--limit is too large"),
]


@pytest.mark.parametrize("args, message", WEAK)
def test_weak_values_are_refused_with_a_message_a_gm_reads(table, args, message):
    assert message in table.refused(*args)


def test_names_are_trimmed_but_keep_their_unicode(table):
    assert table.json("pc", "add", "  Ñoño 🐉 ", "--expertise", "Scav=1", "--primary", "Scav")["pc"] == "Ñoño 🐉"


@pytest.mark.parametrize("ruleset, setting", [("decision-2d6", "supply_threshold"), ("beer-run", "intensity"),
                                              ("action-dice", "features_limit")])
def test_a_setting_past_the_games_bounds_is_refused_when_the_campaign_is_made(empty, ruleset, setting):
    result = empty("new", "S", "--ruleset", ruleset, "--setting", f"{setting}={'9' * 23}", ok=False)
    assert result.exit_code == 2 and "23-digit number" in result.stderr and "Traceback" not in result.output


def test_an_undo_retried_with_its_key_shows_no_new_plan_and_appends_nothing(relics_demo):
    relics_demo("--key", "u1", "undo", "--yes")
    before = relics_demo.entries()
    again = relics_demo("--key", "u1", "undo", "--yes")
    assert again.stdout.startswith("Already recorded under key u1 (undo") and relics_demo.entries() == before


def test_a_committed_replay_retried_with_its_key_appends_nothing(relics_demo):
    relics_demo("--key", "r1", "replay", "Vault Guards:1", "--drop-trait", "Kira:Shadowstep", "--commit",
                "--cascade")
    before = relics_demo.entries()
    again = relics_demo("--key", "r1", "replay", "Vault Guards:1", "--drop-trait", "Kira:Shadowstep", "--commit",
                        "--cascade")
    assert "Already recorded under key r1 (replay" in again.stdout and relics_demo.entries() == before


def test_two_processes_racing_with_one_key_append_once(table, monkeypatch):
    """The second writer checked the log before the first committed; its insert still finds the key."""
    from campaign_ledger.ledger.application import CampaignLedger, open_ledger

    table("--key", "race", "session", "start", "Night one")
    table("session", "end")  # so a second start would be allowed: only the key stops it
    before = table.entries()
    looked = []
    real = CampaignLedger.already_recorded

    def too_early(self, key, name):  # the first look happens before the other process committed
        looked.append(key)
        return None if len(looked) == 1 else real(self, key, name)
    monkeypatch.setattr(CampaignLedger, "already_recorded", too_early)
    app = open_ledger(table.path)
    app.command_key = "race"
    report = app.start_session("Night one")
    assert report["repeated"] and table.entries() == before and len(looked) == 2


def test_a_retried_key_appends_nothing_with_the_ledger_on_postgresql(tmp_path, postgres_ledger):
    t = Table(tmp_path / "read.db")
    t("demo")
    t("--key", "pg-1", "session", "start", "Session 2")
    before = t.entries()
    assert "Already recorded under key pg-1" in t("--key", "pg-1", "session", "start", "Session 2").stdout
    assert t.entries() == before


@pytest.mark.parametrize("args", [["pc", "add", "cohort", "--expertise", "Scav=1", "--primary", "Scav"],
                                  ["pc", "add", "Guards", "--expertise", "Scav=1", "--primary", "Scav"],
                                  ["challenge", "open", "Kira", "--threat", "Minor", "--type", "Scav", "--rating", "2"],
                                  ["challenge", "open", "Cohort", "--threat", "Minor", "--type", "Scav", "--rating", "2"]])
def test_a_new_pc_or_challenge_may_not_take_a_name_that_already_means_another_owner(table, args):
    assert "choose another" in table.refused(*args)
