"""Issue 16's fuzz test: random command lines against every command of every ruleset.

Each example copies a played demo campaign of one ruleset and types a few commands at it,
built from the CLI's own parameters with values a table might type and values nobody
should (huge numbers, empty, very long, control characters, other scripts). Whatever
happens: no traceback or "failed unexpectedly" reaches the GM, a refused command appends
nothing, and `audit` finds the ledger and its read tables clean afterwards.
"""
from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

from campaign_ledger.cli import cli
from campaign_ledger.commands.lazy import subcommands
from tests.conftest import Table

RULESET_GROUPS = ("beer-run", "action-dice", "decision-2d6")
SKIPPED = {("demo",), ("new",), ("import",), ("export",),  # they make or write files, not entries
           ("serve",)}  # it serves until stopped (tests/test_live.py)
HIDDEN = {"as_json", "key"}
PLAIN = ["Kira", "Bo", "Ash", "Vault Guards", "Cohort", "Shadowstep", "Smoke Bomb", "Ann", "Billy", "Torches",
         "Phantom", "Venger", "Scav", "Major", "Physical", "Health", "d6", "d8", "1", "3", "1,3,4", "2,2,5,6,6",
         "Kira=2", "Physical:Brawn=d8", "Phantom=3", "+1 / 1d", "-1 / 1d", "A6 / 1d", "+2d6", "scene", "event",
         "doom", "destiny", "cohort", "challenge", "Shadowstep=1", "Kira:Shadowstep", "Cal", "Bouncer", "Brawn",
         "Mara", "Tobin", "Lockpicks", "Nerve", "Ogre", "Arrows", "Strength", "Zed", "New one", "2", "4", "d10"]
HOSTILE = ["", " ", "9" * 25, "-" + "9" * 25, str(2**63), "x" * 250, "y" * 2100, "a\nb", "tab\there", "\x00",
           "\x1b[31m", "Ñoño 🐉", "\u2028", "-1", "0", "1e9", "%s_%", "'; DROP TABLE traits; --"]
VALUES = st.one_of(st.sampled_from(PLAIN), st.sampled_from(PLAIN), st.sampled_from(PLAIN),  # most land somewhere
                   st.sampled_from(HOSTILE), st.integers(-(2**70), 2**70).map(str), st.text(max_size=12))


def _commands(group: click.Group = cli, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    """Every leaf command of the CLI with its path, e.g. (("beer-run", "intensity"), command)."""
    found = []
    for name, command in sorted(subcommands(group).items()):
        if isinstance(command, click.Group):
            found += _commands(command, path + (name,))
        elif path + (name,) not in SKIPPED:
            found.append((path + (name,), command))
    return found


def _for(ruleset: str) -> list[tuple[tuple[str, ...], click.Command]]:
    """The commands a GM of this ruleset types: the shared ones and the ruleset's own group."""
    others = set(RULESET_GROUPS) - {ruleset}
    return [(p, c) for p, c in _commands() if p[0] not in others]


@st.composite
def command_lines(draw: st.DrawFn, commands: list) -> list[str]:
    path, command = draw(st.sampled_from(commands))
    line = list(path)
    for param in command.params:
        if param.name in HIDDEN:
            continue
        if isinstance(param, click.Argument):
            if param.required or draw(st.booleans()):
                line.append(draw(VALUES))
        elif param.required or draw(st.integers(0, 3)) == 0:
            line += _option(draw, param)
    return line


def _option(draw: st.DrawFn, option: click.Option) -> list[str]:
    name = max(option.opts, key=len)
    if option.is_flag:
        return [name]
    if isinstance(option.type, click.Choice) and draw(st.booleans()):
        return [name, draw(st.sampled_from(list(option.type.choices)))]
    return [name, draw(VALUES)]


@pytest.fixture(scope="module")
def demos(tmp_path_factory) -> dict[str, Path]:
    """One played demo campaign per ruleset, copied for each example."""
    folder = tmp_path_factory.mktemp("demos")
    made = {}
    for ruleset in ("relics", *RULESET_GROUPS):
        made[ruleset] = folder / f"{ruleset}.db"
        Table(made[ruleset])("demo", "--system", ruleset)
    return made


COUNTER = itertools.count()


def _copy(source: Path, target: Path) -> None:
    """A consistent copy through SQLite's backup: a plain file copy can miss what still sits in the
    write-ahead log, leaving read tables that name entries the copied ledger lacks."""
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


@pytest.mark.parametrize("ruleset", ["relics", *RULESET_GROUPS])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_random_command_lines_never_break_a_campaign(demos, tmp_path, monkeypatch, ruleset, data):
    monkeypatch.chdir(tmp_path)  # a drawn `-o d10` writes there, not into the checkout
    path = tmp_path / f"fuzz-{next(COUNTER)}.db"
    _copy(demos[ruleset], path)
    table = Table(path)
    for line in data.draw(st.lists(command_lines(_for(ruleset)), min_size=1, max_size=4)):
        before = table.entries()
        result = table(*line, ok=False)
        said = result.output + (result.stderr or "")
        event("appended" if table.entries() > before else f"exit {result.exit_code}")
        assert "Traceback" not in said and "unexpectedly" not in said, (line, said)
        assert "were recorded" not in said, (line, said)  # the read tables refused an entry the ledger took
        if result.exit_code != 0:
            assert table.entries() == before, (line, said)
    audit = table("audit", ok=False)
    assert audit.exit_code == 0, audit.output
