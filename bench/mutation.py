"""Mutation testing of every rules module against its own rules tests (mutmut 3).

Each ruleset's `ledger/rulesets/<ruleset>/rules.py` is mutated in a scratch copy of the tracked tree (never in the
working tree) and judged by `tests/rules/test_<module>.py` alone, so a mutant survives when
the rules tests miss it, whatever the ledger tests would say. Prints, per module, killed /
survived / not run and the score over mutants that change behaviour; the last line is
`score: X`, the lowest module's.

A mutant changes only a message's wording when the one line it changes is message text: an
argument of a raised exception on a line of its own (the exception's type, which decides the
exit code, is never counted as wording), or an assignment to a local read only there; or when
every token it changes is a string literal (mutmut's "XX...XX", a case change, or the literal
replaced by None) that is only ever read as words for a GM: inside a `raise`, or the "what is
this" argument of a helper that only puts it into its error message (MESSAGE_ARGS).
Those are listed apart and left out of the score, and so are the survivors in EQUIVALENT,
each printed with why it cannot change a rule; every other survivor counts against it.

    python3 bench/mutation.py                 # every rules module
    python3 bench/mutation.py relics --show   # one module, each survivor's diff
"""
from __future__ import annotations

import argparse
import ast
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "ledger" / "rulesets"
# Helpers whose argument at this position is only words in an error message.
MESSAGE_ARGS = {"_whole": 1, "canonical": 2, "_sign_polarity": 2}
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
    found = sorted(p.parent.name for p in RULES.glob("*/rules.py"))
    if not found:
        sys.exit(f"no rules modules found under {RULES}")
    return found


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
    tests = f"tests/rules/test_{module}.py"
    if not (tree / tests).is_file():
        sys.exit(f"{module}: no rules tests at {tests}")
    pyproject = (tree / "pyproject.toml").read_text()
    head, _, rest = pyproject.partition("[tool.mutmut]")
    tail = rest.split("\n[", 1)[1] if "\n[" in rest else ""
    section = (f'[tool.mutmut]\nsource_paths = ["ledger/rulesets/{module}/rules.py"]\n'
               f'pytest_add_cli_args_test_selection = ["{tests}"]\n'
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
    source = (tree / "ledger" / "rules" / f"{module}.py").read_text()
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


def only_wording(diff: str, source: str) -> bool:
    """True when the mutant changes nothing but words a GM reads (see the module docstring)."""
    removed = [l[1:] for l in diff.splitlines() if l.startswith("-") and not l.startswith("---")]
    added = [l[1:] for l in diff.splitlines() if l.startswith("+") and not l.startswith("+++")]
    if _only_raise_arguments(removed, added, source):
        return True
    if len(removed) != 1 or len(added) != 1:
        return False
    lines = _message_lines(source)
    places = [n for n, text in enumerate(source.splitlines(), start=1) if text.strip() == removed[0].strip()]
    if places and all(n in lines for n in places):
        return True
    before, after = _tokens(removed[0]), _tokens(added[0])
    if before is None or after is None or len(before) != len(after):
        return False
    changed = [(b, a) for b, a in zip(before, after) if b != a]
    return bool(changed) and bool(places) and all(
        b[0] == tokenize.STRING and (a[0] == tokenize.STRING or a[1] == "None") for b, a in changed) and \
        all(_literal_is_message(source, b[1]) for b, _ in changed)


def _only_raise_arguments(removed: list[str], added: list[str], source: str) -> bool:
    """The mutant rewrote what a raise says (e.g. `raise RuleViolation(None)`), not what it raises."""
    if not removed or not added:
        return False
    head = removed[0].strip()
    if not head.startswith("raise ") or "(" not in head:
        return False
    prefix = head[:head.index("(") + 1]
    if not added[0].strip().startswith(prefix):
        return False
    spans = [range(r.lineno, r.end_lineno + 1) for r in ast.walk(ast.parse(source)) if isinstance(r, ast.Raise)]
    text = source.splitlines()
    starts = [n for n, line in enumerate(text, start=1) if line.strip() == head]
    return any(all(n + k in span and text[n + k - 1].strip() == line.strip() for k, line in enumerate(removed))
               for n in starts for span in spans if n in span) and all(
        a.strip().startswith(prefix) or not a.strip().startswith("raise") for a in added)


def _tokens(line: str) -> list[tuple[int, str]] | None:
    """The line's tokens; a line cut from a longer statement ends in a tokenizer error, kept up to it."""
    found: list[tuple[int, str]] = []
    try:
        for t in tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline):
            if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.COMMENT):
                found.append((t.type, t.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return found or None


def _message_lines(source: str) -> set[int]:
    """Lines that hold only message text: the arguments of a raised exception (its type excluded),
    and assignments to a local read nowhere but in such arguments."""
    tree = ast.parse(source)
    lines: set[int] = set()
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        message_nodes = [a for r in ast.walk(func) if isinstance(r, ast.Raise) and isinstance(r.exc, ast.Call)
                         for a in [*r.exc.args, *(k.value for k in r.exc.keywords)]]
        for node in message_nodes:
            call = next(r.exc for r in ast.walk(func) if isinstance(r, ast.Raise) and isinstance(r.exc, ast.Call)
                        and node in [*r.exc.args, *(k.value for k in r.exc.keywords)])
            # Lines after the one naming the exception's type hold only its words; on that line
            # only a string-literal change counts (below), since the type decides the exit code.
            lines.update(range(max(node.lineno, call.func.end_lineno + 1), node.end_lineno + 1))
        inside = {id(n) for m in message_nodes for n in ast.walk(m)}
        for stmt in ast.walk(func):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                reads = [n for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == name
                         and isinstance(n.ctx, ast.Load)]
                if reads and all(id(n) in inside for n in reads):
                    lines.update(range(stmt.lineno, stmt.end_lineno + 1))
    return lines


def _literal_is_message(source: str, literal: str) -> bool:
    """Every occurrence of this literal in the module is message text."""
    tree = ast.parse(source)
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        value = None  # an f-string: compare by its source text below
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child._parent = node  # type: ignore[attr-defined]
    places = [n for n in ast.walk(tree) if isinstance(n, (ast.Constant, ast.JoinedStr)) and (
        (isinstance(n, ast.Constant) and value is not None and n.value == value)
        or ast.get_source_segment(source, n) == literal)]
    return bool(places) and all(_in_message(n) for n in places)


def _in_message(node: ast.AST) -> bool:
    child, parent = node, getattr(node, "_parent", None)
    while parent is not None:
        if isinstance(parent, ast.Raise):
            return True
        if isinstance(parent, ast.Call) and child in parent.args:
            name = getattr(parent.func, "id", getattr(parent.func, "attr", ""))
            if MESSAGE_ARGS.get(name) == parent.args.index(child):
                return True
        if isinstance(parent, ast.stmt):
            return False
        child, parent = parent, getattr(parent, "_parent", None)
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="rules modules to run (default: all)")
    parser.add_argument("--show", action="store_true", help="print each survivor's diff, wording-only ones too")
    parser.add_argument("--keep", action="store_true", help="keep the scratch trees (path printed)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="campaign-mutation-"))
    outcomes = []
    try:
        for module in args.modules or modules():
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
