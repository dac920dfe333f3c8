"""The rulesets' pages (docs/rulesets/<ruleset>.md, once README's "The other rulesets") are the
user's contract: each line of their action-dice and decision-2d6 examples, typed in order into a
fresh campaign, does what it says (issue 35: the README rolled climb for a PC it had just
incapacitated, and contested an Ogre it never added)."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from campaign_ledger.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def readme_groups() -> dict[str, list[list[str]]]:
    """Each ruleset page's first sh block by ruleset (`--ruleset X` on its `new` line), each command's
    words (an `export` line kept as it is: it names the file the commands after it use)."""
    groups: dict[str, list[list[str]]] = {}
    for page in ("action-dice", "decision-2d6"):
        block = (ROOT / "docs" / "rulesets" / f"{page}.md").read_text().split("```sh\n", 1)[1].split("```", 1)[0]
        commands = [shlex.split(part, comments=True) for line in block.strip().splitlines()
                    for part in line.split("; ")]
        words = [w for c in commands for w in c]
        groups[words[words.index("--ruleset") + 1]] = [c if c[0] == "export" else c[1:] for c in commands if c]
    return groups


@pytest.mark.parametrize("ruleset", ["action-dice", "decision-2d6"])
def test_the_readme_example_runs_line_by_line(tmp_path, monkeypatch, ruleset):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CAMPAIGN_DB", raising=False)
    runner = CliRunner()
    for words in readme_groups()[ruleset]:
        if words[0] == "export":
            monkeypatch.setenv(*words[1].split("=", 1))
            continue
        result = runner.invoke(cli, words, catch_exceptions=False)
        assert result.exit_code == 0, f"campaign {shlex.join(words)}: {result.output}"
        assert result.output.strip(), f"campaign {shlex.join(words)} printed nothing"
