"""The docs site (mkdocs.yml, docs/) builds without a warning, and every example in it runs.

A newcomer copies the examples as they stand, so each is executed here, page by page, in a fresh
folder per page, in the order the page gives them (docs/development.md, "The examples in these
pages", is the reader's side of these rules):
- ```sh blocks: each line is a command typed at a shell (a `\\` continuation joins lines, `;`
  separates commands, `#` starts a comment). `campaign ...` runs the CLI as its own process
  (`python -m campaign_ledger.cli`, as the README's Quick start test does); `export NAME=VALUE` sets a variable for
  the page's later commands. A command must exit 0, unless its comment begins `exit N` (`# exit 1:
  later play used it`): then it must exit N, with one `Error:` line on stderr as the CLI contract
  says (or none: a failed audit's verdict is its report), and no traceback.
- ```shell blocks: lines that are not run here because they keep running (`campaign serve`), change
  the reader's shell or machine, or run for minutes (the benches): every `campaign` line in one
  must still parse as the CLI parses it (the command exists, its options are right).
- A fenced block with `title="FILE"` (a roster's ```toml) is written to FILE in the page's folder
  when reached, so the commands after it can read it.
- ```python blocks are run as a script by the same Python, in the page's folder, after the
  commands before them.
README.md's "A short tour" runs the same way (its Quick start is tests/test_project.py's).
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CLI_MODULE = "campaign_ledger.cli"  # the module `python -m` runs: the `campaign` group lives in it
FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```[ \t]*$", re.S | re.M)
TITLE = re.compile(r'title="([^"]+)"')
EXPECTED = re.compile(r"#\s*exit (\d+)\b")


@dataclass(frozen=True)
class Block:
    lang: str
    title: str | None
    text: str


def page_blocks(path: Path) -> list[Block]:
    """The fenced blocks of one page, in order (README: only its short tour)."""
    text = path.read_text(encoding="utf-8")
    if path.name == "README.md":
        text = text.split("## A short tour", 1)[1].split("\n## ", 1)[0]
    return [Block(m.group(1), (TITLE.search(m.group(2)) or [None, None])[1], m.group(3)) for m in FENCE.finditer(text)]


def comment_at(line: str) -> int:
    """Where the line's comment begins (a `#` outside quotes at a word's start), or its length."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return i
    return len(line)


def commands(block: str) -> list[tuple[list[str], int, str]]:
    """Each command of a shell block: its words, the exit code it must give, and its line."""
    found = []
    for line in block.replace("\\\n", " ").splitlines():
        cut = comment_at(line)
        code_part, comment = line[:cut], line[cut:]
        if not code_part.strip():
            continue
        lexer = shlex.shlex(code_part, posix=True, punctuation_chars=";")
        lexer.whitespace_split = True
        lexer.commenters = ""
        words = list(lexer)
        parts: list[list[str]] = [[]]
        for word in words:
            if word == ";":
                parts.append([])
            else:
                parts[-1].append(word)
        parts = [p for p in parts if p]
        expected = EXPECTED.match(comment)
        code = int(expected.group(1)) if expected else 0
        assert code == 0 or len(parts) == 1, f"an expected refusal stands alone on its line: {line}"
        found += [(p, code, line.strip()) for p in parts]
    return found


def _env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAMPAIGN_")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    # `campaign` on the PATH, as the Quick start says to put .venv/bin there (a ```python block runs it)
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])
    return {**env, **extra}


