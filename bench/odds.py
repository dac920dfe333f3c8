"""The project's odds against icepool's own multiset evaluator, and the slowest input `odds` accepts.

Run it from the project root:

    python bench/odds.py

1. A 15-die Relics pool with +1 / 2d and +2 / 1d placed optimally: the joint distribution of the
   tally (net successes, criticals, overpowering, botches, major botches). icepool answers it as a
   `MultisetEvaluator` with the placement inside the evaluation: the faces walked low to high, the
   tally kept as they fall with the few dice a part could still change (those a part moves to another
   result level), and the best placement of the three parts on those (net successes, then fewest
   botches, then most criticals) found in `final_outcome`. The project answers with
   `ledger.rulesets.relics.odds.outcomes` (the rules' placement by counts, see its docstring).
2. 2d6 exploding, P(total >= 16): icepool's `2 @ d6.explode() >= 16` (its default depth) against
   `ledger.rulesets.decision_2d6.odds.success` (explosions followed as deep as the target needs).

Each is timed in fresh processes (both sides cache inside a process), RUNS times: CPU time
(time.process_time) of the answer alone ("in process"), and the CPU time of the whole process,
start-up and imports included (the child's rusage). Medians; the answers are checked equal.

3. Every input of tests/odds_largest.py that `odds` answers, as a whole `campaign odds` process (CPU,
   median of RUNS): the slowest is printed against the budget of 2 s (the bench fails past it); the
   inputs it refuses are refused before any work, and the slowest refusal is printed too.

The last line is `ratio: X`, the largest of ours / icepool's: the Relics question in process and as a
whole process, the explosion in process (a few ms; its whole process is start-up and imports, icepool's
on both sides). The target is at most 1.0.
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
RUNS = 5
BUDGET = 2.0  # seconds of CPU for any input `odds` accepts, the whole process

HEAD = "import sys, time\nsys.path.insert(0, {root!r})\nfrom fractions import Fraction\n"

OURS_RELICS = """
from campaign_ledger.ledger.rulesets.relics import odds, rules
mods = (rules.parse_modifier("+1 / 2d"), rules.parse_modifier("+2 / 1d"))
start = time.process_time()
answer = odds.outcomes(odds.Pool(15, (), mods))
"""

ICEPOOL_RELICS = """
import icepool
from functools import lru_cache
from itertools import product

def level(result):  # the rules' successes of a final result (9+ 3, 7-8 2, 5-6 1, 2-4 0, 0-1 -1, below -2)
    return 3 if result >= 9 else 2 if result >= 7 else 1 if result >= 5 else 0 if result >= 2 else -1 if result >= 0 else -2

PARTS = (1, 1, 2)  # +1 / 2d and +2 / 1d: three parts, each on its own die
CAPS = {{f: sum(1 for p in PARTS if level(f + p) != level(f)) for f in range(1, 7)}}  # dice a part can change

@lru_cache(maxsize=None)
def best(kept):
    top = (0, 0, 0)
    faces = tuple(sorted(set(kept)))
    for chosen in product((None,) + faces, repeat=len(PARTS)):
        if any(chosen.count(f) > kept.count(f) for f in faces):
            continue
        ds = db = dc = 0
        for face, part in zip(chosen, PARTS):
            if face is not None:
                a, z = level(face), level(face + part)
                ds += z - a; db += (z < 0) - (a < 0); dc += (z >= 2) - (a >= 2)
        top = max(top, (ds, -db, dc))
    return top

class Placed(icepool.MultisetEvaluator):
    def initial_state(self, order, outcomes, *sizes):
        return 0, 0, ()
    def next_state(self, state, order, face, count):
        s, b, kept = state
        lv = level(face)
        return s + lv * count, b + count * (lv < 0), kept + (face,) * min(count, CAPS[face])
    def final_outcome(self, state, *_):
        s, b, kept = state
        ds, fewer, dc = best(kept)
        return s + ds, dc, 0, b - fewer, 0

