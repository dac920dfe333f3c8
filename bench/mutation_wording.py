"""Which surviving mutants change only words a GM reads (bench/mutation.py leaves them out of the score).

A mutant changes only a message's wording when the one line it changes is message text: an
argument of a raised exception on a line of its own (the exception's type, which decides the
exit code, is never counted as wording), or an assignment to a local read only there; or when
every token it changes is a string literal (mutmut's "XX...XX", a case change, or the literal
replaced by None) that is only ever read as words for a GM: inside a `raise`, or the "what is
this" argument of a helper that only puts it into its error message (MESSAGE_ARGS).
"""
from __future__ import annotations

import ast
import io
import tokenize

# Helpers whose argument at this position is only words in an error message.
MESSAGE_ARGS = {"whole": 1, "_whole": 1, "canonical": 2, "_sign_polarity": 2}


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

