"""Import checks meaning, not only hashes: a file whose hashes were recomputed over broken or
foreign content is refused by its line, runs no code it names, and leaves no file behind."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner

from campaign_ledger.cli import cli
from campaign_ledger.ledger.chain import GENESIS, entry_hash
from campaign_ledger.ledger.interchange import _encode, known_topics

FIXTURE = Path(__file__).parent / "fixtures" / "relics_demo_v1.jsonl"


def _rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _forge(rows: list[dict[str, Any]], path: Path) -> Path:
    """Write rows with every hash (and the closing line) recomputed: a forger who knows the chain."""
    previous, entries = GENESIS, [r for r in rows if "entry" in r]
    for row in entries:
        state = _encode(row["data"])
        row["hash"] = previous = entry_hash(previous, row["entry"], row["aggregate"], row["version"],
                                            row["type"], state)
    rows[-1] = {"end": True, "entries": len(entries), "last_hash": previous}
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _import(tmp_path: Path, source: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "copy.db"), "import", str(source)],
                                catch_exceptions=False)
    return result.exit_code, result.stderr


def _refused(tmp_path: Path, source: Path) -> str:
    """Refused in one Error line, and neither the campaign file nor its scratch copy is left behind."""
    code, stderr = _import(tmp_path, source)
    lines = stderr.strip().splitlines()
    assert code != 0 and len(lines) == 1 and lines[0].startswith("Error: "), stderr
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith("copy.db")]
    return lines[0]


def _edit(change: Callable[[list[dict[str, Any]]], None]) -> Callable[[Path], Path]:
    def make(tmp_path: Path) -> Path:
        rows = _rows()
        change(rows)
        return _forge(rows, tmp_path / "forged.jsonl")
    return make


def test_the_forger_helper_reproduces_the_real_hashes(tmp_path):
    """The tests below are only meaningful if a re-hashed but unchanged file imports."""
    code, stderr = _import(tmp_path, _forge(_rows(), tmp_path / "same.jsonl"))
    assert code == 0, stderr


def test_event_data_missing_fields_is_refused_by_its_line_though_every_hash_matches(tmp_path):
    def drop_name(rows: list[dict[str, Any]]) -> None:
        del rows[2]["data"]["name"]  # entry #2, line 3: PCJoined without the PC's name
    message = _refused(tmp_path, _edit(drop_name)(tmp_path))
    assert "Entry #2 (line 3)" in message and "nothing was imported" in message


def test_an_event_type_naming_any_module_is_refused_and_the_module_is_never_imported(tmp_path):
    sys.modules.pop("this", None)

    def foreign(rows: list[dict[str, Any]]) -> None:
        rows[2]["type"] = "this:Foo"  # importing `this` prints the Zen of Python: a visible side effect
    message = _refused(tmp_path, _edit(foreign)(tmp_path))
    assert "Line 3" in message and "does not know" in message
    assert "this" not in sys.modules


def test_only_the_ledger_own_event_classes_are_known_topics():
    topics = known_topics()
    assert "ledger.campaign:Campaign.PCJoined" in topics
    assert {r["type"] for r in _rows() if "entry" in r} <= topics
    assert not [t for t in topics if not t.startswith("ledger.")]


def test_an_aggregate_version_out_of_step_is_refused_by_its_line(tmp_path):
    def skip(rows: list[dict[str, Any]]) -> None:
        rows[2]["version"] = 7  # collides with the record's real version 7 further on
    message = _refused(tmp_path, _edit(skip)(tmp_path))
    assert "Line 3 holds version 7" in message


def test_deeply_nested_json_names_its_line(tmp_path):
    source = tmp_path / "deep.jsonl"
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    lines[3] = "[" * 100_000 + "]" * 100_000
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    message = _refused(tmp_path, source)
    assert "Line 4" in message and "nested too deeply" in message


def test_invalid_utf8_names_its_line(tmp_path):
    source = tmp_path / "bad.jsonl"
    lines = FIXTURE.read_bytes().splitlines(keepends=True)
    lines[4] = lines[4].replace(b"\"type\"", b"\"t\xffype\"")
    source.write_bytes(b"".join(lines))
    message = _refused(tmp_path, source)
    assert "Line 5 is not UTF-8" in message


def test_an_export_without_entries_imports_an_empty_campaign_file_quietly(tmp_path):
    rows = _rows()
    source = _forge([rows[0], rows[-1]], tmp_path / "empty.jsonl")
    code, stderr = _import(tmp_path, source)
    assert code == 0 and "Traceback" not in stderr and os.path.exists(tmp_path / "copy.db")


@pytest.mark.parametrize("name", ["copy.db"])
def test_the_fixture_still_imports_plays_and_audits(tmp_path, name):
    db = str(tmp_path / name)
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", db, "import", str(FIXTURE)]).exit_code == 0
    assert runner.invoke(cli, ["--db", db, "scene", "start", "After the import"]).exit_code == 0
    audit = runner.invoke(cli, ["--db", db, "audit"])
    assert audit.exit_code == 0 and "Clean." in audit.stdout