def run_page(path: Path, folder: Path) -> int:
    """Run every example of one page in `folder`; the number of commands and scripts run."""
    exported: dict[str, str] = {}
    ran = 0
    for block in page_blocks(path):
        if block.title:
            (folder / block.title).write_text(block.text, encoding="utf-8")
        if block.lang == "python":
            result = subprocess.run([sys.executable, "-c", block.text], cwd=folder, env=_env(exported),
                                    capture_output=True, text=True, timeout=120)
            assert result.returncode == 0, f"{path.name}: python block failed:\n{block.text}\n{result.stderr}"
            ran += 1
        elif block.lang == "shell":
            for words, _, line in commands(block.text):
                if words[0] == "campaign":
                    parse(words[1:], f"{path.name}: {line}")
        elif block.lang == "sh":
            for words, code, line in commands(block.text):
                where = f"{path.name}: {line}"
                if words[0] == "export":
                    name, value = words[1].split("=", 1)
                    exported[name] = value
                    continue
                assert words[0] == "campaign", f"{where}: a ```sh block runs `campaign` and `export` only"
                result = subprocess.run([sys.executable, "-m", CLI_MODULE, *words[1:]], cwd=folder,
                                        env=_env(exported), stdin=subprocess.DEVNULL,
                                        capture_output=True, text=True, timeout=300)
                assert result.returncode == code, f"{where}: exit {result.returncode}\n{result.stdout}{result.stderr}"
                if code:  # a refusal's one Error line; or a verdict on stdout (a failed audit)
                    lines = result.stderr.strip().splitlines()
                    assert lines == [] or (len(lines) == 1 and lines[0].startswith("Error: ")), f"{where}: {result.stderr}"
                    assert "Traceback" not in result.stdout + result.stderr, where
                ran += 1
    return ran


def parse(args: list[str], where: str) -> None:
    """Parse a command line as the CLI would, without running it (a ```shell block's line)."""
    import importlib

    root = importlib.import_module(CLI_MODULE).cli
    args = [a for a in args if a != "--json"]
    command: click.Command = root
    ctx = root.make_context("campaign", list(args), resilient_parsing=False)
    rest = [*ctx._protected_args, *ctx.args]
    while isinstance(command, click.Group) and rest:
        name, sub, rest = command.resolve_command(ctx, rest)
        assert sub is not None, f"{where}: no command {name}"
        ctx = sub.make_context(name, list(rest), parent=ctx)
        command, rest = sub, [*ctx._protected_args, *ctx.args]
    assert not rest, f"{where}: words left over: {rest}"


PAGES = sorted(DOCS.rglob("*.md")) + [ROOT / "README.md"]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_example_of_the_page_runs(page: Path, tmp_path: Path) -> None:
    run_page(page, tmp_path)


def test_the_site_builds_without_a_warning(tmp_path: Path) -> None:
    """`mkdocs build --strict`: a broken link, a page left out of the nav, or a CLI reference that
    cannot load the click group fails the build."""
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                            cwd=ROOT, env=_env({"NO_MKDOCS_2_WARNING": "1"}), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    reference = (tmp_path / "site" / "cli" / "index.html").read_text(encoding="utf-8")
    headings = set(re.findall(r"<h[2-6][^>]*>(campaign[^<]*)<", reference))
    missing = sorted(set(command_paths()) - headings)
    assert missing == [] and len(headings) > 100, missing  # generated from the click commands, every one


def command_paths() -> list[str]:
    """Every command and group of the CLI, by its full name (`campaign beer-run roll`)."""
    import importlib

    root = importlib.import_module(CLI_MODULE).cli
    found, todo = [], [("campaign", root, click.Context(root, info_name="campaign"))]
    while todo:
        path, command, ctx = todo.pop()
        found.append(path)
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                todo.append((f"{path} {name}", sub, click.Context(sub, info_name=name, parent=ctx)))
    return found


def test_the_runner_refuses_what_it_should() -> None:
    """The rules above, on small blocks: an expected refusal is read from its comment, a `#` inside
    quotes is a word, and a ```shell line with a wrong option does not parse."""
    assert commands('campaign undo "push Bo #1"   # exit 1: later play used it') == \
        [(["campaign", "undo", "push Bo #1"], 1, 'campaign undo "push Bo #1"   # exit 1: later play used it')]
    assert [c[0] for c in commands("campaign sheet; campaign pools  # both\ncampaign \\\n  status")] == \
        [["campaign", "sheet"], ["campaign", "pools"], ["campaign", "status"]]
    parse(["serve", "--host", "0.0.0.0", "--port", "0"], "a right line")
    with pytest.raises(click.UsageError):
        parse(["serve", "--hots", "0.0.0.0"], "a wrong option")
