"""Mutation testing of every rules module against its own rules tests (mutmut 3).

Each rules module (a ruleset's `ledger/rulesets/<ruleset>/rules.py`, or each module of its
`rules/` package: `relics.tides`, `beer_run.compare`, ...) is mutated in a scratch copy of the
tracked tree (never in the working tree) and judged by its ruleset's `tests/rules/test_<ruleset>.py`
alone, so a mutant survives when the rules tests miss it, whatever the ledger tests would say.
Prints, per module, killed / survived / not run and the score over mutants that change
behaviour; the last line is `score: X`, the lowest module's. Mutants that change only the words
of a refusal (bench/mutation_wording.py says how they are recognised) are listed apart and left
out of the score, and so are the survivors in EQUIVALENT, each printed with why it cannot change
a rule; every other survivor counts against it.

    python3 bench/mutation.py                        # every rules module
    python3 bench/mutation.py relics                 # every module of one ruleset's rules
    python3 bench/mutation.py relics.tides --show    # one module, each survivor's diff
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/ itself, when loaded by path
from mutation_wording import only_wording  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "ledger" / "rulesets"
# Survivors that cannot change what a rule does, each with the reason; matched by the line a
# mutant removes and the line it adds, so a renumbered mutant is still recognised and a new
# one never is.
EQUIVALENT = {
    ("for polarity, sign in ((HINDERING, -1), (BENEFICIAL, 1)):",
     "for polarity, sign in ((HINDERING, -2), (BENEFICIAL, 1)):"):
        "the sign scales every part of a die's score alike, so the best placement is the same",
    ("for polarity, sign in ((HINDERING, -1), (BENEFICIAL, 1)):",
     "for polarity, sign in ((HINDERING, -1), (BENEFICIAL, 2)):"):
        "the sign scales every part of a die's score alike, so the best placement is the same",
    ("need = min(parts_total, len(current)) - len(taken)", "need = min(parts_total, len(current)) + len(taken)"):
        "need is capped by the open pieces' parts, and when the pool is short every free die is taken either way",
    ("weight = 2 * len(results) + 3  # each of the last two sums stays within +-len(results)",
     "weight = 3 * len(results) + 3  # each of the last two sums stays within +-len(results)"):
        "any weight above the range of the two lesser sums keeps the order of the three; a larger one too",
    ("weight = 2 * len(results) + 3  # each of the last two sums stays within +-len(results)",
     "weight = 2 * len(results) + 4  # each of the last two sums stays within +-len(results)"):
        "any weight above the range of the two lesser sums keeps the order of the three; a larger one too",
    ("winners = [0 if x > y else 1 for x, y in pairs if x != y]",
     "winners = [0 if x >= y else 1 for x, y in pairs if x != y]"):
        "tied pairs are filtered out, so x >= y and x > y agree on every pair left",
    ("split = {goal_ability: size} if goal_ability and size else {}",
     "split = {goal_ability: size} if goal_ability or size else {}"):
        "with no goal ability size is 0, and 0 pips on a gone ability land nothing: the same Effect",
    ("if position >= Advantage.NEUTRAL:", "if position > Advantage.NEUTRAL:"):
        "at Neutral both branches give (Neutral, Neutral)",
    ("winner = Side.FIRST if a.total > b.total else Side.SECOND",
     "winner = Side.FIRST if a.total >= b.total else Side.SECOND"):
        "this line runs only when the totals differ",
}
NOT_RUN = {"no tests", "not checked", "skipped", "suspicious", "timeout", "segfault", "check was interrupted by user"}


@dataclass
class Outcome:
    module: str
    killed: int = 0
    not_run: list[str] = field(default_factory=list)
    survived: list[str] = field(default_factory=list)   # behaviour-changing
    wording: list[str] = field(default_factory=list)    # message-only
    equivalent: list[str] = field(default_factory=list)  # "name: why" (EQUIVALENT)

    @property
    def score(self) -> float:
        judged = self.killed + len(self.survived) + len(self.not_run)
        return 100.0 * self.killed / judged if judged else 100.0


def modules() -> list[str]:
    """`ruleset` for a rules.py, `ruleset.module` for each module of a rules/ package."""
    found = sorted([p.parent.name for p in RULES.glob("*/rules.py")] +
                   [f"{p.parent.parent.name}.{p.stem}" for p in RULES.glob("*/rules/*.py") if p.stem != "__init__"])
    if not found:
        sys.exit(f"no rules modules found under {RULES}")
    return found


def chosen(names: list[str]) -> list[str]:
    """The modules asked for: a ruleset's name stands for every module of its rules."""
    every = modules()
    picked = [m for name in names for m in every if m == name or m.split(".")[0] == name]
    unknown = [n for n in names if not any(m == n or m.split(".")[0] == n for m in every)]
    if unknown:
        sys.exit(f"no rules module {', '.join(unknown)}; known: {', '.join(every)}")
    return picked


