"""--db paths that name no usable file, refused in one line (issue 34, finding 9): `--db ''` gave an
OSError ("SQLite database name not found in environment"), and a file in a folder that does not
exist was called "on read-only media"."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import cli

COMMANDS = [("new", "Heist"), ("demo",), ("sheet",), ("session", "start", "One"), ("import", "x.jsonl")]


def _refused(*args: str) -> tuple[int, str, dict]:
    result = CliRunner().invoke(cli, [*args, "--json"], catch_exceptions=False)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in result.output, result.output
    return result.exit_code, lines[0], json.loads(result.stdout)


@pytest.mark.parametrize("args", COMMANDS)
def test_an_empty_db_is_malformed(tmp_path: Path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    code, line, answer = _refused("--db", "", *args)
    assert code == 2 and answer == {"error": line.removeprefix("Error: "), "code": 2, "rule": None}
    assert "--db is empty" in line
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("args", COMMANDS)
def test_a_file_in_a_missing_folder_names_the_folder(tmp_path: Path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.jsonl").write_text("")
    code, line, answer = _refused("--db", "campaigns/heist.db", *args)
    assert code == 1 and answer["rule"] in ("no-such-folder", "no-campaign-file"), line
    if answer["rule"] == "no-such-folder":  # a command that would make the file
        assert line == ("Error: the folder campaigns does not exist; create it first (`mkdir -p campaigns`) "
                        "or choose another --db. Nothing was recorded.")
    assert "read-only" not in line
    assert sorted(os.listdir(tmp_path)) == ["x.jsonl"]


def test_a_new_file_under_a_file_is_refused_naming_it(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("not a folder\n")
    code, line, answer = _refused("--db", "notes.txt/heist.db", "new", "Heist")
    assert code == 1 and answer["rule"] == "no-such-folder"
    assert line == "Error: notes.txt is a file, not a folder, so no campaign file can be made under it; choose another --db."


def test_help_still_answers_with_an_empty_db(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["--db", "", "sheet", "--help"], catch_exceptions=False)
    assert result.exit_code == 0 and "Usage: " in result.output and os.listdir(tmp_path) == []
