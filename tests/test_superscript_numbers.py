"""A number typed with a digit `int` cannot read ('²' passes `str.isdigit`) is refused in one line,
never a crash (found by the state machine's bench: `undo ²` failed unexpectedly)."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("args", [("undo", "²", "--dry-run"), ("history", "--at", "²"), ("history", "--since", "²"),
                                  ("sheet", "Kira", "--at", "²")])
def test_a_superscript_digit_is_refused_not_a_crash(table, args):
    result = table(*args, ok=False)
    assert result.exit_code in (1, 2), result.output
    assert "unexpectedly" not in result.output and "Traceback" not in result.output


def test_an_asset_die_with_a_superscript_is_refused(tmp_path):
    from tests.conftest import Table

    t = Table(tmp_path / "a.db")
    t("new", "A", "--ruleset", "action-dice")
    line = t.refused("action-dice", "character", "Mara", "--asset", "Athletics=d²")
    assert "asset die" in line
