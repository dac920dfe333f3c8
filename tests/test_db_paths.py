"""--db paths that name no usable file, refused in one line (issue 34, finding 9): `--db ''` gave an
OSError ("SQLite database name not found in environment"), and a file in a folder that does not
exist was called "on read-only media"."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from campaign_ledger.cli import cli

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


# --- issue 35, finding 10: a name too long for the file system, or not UTF-8 ---------------------------

@pytest.mark.parametrize("args", COMMANDS)
def test_a_file_name_too_long_is_malformed_in_one_line(tmp_path: Path, monkeypatch, args):
    """A 300-character --db failed "unexpectedly (OperationalError: unable to open database file)"."""
    monkeypatch.chdir(tmp_path)
    code, line, answer = _refused("--db", "x" * 296 + ".db", *args)
    assert code == 2 and answer["rule"] is None
    assert line == ("Error: --db names a file of 299 bytes (xxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxx.db); with the "
                    "endings of the files kept beside it (.importing-journal) a campaign file's name may have at "
                    "most 237 bytes: choose a shorter name.")
    assert os.listdir(tmp_path) == []


def test_the_longest_name_taken_holds_a_campaign_and_its_import(table, tmp_path: Path):
    """237 bytes: room for SQLite's `-journal` beside the file and an import's `.importing-journal`."""
    table("export", "--format", "jsonl", "-o", str(tmp_path / "heist.jsonl"))
    longest = str(tmp_path / ("é" * 117 + ".db"))  # 2 bytes a letter: 237 bytes
    result = CliRunner().invoke(cli, ["--db", longest, "import", str(tmp_path / "heist.jsonl")], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(cli, ["--db", longest, "note", "still here"]).exit_code == 0
    code, line, _ = _refused("--db", str(tmp_path / ("é" * 118 + ".db")), "new", "Heist")
    assert code == 2 and "a file of 239 bytes" in line


def test_a_folder_name_or_a_path_too_long_is_malformed(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, line, _ = _refused("--db", "d" * 256 + "/heist.db", "new", "Heist")
    assert code == 2 and "--db names a folder of 256 bytes" in line and "at most 255 bytes" in line
    code, line, _ = _refused("--db", "d/" * 2100 + "heist.db", "new", "Heist")
    assert code == 2 and line.startswith("Error: --db is a path of 4,208 bytes (d/d/d/d/d/d/d/d/d/d/d/d/...d/d/heist.db)")
    assert os.listdir(tmp_path) == []


def test_a_db_that_is_not_utf8_or_holds_a_nul_is_malformed(tmp_path: Path, monkeypatch):
    """$CAMPAIGN_DB as the environment's bytes (no check of the line sees it), and a NUL only the shell
    or a script can put in an argument."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner(env={"CAMPAIGN_DB": "caf\udce9.db"}).invoke(cli, ["new", "Heist"], catch_exceptions=False)
    assert result.exit_code == 2 and result.stderr == "Error: --db ('caf\\xe9.db') is not UTF-8 text; name the " \
                                                      "campaign file in UTF-8.\n"
    code, line, _ = _refused("--db", "heist\x00.db", "new", "Heist")
    assert code == 2 and "NUL" in line
    assert os.listdir(tmp_path) == []


def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path):
    """Reading a FIFO waits for a writer: `--db fifo pools` hung for ever (a deadline, never a wait)."""
    import subprocess
    import sys

    os.mkfifo(tmp_path / "fifo")
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    for args in (["pools"], ["new", "Heist"]):
        done = subprocess.run([sys.executable, "-m", "campaign_ledger.cli", "--db", str(tmp_path / "fifo"), *args], cwd=root,
                              env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and done.stderr == f"Error: {tmp_path / 'fifo'} is a named pipe, not a campaign file.\n"
