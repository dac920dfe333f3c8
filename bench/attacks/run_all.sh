#!/bin/sh
# Issue 34's attack kit, each attack once with modest settings; prints each one's summary line
# (details above it). From the project root: sh bench/attacks/run_all.sh   (about 10 minutes here).
# Exit 0 only when every attack found nothing: 0 inconsistent, lost, doubled, false alarms, crashed,
# missed, misnamed or marker written. Settings: CRASH_RUNS, WRITERS, SECONDS_CONCURRENT, ROOM_KIB.
cd "$(dirname "$0")/../.."
PY=${PYTHON:-.venv/bin/python}
status=0
summaries=""
for attack in \
    "crash.py --runs ${CRASH_RUNS:-60}" \
    "concurrent.py --writers ${WRITERS:-4} --seconds ${SECONDS_CONCURRENT:-30}" \
    "tamper.py" \
    "full_disk.py --room ${ROOM_KIB:-160} --commands 150" \
    "hostile_import.py"; do
    echo "== $attack"
    # shellcheck disable=SC2086
    out=$($PY bench/attacks/$attack 2>&1) || status=1
    echo "$out"
    summaries="$summaries
$(echo "$out" | tail -n 1)"
done
echo "== summaries$summaries"
exit $status