def source_path(module: str) -> str:
    """The file a module name stands for, relative to the tree."""
    ruleset, _, part = module.partition(".")
    return f"ledger/rulesets/{ruleset}/rules/{part}.py" if part else f"ledger/rulesets/{ruleset}/rules.py"


def scratch_copy(module: str, work: Path) -> Path:
    """The tracked tree, with [tool.mutmut] pointed at one module and its own tests."""
    tree = work / module
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    for name in filter(None, files.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, tree / name)
    tests = f"tests/rules/test_{module.split('.')[0]}.py"
    if not (tree / tests).is_file():
        sys.exit(f"{module}: no rules tests at {tests}")
    pyproject = (tree / "pyproject.toml").read_text()
    head, _, rest = pyproject.partition("[tool.mutmut]")
    tail = rest.split("\n[", 1)[1] if "\n[" in rest else ""
    section = (f'[tool.mutmut]\nsource_paths = ["{source_path(module)}"]\n'
               f'pytest_add_cli_args_test_selection = ["{tests}"]\n'
               'also_copy = ["ledger"]  # the rest of the package the module imports\n'
               'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q", "-x"]\n')
    (tree / "pyproject.toml").write_text(head + section + ("\n[" + tail if tail else ""))
    return tree


def run(module: str, work: Path) -> tuple[Outcome, Path]:
    tree = scratch_copy(module, work)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run([sys.executable, "-m", "mutmut", "run"], cwd=tree, env=env, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    listing = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"], cwd=tree, env=env,
                             capture_output=True, text=True).stdout
    outcome = Outcome(module)
    source = (tree / source_path(module)).read_text()
    for line in listing.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if not name:
            continue
        if status == "killed":
            outcome.killed += 1
        elif status == "survived":
            diff = show(name, tree, env)
            why = equivalent(diff)
            if why:
                outcome.equivalent.append(f"{name}: {why}")
            else:
                (outcome.wording if only_wording(diff, source) else outcome.survived).append(name)
        elif status in NOT_RUN:
            outcome.not_run.append(f"{name} ({status})")
    return outcome, tree


def show(name: str, tree: Path, env: dict) -> str:
    return subprocess.run([sys.executable, "-m", "mutmut", "show", name], cwd=tree, env=env,
                          capture_output=True, text=True).stdout


def equivalent(diff: str) -> str | None:
    removed = [l[1:].strip() for l in diff.splitlines() if l.startswith("-") and not l.startswith("---")]
    added = [l[1:].strip() for l in diff.splitlines() if l.startswith("+") and not l.startswith("+++")]
    if len(removed) == 1 and len(added) == 1:
        return EQUIVALENT.get((removed[0], added[0]))
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="rules modules to run (default: all)")
    parser.add_argument("--show", action="store_true", help="print each survivor's diff, wording-only ones too")
    parser.add_argument("--keep", action="store_true", help="keep the scratch trees (path printed)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="campaign-mutation-"))
    outcomes = []
    try:
        for module in chosen(args.modules) if args.modules else modules():
            outcome, tree = run(module, work)
            outcomes.append(outcome)
            print(f"{module}: killed {outcome.killed}, survived {len(outcome.survived)}, "
                  f"not run {len(outcome.not_run)}, wording only {len(outcome.wording)}, "
                  f"equivalent {len(outcome.equivalent)}; "
                  f"score {outcome.score:.1f}%", flush=True)
            env = {**os.environ, "PYTHONPATH": str(tree)}
            for why in outcome.equivalent:
                print(f"  equivalent: {why}")
            for label, names in (("survived", outcome.survived), ("not run", outcome.not_run),
                                 ("wording only", outcome.wording if args.show else [])):
                for name in names:
                    print(f"  {label}: {name}")
                    if args.show and label != "not run":
                        print(show(name, tree, env))
    finally:
        if args.keep:
            print(f"scratch trees kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({o.module: round(o.score, 2) for o in outcomes}))
    print(f"score: {min(o.score for o in outcomes):.1f}")


if __name__ == "__main__":
    main()
