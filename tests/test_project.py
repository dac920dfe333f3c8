"""What a newcomer relies on: README's Quick start, CI running it, help for every command, the layout."""
import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from campaign_ledger.cli import cli
from campaign_ledger.commands.lazy import subcommands

ROOT = Path(__file__).resolve().parent.parent


def _quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_quick_start_has_two_commands_and_ci_runs_the_second_as_written():
    demo, tests = _quick_start()
    assert "campaign --db demo.db demo" in demo and "pytest" in tests
    assert tests in (ROOT / ".ci" / "run").read_text()


def test_the_quick_start_demo_command_plays_and_shows_the_demo(tmp_path):
    command = _quick_start()[0].split("&&", 1)[1].strip()  # the install part is what this suite runs under
    command = command.replace(".venv/bin/campaign", f"{shlex.quote(sys.executable)} -m campaign_ledger.cli", 1)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "Vault Guards is resolved" in result.stdout and "Bo Pushes the Limit" in result.stdout


@pytest.mark.skipif(not (Path(sys.prefix) / ".campaign-installed").is_file(), reason="the suite runs outside "
                    "the .venv tests/setup.sh makes (the second Quick start command runs it there)")
def test_the_first_quick_start_command_runs_as_written_on_the_tests_own_venv(tmp_path):
    """The whole first command, verbatim, in a copy of the project whose .venv is the one running
    these tests: setup.sh finds it installed (its stamp) and the demo plays through .venv/bin/campaign."""
    copy = tmp_path / "project"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", ".venv", "*.db", "__pycache__", ".hypothesis"))
    (copy / ".venv").symlink_to(sys.prefix)
    result = subprocess.run(_quick_start()[0], shell=True, cwd=copy, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "Vault Guards is resolved" in result.stdout and "Bo Pushes the Limit" in result.stdout


def _commands(group: click.Group, prefix: str = ""):
    for name, command in subcommands(group).items():
        if isinstance(command, click.Group):
            yield from _commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


@pytest.mark.parametrize("name, command", list(_commands(cli)))
def test_every_command_has_help_with_an_example_and_takes_json(name, command):
    assert command.help and "Example: campaign" in command.help, name
    assert any("--json" in p.opts for p in command.params), name


def _imported_modules(path: Path) -> set[str]:
    """Every module name an import statement of `path` names (`from a.b import c` names a.b and a.b.c)."""
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
    return names


def _imports(path: Path) -> set[str]:
    """The layers and libraries `path` imports: `campaign_ledger.ledger.x` counts as `ledger`."""
    names = set()
    for name in _imported_modules(path):
        parts = name.split(".")
        if parts[0] == "campaign_ledger" and len(parts) > 1:
            parts = parts[1:]
        names.add(parts[0])
    return names


LAYERS = ("ledger", "projections", "migrations", "commands", "web", "cli")


def test_every_module_imports_the_program_by_its_one_installed_name():
    """A bare `import ledger` would load a second copy of every module (and of every event class)
    beside campaign_ledger.ledger's, and would not exist in an installed wheel."""
    sources = [p for layer in ("campaign_ledger", "ledger", "projections", "migrations", "commands", "web",
                               "tests", "bench") for p in _sources(layer)]
    bare = sorted({(str(p.relative_to(ROOT)), name) for p in sources for name in _imported_modules(p)
                   if name.split(".")[0] in LAYERS})
    assert len(sources) > 300 and bare == [], bare


def _sources(folder: str, pattern: str = "*.py", at_least: int = 1) -> list[Path]:
    """The files a purity check walks; an empty glob would make the check pass vacuously."""
    found = sorted((ROOT / folder).rglob(pattern))
    assert len(found) >= at_least, f"{folder}/{pattern} found {len(found)} files"
    return found


def test_the_write_side_never_imports_the_read_side_or_the_cli():
    for path in _sources("ledger", at_least=20):
        assert not _imports(path) & {"projections", "cli", "commands", "migrations"}, path


def test_rules_modules_are_pure():
    rules = _sources("ledger/rulesets", "rules.py") + _sources("ledger/rulesets", "rules/*.py")
    assert {p.parent.name if p.name == "rules.py" else p.parent.parent.name for p in rules} >= \
        {"relics", "beer_run", "action_dice", "decision_2d6"}
    for path in rules:
        assert not _imports(path) & {"eventsourcing", "sqlite3", "sqlite_utils", "os", "random", "click"}, path


def test_the_read_side_never_imports_the_cli():
    for path in _sources("projections", at_least=10):
        assert not _imports(path) & {"cli", "commands"}, path


def test_command_modules_reach_the_ledger_only_through_the_application_and_its_values():
    for path in _sources("commands", at_least=4):
        assert "eventsourcing" not in _imports(path), path


def test_help_is_quick_because_heavy_modules_load_only_in_commands():
    code = "import sys, campaign_ledger.cli; print(sorted(m for m in ('eventsourcing', 'sqlite_utils') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# The core (ledger/, projections/, migrations/ outside their rulesets/ folders) names no ruleset:
# neither an id nor a ruleset's package; everything a ruleset is lives in its own packages.
RULESET_NAMES = re.compile(r"""["'](relics|beer-run|action-dice|decision-2d6)["']|"""
                           r"""rulesets\.(relics|beer_run|action_dice|decision_2d6)\b""")


def test_core_modules_name_no_ruleset():
    core = [p for layer in ("ledger", "projections", "migrations") for p in _sources(layer)
            if "rulesets" not in p.relative_to(ROOT).parts]
    naming = sorted(str(p.relative_to(ROOT)) for p in core if RULESET_NAMES.search(p.read_text()))
    assert len(core) > 20 and naming == [], naming


# The CLI's core (the root group, the commands every campaign has, the shared plumbing) names no
# ruleset either: `sheet`, `pools`, `demo` and `new` read each ruleset's views and demo from the registry.
CLI_CORE = ("campaign_ledger/cli.py", "commands/campaign.py", "commands/history.py", "commands/records.py", "commands/interchange.py",
            "commands/plumbing.py", "commands/lazy.py", "campaign_ledger/opening.py", "campaign_ledger/failures.py")


def test_the_cli_core_names_no_ruleset():
    naming = [name for name in CLI_CORE if RULESET_NAMES.search((ROOT / name).read_text())
              or re.search(r"commands\.(relics|beer_run|action_dice|decision_2d6)", (ROOT / name).read_text())]
    assert naming == [], naming


def test_no_command_module_is_300_lines_or_more():
    """Issue 11's rule for the CLI layer (ledger/ and projections/ still hold longer modules)."""
    sources = [ROOT / "campaign_ledger" / "cli.py", *_sources("commands", at_least=20)]
    long = sorted(str(p.relative_to(ROOT)) for p in sources if len(p.read_text().splitlines()) >= 300)
    assert long == [], long


def test_no_circle_and_no_private_name_crosses_a_module():
    """cli.py imports the command modules; they share commands/plumbing.py and never import cli.py,
    and no module imports another's private (underscored) name."""
    sources = [ROOT / "campaign_ledger" / "cli.py", *_sources("commands", at_least=8), *_sources("ledger", at_least=20),
               *_sources("projections", at_least=10)]
    for path in sources:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__":
                assert node.module != "campaign_ledger.cli", path
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, (path, node.module, private)


def test_rules_turn_and_odds_modules_stay_under_300_lines():
    """Issue 11: split by meaning, not grown back: every rules module, Relics' turn steps and the odds."""
    checked = [*_sources("ledger/rulesets", "rules.py"), *_sources("ledger/rulesets", "rules/*.py", at_least=15),
               *_sources("ledger/rulesets", "odds*.py", at_least=8), *_sources("commands", "odds*.py", at_least=4),
               *(ROOT / "ledger/rulesets/relics" / n for n in ("turns.py", "huddle.py", "outcome.py"))]
    long = {str(p.relative_to(ROOT)): n for p in checked if (n := len(p.read_text().splitlines())) > 300}
    assert long == {}, long


def _module_graph() -> dict[str, set[str]]:
    """Every module of the program and the program's modules it imports, anywhere in it (a lazy
    import inside a function counts: it is a circle all the same, only met later)."""
    homes = {"campaign_ledger": "campaign_ledger", **{layer: f"campaign_ledger.{layer}" for layer in
                                                       ("ledger", "projections", "migrations", "commands", "web")}}
    files = {}
    for folder, package in homes.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = [p for p in path.relative_to(ROOT / folder).with_suffix("").parts if p != "__init__"]
            files[".".join([package, *parts])] = path
    graph = {}
    for name, path in files.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("campaign_ledger"):
                found |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in files else node.module
                          for a in node.names}
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name in files}
        graph[name] = {m for m in found if m in files and m != name}
    return graph


def test_no_import_circle_is_left_in_the_house():
    """Issue 37: no module imports one that imports it back, at load time or later inside a function
    (a package may import its own modules; none of them imports the package)."""
    graph = _module_graph()
    assert len(graph) > 200
    circles = []
    for start in graph:
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    circles.append(" -> ".join(path + [start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, path + [nxt]))
    assert circles == [], circles[:5]
