"""Import reads a command's detail once per distinct text (ledger/interchange_head.py): a head cut
where the export writes its command reads exactly as the whole head reads, a head cut anywhere
else is read whole, and the chain hashes and the command log stores the same bytes either way."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign_ledger.ledger.chain_hash import command_bytes
from campaign_ledger.ledger.interchange_head import Detail, decoded, hashed, loads, stored

JSON = st.recursive(st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False)
                    | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=10)
KEYS = st.text(max_size=8) | st.sampled_from(["command", "detail", "last", "name", "unit", "data"])


def _read(head: str, details: dict) -> object:
    """What decoded gives, or the error json.loads would raise."""
    try:
        return decoded(head, details)
    except ValueError as e:
        return ("refused", type(e))


def _whole(head: str) -> object:
    try:
        return json.loads(head + "}")
    except ValueError as e:
        return ("refused", type(e))


@settings(max_examples=500, deadline=None)
@given(front=st.dictionaries(KEYS, JSON, min_size=1, max_size=4), name=JSON, unit=JSON, detail=JSON,
       last=JSON, extra=st.dictionaries(KEYS, JSON, max_size=2))
def test_a_head_reads_as_json_reads_it_the_first_time_and_again(front, name, unit, detail, last, extra):
    command = {"name": name, "unit": unit, **extra, "detail": detail, "last": last}
    head = json.dumps({**front, "command": command}, ensure_ascii=False)[:-1]
    details: dict = {}
    assert _read(head, details) == _whole(head)
    assert _read(head, details) == _whole(head)  # the detail from the memo now


@pytest.mark.parametrize("head", [
    '{"entry": 1, "time": "x, \\"command\\": {", "command": {"name": "n", "detail": {"a": 1}, "last": 2}',
    '{"entry": 1, "command": {"name": "n", "detail": {"a": 1}, "last": 2}, "command": {"name": "m", "detail": {}, "last": 3}',
    '{"entry": 1, "command": {"name": {"detail": 1}, "detail": {"last": 5}, "last": 2}',
    '{"entry": 1, "command": {"name": "n", "last": 9, "detail": {"a": 1}, "last": 2}',
    '{"entry": 1, "command": {"name": "n", "detail": {"a": 1}, "z": 3, "last": 2}',
    '{"entry": 1, "command": {"name": "n", "detail": {"a": 1}, "last": 02}',
    '{"entry": 1, "command": {"name": "n", "detail": {"a": 1}, "last": -0}',
    '{"entry": 1, "command": {"name": "n", "detail": {"a": 1}}, "x": {"detail": 1, "last": 2}',
    '{, "command": {"name": "n", "detail": {"a": 1}, "last": 2}',
    '{"entry": 1, "command": {, "detail": {"a": 1}, "last": 2}',
    '{"entry": 1, "command": {"name": "n", "detail": , "last": 2}',
    '{"entry": 1, "command": {"name": "n", "detail": [1, {"a": 2}], "last": 2}',
    '{"entry": 1, "command": {"name": "n", "detail": ' + "[" * 100_000 + "]" * 100_000 + ', "last": 2}',
])
def test_a_head_cut_anywhere_else_reads_as_the_whole_head_reads(head):
    details: dict = {}
    for _ in range(2):
        try:
            assert _read(head, details) == _whole(head)
        except RecursionError:  # json.loads too refuses it so (the line is then refused as nested too deeply)
            with pytest.raises(RecursionError):
                json.loads(head + "}")


@settings(max_examples=300, deadline=None)
@given(name=st.none() | st.text(max_size=12), unit=st.none() | st.text(max_size=12),
       detail=st.dictionaries(st.text(max_size=8), JSON, max_size=4), last=st.integers(0, 2**40))
def test_a_detail_read_once_is_hashed_and_stored_as_its_dict_would_be(name, unit, detail, last):
    head = json.dumps({"entry": 1, "command": {"name": name, "unit": unit, "detail": detail, "last": last}},
                      ensure_ascii=False)[:-1]
    details: dict = {}
    for _ in range(2):
        command = decoded(head, details)["command"]
        row = (command["last"], command["name"], command["unit"], command["detail"])
        assert type(row[3]) is Detail and hashed(row) != row
        assert command_bytes(hashed(row)) == command_bytes((last, name, unit, detail))
        assert stored(row[3]) == json.dumps(detail or {})


@pytest.mark.parametrize("row", [
    (1, {"b": 1, "a": 2}, None, Detail({"x": 1})),  # a dict name: its keys are sorted only beside a dict detail
    (True, "n", None, Detail({"x": 1})),
    (1, "n", ["u"], Detail({"x": 1})),
    (1, "n", None, {"x": 1}),
    None,
])
def test_a_row_the_two_spellings_could_hash_apart_is_hashed_as_it_is(row):
    assert hashed(row) is row


@pytest.mark.parametrize("text", ['{"a": 1}', "", " 1", "1 ", '{"a":1} x', "\ufeff{}", "[[[", '{"a": }', "nul",
                                  '"x\\ud800"', "NaN", "-Infinity", "1.5e400", '{"a":1,"a":2}', "[" * 100_000])
def test_a_text_is_read_as_json_reads_it(text):
    def read(load: Any) -> object:
        try:
            return load(text)
        except (ValueError, RecursionError) as e:
            return type(e), str(e)
    assert repr(read(loads)) == repr(read(json.loads))  # repr: NaN is no value equal to itself
