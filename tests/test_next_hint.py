"""The `Next:` line a turn prints is a command the GM can copy as it stands, whatever the name."""
from __future__ import annotations

import shlex

import pytest

from tests.conftest import Table


@pytest.mark.parametrize("name", ['Gate "X"', "Vault Guards", "Guards", "Zoë's $5 Door"])
def test_the_next_command_names_the_challenge_as_the_shell_reads_it(tmp_path, name):
    t = Table(tmp_path / "names.db")
    t("new", "Heist")
    t("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom")
    t("scenario", "start", "S")
    t("challenge", "open", name, "--threat", "Common", "--type", "Phantom", "--rating", "2")
    out = t("cohort-turn", name, "--leader", "Kira", "--faces", "2,2,2").stdout
    hint = next(line for line in out.splitlines() if line.startswith("Next: "))
    assert shlex.split(hint[len("Next: "):]) == ["campaign", "challenge-turn", name]
