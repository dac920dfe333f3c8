"""Issue 38, seats: a player's seat at their own character, with an invite link whose token the
campaign file never holds (only its sha256), through the CLI and the library, each write undoable."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from campaign_ledger import CampaignError, open_campaign
from campaign_ledger.seats import qr_text, seat_key
from tests.conftest import Table, heist

URL = "http://table.test:8000"


@pytest.fixture
def camp(tmp_path: Path) -> tuple[Table, object]:
    """The heist (Kira and Bo) through the CLI, and the library's handle on the same file."""
    t = heist(tmp_path)
    handle = open_campaign(t.path)
    yield t, handle
    handle.close()


def test_seat_add_prints_the_invite_link_and_keeps_only_the_tokens_hash(camp, tmp_path: Path) -> None:
    t, c = camp
    out = t("seat", "add", "kira", "--player", "Ana", "--url", URL + "/").stdout
    [link] = [w for w in out.split() if w.startswith(URL)]
    token = link.rsplit("/join/", 1)[1]
    assert link == f"{URL}/join/{token}" and len(token) >= 32
    assert "Seat for Kira given to Ana" in out
    assert c.seat_by_token(token) == {"seat": "Kira", "pc": "Kira", "player": "Ana", "state": "active",
                                      "generation": 1, "actor": "seat:Kira"}
    assert not _token_anywhere(tmp_path, token, t)


def test_the_library_reports_the_seat_and_lists_it(camp) -> None:
    t, c = camp
    report = c.seat_add("Bo", "Cy")
    assert {k: report[k] for k in ("seat", "pc", "player")} == {"seat": "Bo", "pc": "Bo", "player": "Cy"}
    assert report["link_path"] == f"/join/{report['token']}"
    assert report["unit"] == "seat add Bo #1"
    assert c.seat_list() == [{"seat": "Bo", "pc": "Bo", "player": "Cy", "state": "active", "generation": 1,
                              "actor": "seat:Bo"}]
    assert t.json("seat", "list") == c.seat_list()
    assert c.seat_links() == [{"seat": "Bo", "pc": "Bo", "player": "Cy", "link_path": report["link_path"],
                               "token": report["token"]}]


def test_rotate_gives_a_new_link_and_the_old_one_opens_nothing(camp) -> None:
    t, c = camp
    old = c.seat_add("Kira", "Ana")["token"]
    rotated = t.json("seat", "rotate", "Kira", "--url", URL)
    assert rotated["link"] == URL + rotated["link_path"] and rotated["generation"] == 2
    assert rotated["token"] != old
    assert c.seat_by_token(old) is None
    assert c.seat_by_token(rotated["token"])["generation"] == 2
    assert [link["token"] for link in c.seat_links()] == [rotated["token"]]


def test_undo_of_a_rotate_brings_the_old_link_back(camp) -> None:
    t, c = camp
    old = c.seat_add("Kira", "Ana")["token"]
    new = c.seat_rotate("Kira")["token"]
    t("undo", "--yes")
    assert c.seat_by_token(old)["generation"] == 1
    assert c.seat_by_token(new) is None
    assert [link["token"] for link in c.seat_links()] == [old]


def test_revoke_closes_the_seat_and_undo_opens_it_again(camp) -> None:
    t, c = camp
    token = c.seat_add("Kira", "Ana")["token"]
    assert "Seat Kira revoked" in t("seat", "revoke", "Kira").stdout
    assert c.seat_by_token(token) is None
    assert c.seat_list()[0]["state"] == "revoked" and c.seat_links() == []
    c.undo()
    assert c.seat_by_token(token)["state"] == "active"


def test_undo_of_an_add_removes_the_seat(camp) -> None:
    t, c = camp
    token = c.seat_add("Kira", "Ana")["token"]
    assert "Kira unmade, as if never made" in c.undo()["history"][-1]["line"]
    assert c.seat_list() == [] and c.seat_by_token(token) is None
    again = c.seat_add("Kira", "Ana")["token"]
    assert again != token, "a seat given again opens with a link of its own, never the undone one's"
    assert c.seat_by_token(token) is None and c.seat_by_token(again)["player"] == "Ana"


def test_a_revoked_seat_given_again_has_a_new_link(camp) -> None:
    t, c = camp
    first = c.seat_add("Kira", "Ana")["token"]
    c.seat_revoke("Kira")
    second = c.seat_add("Kira", "Cy")["token"]
    assert second != first and c.seat_by_token(first) is None
    assert c.seat_by_token(second)["player"] == "Cy"


