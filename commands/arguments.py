"""What a command line may hold, checked once for every command (commands/root.py) before click
parses it, and how a refusal quotes what the GM typed.

A byte that is not UTF-8 (`pc add $'Bad\\xffName'`, a terminal set to Latin-1) reaches Python as a
lone surrogate that SQLite and the terminal cannot encode: every command failed "unexpectedly" on
it. It is refused here as malformed, naming the argument, whatever the command. And a refusal
that quotes a name raw could be split or reordered by a line break or a bidirectional control in
it: `one_line` writes those as escapes, so an `Error:` line stays one line that reads as typed.
"""
from __future__ import annotations

import unicodedata

import click

from campaign_ledger.ledger.values import BIDI_CONTROLS

BESIDE = ".importing-journal"  # the longest ending of a file made beside the campaign file (SQLite's, an import's)


def not_text(group: click.Group, argv: list[str]) -> str | None:
    """The refusal of the first argument that is not UTF-8 text (or None): which one, as typed."""
    for i, arg in enumerate(argv):
        bad = next((c for c in arg if unicodedata.category(c) == "Cs"), None)
        if bad is not None:
            byte = f"byte {_escape(bad)}" if 0xDC80 <= ord(bad) <= 0xDCFF else f"the lone surrogate {_escape(bad)}"
            typed = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
            return (f"{_which(group, argv, i)} ('{one_line(typed)}') is not UTF-8 text: {byte} cannot be read as "
                    "UTF-8 (is the terminal set to another encoding?); type it in UTF-8.")
    return None


def one_line(text: str) -> str:
    """`text` with every line break, control, bidirectional control and undecodable byte written as
    an escape (`\\n`, `\\x01`, `\\u202e`, `\\xff`): shown on one line, in the order it was typed."""
    return "".join(_escape(c) if _hidden(c) else c for c in text)


def _hidden(c: str) -> bool:
    return c in BIDI_CONTROLS or unicodedata.category(c) in ("Cc", "Zl", "Zp", "Cs")


def _escape(c: str) -> str:
    code = ord(c)
    if 0xDC80 <= code <= 0xDCFF:  # the byte the terminal sent, as Python keeps one it cannot decode
        return f"\\x{code - 0xDC00:02x}"
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(c) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def _which(group: click.Group, argv: list[str], index: int) -> str:
    """How the command names argument `index`: the option it is the value of (`--expertise`), the
    argument it fills (`NAME`), or else its place on the line. Read as click will parse it: the
    command's path first, then its options (a flag takes no value) and its arguments in order."""
    command: click.Command = group
    arguments: list[click.Parameter] = []
    value_of: str | None = None  # the option whose value the next word is
    only_arguments = False
    for i, word in enumerate(argv[:index + 1]):
        here = i == index
        if value_of is not None:
            if here:
                return f"the value of {value_of}"
            value_of = None
        elif word == "--" and not only_arguments:
            only_arguments = True
        elif word.startswith("-") and len(word) > 1 and not only_arguments:
            name = word.split("=", 1)[0]
            option = next((p for p in command.params if isinstance(p, click.Option) and name in p.opts), None)
            if "=" in word and here:
                return f"the value of {name}"
            if option is not None and not option.is_flag and not option.count and "=" not in word:
                value_of = name
        elif isinstance(command, click.Group) and not arguments:
            found = command.get_command(click.Context(command), word)
            if found is None:
                break
            command = found
            arguments = [p for p in command.params if isinstance(p, click.Argument)]
        elif arguments:
            argument = arguments[0] if arguments[0].nargs == -1 else arguments.pop(0)
            if here:
                return f"the argument {argument.metavar or (argument.name or '').upper()}"
        if here:
            break
    return f"argument {index + 1}"


def db_refusal(path: str) -> str | None:
    """Why `--db` (or $CAMPAIGN_DB) can name no file, or None: not UTF-8 (the environment's bytes,
    which no check of the line sees), or longer than the file system takes (SQLite only said
    "unable to open database file", which reached the GM as a failure of the program)."""
    import os

    if any(unicodedata.category(c) == "Cs" for c in path):
        return f"--db ('{one_line(path)}') is not UTF-8 text; name the campaign file in UTF-8."
    name_max, path_max = _limit("PC_NAME_MAX", 255), _limit("PC_PATH_MAX", 4096)
    *folders, name = path.split(os.sep)
    longest = max(folders, key=lambda part: len(os.fsencode(part)), default="")
    if len(os.fsencode(longest)) > name_max:
        return (f"--db names a folder of {len(os.fsencode(longest)):,} bytes ({_shortened(longest)}); the file "
                f"system takes names of at most {name_max} bytes: choose a shorter one.")
    most = name_max - len(BESIDE)  # the files kept beside it (an import's, its journal) need room for their ending
    if len(os.fsencode(name)) > most:
        return (f"--db names a file of {len(os.fsencode(name)):,} bytes ({_shortened(name)}); with the endings of "
                f"the files kept beside it ({BESIDE}) a campaign file's name may have at most {most} bytes: "
                "choose a shorter name.")
    if len(os.fsencode(path)) >= path_max:
        return (f"--db is a path of {len(os.fsencode(path)):,} bytes ({_shortened(path)}); the file system takes "
                f"paths of less than {path_max:,} bytes: choose a shorter one.")
    return None


def _limit(name: str, default: int) -> int:
    """A file system limit (`pathconf`) where this platform says it, else the usual one."""
    import os

    try:
        return os.pathconf(".", name)
    except (AttributeError, OSError, ValueError):
        return default


def _shortened(text: str) -> str:
    return one_line(text if len(text) <= 40 else f"{text[:24]}...{text[-12:]}")
