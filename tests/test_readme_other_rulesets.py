"""README's "The other rulesets" is the user's contract: each line of its action-dice and
decision-2d6 examples, typed in order into a fresh campaign, does what it says (issue 35: the
README rolled climb for a PC it had just incapacitated, and contested an Ogre it never added)."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from campaign_ledger.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def readme_groups() -> dict[str, list[list[str]]]:
    """The sh block's paragraphs by ruleset (`--ruleset X` on their `new` line), each command's words
    (an `export` line kept as it is: it names the file the commands after it use)."""
    section = (ROOT / "README.md").read_text().split("### The other rulesets", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    groups: dict[str, list[list[str]]] = {}
    for paragraph in block.strip().split("\n\n"):
        commands = [shlex.split(part, comments=True) for line in paragraph.splitlines()
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
