"""Issue 33's undo oracle (bench/undo_oracle.py) in the suite: "undo means as if it had never been played".

Its fixed cases and 2 random seeds per ruleset, each its own case. A trial plays a seeded random
campaign, undoes a unit from the middle (with --cascade when asked), and compares every read view
and read table with a campaign that played only the kept commands, then plays the reversed
commands again on both. The oracle drives the CLI in this process (CliRunner, each call a fresh
invocation): the same reports as its `campaign` process per call, about 9x quicker (the bench,
bench/undo_oracle.sh, runs more seeds that way). A failure prints the oracle's diff and keeps the
trial's campaigns and repro.sh.
"""
from __future__ import annotations

import pytest

from bench import undo_oracle as oracle

SEEDS = (1, 2)


@pytest.fixture(scope="module")
def cli() -> oracle.InProcessCli:
    return oracle.InProcessCli()


def _verdict(t: oracle.Trial) -> None:
    assert t.status == "PASS", "\n".join(oracle.report(t))


@pytest.mark.parametrize("case", oracle.FIXED, ids=[f"{c.system}-{c.name}" for c in oracle.FIXED])
def test_a_fixed_case_undone_is_as_if_never_played(cli, tmp_path, case):
    _verdict(oracle.run_fixed(cli, str(tmp_path), oracle.parser().parse_args([]), case))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("system", oracle.SYSTEMS)
def test_random_play_undone_in_the_middle_is_as_if_never_played(cli, tmp_path, system, seed):
    _verdict(oracle.random_trial(cli, system, seed, str(tmp_path), oracle.parser().parse_args([])))


# Seeds that once failed, kept as cases: relics 20 made a Disaster trait and ended it within the
# undone play, so the campaign's list of temporary traits was the same before and after, and its
# row stayed in `traits`, ended (found by bench/undo_oracle.sh --seeds 25).
FOUND = (("relics", 20),)


@pytest.mark.parametrize("system, seed", FOUND, ids=[f"{s}-{n}" for s, n in FOUND])
def test_a_seed_the_oracle_once_failed_passes(cli, tmp_path, system, seed):
    _verdict(oracle.random_trial(cli, system, seed, str(tmp_path), oracle.parser().parse_args([])))
