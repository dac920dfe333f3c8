#!/usr/bin/env bash
# Mutation testing of every rules module against its own rules tests: per module killed /
# survived / not run and the score over behaviour-changing mutants; last line `score: X`.
# Takes a few minutes on two cores (bench/mutation.py says how mutants are judged).
#   bash bench/mutation.sh                  # every rules module (rules.py, or each of a rules/ package)
#   bash bench/mutation.sh relics.tides --show   # one module, with each survivor's diff
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import mutmut" 2>/dev/null || python3 -m pip install -q -e '.[mutation]'
exec python3 bench/mutation.py "$@"
