"""Issue 35, finding 3: what an argument may hold. A byte that is not UTF-8 (`pc add $'Bad\\xffName'`)
failed "unexpectedly" (UnicodeEncodeError, exit 1, rule "failed") in every command that stored or
looked it up; it is malformed input (exit 2), refused once for every command, naming the argument.
A bidirectional control (`\\u202eevil` reads "live") was accepted in names while every other control
character was refused; and a refusal quoting a name raw could be split by a line break in it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_ledger.cli import cli
from campaign_ledger.commands.completion import walk
from campaign_ledger.ledger import values
from tests.conftest import Table

ROOT = Path(__file__).resolve().parent.parent
BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f",
        "\u061c"]


def run_bytes(path: str, *args: bytes) -> subprocess.CompletedProcess:
    """`campaign --db PATH ARGS` exec'd with the raw bytes a terminal set to Latin-1 sends."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable.encode(), b"-m", b"campaign_ledger.cli", b"--db", path.encode(), *args], cwd=ROOT, env=env,
                          capture_output=True, timeout=120)


@pytest.mark.parametrize("args, named", [
    ((b"pc", b"add", b"Bad\xffName", b"--expertise", b"Phantom=3", b"--primary", b"Phantom"), "the argument NAME"),
    ((b"note", b"caf\xe9"), "the argument TEXT"),
    ((b"sheet", b"\xff"), "the argument NAME"),
    ((b"cohort-turn", b"Guards", b"--leader", b"K\xe9ra"), "the value of --leader"),
])
def test_a_byte_that_is_not_utf8_is_malformed_and_names_its_argument(table, args, named):
    before = table.entries()
    done = run_bytes(table.path, *args, b"--json")
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith(f"Error: {named} ("), done.stderr
    assert "is not UTF-8 text" in lines[0] and "unexpectedly" not in lines[0]
    shown = next(b for b in args if any(c > 0x7f for c in b)).decode("ascii", "backslashreplace")
    assert f"('{shown}')" in lines[0]  # the byte as an escape: `caf\xe9`
    assert json.loads(done.stdout) == {"error": lines[0].removeprefix("Error: "), "code": 2, "rule": None}
    assert table.entries() == before


def test_every_command_refuses_one_before_reading_anything(tmp_path):
    """The check is the root's: every command of every ruleset, whatever it does with the argument
    (a file that does not exist is never reached: refused before it is opened)."""
    path = str(tmp_path / "none.db")
    for names, _ in walk(cli):
        result = Table(path).runner.invoke(cli, ["--db", path, *names, "Bad\udcffName"], catch_exceptions=False)
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1, (names, result.output)
        assert "('Bad\\xffName') is not UTF-8 text" in lines[0], (names, lines)
    assert os.listdir(tmp_path) == []


def test_the_shell_refuses_such_a_line_and_goes_on(table):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-m", "campaign_ledger.cli", "--db", table.path, "shell"], cwd=ROOT, env=env,
                          input=b"note caf\xe9\nnote fine\n", capture_output=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode().splitlines() == [
        "Error: the argument TEXT ('caf\\xe9') is not UTF-8 text: byte \\xe9 cannot be read as UTF-8 (is the "
        "terminal set to another encoding?); type it in UTF-8."]
    assert "Note: fine" in done.stdout.decode()


@pytest.mark.parametrize("mark", BIDI, ids=[f"U+{ord(c):04X}" for c in BIDI])
def test_a_bidirectional_control_in_a_new_name_is_refused(table, mark):
    line = table.refused("pc", "add", f"{mark}evil", "--expertise", "Phantom=3", "--primary", "Phantom")
    assert line == (f"Error: A PC's name cannot hold a bidirectional control character (U+{ord(mark):04X}): it "
                    "would reorder how the text around it reads.")
    table("pc", "add", "evil", "--expertise", "Phantom=3", "--primary", "Phantom")  # without it, the name is fine


@pytest.mark.parametrize("args", [
    ("note", "look \u202eright"),
    ("challenge", "open", "\u2067Gate", "--threat", "Minor", "--type", "Phantom", "--rating", "2"),
    ("trait", "add", "Kira", "Keen\u200fEye", "+2 / 1d"),
    ("pc", "rename", "Kira", "Ki\u202ara"),
    ("session", "start", "Night \u2066one"),
])
def test_every_kind_of_name_and_text_refuses_one(table, args):
    result = table(*args, ok=False)
    assert result.exit_code == 2 and "bidirectional control character" in result.stderr, result.output


@pytest.mark.parametrize("ruleset, args", [
    ("beer-run", ("beer-run", "character", "add", "\u202eAnn", "--ability", "Physical:Brawn=d8")),
    ("action-dice", ("action-dice", "character", "Ma\u202era", "--asset", "Athletics=d8")),
    ("decision-2d6", ("decision-2d6", "pc-add", "\u202eBilly", "--level", "3", "--will", "2", "--fort", "3",
                      "--stat", "Strength=0")),
])
def test_every_ruleset_refuses_one(tmp_path, ruleset, args):
    t = Table(tmp_path / "c.db")
    t("new", "Night", "--ruleset", ruleset)
    result = t(*args, ok=False)
    assert result.exit_code == 2 and "bidirectional control character (U+202E)" in result.stderr, result.output


def test_a_name_recorded_before_the_rule_can_still_be_named_and_renamed(table, monkeypatch):
    """The rule is on what is typed anew, not the net under every entry: a campaign that holds such a
    name from before keeps playing, and the GM can rename it."""
    monkeypatch.setattr(values, "BIDI_CONTROLS", frozenset())
    table("pc", "add", "\u202eevil", "--expertise", "Phantom=3", "--primary", "Phantom")
    monkeypatch.undo()
    table("pc", "retire", "\u202eevil", "--reason", "the name reads backwards")
    table("pc", "rename", "\u202eevil", "Evil")
    assert "Evil" in table("sheet", "Evil").stdout
    export = str(Path(table.path).parent / "heist.jsonl")
    table("export", "--format", "jsonl", "-o", export)  # its PC joined under that name: the import takes it
    copy = Table(Path(table.path).parent / "copy.db")
    copy("import", export)
    assert copy.json("sheet", "Evil")["name"] == "Evil"


@pytest.mark.parametrize("name, shown", [("a\nb", "a\\nb"), ("\u202eevil", "\\u202eevil"), ("x\x1b[2Jy", "x\\x1b[2Jy")])
def test_a_refusal_quoting_a_name_stays_one_line_as_typed(table, name, shown):
    line = table.refused("sheet", name)
    assert line == f"Error: There is no character named '{shown}' in this campaign."
    result = table("sheet", name, "--json", ok=False)
    assert json.loads(result.stdout)["error"] == line.removeprefix("Error: ")
