"""The attribute hooks that note what a command reads and writes are on only while a command
records (ledger/reversible.py `_hooks`): off, aggregates read at C speed; on, every thread's
recording notes its own reads and nobody else's."""
import threading
import uuid

from campaign_ledger.ledger.reversible import Reversible, recording


class Crate(Reversible):
    def __init__(self, label: str) -> None:
        self.label = label


def _hooked() -> bool:
    return "__getattribute__" in vars(Reversible) and "__setattr__" in vars(Reversible)


def test_the_hooks_are_on_only_while_a_command_records_and_nested_recordings_keep_them():
    crate = Crate(label="rope")
    assert not _hooked()
    outer: set = set()
    with recording(outer):
        assert _hooked()
        inner: set = set()
        with recording(inner):
            crate.label
        with recording(None):  # loading: nothing noted, hooks stay for the outer recording
            crate.label
            assert _hooked()
        crate.label = "chain"
        assert _hooked()
    assert not _hooked()
    assert inner == {(str(crate.id), "label")} and outer == {(str(crate.id), "label")}
    with recording(set()):
        pass
    crate.label  # noted by nobody: no recording open
    assert not _hooked() and crate.label == "chain"


def test_a_recording_in_one_thread_notes_nothing_for_another_and_the_hooks_go_when_both_end():
    crate = Crate(label="rope")
    started, go_on = threading.Event(), threading.Event()
    theirs: set = set()

    def other() -> None:
        with recording(theirs):
            started.set()
            go_on.wait(10)
            crate.label

    thread = threading.Thread(target=other)
    thread.start()
    assert started.wait(10)
    mine: set = set()
    with recording(mine):
        pass  # ends while the other thread still records: the hooks must stay for it
    assert _hooked()
    crate.label  # this thread records nothing now
    go_on.set()
    thread.join(10)
    assert mine == set() and theirs == {(str(crate.id), "label")}
    assert not _hooked()


def test_an_error_inside_a_recording_takes_the_hooks_off():
    try:
        with recording(set()):
            raise ValueError("refused")
    except ValueError:
        pass
    assert not _hooked() and Crate(label=str(uuid.uuid4())).label
