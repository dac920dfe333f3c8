"""Every entry names who wrote it (issue 38, part 1): its actor ("gm" or "seat:<name>") and channel
are kept in its command-log row, inside the hash chain; `history --json` and every write's report
give them; history text, the exports, the live page's rounds, `audit` and `undo --list` show a
player's entries; files written before read "gm" and "unrecorded"; an edit to an actor is caught."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_ledger import CampaignError, open_campaign
from campaign_ledger.ledger.words import who
from tests.conftest import Table, heist
from tests.test_old_files import PLAY, old_file

TURN = {"challenge": "Guards", "leader": "Kira", "faces": [2, 2, 2, 2, 2]}


def details(path: str) -> dict[int, dict]:
    """Each command's stored detail by its first entry."""
    with sqlite3.connect(path) as conn:
        return {first: json.loads(detail or "{}")
                for first, detail in conn.execute("SELECT first_entry, detail FROM ledger_commands")}


@pytest.fixture
def seated(tmp_path: Path) -> tuple[Table, object]:
    """A heist where Kira's seat took a note through the library, as the player's page would."""
    t = heist(tmp_path)
    camp = open_campaign(t.path)
    camp.acting("seat:Kira", "page").note("Kira checks the lock", key="kira-1")
    yield t, camp
    camp.close()


def test_the_cli_writes_as_the_gm_by_the_cli_and_says_so_in_the_report_and_history(table: Table) -> None:
    report = table.json("note", "the guards change shift")
    assert (report["actor"], report["channel"]) == ("gm", "cli")
    assert [(h["actor"], h["channel"]) for h in report["history"]] == [("gm", "cli")]
    assert "confirmed_by" not in report["history"][0]
    assert details(table.path)[report["entries"][0]]["actor"] == "gm"
    rows = table.json("history")
    assert {(r["actor"], r["channel"]) for r in rows} == {("gm", "cli")}
    assert "[" not in table("history").stdout.splitlines()[-1].split("  ", 2)[2].replace("[note #1] ", "")


def test_a_library_handle_writes_as_the_gm_by_the_api_and_acting_as_a_seat_by_its_channel(seated) -> None:
    t, camp = seated
    mine = camp.note("a GM's aside")
    assert (mine["actor"], mine["channel"]) == ("gm", "api")
    kira = [r for r in camp.history() if r["actor"] == "seat:Kira"]
    assert [(r["line"], r["channel"]) for r in kira] == [("Note: Kira checks the lock", "page")]
    confirmed = camp.acting("seat:Bo", "page", confirmed_by="gm").note("Bo's plan, accepted")
    assert confirmed["confirmed_by"] == "gm" and confirmed["history"][0]["confirmed_by"] == "gm"
    assert details(t.path)[confirmed["entries"][0]].items() >= {"actor": "seat:Bo", "channel": "page",
                                                                 "confirmed_by": "gm"}.items()
    assert camp.history(limit=1)[0]["confirmed_by"] == "gm"
    assert camp.history()[-2].keys() >= {"actor", "channel"} and "confirmed_by" not in camp.history()[-2]
    text = t("history").stdout.splitlines()
    assert "[Kira · page] Note: Kira checks the lock" in text[-3]
    assert "[Bo · page · confirmed by GM] Note: Bo's plan, accepted" in text[-1]
    assert "Note: a GM's aside" in text[-2] and "·" not in text[-2]


def test_the_actor_is_set_per_call_on_a_kept_campaign(seated) -> None:
    t, camp = seated
    seat = camp.acting("seat:Bo", "page")
    seat.note("one")
    camp.note("two")                        # the same kept ledger, the GM's again
    seat.note("three")
    assert [(r["line"], r["actor"]) for r in camp.history(limit=3)] == [
        ("Note: one", "seat:Bo"), ("Note: two", "gm"), ("Note: three", "seat:Bo")]


@pytest.mark.parametrize("actor, channel, confirmed_by", [
    ("Kira", "page", None), ("seat:", "page", None), ("seat: Kira", "page", None), ("GM", "cli", None),
    ("gm", "phone", None), ("gm", "", None), (None, "api", None), ("seat:Kira", "page", "someone")])
