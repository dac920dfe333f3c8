"""Every ruleset's largest inputs to `campaign odds`: each is answered, or refused before any work with one
`Error:` line (exit 2) that states the bound. Not timed here: bench/odds.py times them against 2 s."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from campaign_ledger.cli import cli
from tests.odds_largest import LARGEST


@pytest.mark.parametrize("name, args, answered", LARGEST, ids=[c[0] for c in LARGEST])
def test_the_largest_inputs_are_answered_or_refused_up_front(tmp_path, name, args, answered):
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "never.db"), "odds", *args])
    if answered:
        assert result.exit_code == 0 and result.output.strip(), result.output
    else:
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), result.output
        assert any(word in lines[0] for word in ("at most", "runs from", "more than")), lines[0]
        assert "Traceback" not in result.output