start = time.process_time()
die = Placed().evaluate(icepool.d6.pool(15))
answer = {{k: Fraction(q, die.denominator()) for k, q in die.items() if q}}
"""

OURS_EXPLODE = """
from campaign_ledger.ledger.rulesets.decision_2d6 import odds, rules
start = time.process_time()
answer = odds.success(0, [], rules.Advantage.NEUTRAL, 16)
"""

ICEPOOL_EXPLODE = """
import icepool
start = time.process_time()
answer = Fraction((2 @ icepool.d6.explode() >= 16).probability(True))
"""

TAIL = """
elapsed = time.process_time() - start
print(elapsed)
print(repr(sorted(answer.items()) if isinstance(answer, dict) else answer))
"""

QUESTIONS = {"relics": (OURS_RELICS, ICEPOOL_RELICS), "explode": (OURS_EXPLODE, ICEPOOL_EXPLODE)}


def _child_cpu(command: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    """Run a process; its CPU seconds (user + system) and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done


def run_once(body: str) -> tuple[float, float, str]:
    """One answer in a fresh process: (CPU of the answer, CPU of the whole process, the answer's repr)."""
    whole, done = _child_cpu([sys.executable, "-c", HEAD.format(root=ROOT) + body.format() + TAIL])
    if done.returncode:
        raise SystemExit(done.stderr)
    seconds, answer = done.stdout.split("\n", 1)
    return float(seconds), whole, answer.strip()


def medians(body: str, name: str) -> tuple[float, float, str]:
    runs = [run_once(body) for _ in range(RUNS)]
    answers = {a for _, _, a in runs}
    assert len(answers) == 1, f"{name} answered differently between runs"
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), answers.pop()


def largest() -> float:
    """Every largest input of each ruleset as a whole `campaign odds` process; returns the slowest answered."""
    from tests.odds_largest import LARGEST

    slowest, refused = ("", 0.0), ("", 0.0)
    with tempfile.TemporaryDirectory() as scratch:
        for name, args, answered in LARGEST:
            command = [sys.executable, "-c", "import sys; from campaign_ledger.cli import cli; cli()",
                       "--db", os.path.join(scratch, "never.db"), "odds", *args]
            runs = [_child_cpu(command) for _ in range(RUNS if answered else 1)]
            seconds = statistics.median(s for s, _ in runs)
            code = runs[0][1].returncode
            assert code == (0 if answered else 2), f"{name}: exit {code}: {runs[0][1].stderr.strip()}"
            print(f"  {name}: {'answered' if answered else 'refused'} in {seconds:.2f} s CPU")
            if answered and seconds > slowest[1]:
                slowest = (name, seconds)
            if not answered and seconds > refused[1]:
                refused = (name, seconds)
    verdict = "within" if slowest[1] <= BUDGET else "OVER"
    print(f"slowest accepted input: {slowest[0]}, {slowest[1]:.2f} s CPU, whole process "
          f"(median of {RUNS}; {verdict} the {BUDGET:.0f} s budget)")
    print(f"slowest refusal: {refused[0]}, {refused[1]:.2f} s CPU (refused before any work)")
    return slowest[1]


def main() -> None:
    print("The largest inputs odds accepts, each a whole `campaign odds` process:")
    slowest = largest()
    ratios = []
    for question, (ours_body, icepool_body) in QUESTIONS.items():
        ours, ours_whole, ours_answer = medians(ours_body, f"{question}, ours")
        theirs, theirs_whole, theirs_answer = medians(icepool_body, f"{question}, icepool")
        assert ours_answer == theirs_answer, f"{question}: the two answers differ"
        # the explosion is answered in a few ms: its whole process is start-up and imports (both sides
        # import icepool; ours the ledger's packages too), so only its answer's time is compared
        ratios += [ours / theirs] + ([ours_whole / theirs_whole] if question == "relics" else [])
        print(f"{question}: in process ours {ours * 1000:.1f} ms, icepool {theirs * 1000:.1f} ms "
              f"(ratio {ours / theirs:.3f}); whole process ours {ours_whole * 1000:.0f} ms, icepool "
              f"{theirs_whole * 1000:.0f} ms (ratio {ours_whole / theirs_whole:.3f}); CPU medians of {RUNS} "
              "fresh processes, same exact answer")
    if slowest > BUDGET:
        print(f"ratio: {max(ratios):.3f}")
        raise SystemExit(f"an accepted input took {slowest:.2f} s, over the {BUDGET:.0f} s budget")
    print(f"ratio: {max(ratios):.3f}")


if __name__ == "__main__":
    main()