def test_a_malformed_actor_or_channel_is_refused_as_malformed(seated, actor, channel, confirmed_by) -> None:
    _, camp = seated
    with pytest.raises(CampaignError) as refused:
        camp.acting(actor, channel, confirmed_by)
    assert refused.value.code == 2 and "\n" not in str(refused.value)


def test_a_key_reused_by_another_actor_is_refused_and_appends_nothing(seated) -> None:
    t, camp = seated
    before = t.entries()
    again = camp.acting("seat:Kira", "page").note("Kira checks the lock", key="kira-1")
    assert again["repeated"] and again["entries"] == [before] and t.entries() == before
    for other in (camp, camp.acting("seat:Bo", "page")):
        with pytest.raises(CampaignError) as refused:
            other.note("Kira checks the lock", key="kira-1")
        assert refused.value.code == 1 and "kira-1" in str(refused.value)
    camp.note("the GM's own", key="gm-1")
    with pytest.raises(CampaignError):
        camp.acting("seat:Kira", "page").note("the GM's own", key="gm-1")
    assert t.entries() == before + 1


def test_every_path_that_appends_records_its_actor(seated) -> None:
    """A turn, an undo, a committed replay and a note each keep who wrote them."""
    t, camp = seated
    kira = camp.acting("seat:Kira", "page")
    turn = kira.cohort_turn(**TURN)
    undone = camp.acting("gm", "shell").undo()
    again = kira.cohort_turn(**TURN)
    fixed = camp.replay(commit=True, leader="Bo")
    stored = details(t.path)
    assert stored[turn["entries"][0]]["actor"] == "seat:Kira"
    assert (stored[undone["entries"][0]]["actor"], stored[undone["entries"][0]]["channel"]) == ("gm", "shell")
    assert stored[again["entries"][0]]["actor"] == "seat:Kira"
    assert (stored[fixed["entries"][0]]["actor"], stored[fixed["entries"][0]]["channel"]) == ("gm", "api")
    rows = {r["entry"]: r for r in camp.history()}
    assert all(rows[e]["actor"] == "seat:Kira" for e in again["entries"])
    assert "Clean." in t("audit").stdout


