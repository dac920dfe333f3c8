"""The one CLI contract (README, "The CLI contract"): what a script or a GM can rely on from
every command, whatever its ruleset."""
from __future__ import annotations

import tomllib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli import cli

ROOT = Path(__file__).resolve().parent.parent


def _walk(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path of the click tree, groups included."""
    found = [path]
    for name, command in group.commands.items():
        found += _walk(command, path + (name,)) if isinstance(command, click.Group) else [path + (name,)]
    return found


COMMAND_PATHS = _walk(cli)


def test_version_prints_the_package_version():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"campaign {version}"


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda p: " ".join(p) or "campaign")
def test_dash_h_is_help_for_every_command(path):
    short = CliRunner().invoke(cli, [*path, "-h"])
    long = CliRunner().invoke(cli, [*path, "--help"])
    assert short.exit_code == 0, short.output
    assert short.stdout == long.stdout and short.stdout.startswith("Usage: ")
