"""A damaged campaign file is named as damaged, with how to get the campaign back (issue 34, finding
9): a truncated file gave "the command failed unexpectedly (DatabaseError: database disk image is
malformed)"."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.conftest import Table

COMMANDS = [("sheet",), ("history",), ("session", "start", "One"), ("audit",), ("rebuild",),
            ("export", "--format", "jsonl"), ("new", "Heist"), ("demo",)]


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    Table(path)("demo")
    return path.read_bytes()


@pytest.mark.parametrize("args", COMMANDS)
def test_a_truncated_file_is_named_damaged_with_how_to_restore_it(tmp_path: Path, demo_file: bytes, args):
    path = tmp_path / "heist.db"
    path.write_bytes(demo_file[:len(demo_file) // 2])  # cut in half: a copy that stopped, a bad disk
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    result = Table(path)(*args, "--json", ok=False)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1, result.stderr
    assert lines[0].startswith(f"Error: {path} is damaged (database disk image is malformed)"), lines[0]
    assert "backup copy" in lines[0] and "import" in lines[0] and "unexpectedly" not in lines[0]
    assert json.loads(result.stdout)["rule"] == "damaged-file"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # the damaged file is left as it was