def test_the_shell_writes_by_the_shell(table: Table) -> None:
    done = subprocess.run([sys.executable, "-m", "campaign_ledger.cli", "--db", table.path, "shell"],
                          input='note "from the shell"\n', capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    last = table.json("history")[-1]
    assert (last["line"], last["actor"], last["channel"]) == ("Note: from the shell", "gm", "shell")


def test_the_http_api_writes_as_the_gm_by_the_api(table: Table) -> None:
    from tests.live_server import Served
    from tests.test_http_api import ask

    with Served(Path(table.path)) as served:
        answer = ask(served, "POST", "/api/calls/note", {"text": "over HTTP"}, bearer=served.report["gm_token"])
    assert answer.status == 200, answer.body
    assert (answer.json["actor"], answer.json["channel"]) == ("gm", "api")
    assert table.json("history")[-1]["channel"] == "api"


@pytest.mark.parametrize("ruleset", sorted(PLAY))
def test_an_old_file_reads_gm_and_unrecorded_and_its_new_entries_name_their_actor(tmp_path: Path, ruleset) -> None:
    t = old_file(tmp_path, ruleset)
    rows = t.json("history")
    assert rows and {(r["actor"], r["channel"]) for r in rows} == {("gm", "unrecorded")}
    assert not any("confirmed_by" in r for r in rows)
    t(*PLAY[ruleset])
    assert (t.json("history")[-1]["actor"], t.json("history")[-1]["channel"]) == ("gm", "cli")
    audit = t.json("audit")
    assert audit["clean"] and audit["actors"] == {"gm": len(t.json("history"))}
    t("rebuild")
    assert t.differs_from_rebuild() == [] and "Clean." in t("audit").stdout


def test_an_edit_to_a_stored_actor_is_caught_by_audit_naming_its_entry(seated) -> None:
    t, camp = seated
    camp.note("after Kira's note")
    kira = next(r["entry"] for r in camp.history() if r["actor"] == "seat:Kira")
    assert t.json("audit")["clean"]
    with sqlite3.connect(t.path) as conn:
        detail = conn.execute("SELECT detail FROM ledger_commands WHERE first_entry = ?", [kira]).fetchone()[0]
        assert '"seat:Kira"' in detail
        conn.execute("UPDATE ledger_commands SET detail = ? WHERE first_entry = ?",
                     [detail.replace('"seat:Kira"', '"gm"'), kira])
    result = t("audit", ok=False)
    assert result.exit_code == 1
    assert f"BROKEN at entry #{kira}" in result.stdout
    report = json.loads(t("audit", "--json", ok=False).stdout)
    assert report["broken_entry"] == kira and not report["clean"]


def test_audit_counts_entries_per_actor(seated) -> None:
    t, camp = seated
    camp.acting("seat:Kira", "page").note("again")
    report = t.json("audit")
    total = len(t.json("history"))
    assert report["actors"] == {"gm": total - 2, "seat:Kira": 2}
    assert f"Entries by actor: GM {total - 2}, seat Kira 2" in t("audit").stdout
    assert "actors" not in t.json("audit", "--chain")


def test_undo_list_names_each_units_actor(seated) -> None:
    t, camp = seated
    units = t.json("undo", "--list")
    assert (units[0]["actor"], units[0]["channel"]) == ("seat:Kira", "page")
    assert all(u["actor"] == "gm" for u in units[1:])
    lines = t("undo", "--list").stdout.splitlines()
    assert lines[0].startswith(f"#{units[0]['entries'][0]}-") and "[Kira · page]:" in lines[0]
    assert "·" not in "\n".join(lines[1:])


def test_every_export_shows_a_players_entries(seated) -> None:
    t, camp = seated
    kira = next(r["entry"] for r in camp.history() if r["actor"] == "seat:Kira")
    md = camp.export("md")
    assert f"- #{kira} " in md and "[Kira · page] Note: Kira checks the lock" in md
    assert md.count("·") == 1  # the GM's entries carry no tag
    rows = list(__import__("csv").DictReader(camp.export("csv").splitlines()[:-1]))
    assert {"actor", "channel", "confirmed_by"} <= set(rows[0])
    assert [(r["actor"], r["channel"]) for r in rows if r["entry"] == str(kira)] == [("seat:Kira", "page")]
    assert {r["actor"] for r in rows if r["entry"] != str(kira)} == {"gm"}
    html = camp.export("html")
    assert '<span class="who">Kira · page</span> Note: Kira checks the lock' in html
    assert html.count('class="who"') == 1
    jsonl = [json.loads(line) for line in camp.export("jsonl").splitlines() if line.startswith("{")]
    assert next(r for r in jsonl if r.get("entry") == kira)["command"]["detail"]["actor"] == "seat:Kira"


def test_import_keeps_the_actors(seated, tmp_path: Path) -> None:
    t, camp = seated
    out = tmp_path / "heist.jsonl"
    camp.export("jsonl", output=out)
    copy = Table(tmp_path / "copy.db")
    copy("import", str(out))
    assert [(r["actor"], r["channel"]) for r in copy.json("history")] == \
        [(r["actor"], r["channel"]) for r in t.json("history")]
    assert copy.json("audit")["clean"]


def test_the_live_page_rounds_name_a_players_entries(seated) -> None:
    from campaign_ledger.projections import export_cards, runner

    t, _ = seated
    db = runner.connect(t.path)
    try:
        shown = "".join(html for _, html in export_cards.cards(db, 1, 10_000))
    finally:
        db.conn.close()
    assert '<span class="who">Kira · page</span>' in shown


@pytest.mark.parametrize("args, said", [
    (("gm", "cli"), ""), (("seat:Kira", "page"), "Kira · page"), (("seat:Kira", "unrecorded"), "Kira"),
    (("seat:Kira", "page", "gm"), "Kira · page · confirmed by GM"), ((None,), "")])
def test_one_formatter_says_who(args, said) -> None:
    assert who(*args) == said
