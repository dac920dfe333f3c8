"""Import bounds what it reads and checks what it takes as the commands do: a line with no end
(/dev/zero) is refused by its number and the bound, never read whole into memory; a campaign
name, or any value, that a command would refuse (a name past 200 characters, a control
character) is refused by its line; nothing is left behind."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from campaign_ledger.ledger.interchange import LINE_MAX
from campaign_ledger.ledger.values import NAME_MAX, TEXT_MAX
from tests.test_import_checks import _edit, _forge, _import, _refused, _rows


def test_a_line_without_end_is_refused_by_its_number_and_the_bound(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    message = _refused(tmp_path, Path("/dev/zero"))
    assert "Line 1 is longer than 16 MiB" in message, message


def test_an_over_long_line_after_good_ones_names_its_number(tmp_path):
    source = tmp_path / "long.jsonl"
    rows = _rows()
    with source.open("w", encoding="utf-8") as f:
        f.write(json.dumps(rows[0]) + "\n" + json.dumps(rows[1]) + "\n")
        f.write("x" * (LINE_MAX + 10) + "\n")
    assert "Line 3 is longer than 16 MiB" in _refused(tmp_path, source)


def test_a_line_just_within_the_bound_is_read(tmp_path):
    """The bound refuses nothing shorter: such a line is read, and refused (here) for what it says."""
    source = tmp_path / "near.jsonl"
    source.write_text(json.dumps(_rows()[0]) + "\n" + "y" * (LINE_MAX - 1) + "\n", encoding="utf-8")
    assert "Line 2 is not JSON" in _refused(tmp_path, source)


@pytest.mark.parametrize("length", [NAME_MAX + 1, 50 * 2**20 // 100])
def test_a_campaign_name_longer_than_a_command_takes_is_refused(tmp_path, length):
    def long_name(rows):
        rows[1]["data"]["name"] = "N" * length  # entry #1: the campaign started
    message = _refused(tmp_path, _edit(long_name)(tmp_path))
    assert "Line 2" in message and f"the most is {NAME_MAX}" in message, message


def test_the_header_campaign_name_is_checked_too(tmp_path):
    rows = _rows()
    rows[0]["campaign"] = "H" * (NAME_MAX + 1)
    message = _refused(tmp_path, _forge(rows, tmp_path / "header.jsonl"))
    assert "Line 1" in message and f"the most is {NAME_MAX}" in message, message


def test_any_text_a_command_would_refuse_is_refused(tmp_path):
    def control(rows):
        rows[2]["data"]["name"] = "Kira\x07"  # entry #2: a PC's name with a bell in it
    assert "control characters" in _refused(tmp_path, _edit(control)(tmp_path))

    def long_text(rows):
        rows[1]["data"]["rules_version"] = "v" * (TEXT_MAX + 1)
    assert f"the most is {TEXT_MAX:,}" in _refused(tmp_path, _edit(long_text)(tmp_path))


def test_the_fixture_still_imports(tmp_path):
    code, stderr = _import(tmp_path, _forge(_rows(), tmp_path / "same.jsonl"))
    assert code == 0, stderr
