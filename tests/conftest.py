"""Shared fixtures: a campaign file driven through the real CLI, and a count of its entries."""
from __future__ import annotations

from pathlib import Path

import os
import sys

import pytest
from click.testing import CliRunner, Result
from hypothesis import settings

from campaign_ledger.cli import cli

# Tests that run `campaign` itself find the one beside this interpreter, as in an activated .venv
# (README's test command runs `.venv/bin/python -m pytest` without activating it).
os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")

# CI runs the properties on a fixed set of examples (a landing never hangs on luck); locally
# they explore new examples every run.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


class Table:
    """A campaign file and the `campaign` command, as a GM would type it."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)
        self.runner = CliRunner()

    def __call__(self, *args: str, ok: bool = True) -> Result:
        result = self.runner.invoke(cli, ["--db", self.path, *args], catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    def refused(self, *args: str) -> str:
        """Run a command that must be refused: one Error line, non-zero exit, nothing appended."""
        before = self.entries()
        result = self(*args, ok=False)
        assert result.exit_code != 0, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
        assert "Traceback" not in result.output
        assert self.entries() == before
        return lines[0]

    def entries(self) -> int:
        """Entries in the ledger, wherever its store is (SQLite file or PostgreSQL)."""
        from campaign_ledger.ledger.application import open_ledger
        app = open_ledger(self.path)
        try:
            return app.recorder.max_notification_id() or 0
        finally:
            app.close()

    def differs_from_rebuild(self) -> list:
        """The read tables that differ from a rebuild of the whole ledger, row for row ([] when none)."""
        from campaign_ledger.ledger.application import open_ledger
        from campaign_ledger.projections import compare, runner

        app, db = open_ledger(self.path), runner.connect(self.path)
        try:
            return compare.matches_rebuild(app, db)
        finally:
            db.conn.close()
            app.close()

    def json(self, *args: str):
        import json
        return json.loads(self(*args, "--json").stdout)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return heist(tmp_path)


def heist(tmp_path: Path) -> Table:
    """A relics campaign: Kira (Phantom 3) and Bo (Phantom 3, Venger 4), a Minor Phantom 4 Challenge."""
    t = Table(tmp_path / "campaign.db")
    t("new", "Test Heist")
    t("pc", "add", "Kira", "--expertise", "Phantom=3,Venger=1", "--primary", "Phantom")
    t("pc", "add", "Bo", "--expertise", "Phantom=3,Venger=4", "--primary", "Venger")
    t("scenario", "start", "Night")
    t("challenge", "open", "Guards", "--threat", "Minor", "--type", "Phantom", "--rating", "4")
    return t


@pytest.fixture
def empty(tmp_path: Path) -> Table:
    return Table(tmp_path / "campaign.db")


@pytest.fixture(params=["as read", "beside"])
def chain_check(request):
    """The whole chain verified by one process, or shared with a second (projections/verifying.py
    `Beside`, ledger/chain_halves.py: a long ledger in a file), whatever the ledger's length."""
    from campaign_ledger.ledger import side_process

    patch = pytest.MonkeyPatch()
    patch.setattr(side_process, "SIDE_FROM", 0 if request.param == "beside" else 10**12)
    patch.setattr(side_process, "core_idle", lambda: True)  # an audit's lists and snapshots checked there too
    yield request.param
    patch.undo()
