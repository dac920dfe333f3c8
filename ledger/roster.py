"""A roster file (issue 13): the campaign's characters, their traits and its bestiary, in TOML.

This module reads and writes the file and says where a bad one is wrong (the line and the key);
what the tables mean is the ruleset's (ledger/rulesets/<id>/roster.py), which checks every value
before anything is recorded, so a bad file appends nothing.
"""
from __future__ import annotations

import json
import re
from typing import Any

from campaign_ledger.ledger.errors import BadInput

Path = tuple[Any, ...]  # ("pc", 0, "trait", 1, "modifier"): where a value sits in the file


class Roster:
    """The parsed file and its text, to point at the line of any key."""

    def __init__(self, text: str, source: str = "the roster") -> None:
        import tomllib  # only when a roster is read: every Relics command imports this module

        self.text, self.source = text, source
        try:
            self.data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise BadInput(f"{source} is not TOML: {e}.") from None

    def refuse(self, path: Path, problem: str) -> BadInput:
        """An error naming the line and the key at fault (`line 7, pc[1].expertise: ...`)."""
        line = next((n for i in range(len(path), 0, -1) if (n := line_of(self.text, path[:i]))), None)
        where = f"line {line}, " if line else ""
        return BadInput(f"{self.source}: {where}{key_name(path)}: {problem}")

    def tables(self, name: str) -> list[dict[str, Any]]:
        """The array of tables `[[name]]` (none: an empty list)."""
        found = self.data.get(name, [])
        if not isinstance(found, list) or not all(isinstance(x, dict) for x in found):
            raise self.refuse((name,), f"write each as a [[{name}]] table.")
        return found

    def check_keys(self, path: Path, table: dict[str, Any], allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                raise self.refuse((*path, key), f"unknown key; a table here takes {', '.join(allowed)}.")

    def value(self, path: Path, table: dict[str, Any], key: str, kind: type | tuple[type, ...],
              default: Any = ...) -> Any:
        """A value of the kind expected; a missing one takes the default, or is refused."""
        if key not in table:
            if default is ...:
                raise self.refuse(path, f"'{key}' is missing.")
            return default
        value = table[key]
        if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            names = "/".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
            raise self.refuse((*path, key), f"expected {_KINDS.get(names, names)}, not {value!r}.")
        return value


_KINDS = {"str": "text", "int": "a whole number", "dict": "a table", "list": "a list"}


def key_name(path: Path) -> str:
    parts = []
    for part in path:
        if isinstance(part, int):
            parts[-1] += f"[{part}]"
        else:
            parts.append(str(part))
    return ".".join(parts)


HEADER = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_.\-]+)\s*\]\]")
TABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\-]+)\s*\]")


def line_of(text: str, path: Path) -> int | None:
    """The line a key sits on, following `[[pc]]` / `[[pc.trait]]` headers as TOML counts them;
    the table's header line when the key is missing; None when it is written inline."""
    names = [p for p in path if isinstance(p, str)]
    indices = tuple(p for p in path if isinstance(p, int))
    key = names.pop() if len(names) > len(indices) else None
    wanted = (".".join(names), indices)
    counters: dict[tuple[str, tuple[int, ...]], int] = {}
    current: tuple[str, tuple[int, ...]] | None = ("", ())  # the root, before any header
    header_line = None
    for number, line in enumerate(text.splitlines(), 1):
        header = HEADER.match(line)
        if header:
            name = header[1]
            depth = name.count(".")
            parent = current[1][:depth] if current and current[0].split(".")[:depth] == name.split(".")[:depth] else ()
            counters[(name, parent)] = counters.get((name, parent), -1) + 1
            current = (name, parent + (counters[(name, parent)],))
            header_line = number if current == wanted else header_line
            continue
        if TABLE.match(line):
            current = None
            continue
        if current == wanted and key is not None and re.match(rf'^\s*"?{re.escape(key)}"?\s*=', line):
            return number
    return header_line


EMPTY = "# No PCs and no bestiary yet: nothing to write.\n"  # a comment: still a TOML file


def dumps(data: dict[str, Any]) -> str:
    """The file in one style, README's: each PC or Challenge a `[[pc]]` / `[[challenge]]` table
    whose small values are inline (`expertise = { Phantom = 3 }`, `types = ["Venger"]`), then each of
    its traits a `[[pc.trait]]` table. (tomli_w chose per value: a short trait list went inline as
    `trait = [{...}]`, a long one as `[[pc.trait]]`, and expertise as a `[pc.expertise]` table.)"""
    chunks = []
    for array, rows in data.items():
        for row in rows:
            tables = {k: v for k, v in row.items() if isinstance(v, list) and v and isinstance(v[0], dict)}
            chunks.append(_table(f"[[{array}]]", {k: v for k, v in row.items() if k not in tables}))
            chunks += [_table(f"[[{array}.{key}]]", sub) for key, subs in tables.items() for sub in subs]
    return "\n".join(chunks) or EMPTY


def _table(header: str, values: dict[str, Any]) -> str:
    return "".join([f"{header}\n", *(f"{_key(k)} = {_value(v)}\n" for k, v in values.items())])


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _string(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return f"[{', '.join(_value(v) for v in value)}]"
    if isinstance(value, dict):
        return f"{{ {', '.join(f'{_key(k)} = {_value(v)}' for k, v in value.items())} }}" if value else "{}"
    raise TypeError(f"a roster holds no {type(value).__name__} values")


def _string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, and TOML also wants DEL escaped."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
