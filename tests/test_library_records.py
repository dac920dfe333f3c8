"""The calls every campaign has, through the library only (no CLI, no subprocess): sessions, notes,
history, undo, replay, audit, anchor, export and import. Each is compared with the CLI's `--json`
on another file where the same commands were typed, and each refusal with the CLI's code and rule."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable

import pytest

from campaign_ledger import CampaignError, new_campaign, open_campaign
from campaign_ledger.campaign import import_campaign
from tests.conftest import Table

# What differs between two files played alike: when each entry was made, the keys, the hashes.
OWN = {"time", "key", "hash", "anchor", "previous_hash", "started", "ended", "channel"}


def alike(value: Any) -> Any:
    """A value with each file's own facts taken out, to compare two files played alike."""
    if isinstance(value, dict):
        return {k: alike(v) for k, v in value.items() if k not in OWN}
    if isinstance(value, list):
        return [alike(v) for v in value]
    return value


def play_library(path: Path) -> Any:
    camp = new_campaign(path, "Test Heist")
    camp.pc_add("Kira", {"Phantom": 3, "Venger": 1}, "Phantom")
    camp.pc_add("Bo", {"Phantom": 3, "Venger": 4}, "Venger")
    camp.scenario_start("Night")
    camp.challenge_open("Guards", threat="Minor", type="Phantom", rating=4)
    camp.session_start("The vault")
    camp.note("Bo got the scar from the guard captain", about="Bo", tags=["scar"])
    camp.cohort_turn("Guards", leader="Kira", faces=[6, 2, 3, 3, 4])
    camp.challenge_turn("Guards", faces=[6, 6, 6], stress={"Kira": 3})
    camp.note("a close call", round="Guards:1", gm_only=True)
    camp.session_end()
    return camp


