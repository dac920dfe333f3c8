"""A replay that reproduces its round leaves the later entries as recorded instead of playing them
all again (so replaying an early round costs the same however long the campaign): it must say
exactly what playing them again says, and a changed round must still play them."""
import pytest

from campaign_ledger.ledger.rulesets.relics import replay
from tests.test_replay import _rounds, demo  # noqa: F401 (the demo fixture)


def test_a_reproduced_round_reports_what_playing_every_later_entry_again_reports(demo, monkeypatch):  # noqa: F811
    for key in _rounds(demo):
        shortcut = demo.json("replay", key)
        with monkeypatch.context() as m:
            m.setattr(replay, "_as_recorded", lambda *a: False)
            played = demo.json("replay", key)
        assert shortcut == played, key


def test_a_changed_round_plays_the_later_entries_again(demo, monkeypatch):  # noqa: F811
    verdicts = []
    original = replay._as_recorded
    monkeypatch.setattr(replay, "_as_recorded", lambda *a: verdicts.append(original(*a)) or verdicts[-1])
    report = demo.json("replay", "Vault Guards:2", "--drop-trait", "Bo:Steady Hands", "--challenge-faces", "6,6,1",
                       "--stress", "Bo=2,Kira=1")
    assert verdicts == [False]
    assert any(r["changed"] for r in report["after_later_rounds"])
    assert demo.json("replay", "Vault Guards:1") and verdicts == [False, True]


AFTERWARDS = {  # what a GM may do after the rounds: each leaves some rounds standing, some taken back
    "undo the latest": [["undo", "--yes"]],
    "undo a middle round and what used it": [["undo", "Vault Guards:2", "--cascade", "--yes"]],
    "undo a Push alone": [["undo", "push Bo #1", "--cascade", "--yes"]],
    "correct the last round": [["replay", "Vault Guards:3", "--commit"]],
    "correct it, then undo the correction": [["replay", "Vault Guards:3", "--commit"], ["undo", "--yes"]],
    "undo, then play on": [["undo", "--yes"], ["note", "after the undo"]],
}


@pytest.mark.parametrize("afterwards", AFTERWARDS)
def test_after_undos_and_corrections_a_reproduced_round_still_reports_what_playing_again_reports(
        demo, monkeypatch, afterwards):  # noqa: F811
    """Undos and corrections later than the round are later entries like any other: a standing round
    replayed as recorded takes the shortcut (a GM who ever undid anything would otherwise wait for
    every later entry to be played again: 67 s at 100,000 entries), and says what playing again says."""
    for args in AFTERWARDS[afterwards]:
        demo(*args)
    verdicts = []
    original = replay._as_recorded
    monkeypatch.setattr(replay, "_as_recorded", lambda *a: verdicts.append(original(*a)) or verdicts[-1])
    standing = _rounds(demo)
    assert standing
    for key in ["Vault Guards:1", "Vault Guards:2", "Vault Guards:3"]:
        verdicts.clear()
        shortcut = demo.json("replay", key)
        with monkeypatch.context() as m:
            m.setattr(replay, "_as_recorded", lambda *a: False)
            played = demo.json("replay", key)
        assert shortcut == played, key
        if "after_later_rounds" not in shortcut:
            assert verdicts == [], key  # nothing after it: nothing to play again
        else:
            assert verdicts == [key in standing], key  # the shortcut, unless the round was taken back


def test_a_round_that_was_undone_plays_the_later_entries_again(demo, monkeypatch):  # noqa: F811
    """Its what-if keeps the round the record took back: the later entries are played on it."""
    demo("undo", "Vault Guards:2", "--cascade", "--yes")
    verdicts = []
    original = replay._as_recorded
    monkeypatch.setattr(replay, "_as_recorded", lambda *a: verdicts.append(original(*a)) or verdicts[-1])
    report = demo.json("replay", "Vault Guards:2")
    assert report["undone_at"] is not None
    assert verdicts == [False]


ROUNDS_ONLY = [["new", "Rounds", "--ruleset", "relics"], ["pc", "add", "Kira", "--expertise", "Phantom=3", "--primary",
               "Phantom"], ["pc", "add", "Bo", "--expertise", "Phantom=2", "--primary", "Phantom"],
               ["scenario", "start", "Heist"], ["challenge", "open", "Guards", "--threat", "major", "--type", "phantom",
                                                  "--rating", "3"]]
NULL_ROUND = [["cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2,2"], ["challenge-turn", "Guards",
                                                                                  "--faces", "2,2,2"]]
CHANGED = ("--challenge-faces", "6,6,6", "--stress", "Kira=2,Bo=1")


def test_what_follows_a_round_found_by_round_names_plays_as_found_in_the_whole_log(empty, monkeypatch):
    """An undone or changed round plays the later entries again; when only rounds, notes and reversals
    of rounds follow, they are found by those rounds' names (not by every unit since the campaign
    began): the report must be the one the whole log gives, through undos, a correction and its undo."""
    from campaign_ledger.ledger import replay as replaying

    for args in ROUNDS_ONLY + NULL_ROUND * 3:
        empty(*args)
    empty("note", "after round 3")
    quick = []
    found = replaying.incarnations_after
    monkeypatch.setattr(replay, "incarnations_after", lambda *a: quick.append(found(*a)) or quick[-1])

    def both(*args: str) -> None:
        by_names = empty.json("replay", *args)
        with monkeypatch.context() as m:
            m.setattr(replay, "incarnations_after", lambda *a: None)
            whole = empty.json("replay", *args)
        assert by_names == whole, args

    for step in (["undo", "Guards:3", "--yes"], ["undo", "Guards:2", "--yes"], ["replay", "Guards:2", "--commit"],
                 ["undo", "--yes"], ["note", "after the undo"]):
        empty(*step)
        quick.clear()
        both("Guards:3")  # undone: its what-if plays what stands after it
        both("Guards:2", *CHANGED)
        both("Guards:1", *CHANGED)
        assert len(quick) >= 2 and all(q is not None for q in quick), step  # found by names every time
