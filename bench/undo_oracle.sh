#!/usr/bin/env bash
# The undo oracle (issue 33) over N random seeds per ruleset, plus its fixed cases: each trial plays at
# random, undoes a unit from the middle, and compares the campaign with one that never played it.
# Prints each trial's verdict, then the passed and failed counts per ruleset, and last
# `undo oracle: P passed, F failed` (exit 1 when anything failed). Uses the project's .venv `campaign`,
# a process per call as a GM runs it (~25 s a trial on this machine; --jobs J runs J trials at once).
#   bash bench/undo_oracle.sh                          # seeds 1-4 per ruleset and the fixed cases
#   bash bench/undo_oracle.sh --seeds 25               # seeds 1-25
#   bash bench/undo_oracle.sh --seeds 25 --seed-base 100 --full-replay
#   bash bench/undo_oracle.sh --system relics --seeds 10 -v --keep --workdir /tmp/oracle
# Every other option of bench/undo_oracle.py passes through (`--help`); a failed trial keeps its
# campaigns and a repro.sh that rebuilds both in plain CLI calls.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/campaign ] || sh tests/setup.sh app
exec .venv/bin/python bench/undo_oracle.py --cli "$PWD/.venv/bin/campaign" "$@"
