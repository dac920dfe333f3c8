"""Issue 34's state machine (tests/test_state_machine.py) for as long as asked, not the suite's bound.

Run it from the project root, with the project's .venv (it needs the test extras: hypothesis):

    .venv/bin/python bench/state_machine.py --minutes 10            # every ruleset in turn, a random seed
    .venv/bin/python bench/state_machine.py --minutes 30 --seed 7   # the same batches again
    .venv/bin/python bench/state_machine.py --ruleset relics --steps 30 --no-shrink

It runs batches of examples (--examples each, --steps steps at most each), one ruleset after the
other, batch i with seed SEED+i, until the minutes are up or a batch fails. It prints the seed
first, then the examples, steps and commands run, and the failing sequence (hypothesis's
shrunk program, with the batch's seed to replay it: `--seed S --ruleset R --minutes 0`).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hypothesis import HealthCheck, Phase, seed, settings  # noqa: E402
from hypothesis.stateful import get_state_machine_test  # noqa: E402

from tests import test_state_machine as machine  # noqa: E402


def run_batch(ruleset: str, batch_seed: int, examples: int, steps: int, shrink: bool) -> BaseException | None:
    """One batch of examples of the ruleset's machine; the error hypothesis raised, if any (it has
    printed the failing sequence by then)."""
    phases = [Phase.generate, Phase.target] + ([Phase.shrink] if shrink else [])
    chosen = settings(max_examples=examples, stateful_step_count=steps, deadline=None, database=None,
                      derandomize=False, phases=phases, print_blob=True,
                      suppress_health_check=list(HealthCheck))
    test = seed(batch_seed)(get_state_machine_test(machine.machine_for(ruleset), settings=chosen))
    try:
        test()
    except BaseException as error:  # noqa: BLE001 - a failing sequence is this bench's finding
        return error
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="how long to run (0: one batch)")
    parser.add_argument("--seed", type=int, default=None, help="the first batch's seed (default: random)")
    parser.add_argument("--ruleset", choices=machine.RULESETS, default=None, help="one ruleset (default: each in turn)")
    parser.add_argument("--examples", type=int, default=10, help="examples a batch")
    parser.add_argument("--steps", type=int, default=25, help="steps an example at most")
    parser.add_argument("--no-shrink", action="store_true", help="report the first failing sequence as found")
    parser.add_argument("--skip", action="append", default=[], choices=["open-session"],
                        help="leave a check out, to look past a finding already known (repeatable)")
    args = parser.parse_args()
    machine.SKIP.update(args.skip)
    first = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed: {first}" + (f" (skipping: {', '.join(args.skip)})" if args.skip else ""), flush=True)
    rulesets = [args.ruleset] if args.ruleset else list(machine.RULESETS)
    deadline = time.monotonic() + args.minutes * 60
    started, batch, failed = time.monotonic(), 0, None
    while True:
        ruleset = rulesets[batch % len(rulesets)]
        error = run_batch(ruleset, first + batch, args.examples, args.steps, not args.no_shrink)
        if error is not None:
            failed = (ruleset, first + batch, error)
            break
        batch += 1
        if time.monotonic() >= deadline:
            break
    run = machine.RUN
    print(f"batches: {batch + (failed is not None)}, examples: {run['examples']}, steps: {run['steps']}, "
          f"commands: {run['commands']}, in {time.monotonic() - started:.0f} s")
    if failed is None:
        print("no failing sequence")
        return 0
    ruleset, batch_seed, error = failed
    print(f"FAILED: {ruleset}, batch seed {batch_seed} (replay: --seed {batch_seed} --ruleset {ruleset} "
          f"--minutes 0 --examples {args.examples} --steps {args.steps})")
    print("".join(traceback.format_exception_only(type(error), error)).strip()[:4000])
    return 1


if __name__ == "__main__":
    sys.exit(main())
