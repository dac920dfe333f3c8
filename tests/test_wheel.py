"""What `pip install` puts into a user's environment: one import name, `campaign_ledger`, and the
`campaign` command (issue 37: a bot's environment may already hold another `web` or `commands`).

The wheel is built from a copy of the tree (a build writes build/ and *.egg-info beside its
sources) and installed into a fresh virtual environment without its dependencies; the installed
program then runs with the dependencies of the environment running these tests on PYTHONPATH."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = {"ledger": "ledger", "projections": "projections", "migrations": "migrations", "commands": "commands",
          "web": "web", "campaign_ledger": ""}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "*.db", "__pycache__", ".hypothesis",
                                                                 "*.egg-info", "build", "dist", "site"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp / "dist"), str(source)],
                   check=True, capture_output=True, text=True, timeout=600)
    (built,) = (tmp / "dist").glob("*.whl")
    return built


def test_the_wheel_holds_one_top_level_name_and_every_module_of_the_tree(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"campaign_ledger", "campaign_ledger-0.1.0.dist-info"}
    wanted = {f"campaign_ledger/{(layer + '/') if layer else ''}{p.relative_to(ROOT / folder).as_posix()}"
              for folder, layer in LAYERS.items() for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts}
    wanted |= {"campaign_ledger/cli.py", "campaign_ledger/py.typed", "campaign_ledger/projections/ledger.css",
               "campaign_ledger/web/static/live.js"}
    assert len(wanted) > 200 and sorted(wanted - set(names)) == []


def test_installed_into_a_fresh_environment_it_adds_only_its_own_name_and_runs(wheel: Path, tmp_path: Path) -> None:
    fresh = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(fresh)], check=True, timeout=120)
    python = fresh / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    before = set(os.listdir(site))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, capture_output=True, text=True, timeout=300)
    added = set(os.listdir(site)) - before
    assert added == {"campaign_ledger", "campaign_ledger-0.1.0.dist-info"}, added
    env = dict(os.environ, PYTHONPATH=sysconfig.get_paths()["purelib"])  # the dependencies, not this tree
    done = subprocess.run([fresh / "bin" / "campaign", "--db", str(tmp_path / "demo.db"), "demo"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Vault Guards is resolved" in done.stdout
    where = subprocess.run([python, "-c", "import campaign_ledger.ledger as l; print(l.__file__)"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(site)), where


PUBLIC = ("campaign_ledger", "campaign_ledger.campaign", "campaign_ledger.handle", "campaign_ledger.calls",
          "campaign_ledger.errors", "campaign_ledger.shapes", "campaign_ledger.views")


def test_mypy_passes_on_the_public_api_as_installed(wheel: Path, tmp_path: Path) -> None:
    """The library is typed (py.typed): mypy, strict as pyproject.toml sets it, finds no error in the
    face, its errors and shapes, and every module that gives the handle its calls, read from the wheel's own layout (the source tree maps folders
    into the package only when installed)."""
    from campaign_ledger.campaign import Campaign

    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    handle = {c.__module__ for c in Campaign.__mro__ if c.__module__.startswith("campaign_ledger.")}
    modules = [*PUBLIC, *handle]  # the face, and every module that gives the handle its calls
    assert len(handle) >= 8, handle
    args = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--python-executable",
            sys.executable, "--cache-dir", str(tmp_path / "cache"), *(a for m in sorted(set(modules)) for a in ("-m", m))]
    done = subprocess.run(args, cwd=tmp_path / "site", capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:]
