"""A committed correction (`replay --commit`) reverses the round it corrects, then plays it again.
Undoing the correction restores that round in the state and in the record alike; correcting the
correction replaces its play only; a cascade through a correction is refused, naming it."""
import sqlite3

import pytest

CORRECTED = ("replay", "Vault Guards:3", "--destiny", "1", "--faces", "1")  # one Destiny for one more die
AGAIN = ("replay", "Vault Guards:3", "--destiny", "2", "--faces", "1")  # on the correction: two, one more die


@pytest.fixture
def demo(empty):
    empty("demo")
    return empty


def _pools(t):
    pools = t.json("pools")
    return pools["destiny"], pools["doom"]


def _marks(t, first, last):
    """Each history row's (reversed_at, reversed_by) for entries first..last."""
    return {r["entry"]: (r["reversed_at"], r["reversed_by"]) for r in t.json("history") if first <= r["entry"] <= last}


def _live(t):
    return {row["unit"]: tuple(row["entries"]) for row in t.json("undo", "--list", "--limit", "50")}


def _replayed(t, *args):
    """The figures a replay shows for the round, before it is committed."""
    rows = t.json(*args)["after_round"]
    return {r["figure"]: r["replayed"] for r in rows}


def _same_after_rebuild(t):
    history = t.json("history")
    t("rebuild")
    assert t.json("history") == history
    assert t("audit").exit_code == 0


def test_undoing_a_correction_brings_back_the_round_it_corrected_in_state_and_record(demo):
    before, original = _pools(demo), _live(demo)["Vault Guards:3"]
    demo(*CORRECTED, "--commit")
    correction = _live(demo)["Vault Guards:3"][0]  # its first entry: the reversal of the round it corrects
    assert _marks(demo, *original) == {e: (correction, "replay Vault Guards:3") for e in range(original[0], original[1] + 1)}
    assert "Vault Guards:3" in _live(demo) and _live(demo)["Vault Guards:3"] != original
    demo("undo", "--yes")
    assert _pools(demo) == before
    assert _live(demo)["Vault Guards:3"] == original  # offered again: it stands
    assert set(_marks(demo, *original).values()) == {(None, None)}
    assert demo.json("replay", "Vault Guards:3")["undone_at"] is None
    _same_after_rebuild(demo)


def test_a_correction_corrected_again_replaces_its_play_and_each_undo_steps_back_one(demo):
    before = _pools(demo)
    demo(*CORRECTED, "--commit")
    once = _pools(demo)
    shown = _replayed(demo, *AGAIN)
    demo(*AGAIN, "--commit")  # refused before: the correction's undo brought the resolved round back under it
    assert _pools(demo) == (shown["Destiny"], shown["Doom"]) != once
    _same_after_rebuild(demo)
    demo("undo", "--yes")
    assert _pools(demo) == once
    first_correction = _live(demo)["Vault Guards:3"]
    assert set(_marks(demo, *first_correction).values()) == {(None, None)}
    _same_after_rebuild(demo)
    demo("undo", "--yes")
    assert _pools(demo) == before
    _same_after_rebuild(demo)


def test_a_cascade_through_a_correction_is_refused_naming_it(demo):
    demo(*CORRECTED, "--commit")
    refusal = demo.refused("undo", "Vault Guards:2", "--cascade", "--yes")
    assert "Vault Guards:3 is a committed correction: undo it first" in refusal
    demo("undo", "Vault Guards:3", "--yes")  # the correction: its round stands again
    demo("undo", "Vault Guards:2", "--cascade", "--yes")
    assert not {"Vault Guards:2", "Vault Guards:3", "push Bo #1"} & set(_live(demo))
    _same_after_rebuild(demo)


def test_a_correction_of_an_earlier_round_reverses_a_later_correction_by_its_play(demo):
    demo(*CORRECTED, "--commit")
    shown = _replayed(demo, "replay", "Vault Guards:2", "--destiny", "0")
    demo("replay", "Vault Guards:2", "--destiny", "0", "--commit", "--cascade")
    assert _pools(demo) == (shown["Destiny"], shown["Doom"])
    assert [u for u in _live(demo) if u.startswith("Vault Guards")] == ["Vault Guards:2", "Vault Guards:1"]
    _same_after_rebuild(demo)


def test_a_file_marked_before_corrections_could_be_undone_is_derived_again(demo):
    original = _live(demo)["Vault Guards:3"]
    demo(*CORRECTED, "--commit")
    demo("undo", "--yes")
    with sqlite3.connect(demo.path) as db:  # as the read tables were kept before m015
        db.execute("UPDATE history SET reversed_at = ?, reversed_by = 'replay Vault Guards:3' WHERE entry BETWEEN ? AND ?",
                   (original[1] + 1, *original))  # any entry after the round: marks the old way
        db.execute("DROP TABLE unit_closed")
        db.execute("DROP INDEX history_reversed_at")
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm015_corrections_undone'")
    assert set(_marks(demo, *original).values()) == {(None, None)}
    assert demo("audit").exit_code == 0


def test_undo_list_says_a_cascade_through_a_correction_is_refused(demo):
    """The listing said '--cascade would also reverse' where the cascade is refused: it now gives
    the refusal the command gives, in the text and in --json."""
    demo(*CORRECTED, "--commit")
    row = next(r for r in demo.json("undo", "--list", "--limit", "50") if r["unit"] == "Vault Guards:2")
    refusal = demo.refused("undo", "Vault Guards:2", "--cascade", "--yes")
    assert row["cascade_refused"] and refusal == f"Error: {row['cascade_refused']}"
    assert "Vault Guards:3" in row["dependents"]
    text = demo("undo", "--list", "--limit", "50").output
    assert f"    --cascade refused: {row['cascade_refused']}" in text
    demo("undo", "Vault Guards:3", "--yes")  # the correction undone: the cascade is allowed again
    row = next(r for r in demo.json("undo", "--list", "--limit", "50") if r["unit"] == "Vault Guards:2")
    assert row["cascade_refused"] is None
