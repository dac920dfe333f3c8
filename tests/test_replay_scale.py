"""A replay that reproduces its round leaves the later entries as recorded instead of playing them
all again (so replaying an early round costs the same however long the campaign): it must say
exactly what playing them again says, and a changed round must still play them."""
import pytest

from ledger.rulesets.relics import replay
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


@pytest.mark.parametrize("step", ["undo", "replay"])
def test_after_an_undo_or_a_correction_the_later_entries_are_played_again(demo, monkeypatch, step):  # noqa: F811
    if step == "undo":
        demo("undo", "--yes")
    else:
        demo("replay", "Vault Guards:3", "--commit")
    verdicts = []
    original = replay._as_recorded
    monkeypatch.setattr(replay, "_as_recorded", lambda *a: verdicts.append(original(*a)) or verdicts[-1])
    demo.json("replay", "Vault Guards:1")
    assert verdicts == [False]