@pytest.mark.parametrize("forged", ["", "x" * 43, "A" * 200, "/join/abc", "\u202e"])
def test_a_forged_token_opens_nothing(camp, forged: str) -> None:
    t, c = camp
    real = c.seat_add("Kira", "Ana")["token"]
    assert c.seat_by_token(forged) is None
    assert c.seat_by_token(real[:-1] + ("A" if real[-1] != "A" else "B")) is None
    assert c.seat_by_token(None) is None  # type: ignore[arg-type]


def test_refusals_append_nothing(camp) -> None:
    t, c = camp
    c.seat_add("Kira", "Ana")
    assert "There is no character named 'Zed' in this campaign; its characters: Bo, Kira." in \
        t.refused("seat", "add", "Zed", "--player", "Ana")
    assert "Kira already has a seat, played by Ana" in t.refused("seat", "add", "Kira", "--player", "Cy")
    assert "There is no seat for 'Bo'" in t.refused("seat", "revoke", "Bo")
    assert "There is no seat for 'Guards'" in t.refused("seat", "rotate", "Guards")
    t("seat", "revoke", "Kira")
    assert "The seat for Kira is revoked" in t.refused("seat", "revoke", "Kira")
    assert "The seat for Kira is revoked" in t.refused("seat", "rotate", "Kira")
    assert "cannot be empty" in t.refused("seat", "add", "Bo", "--player", "  ")
    assert "bidirectional control" in t.refused("seat", "add", "Bo", "--player", "An\u202ea")
    assert "control characters" in t.refused("seat", "add", "Bo", "--player", "An\x07a")
    assert "cannot be empty" in t.refused("seat", "add", "", "--player", "Ana")


def test_refusals_carry_their_rules(camp) -> None:
    t, c = camp
    c.seat_add("Kira", "Ana")
    for call, rule in [(lambda: c.seat_add("Zed", "Ana"), "unknown-character"),
                       (lambda: c.seat_add("Kira", "Cy"), "seat-taken"),
                       (lambda: c.seat_rotate("Bo"), "unknown-seat")]:
        with pytest.raises(CampaignError) as refused:
            call()
        assert refused.value.rule == rule and refused.value.code == 1
    c.seat_revoke("Kira")
    with pytest.raises(CampaignError) as refused:
        c.seat_revoke("Kira")
    assert refused.value.rule == "seat-revoked"
    with pytest.raises(CampaignError) as malformed:
        c.seat_add("Bo", "")
    assert malformed.value.code == 2


def test_the_seat_key_is_beside_the_file_and_readable_by_its_owner_only(camp) -> None:
    t, c = camp
    key_file = Path(t.path + ".seat-key")
    assert not key_file.exists()
    c.seat_add("Kira", "Ana")
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    kept = key_file.read_bytes()
    c.seat_add("Bo", "Cy")
    assert key_file.read_bytes() == kept


def test_the_key_from_the_environment_makes_no_file_and_gives_the_same_links(camp, monkeypatch) -> None:
    t, c = camp
    monkeypatch.setenv("CAMPAIGN_SEAT_KEY", "a long table secret")
    token = c.seat_add("Kira", "Ana")["token"]
    assert not Path(t.path + ".seat-key").exists()
    assert c.seat_links()[0]["token"] == token
    monkeypatch.setenv("CAMPAIGN_SEAT_KEY", "another secret")
    assert c.seat_links() == [], "a key that does not give the recorded hash makes no link"
    assert c.seat_by_token(token)["seat"] == "Kira", "the hash alone answers who a token is"


def test_a_postgres_campaign_needs_the_key_in_the_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CAMPAIGN_SEAT_KEY", raising=False)
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
    with pytest.raises(CampaignError) as refused:
        seat_key(str(tmp_path / "read.db"), create=True)
    assert refused.value.rule == "no-seat-key" and "$CAMPAIGN_SEAT_KEY" in str(refused.value)
    assert not (tmp_path / "read.db.seat-key").exists()


def test_no_token_is_in_the_file_its_exports_or_its_history(camp, tmp_path: Path) -> None:
    t, c = camp
    tokens = [c.seat_add("Kira", "Ana")["token"], c.seat_rotate("Kira")["token"], c.seat_add("Bo", "Cy")["token"]]
    c.undo()
    c.seat_revoke("Kira")
    for token in tokens:
        assert not _token_anywhere(tmp_path, token, t), token
    lines = [h["line"] for h in c.history()]
    assert "Seat Kira's link rotated" in lines and "Seat Kira revoked" in lines
    assert c.audit()["clean"] and t.differs_from_rebuild() == []


