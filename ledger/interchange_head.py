"""An export line's head (all of it before its data: ledger/interchange_check.py `_entry_line`)
decoded exactly as json.loads decodes it, with a command's detail decoded once per distinct text.

A campaign's commands repeat their details (the same aggregates and fields touched turn after
turn: 2,017 distinct among 20,105 commands at 100,000 entries), and a detail is most of its line's
head (536 of about 900 bytes). Import decoded each one, then encoded it twice more: canonically,
to hash the command row, and as the command log stores it. Here its text is cut out of the head
and decoded the first time it is seen; a later line that spells it alike takes the same `Detail`,
which carries the text the log stores, so neither is encoded again (chain_hash.command_bytes
hashes a stored text through its own cache of canonical forms).

The cuts are those an export writes (`, "command": {"name": ..., "unit": ..., "detail": ...,
"last": N}` closing the head) and hold only when each piece reads on its own as the whole would
read it: anything else (an older export, a line edited by hand) is decoded whole, as before.
"""
from __future__ import annotations

import json
import re
from typing import Any

COMMAND = ', "command": '
DETAIL = ', "detail": '
LAST = ', "last": '
_LAST_VALUE = re.compile(r"-?(?:0|[1-9][0-9]*)\}")  # a JSON integer closing the command
KEPT = 4096  # details a memo keeps (memory stays flat however long the file)
_SCAN = json.JSONDecoder().scan_once  # json.loads's own scanner (C), as json.loads configures it


def loads(text: str) -> Any:
    """json.loads(text): the same value, or the same error. A text that starts with its value and
    ends with it, as every piece of an export line does, is read by the scanner alone: json.loads
    wraps it in three Python calls and two whitespace searches, about a microsecond each of the two
    or three reads of every line; any other text is json.loads's to read (or refuse)."""
    try:
        value, end = _SCAN(text, 0)
    except StopIteration:  # no value at its start: whitespace, or none at all
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


class Detail(dict[str, Any]):
    """A command's detail as read, and `text`: as the command log stores it (json.dumps). The same
    object serves every line that spells the detail alike: nothing may change it."""

    __slots__ = ("text",)
    text: str


def decoded(head: str, details: dict[str, Any]) -> Any:
    """json.loads(head + "}"): the same value, or the same error. `details`: the memo of one file.

    Why a cut piece reading alone proves the whole: `front + "}"` reads as an object with members
    only when `front` ends between two of its top-level members (a cut inside a string leaves it
    open; one inside a nested value leaves that unclosed), so the command follows at the top level;
    so for `name + "}"` inside the command; the detail is one whole value (it was read once); and
    the command closes with `, "last": ` and an integer. A key the pieces would repeat (`command`
    in front, `detail` or `last` in the name's piece) is left to json.loads, which keeps the last."""
    parts = _cut(head)
    if parts is not None:
        front, named, text, last = parts
        try:
            row, command = loads(front + "}"), loads(named + "}")
            if type(row) is dict and type(command) is dict and row and command and "command" not in row \
                    and "detail" not in command and "last" not in command:
                command["detail"], command["last"] = _detail(text, details), last
                row["command"] = command
                return row
        except (ValueError, RecursionError):
            pass
    return loads(head + "}")


def _cut(head: str) -> tuple[str, str, str, int] | None:
    """The head's front, its command's name piece, its detail's text and its last entry, where the
    export writes them (None: not so written)."""
    at = head.find(COMMAND)
    if at < 0:
        return None
    detail = head.find(DETAIL, at)
    last = head.rfind(LAST)
    if detail < 0 or last <= detail or not _LAST_VALUE.fullmatch(head, last + len(LAST)):
        return None
    return head[:at], head[at + len(COMMAND):detail], head[detail + len(DETAIL):last], int(head[last + len(LAST):-1])


def _detail(text: str, details: dict[str, Any]) -> Any:
    """The value `text` spells, decoded the first time (a ValueError if it spells none); an object
    is kept as a `Detail` with the text the command log stores."""
    known = details.get(text)
    if known is not None:
        return known
    value = loads(text)
    if type(value) is not dict:
        return value
    if len(details) >= KEPT:
        details.clear()
    known = details[text] = Detail(value)
    known.text = json.dumps(value)
    return known


def stored(detail: Any) -> str:
    """A command's detail as the command log stores it (json.dumps; an empty or absent one as `{}`)."""
    return detail.text if type(detail) is Detail else json.dumps(detail or {})


def hashed(command: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
    """A command row as the chain hashes it, its detail given as the stored text when it was read
    as a `Detail` (chain_hash.command_bytes spells a text and a dict alike, and keeps the canonical
    form of each text it met). Only a row of text name and unit and an integer last entry: for any
    other value the two spellings could differ (a dict's keys are sorted only in a dict detail's)."""
    if command is None or type(command[3]) is not Detail or type(command[0]) is not int \
            or not isinstance(command[1], (str, type(None))) or not isinstance(command[2], (str, type(None))):
        return command
    return command[0], command[1], command[2], command[3].text
