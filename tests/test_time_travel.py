"""`--at` shows the campaign as it stood at any entry; a statement explains every balance."""
import pytest

from campaign_ledger.projections import runner, views


@pytest.fixture
def demo(empty):
    empty("demo")
    return empty


def _running(rows, entry):
    values = [r["balance"] for r in rows if r["entry"] <= entry]
    return values[-1] if values else 0


def test_at_and_the_statement_agree_at_every_entry_of_the_demo(demo):
    db = runner.connect(demo.path)
    last = demo.entries()
    statements = {name: views.statement(db, name) for name in views.balance_names(db)}
    for entry in range(1, last + 1):
        pools = views.pools(db, at=entry)
        assert pools["destiny"] == _running(statements["destiny"], entry), entry
        assert pools["doom"] == _running(statements["doom"], entry), entry
        for sheet in views.sheets(db, at=entry):
            assert sheet["stress"] == _running(statements[f"{sheet['name']}:stress"], entry), (entry, sheet["name"])
            assert sheet["agony"] == _running(statements[f"{sheet['name']}:agony"], entry), (entry, sheet["name"])


def test_the_statement_answers_why_doom_is_what_it_is(demo):
    rows = demo.json("statement", "doom")["entries"]
    assert [r["change"] for r in rows if r["change"]] == [3, -1, 2, 1, 1]
    assert rows[-1]["balance"] == demo.json("pools")["doom"] == 6
    assert "Alarm Bells" in rows[2]["line"]


def test_a_sheet_at_an_entry_is_the_sheet_as_it_stood(demo):
    assert demo.json("sheet", "Bo", "--at", "50")["status"] == "Stressed Out"
    assert demo.json("sheet", "Bo", "--at", "48")["stress"] == 5
    assert demo.json("sheet", "Bo")["stress"] == 0
    assert [s["name"] for s in demo.json("sheet", "--at", "4")] == ["Kira"]


def test_history_at_an_entry_ends_there(demo):
    assert [r["entry"] for r in demo.json("history", "--at", "5")] == [1, 2, 3, 4, 5]


def test_at_a_time_is_the_last_entry_made_by_then(demo):
    times = demo.json("history")
    first_time = times[0]["time"]
    upto = [r["entry"] for r in times if r["time"] <= first_time]
    assert demo.json("pools", "--at", first_time.replace("+00:00", ""))["at"] == max(upto)
    assert "--at takes an entry number" in demo.refused("pools", "--at", "yesterday")


def test_an_unknown_balance_is_refused_with_the_known_ones(demo):
    assert "balances: Ash:agony" in demo.refused("statement", "gold")


def test_every_ruleset_shows_its_own_sheets_and_pools_now_and_at_an_entry(tmp_path):
    from tests.conftest import Table
    gate = Table(tmp_path / "gate.db")
    gate("demo", "--system", "decision-2d6")
    torches = lambda t, *at: next(i for i in t.json("pools", *at)["supplies"] if i["item"] == "Torches")  # noqa: E731
    assert torches(gate)["die"] == "Empty"
    assert torches(gate, "--at", "9")["die"] == "D4" and torches(gate, "--at", "8")["die"] == "D6"
    run = Table(tmp_path / "run.db")
    run("demo", "--system", "beer-run")
    intensity = {r["name"]: r["intensity"] for r in run.json("pools", "--at", "3")}
    assert intensity["Ann"] == 10
    assert [s["name"] for s in run.json("sheet", "--at", "2")] == ["Ann"]
    archive = Table(tmp_path / "archive.db")
    archive("demo", "--system", "action-dice")
    assert "keeps no pools" in archive("pools").stdout
    assert archive.json("sheet", "Mara", "--at", "5")["conditions"] == []


JOINING = {  # issue 35, finding 10: a second character, in each ruleset
    "relics": ("pc", "add", "Ash", "--expertise", "Phantom=2", "--primary", "Phantom"),
    "beer-run": ("beer-run", "character", "add", "Ash", "--ability", "Physical:Brawn=d8,Physical:Health=d6"),
    "action-dice": ("action-dice", "character", "Ash", "--asset", "Athletics=d8"),
    "decision-2d6": ("decision-2d6", "pc-add", "Ash", "--level", "3", "--will", "2", "--fort", "3", "--stat",
                     "Strength=0"),
}


@pytest.mark.parametrize("ruleset", sorted(JOINING))
def test_a_sheet_before_its_character_joined_says_when_they_did(tmp_path, ruleset):
    """`sheet Ash --at 5` (Ash joined at #6) said there was no character named Ash; it names the entry
    where Ash's sheet begins, the first `--at` that shows it."""
    from tests.conftest import Table
    t = Table(tmp_path / "c.db")
    t("new", "Night", "--ruleset", ruleset)
    t("note", "before anyone")
    before = t.json("note", "still no one")["entries"][-1]
    joined = t.json(*JOINING[ruleset])["entries"]
    t("note", "after")
    first = next(e for e in joined if t("sheet", "Ash", "--at", str(e), ok=False).exit_code == 0)
    for at in (1, before, first - 1):
        line = t.refused("sheet", "ash", "--at", str(at))
        assert line == f"Error: Ash had not joined yet at entry #{at}: Ash's sheet begins at entry #{first}."
    result = t("sheet", "Ash", "--at", str(before), "--json", ok=False)
    assert result.exit_code == 1 and t.json("sheet", "Ash", "--at", str(first))["name"] == "Ash"
    assert '"rule": "unknown-character"' in result.stdout
    assert t.refused("sheet", "Nobody", "--at", str(before)) == \
        "Error: There is no character named 'Nobody' in this campaign."