def test_a_keyed_seat_add_run_again_appends_nothing(camp) -> None:
    t, c = camp
    t("seat", "add", "Kira", "--player", "Ana", "--url", URL, "--key", "seat-1")
    before = t.entries()
    out = t("seat", "add", "Kira", "--player", "Ana", "--url", URL, "--key", "seat-1").stdout
    assert "nothing appended" in out and t.entries() == before


def test_a_renamed_character_keeps_its_seat(camp) -> None:
    t, c = camp
    token = c.seat_add("Kira", "Ana")["token"]
    t("pc", "rename", "Kira", "Kat")
    t("seat", "rotate", "Kat")
    assert c.seat_by_token(token) is None and c.seat_list()[0]["generation"] == 2
    assert "already has a seat" in t.refused("seat", "add", "Kat", "--player", "Cy")
    # the seat keeps its name and actor; its character is named as it stands, for the player's page
    assert c.seat_list() == [{"seat": "Kira", "pc": "Kat", "player": "Ana", "state": "active", "generation": 2,
                              "actor": "seat:Kira"}]
    assert "Kira (now Kat): Ana (active, link 2)" in t("seat", "list").stdout


@pytest.mark.parametrize("system", ["beer-run", "action-dice", "decision-2d6"])
def test_every_ruleset_seats_its_characters(tmp_path: Path, system: str) -> None:
    t = Table(tmp_path / "c.db")
    t("demo", "--system", system)
    named = t.refused("seat", "add", "Nobody Here", "--player", "Ana").rsplit("its characters: ", 1)[1]
    first = named.rstrip(".").split(", ")[0]
    report = t.json("seat", "add", first, "--player", "Ana", "--url", URL)
    assert report["seat"] == first and report["link"] == URL + report["link_path"]
    with open_campaign(t.path) as c:
        assert c.seat_by_token(report["token"])["actor"] == f"seat:{first}"
    t("undo", "--yes")
    assert t.json("seat", "list") == []


def test_the_qr_code_is_segnos_terminal_drawing_of_the_link(camp) -> None:
    import io

    import segno

    t, c = camp
    out = t("seat", "add", "Kira", "--player", "Ana", "--url", URL, "--qr").stdout
    [link] = [w for w in out.split() if w.startswith(URL)]
    drawn = qr_text(link)
    expected = io.StringIO()
    segno.make(link, error="m").terminal(out=expected, compact=True)
    assert drawn == expected.getvalue() and drawn in out
    rows = drawn.splitlines()
    assert len(rows) > 15 and len({len(r) for r in rows}) == 1


def test_the_default_link_is_this_computers_address_on_port_8000(camp) -> None:
    t, c = camp
    out = t("seat", "add", "Kira", "--player", "Ana").stdout
    [link] = [w for w in out.split() if "/join/" in w]
    assert link.startswith("http://") and ":8000/join/" in link


def _token_anywhere(folder: Path, token: str, t: Table) -> bool:
    """The token in any file of the folder but the seat key (the campaign file and its journal), or in
    any of the four exports."""
    for fmt in ("jsonl", "md", "html", "csv"):
        t("export", "--format", fmt, "-o", str(folder / f"export.{fmt}"))
    for path in folder.iterdir():
        if path.is_file() and not path.name.endswith(".seat-key") and token.encode() in path.read_bytes():
            return True
    return False


@pytest.mark.parametrize("read", [None, "postgres"])
def test_a_postgresql_campaign_seats_with_the_key_from_the_environment(tmp_path: Path, monkeypatch,
                                                                        read: str | None) -> None:
    """The ledger on PostgreSQL (and its read tables too, with CAMPAIGN_READ=postgres): refused without
    $CAMPAIGN_SEAT_KEY, nothing appended; with it, seated, and the link made again from it."""
    from tests.test_postgres import databases

    made = databases(monkeypatch, read)
    next(made)
    try:
        monkeypatch.delenv("CAMPAIGN_SEAT_KEY", raising=False)
        t = Table(tmp_path / "read.db")
        t("demo")
        assert "$CAMPAIGN_SEAT_KEY" in t.refused("seat", "add", "Kira", "--player", "Ana")
        monkeypatch.setenv("CAMPAIGN_SEAT_KEY", "the club's secret")
        report = t.json("seat", "add", "Kira", "--player", "Ana", "--url", URL)
        with open_campaign(t.path) as c:
            assert c.seat_links()[0]["token"] == report["token"]
            assert c.seat_by_token(report["token"])["seat"] == "Kira"
        t("undo", "--yes")
        assert t.json("seat", "list") == [] and not Path(t.path + ".seat-key").exists()
    finally:
        next(made, None)
