"""Import hashes the bytes it read: an export line ends with its data spelled as the stored state,
so import keeps and hashes those bytes without encoding the decoded data again
(ledger/interchange_check.py `_entry_line`); any other line (an older export, a line edited by
hand) is read whole as before, and every check still holds."""
from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign_ledger.ledger import interchange_check, values
from campaign_ledger.ledger.interchange_check import _entry_line
from tests.conftest import Table

FIXTURE = Path(__file__).parent / "fixtures" / "relics_demo_v1.jsonl"


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    t = Table(folder / "demo.db")
    t("demo")
    path = folder / "demo.jsonl"
    t("export", "--format", "jsonl", "-o", str(path))
    return path


def _encoded(monkeypatch) -> list[int]:
    calls = [0]
    real = interchange_check.encode

    def counting(data):
        calls[0] += 1
        return real(data)
    monkeypatch.setattr(interchange_check, "encode", counting)
    return calls


def test_an_export_is_imported_without_encoding_any_entry_again(exported, tmp_path, monkeypatch):
    calls = _encoded(monkeypatch)
    Table(tmp_path / "copy.db")("import", str(exported))
    assert calls[0] == 0
    with sqlite3.connect(tmp_path / "copy.db") as copy, sqlite3.connect(exported.parent / "demo.db") as source:
        query = "SELECT rowid, state FROM stored_events ORDER BY rowid"
        assert copy.execute(query).fetchall() == source.execute(query).fetchall()


def test_an_older_export_is_read_whole_and_encoded_as_before(tmp_path, monkeypatch):
    calls = _encoded(monkeypatch)
    Table(tmp_path / "copy.db")("import", str(FIXTURE))
    entries = sum(1 for line in FIXTURE.read_text(encoding="utf-8").splitlines() if '"entry"' in line)
    assert calls[0] >= entries


def test_each_export_line_ends_with_its_stored_bytes(exported):
    with sqlite3.connect(exported.parent / "demo.db") as conn:
        states = dict(conn.execute("SELECT rowid, state FROM stored_events"))
    for line in exported.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if "entry" in row:
            cut = _entry_line(line)
            assert cut is not None and cut == (row, states[row["entry"]])


@pytest.mark.parametrize("line", [
    '{, "data": {}}',                                                    # no JSON at all
    '{"entry": 1, "command": {"detail": {"x": 1, "data": {"a": 1}}}}',   # a `data` inside another value
    '{"entry": 1, "data": {"a": 1}, "hash": "x"}',                       # the data not last
    '{"data": {"b": 2}, "entry": 1, "data": {"a": 1}}',                  # two of them
    '{"entry": 1, "time": "a, \\"data\\": b", "hash": "x"}',            # the words inside a string
    '{"entry": 1, "data": {"a": 1}} {"x": 2}',                           # two values
])
def test_a_line_cut_anywhere_but_its_last_top_level_data_is_read_whole(line):
    assert _entry_line(line) is None


def test_a_line_cut_at_its_data_reads_as_the_whole_line_reads():
    line = '{"entry": 1, "time": "x, \\"data\\": y", "hash": "h", "data": {"a": [1, "\\u00e9"], "b": null}}\n'
    row, state = _entry_line(line)
    assert row == json.loads(line) and json.loads(state) == row["data"]


def test_the_control_characters_refused_are_unicodes_categories_cc_zl_zp():
    import unicodedata

    refused = {c for c in map(chr, range(sys.maxunicode + 1)) if values._BREAKS.search(c)}
    assert refused == {c for c in map(chr, range(sys.maxunicode + 1))
                       if unicodedata.category(c) in ("Cc", "Zl", "Zp")}


JSON = st.recursive(st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(data=st.dictionaries(st.text(max_size=8), JSON, max_size=5))
def test_data_whose_text_shows_nothing_refusable_is_data_the_whole_check_passes(data):
    """The shortcut of interchange_check._check_values skips the walk over the decoded data only
    when the walk could not refuse: whatever it refuses shows in the JSON text."""
    from types import SimpleNamespace

    from campaign_ledger.ledger.errors import BadInput

    text = interchange_check.encode(data)
    try:
        values.check_recordable([SimpleNamespace(**data)])
    except BadInput:
        assert len(text) > values.TEXT_MAX or interchange_check.maybe_refused(text)


@settings(max_examples=2000, deadline=None)
@given(text=st.binary(max_size=60) | st.text(max_size=40).map(lambda t: t.encode("utf-8"))
       | st.lists(st.sampled_from([b"7", b"a", b"\\", b"\x1f", b"\x7f", b"\xc2\x85", b"\xe2\x80\xa8", "\u00e9".encode()]),
                  max_size=40).map(b"".join))
def test_the_quick_ascii_test_finds_what_the_one_pattern_finds(text):
    """interchange_check.maybe_refused (two C passes over an ASCII text) says what _MAYBE_REFUSED says
    of every text: control characters, a backslash, nineteen digits in a row, C1 and line separators."""
    assert interchange_check.maybe_refused(text) is (interchange_check._MAYBE_REFUSED.search(text) is not None)
