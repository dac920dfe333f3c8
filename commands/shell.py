"""`campaign shell`: one warm process for a session at the table, with completion and a status line.

Each line is a command exactly as on the command line without `campaign`, run through the same
click group in-process: refusals, exit codes and `--json` behave as they do there, and a refused
line prints its `Error:` and the shell goes on. prompt_toolkit is imported only here, when the
shell starts, so no other command pays for it.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
from typing import Any, Callable, Iterator

import click

from campaign_ledger.commands.plumbing import json_option

COMMANDS = click.Group()  # added to `campaign` by cli.py
HISTORY_FILE = ".campaign-shell-history"  # beside the campaign file, shared by every campaign in that folder
LEAVE = {"exit", "quit"}
OWN_WORDS = {"help": "the commands; help COMMAND: its options", "clear": "clear the screen",
             "exit": "leave the shell", "quit": "leave the shell"}  # the shell's own, not campaign commands
SHELL_HELP = ("In the shell, commands are typed without `campaign`: `help COMMAND` shows a command's options, "
              "`clear` (or Ctrl-L) clears the screen, `exit` or `quit` (or Ctrl-D) leaves; Tab completes.")


@COMMANDS.command()
@json_option
@click.pass_context
def shell(ctx: click.Context) -> None:
    """Play in one warm process: every command without `campaign`, Tab to complete, history kept.

    Tab completes commands, options, choices and the campaign's own names (PCs, Challenges,
    OWNER:TRAIT, rounds for undo and replay); the bottom line shows the pools and what the turn
    waits for. Ctrl-C cancels the line, Ctrl-D (or `exit`) leaves; `help` and `clear` do as in a
    shell. --db and --json given to `shell` apply to every line; a --key belongs to one command, so
    give it on that line.

    Example: campaign --db heist.db shell
    """
    import sys

    root = ctx.find_root()
    path, prefix = root.obj["db"], _global_args(root)
    if os.environ.pop("CAMPAIGN_COMMAND_KEY", None) or root.obj.get("key"):  # never one key for every line
        click.echo("Note: a key names one command; in the shell give --key on the line it belongs to.", err=True)
    if not sys.stdin.isatty():  # lines piped in (a script): run each, no prompt; the worst exit code
        ctx.exit(_run_piped(root.command, prefix, sys.stdin))
    from prompt_toolkit import PromptSession

    from campaign_ledger.commands.completion import attach
    from campaign_ledger.commands.toolbar import toolbar_line

    attach(root.command)
    line_below = [toolbar_line(path, _asker(root.command, path))]  # worked out after each command, not per redraw
    session: Any = PromptSession(history=_history(path), completer=_completer(root.command, prefix),
                                 bottom_toolbar=lambda: line_below[0], complete_while_typing=False)
    click.echo("Campaign shell: commands without `campaign`; Tab completes; Ctrl-D leaves.")
    while True:
        try:
            line = session.prompt("campaign> ")
        except KeyboardInterrupt:  # Ctrl-C: the line is dropped, the shell stays
            continue
        except EOFError:  # Ctrl-D
            break
        if line.strip().casefold() in LEAVE:
            break
        if line.strip() and own_word(root.command, prefix, line, _clear_screen) is None:
            run_line(root.command, prefix, line)
            line_below[0] = toolbar_line(path, _asker(root.command, path))


def _clear_screen() -> None:
    from prompt_toolkit.shortcuts import clear

    clear()


def own_word(group: click.Command, prefix: list[str], line: str, clear: Callable[[], None] = click.clear) -> int | None:
    """Run a line of the shell's own (`help`, `help COMMAND`, `clear`): its exit code; None when the
    line is a campaign command (no command is named help or clear)."""
    words = line.split()
    first = words[0].casefold() if words else ""
    if first == "clear" and len(words) == 1:
        clear()
        return 0
    if first != "help":
        return None
    code = run_line(group, prefix, line.strip()[len("help"):] + " --help")
    if len(words) == 1:
        click.echo(f"\n{SHELL_HELP}")
    return code


def _history(path: str) -> Any:
    """Lines of earlier sessions, from the file beside the campaign's; kept in memory only (and said
    so) when that folder cannot be written, rather than failing on the first line."""
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    history = os.path.join(os.path.dirname(os.path.abspath(path)), HISTORY_FILE)
    try:
        with open(history, "a", encoding="utf-8"):
            pass
    except OSError as e:
        click.echo(f"Note: lines are not kept after this session ({history}: {e.strerror}).", err=True)
        return InMemoryHistory()
    return FileHistory(history)


def _global_args(root: click.Context) -> list[str]:
    """The options given before `shell`, as arguments every line begins with."""
    return ["--db", root.obj["db"]] + ["--json"] * bool(root.obj.get("json"))


def _run_piped(command: click.Command, prefix: list[str], lines: Any) -> int:
    """Each line in turn until `exit` or `quit`, as at the prompt; the worst exit code."""
    worst = 0
    for line in lines:
        if line.strip().casefold() in LEAVE:
            break
        if line.strip():
            own = own_word(command, prefix, line)
            worst = max(worst, run_line(command, prefix, line) if own is None else own)
    return worst


def run_line(group: click.Command, prefix: list[str], line: str) -> int:
    """Run one line as `campaign PREFIX LINE` would; its exit code (a refusal has printed its Error:)."""
    import shlex

    try:
        argv = shlex.split(line)
    except ValueError as e:  # an unclosed quote: malformed, as click would call it
        click.echo(f"Error: {e}; close the quote.", err=True)
        return 2
    if argv and argv[0] == "shell":
        click.echo("Error: this is already the campaign shell.", err=True)
        return 1
    try:
        group.main(args=prefix + argv, prog_name="campaign", standalone_mode=False, obj={"channel": "shell"})
    except SystemExit as e:  # a refusal (its Error: line is printed) or --help
        return e.code if isinstance(e.code, int) else 1
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.ClickException as e:
        e.show()
        return e.exit_code
    return 0


def _asker(group: click.Command, path: str) -> Callable[[list[str]], Any]:
    """Run a reading command with --json in-process, silently: its answer, or None when refused."""
    import shlex

    def ask(args: list[str]) -> Any:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            if run_line(group, ["--db", path, "--json"], shlex.join(args)) != 0:
                return None
        try:
            return json.loads(out.getvalue())
        except ValueError:
            return None
    return ask


def split_line(text: str) -> tuple[list[str], str, int]:
    """The words typed before the cursor's word, the cursor's word (unquoted) and where it starts.

    Unlike shlex this accepts an unclosed quote, which is what a half-typed `"Vault G` is."""
    args: list[str] = []
    word, start, quote, in_word, i = "", len(text), "", False, 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
            else:
                word += ch
        elif ch.isspace():
            if in_word:
                args.append(word)
                word, in_word = "", False
        else:
            if not in_word:
                start, in_word = i, True
            if ch in "'\"":
                quote = ch
            elif ch == "\\" and i + 1 < len(text):
                i += 1
                word += text[i]
            else:
                word += ch
        i += 1
    return args, word, start if in_word else len(text)


def quoted(value: str, opened: str = "") -> str:
    """A value as it must be typed: `"Vault Guards"`; a placement stays open for its dice (`"Keen Eye=`).

    `opened` is the quote the GM already typed, if any: the completion keeps it."""
    import shlex

    if not opened and value and all(c.isalnum() or c in "-_.:=,/+#@" for c in value):
        return value
    mark = opened or '"'
    if mark in value or (mark == '"' and "\\" in value):
        return shlex.quote(value)
    return f"{mark}{value}" if value.endswith("=") else f"{mark}{value}{mark}"


def _completer(group: click.Command, prefix: list[str]) -> Any:
    """A prompt_toolkit completer asking click's own completion, with the shell's global options."""
    from click.shell_completion import ShellComplete
    from prompt_toolkit.completion import Completer, Completion

    class ClickCompleter(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Iterator[Completion]:
            args, incomplete, start = split_line(document.text_before_cursor)
            if args and args[0] == "shell":
                return
            asked = args[1:] if args[:1] == ["help"] else args  # `help COMMAND`: the command's names
            try:
                items = ShellComplete(group, {}, "campaign", "_CAMPAIGN_COMPLETE").get_completions(
                    prefix + asked, incomplete)
            except Exception:  # completion never interrupts a line
                return
            if not args:
                items += [click.shell_completion.CompletionItem(w, help=says) for w, says in sorted(OWN_WORDS.items())
                          if w.startswith(incomplete)]
            typed = document.text_before_cursor[start:]
            opened = typed[0] if typed[:1] in ("'", '"') else ""
            for item in items:
                if item.type == "plain":
                    yield Completion(quoted(str(item.value), opened), start_position=-len(typed),
                                     display=str(item.value), display_meta=item.help or "")
    return ClickCompleter()
