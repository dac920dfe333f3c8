"""The project's odds against plain icepool, on the same two questions, in one run.

Run it from the project root:

    python bench/odds.py

1. A 15-die Relics pool with +1 / 2d and +2 / 1d placed optimally: the joint distribution of the
   tally (net successes, criticals, overpowering, botches, major botches). Plain icepool enumerates
   the pool's sorted outcomes (`Pool.expand`, 15,504 of them) and resolves each with the same
   placement search (the rules' `best_placement`, which icepool cannot express); the project
   (`ledger.rulesets.relics.odds.outcomes`) keeps only the copies of each face a placement can touch.
2. 2d6 exploding, P(total >= 16): plain icepool `2 @ d6.explode() >= 16` (its default depth of 9)
   against the project's `ledger.rulesets.decision_2d6.odds.success` (which follows explosions only as deep
   as the target needs; both are exact here).

Each answer is timed in its own fresh process (icepool and the project cache results inside a
process), RUNS times, excluding imports; the medians are printed, both answers are checked equal,
and the last line is `ratio: X`, the larger of the two ratios ours / icepool's (the target is at
most 1.0).
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNS = 5

SETUP = """
import sys, time
sys.path.insert(0, {root!r})
import icepool
from ledger.rulesets.relics import rules as relics
from ledger.rulesets.decision_2d6 import rules as d2
from ledger.rulesets.relics import odds as relics_odds
from ledger.rulesets.decision_2d6 import odds as d2_odds
MODS = (relics.parse_modifier("+1 / 2d"), relics.parse_modifier("+2 / 1d"))
"""

QUESTIONS = {
    "relics, ours": """
answer = relics_odds.outcomes(relics_odds.Pool(15, (), MODS))
""",
    "relics, icepool": """
def resolve(faces):
    placement = relics.best_placement(faces, MODS, {{}})
    t = relics.tally(relics.apply_simple(faces, MODS, placement))
    return t.successes, t.criticals, t.overpowering, t.botches, t.major_botches
die = icepool.d6.pool(15).expand().map(resolve)
answer = {{k: Fraction(q, die.denominator()) for k, q in die.items() if q}}
""",
    "explode, ours": """
answer = d2_odds.success(0, [], d2.Advantage.NEUTRAL, 16)
""",
    "explode, icepool": """
answer = Fraction((2 @ icepool.d6.explode() >= 16).probability(True))
""",
}

TIMED = """
from fractions import Fraction
start = time.perf_counter()
{body}
elapsed = time.perf_counter() - start
print(elapsed)
print(repr(sorted(answer.items()) if isinstance(answer, dict) else answer))
"""


def run_once(name: str) -> tuple[float, str]:
    """One answer in a fresh process: (seconds, the answer's repr)."""
    code = SETUP.format(root=ROOT) + TIMED.format(body=QUESTIONS[name].format())
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    seconds, answer = out.split("\n", 1)
    return float(seconds), answer.strip()


def median_of(name: str) -> tuple[float, str]:
    runs = [run_once(name) for _ in range(RUNS)]
    answers = {a for _, a in runs}
    assert len(answers) == 1, f"{name} answered differently between runs"
    return statistics.median(s for s, _ in runs), answers.pop()


def main() -> None:
    ratios = []
    for question in ("relics", "explode"):
        ours, ours_answer = median_of(f"{question}, ours")
        plain, plain_answer = median_of(f"{question}, icepool")
        assert ours_answer == plain_answer, f"{question}: the two answers differ"
        ratios.append(ours / plain)
        print(f"{question}: ours {ours * 1000:.1f} ms, icepool {plain * 1000:.1f} ms "
              f"(medians of {RUNS} fresh processes; same exact answer), ratio {ours / plain:.3f}")
    print(f"ratio: {max(ratios):.3f}")


if __name__ == "__main__":
    main()
