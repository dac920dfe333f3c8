"""A fifth ruleset needs no core edit: a toy (tests/toy_coin.py) registers from the test suite
and is played, undone, audited, rebuilt, exported and imported.

It runs in its own process, so its registration stays out of every other test.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r'''
import json, sys
from click.testing import CliRunner
from tests import toy_coin
toy_coin.install()
from campaign_ledger.cli import cli
from campaign_ledger.ledger.application import open_ledger

played, copy, out = sys.argv[1:4]
runner = CliRunner()

def campaign(db, *args):
    result = runner.invoke(cli, ["--db", db, *args])
    return {"code": result.exit_code, "out": result.stdout, "err": result.stderr}

def tally(db):
    from campaign_ledger.projections import runner as projections
    campaign(db, "history", "--limit", "1")  # catches the read tables up
    conn = projections.connect(db)
    rows = [dict(r) for r in conn.table("coin_tally").rows]
    conn.conn.close()
    return rows

steps = {"new": campaign(played, "new", "Toss", "--ruleset", "coin-flip")}
app = open_ledger(played)
steps["flips"] = [app.coin_flip("Lucky", "heads"), app.coin_flip("Lucky", "tails"), app.coin_flip("Lucky", "heads"),
                  app.coin_flip("Lucky")]
app.close()
steps["before_undo"] = tally(played)
steps["undo"] = campaign(played, "undo", "--yes")
steps["after_undo"] = tally(played)
steps["history"] = campaign(played, "history")
steps["audit"] = campaign(played, "audit")
steps["rebuild"] = campaign(played, "rebuild")
steps["after_rebuild"] = tally(played)
steps["export"] = campaign(played, "export", "--format", "jsonl", "--output", out)
steps["import"] = campaign(copy, "import", out)
steps["copy_audit"] = campaign(copy, "audit")
steps["copy"] = tally(copy)
steps["other_ruleset"] = campaign(played, "push", "Lucky")
print(json.dumps(steps))
'''


def test_a_toy_ruleset_registered_from_the_tests_plays_undoes_audits_rebuilds_and_travels(tmp_path):
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "toss.db"), str(tmp_path / "copy.db"),
                          str(tmp_path / "toss.jsonl")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    steps = json.loads(run.stdout)
    assert steps["new"]["code"] == 0, steps["new"]
    assert [f["face"] for f in steps["flips"][:3]] == ["heads", "tails", "heads"]
    assert steps["flips"][3]["face"] in ("heads", "tails") and steps["flips"][3]["flips"] == 4
    heads = 2 + (steps["flips"][3]["face"] == "heads")
    assert [(r["name"], r["heads"], r["flips"]) for r in steps["before_undo"]] == [("Lucky", heads, 4)]
    assert steps["undo"]["code"] == 0, steps["undo"]
    assert [(r["name"], r["heads"], r["flips"]) for r in steps["after_undo"]] == [("Lucky", 2, 3)]
    assert "Lucky lands tails" in steps["history"]["out"]
    assert "Clean." in steps["audit"]["out"], steps["audit"]
    assert steps["after_rebuild"] == steps["after_undo"]
    assert steps["import"]["code"] == 0, steps["import"]
    assert "Clean." in steps["copy_audit"]["out"], steps["copy_audit"]
    assert steps["copy"] == steps["after_undo"]
    assert steps["other_ruleset"]["code"] == 1 and "coin-flip campaign" in steps["other_ruleset"]["err"]