def play_cli(path: Path) -> Table:
    t = Table(path)
    t("new", "Test Heist")
    t("pc", "add", "Kira", "--expertise", "Phantom=3,Venger=1", "--primary", "Phantom")
    t("pc", "add", "Bo", "--expertise", "Phantom=3,Venger=4", "--primary", "Venger")
    t("scenario", "start", "Night")
    t("challenge", "open", "Guards", "--threat", "Minor", "--type", "Phantom", "--rating", "4")
    t("session", "start", "The vault")
    t("note", "Bo got the scar from the guard captain", "--about", "Bo", "--tag", "scar")
    t("cohort-turn", "Guards", "--leader", "Kira", "--faces", "6,2,3,3,4")
    t("challenge-turn", "Guards", "--faces", "6,6,6", "--stress", "Kira=3")
    t("note", "a close call", "--round", "Guards:1", "--gm-only")
    t("session", "end")
    return t


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two files, played once; each test gets its own copies (`both`)."""
    folder = tmp_path_factory.mktemp("played")
    play_library(folder / "library.db")
    play_cli(folder / "cli.db")
    return folder


@pytest.fixture
def both(played: Path, tmp_path: Path) -> tuple[Any, Table]:
    import shutil

    for made in played.iterdir():
        shutil.copy(made, tmp_path / made.name)
    return open_campaign(tmp_path / "library.db"), Table(tmp_path / "cli.db")


def test_every_read_view_of_the_record_is_the_clis(both):
    lib, cli = both
    assert lib.history() and alike(lib.history()) == alike(cli.json("history"))
    assert [s["title"] for s in lib.session_list()] == ["The vault"]
    assert alike(lib.session_list()) == alike(cli.json("session", "list"))
    assert lib.sheet("Kira")["stress"] == 3 and alike(lib.sheet("Kira")) == alike(cli.json("sheet", "Kira"))
    assert alike(lib.sheet()) == alike(cli.json("sheet"))
    assert alike(lib.pools()) == alike(cli.json("pools"))
    assert alike(lib.sheet("Kira", at=5)) == alike(cli.json("sheet", "Kira", "--at", "5"))
    assert alike(lib.statement("Kira:stress")) == alike(cli.json("statement", "Kira:stress"))
    assert alike(lib.undo_list(20)) == alike(cli.json("undo", "--list"))
    audit = lib.audit()
    assert audit["clean"] and alike(audit) == alike(cli.json("audit"))
    assert lib.anchor()["entry"] == cli.json("anchor")["entry"] == cli.entries()
    assert alike(lib.rebuild()) == alike(cli.json("rebuild"))


def _time_of(rows: list, entry: int) -> str:
    return next(r["time"] for r in rows if r["entry"] == entry)


@pytest.mark.parametrize("asked, typed, found", [
    ({"grep": "scar"}, ["--grep", "scar"], [9]),
    ({"grep": "captain OR close"}, ["--grep", "captain OR close"], [9, 24]),
    ({"pc": "Bo"}, ["--pc", "Bo"], None),
    ({"since": 3, "until": 8}, ["--since", "3", "--until", "8"], [3, 4, 5, 6, 7, 8]),
    ({"since": "2000-01-01T00:00", "limit": 2}, ["--since", "2000-01-01T00:00", "--limit", "2"], [24, 25]),
    ({"round": "Guards:1", "kinds": ["notes"]}, ["--round", "Guards:1", "--kind", "notes"], [24]),
    ({"tags": ["scar"], "session": 1}, ["--tag", "scar", "--session", "1"], [9]),
    ({"at": 5}, ["--at", "5"], [1, 2, 3, 4, 5]),
])
def test_history_filters_find_what_the_clis_find(both, asked, typed, found):
    lib, cli = both
    rows = lib.history(**asked)
    assert alike(rows) == alike(cli.json("history", *typed))
    assert found is None or [r["entry"] for r in rows] == found
    assert rows and all(r["entry"] for r in rows)


def test_history_until_a_time_is_each_files_own_time(both):
    lib, cli = both
    mine, theirs = _time_of(lib.history(), 5), _time_of(cli.json("history"), 5)
    rows = lib.history(until=mine, pc="Bo")
    assert rows == Table(Path(lib.path)).json("history", "--until", mine, "--pc", "Bo")  # times group by the second
    assert [r["entry"] for r in rows] == [r["entry"] for r in lib.history(pc="Bo") if r["time"] <= mine]
    assert 5 in [r["entry"] for r in rows]
    assert [r["entry"] for r in cli.json("history", "--until", theirs, "--pc", "Bo")][:2] == [4, 5]


def test_history_each_hands_the_lines_over_as_they_are_read(both):
    lib, _ = both
    newest, entries = lib.history_each(lambda newest, lines: (newest, [r["entry"] for r in lines]), pc="Kira")
    assert newest == entries[-1] and entries == [r["entry"] for r in lib.history(pc="Kira")]


def test_undo_dry_run_list_and_undo_are_the_clis(both):
    lib, cli = both
    plan = lib.undo("start session The vault #1", dry_run=True)  # its end used it: the plan a cascade carries out
    assert plan["needs_cascade"] and alike(plan) == alike(cli.json("undo", "start session The vault #1", "--dry-run"))
    assert alike(lib.undo("Guards:1", dry_run=True)) == alike(cli.json("undo", "Guards:1", "--dry-run"))
    assert alike(lib.undo(dry_run=True)) == alike(cli.json("undo", "--dry-run"))
    before = lib.anchor()["entry"]
    assert lib.undo(dry_run=True) and lib.anchor()["entry"] == before  # a dry run appends nothing
    undone = lib.undo("note Bo #1")
    assert undone["entries"] == [before + 1]
    assert alike(undone) == alike(cli.json("undo", "note Bo #1"))
    assert alike(lib.undo_list(3)) == alike(cli.json("undo", "--list", "--limit", "3"))
    assert "note Bo #1" not in [u["unit"] for u in lib.undo_list()]
    assert alike(lib.undo("Guards:1", cascade=True)) == alike(cli.json("undo", "Guards:1", "--cascade"))
    assert lib.sheet("Kira")["stress"] == 0 and lib.audit()["clean"]


def test_undo_asks_confirm_with_the_plan_and_a_no_appends_nothing(both):
    lib, _ = both
    before = lib.anchor()["entry"]
    asked: list = []
    with pytest.raises(CampaignError) as refused:
        lib.undo(confirm=lambda plan: asked.append(plan) or False)
    assert (refused.value.code, refused.value.rule) == (1, "not-confirmed")
    assert [r["unit"] for r in asked[0]["reversed"]] == ["end session #1"] and lib.anchor()["entry"] == before
    assert lib.undo(confirm=lambda plan: True, key="k-undo")["entries"] == [before + 1]
    assert lib.undo(confirm=lambda plan: pytest.fail("a retry is not asked"), key="k-undo")["repeated"]


def test_a_callers_own_failure_leaves_the_call_as_it_was_raised(both):
    lib, _ = both

    def closed_pipe(text: str) -> None:
        raise BrokenPipeError("the reader went away")
    with pytest.raises(BrokenPipeError):
        lib.export("md", output=closed_pipe)
    with pytest.raises(KeyError):
        lib.undo(confirm=lambda plan: {}["no"])


def test_replay_of_a_round_is_the_clis_and_its_commit_too(both):
    lib, cli = both
    replayed = lib.replay("Guards:1", leader="Bo", drop_traits=())
    assert replayed["round"] == "Guards:1"
    assert alike(replayed) == alike(cli.json("replay", "Guards:1", "--leader", "Bo"))
    what_if = lib.replay("Guards:1", challenge_faces=[1, 1, 1], stress={"Kira": 0})
    assert alike(what_if) == alike(cli.json("replay", "Guards:1", "--challenge-faces", "1,1,1", "--stress", "Kira=0"))
    assert any(row["changed"] for row in what_if["after_round"])
    committed = lib.replay("Guards:1", leader="Bo", commit=True, cascade=True)
    assert committed["entries"] and alike(committed) == alike(
        cli.json("replay", "Guards:1", "--leader", "Bo", "--commit", "--cascade"))
    assert alike(lib.history()) == alike(cli.json("history")) and lib.audit()["clean"]


def test_export_jsonl_imported_into_a_new_file_audits_clean_with_the_anchor(both, tmp_path):
    lib, cli = both
    anchor = lib.anchor()["anchor"]
    text = lib.export("jsonl")
    same = Table(Path(lib.path))  # the CLI on the same file: the same bytes
    assert text == same("export", "--format", "jsonl").stdout
    assert lib.export("md", gm_notes=True) == same("export", "--gm-notes").stdout
    assert "a close call" not in lib.export("md") and "a close call" in lib.export("md", gm_notes=True)
    written = lib.export("jsonl", output=tmp_path / "lib.jsonl")
    last = lib.anchor()["entry"]
    assert written == {"format": "jsonl", "output": str(tmp_path / "lib.jsonl"), "first": 1, "last": last}
    assert (tmp_path / "lib.jsonl").read_text() == text
    copy = import_campaign(tmp_path / "lib.jsonl", tmp_path / "copy.db")
    assert copy.started == {"entries": last, "entry_count": last, "checked": last, "actor": "gm", "channel": "import"}
    assert copy.audit(anchor=anchor)["clean"] and copy.history() == lib.history()
    cli("export", "--format", "jsonl", "-o", str(tmp_path / "cli.jsonl"))
    cli_copy = Table(tmp_path / "cli-copy.db")
    assert copy.started == cli_copy.json("import", str(tmp_path / "cli.jsonl"))
    assert alike(copy.audit(anchor=anchor)) == alike(cli_copy.json("audit", "--anchor", cli.json("anchor")["anchor"]))
    for fmt in ("csv", "html"):
        assert lib.export(fmt, session=1) == same("export", "--format", fmt, "--session", "1").stdout_bytes.decode()
    assert lib.export("md", first=3, last=5) == same("export", "--from", "3", "--to", "5").stdout


def test_demo_campaign_is_the_clis_demo(tmp_path):
    from campaign_ledger.campaign import demo_campaign

    demo = demo_campaign(tmp_path / "demo.db")
    shown = Table(tmp_path / "cli-demo.db").json("demo")
    assert alike(demo.demo()) == alike(shown) and shown["sheets"]
    assert alike(demo.history()) == alike(shown["history"]) and demo.audit()["clean"]


def _refusal(call: Callable[[], Any]) -> tuple[int, str | None, str]:
    with pytest.raises(CampaignError) as refused:
        call()
    return refused.value.code, refused.value.rule, refused.value.message


@pytest.mark.parametrize("call, typed", [
    (lambda c: c.statement("gold"), ["statement", "gold"]),
    (lambda c: c.undo("No Such Unit:9"), ["undo", "No Such Unit:9", "--yes"]),
    (lambda c: c.undo("No Such Unit:9", dry_run=True), ["undo", "No Such Unit:9", "--dry-run"]),
    (lambda c: c.undo_list(0), ["undo", "--list", "--limit", "0"]),
    (lambda c: c.history(limit=0), ["history", "--limit", "0"]),
    (lambda c: c.history(since="yesterday"), ["history", "--since", "yesterday"]),
    (lambda c: c.history(until=10**40), ["history", "--until", "1" + "0" * 40]),
    (lambda c: c.history(round="Nope:3"), ["history", "--round", "Nope:3"]),
    (lambda c: c.history(at=999), ["history", "--at", "999"]),
    (lambda c: c.sheet("Nobody"), ["sheet", "Nobody"]),
    (lambda c: c.export("md", session=5), ["export", "--session", "5"]),
    (lambda c: c.export("md", first=30), ["export", "--from", "30"]),
    (lambda c: c.audit(anchor="not an anchor"), ["audit", "--anchor", "not an anchor"]),
    (lambda c: c.replay("Nope:1"), ["replay", "Nope:1"]),
    (lambda c: c.replay("Guards:1", add_traits=["Kira"]), ["replay", "Guards:1", "--add-trait", "Kira"]),
    (lambda c: c.session_end(), ["session", "end"]),
    (lambda c: c.note("x", entry=999), ["note", "x", "--entry", "999"]),
    (lambda c: c.pc_rename("Nobody", "Ash"), ["pc", "rename", "Nobody", "Ash"]),
    (lambda c: c.challenge_rate("Guards", 0, reason="r"), ["challenge", "rate", "Guards", "0", "--reason", "r"]),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_a_refusal_carries_the_clis_code_and_rule(both, call, typed):
    import json

    lib, cli = both
    before = lib.anchor()["entry"]
    code, rule, message = _refusal(lambda: call(lib))
    answer = json.loads(cli(*typed, "--json", ok=False).stdout)
    assert (code, rule) == (answer["code"], answer["rule"]), (message, answer)
    said = json.loads(Table(Path(lib.path))(*typed, "--json", ok=False).stdout)  # the same file: the same words
    assert said == answer | {"error": said["error"]} and (code == 2 or message == said["error"])
    assert lib.anchor()["entry"] == before


def test_a_new_or_imported_campaign_over_one_is_refused_as_the_cli_refuses_it(both, tmp_path):
    import json

    lib, cli = both
    code, rule, _ = _refusal(lambda: new_campaign(lib.path, "Again"))
    assert (code, rule) == (1, "campaign-exists")
    assert json.loads(cli("new", "Again", "--json", ok=False).stdout)["rule"] == rule
    lib.export("jsonl", output=tmp_path / "x.jsonl")
    code, rule, _ = _refusal(lambda: import_campaign(tmp_path / "x.jsonl", lib.path))
    assert (code, rule) == (json.loads(cli("import", str(tmp_path / "x.jsonl"), "--json", ok=False).stdout)["code"],
                            json.loads(cli("import", str(tmp_path / "x.jsonl"), "--json", ok=False).stdout)["rule"])
    assert _refusal(lambda: open_campaign(tmp_path / "none.db"))[1] == "no-campaign-file"


def test_two_handles_on_one_file_in_two_threads_write_alternately_and_lose_nothing(tmp_path):
    """A bot and a notebook on one campaign: each handle keeps the file open but holds no lock
    between calls, and each call catches up first, so each sees the other's entries at its next
    call, and nothing either wrote is lost."""
    path = tmp_path / "shared.db"
    new_campaign(path, "Shared Heist")
    first, second = open_campaign(path), open_campaign(path)
    turn = threading.Condition()
    state = {"next": 0, "seen": [], "failed": []}

    def writer(me: int, camp: Any, write: Callable[[Any, int], dict]) -> None:
        try:
            for i in range(20):
                with turn:
                    turn.wait_for(lambda: state["next"] == me or state["failed"])
                    if state["failed"]:
                        return
                    report = write(camp, i)
                    last = camp.history(limit=2)  # the other's newest entry is just before this call's
                    state["seen"].append((me, i, report["entries"], [r["entry"] for r in last]))
                    state["next"] = 1 - me
                    turn.notify_all()
        except BaseException as e:  # the other thread must not wait forever
            with turn:
                state["failed"].append(e)
                turn.notify_all()

    threads = [threading.Thread(target=writer, args=(0, first, lambda c, i: c.note(f"note {i}", tags=["bot"]))),
               threading.Thread(target=writer, args=(1, second, lambda c, i: c.pc_add(f"PC{i}", {"Phantom": 1}, "Phantom")))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not state["failed"], state["failed"]
    assert len(state["seen"]) == 40
    previous = 1  # the campaign's own entry
    for me, i, entries, last in state["seen"]:
        assert entries[0] == previous + 1  # right after the other's write: it saw it
        assert last[-1] == entries[-1] and (len(entries) > 1 or last[0] == previous)
        previous = entries[-1]
    notes = first.history(kinds=["notes"])
    assert [r["line"] for r in notes] == [f"Note: note {i} (#bot)" for i in range(20)]
    assert [s["name"] for s in first.sheet()] == [f"PC{i}" for i in range(20)]
    assert second.history() == first.history() and second.audit()["clean"]
