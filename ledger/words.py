"""Recorded values written in words, for every line a person reads (issue 35).

History lines, undo's plans and listing, replays, the exports and the live page all show values
that the ledger keeps as Python data: None, True/False, lists of faces, dicts of traits. Written
with `str`, they read `leader -> None`, `Stressed Out False -> True`, `disaster {...}`. Every
such value goes through here instead, so a line says `none`, `yes`/`no`, `5, 3, 2`, and a dict by
what it holds, and a long list ends in "and 3 more", never in a dangling word.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

LIMIT = 6  # items a list or dict names before "and N more"
CHANGES = 4  # changes (and things changed) one line of an undo names before "and N more"
Word = Callable[[Any], str]  # a ruleset's words for one item of a value (an aggregate's WORDS)


def said(value: Any, limit: int = LIMIT) -> str:
    """Any recorded value in words: none, yes/no, a number, a text, or what a list or dict holds
    (a dict's entries as `key value`, an entry holding more than one value by its key alone; a
    list's dicts by their name)."""
    if value is None or isinstance(value, bool):
        return "none" if value is None else "yes" if value else "no"
    if isinstance(value, dict):
        return listed([_named(k, v) if _many(v) else _entry(k, v) for k, v in value.items()], limit)
    if _many(value):
        return listed([_item(v) for v in value], limit)
    return str(value) if value != "" else "none"


def in_line(value: Any, limit: int = LIMIT) -> str:
    """A value inside a longer line: one of several items in parentheses, so `a -> b` stays clear."""
    text = said(value, limit)
    return f"({text})" if isinstance(value, (dict, list, tuple, set, frozenset)) and len(value) > 1 else text


def change(label: str, before: Any, after: Any, word: Word | None = None) -> str:
    """`Stressed Out no -> yes`, `leader Kira -> none`: a value changed, both sides in words. A dict
    or a list of named things (a sheet's abilities, a PC's traits) whose words would read the same
    on both sides, or whose items `word` writes as their ruleset does (the aggregate's WORDS,
    ledger/reversible.py), names only what changed inside it (`abilities Attention d4 -> d3`)."""
    old, new = _keyed(before), _keyed(after)
    if old is not None and new is not None and (word is not None or value(before) == value(after)):
        inside = [part for k in dict.fromkeys([*new, *old]) if (part := _inside(k, old.get(k), new.get(k), word))]
        if inside:
            return f"{label} " + (inside[0] if len(inside) == 1 else f"({listed(inside, CHANGES)})")
    return f"{label} {value(before, word)} -> {value(after, word)}"


def value(held: Any, word: Word | None = None) -> str:
    """A value inside a line (`in_line`), each item in its ruleset's words when it has them
    (`Muscle d10, Attention d3`: a named item by its name and its words)."""
    if word is None or not isinstance(held, (list, tuple)):
        return in_line(word(held) if word is not None and held is not None else held)
    items = [f"{said(x['name'])} {word(x)}" if isinstance(x, dict) and "name" in x else word(x) for x in held]
    return f"({listed(items)})" if len(items) > 1 else listed(items)


def _keyed(held: Any) -> dict | None:
    """A dict as it is, a list of named dicts by name (an empty list holds none); else None."""
    if isinstance(held, dict):
        return held
    if isinstance(held, (list, tuple)) and all(isinstance(x, dict) and "name" in x for x in held):
        return {said(x["name"]): x for x in held}
    return None


def _inside(key: Any, before: Any, after: Any, word: Word | None) -> str:
    """One entry of a dict or named list that changed: by its ruleset's words, else field by field."""
    if before == after:
        return ""
    if word is None and isinstance(before, dict) and isinstance(after, dict):
        named = said(after["name"]) if "name" in after else _key(key)  # `Athletics`, not its key `athletics`
        fields = [change(_key(f), before.get(f), after.get(f)) for f in dict.fromkeys([*after, *before])
                  if f != "name" and before.get(f) != after.get(f)]
        return f"{named} " + ", ".join(fields or [f"{said(before.get('name'))} -> {named}"])
    one = (lambda x: "none" if x is None else word(x)) if word is not None else \
        (lambda x: _item({k: v for k, v in x.items() if k != "name"}) if isinstance(x, dict) else in_line(x))
    return f"{_key(key)} {one(before)} -> {one(after)}"


def faces(values: Iterable[Any]) -> str:
    """Dice faces as a GM reads them off the table: `6, 5, 3` (every one: the record is exact)."""
    return ", ".join(map(str, values)) or "none"


def listed(items: list[str], limit: int = LIMIT, more: str = "more", sep: str = ", ") -> str:
    """Items joined by `sep`; past `limit`, the first ones and "and N more" (a cut that ends cleanly)."""
    if not items:
        return "none"
    if len(items) <= limit:
        return sep.join(items)
    return f"{sep.join(items[:limit - 1])}{sep}and {len(items) - limit + 1} {more}"


def _key(key: Any) -> str:
    return str(key).replace("_", " ")


def _entry(key: Any, value: Any) -> str:
    """`key value`; a name kept under its own folded case (`cat-like: Cat-like`) by the name alone."""
    if isinstance(value, str) and isinstance(key, str) and key.casefold() == value.casefold():
        return value
    return f"{_key(key)} {said(value)}"


def _named(key: Any, value: Any) -> str:
    """An entry of a dict holding more than one value (a trait by its key): by its own name if it has one."""
    return said(value["name"]) if isinstance(value, dict) and "name" in value else _key(key)


def _many(value: Any) -> bool:
    return isinstance(value, (dict, list, tuple, set, frozenset))


def _item(value: Any) -> str:
    """One item of a list: a dict by its name (or its plain entries), a list by its items, spaced."""
    if isinstance(value, dict):
        if "name" in value:
            return said(value["name"])
        return " ".join(_key(k) if _many(v) else f"{_key(k)} {said(v)}" for k, v in value.items()) or "none"
    if _many(value):
        return " ".join(_item(v) for v in value) or "none"
    return said(value)


def who(actor: str | None, channel: str | None = None, confirmed_by: str | None = None) -> str:
    """Who wrote an entry, as every display shows it (history, exports, the live page, undo's list):
    nothing for the GM's own entries (most of a campaign), `Kira · page` for a player's seat, and
    `Kira · page · confirmed by GM` for a player's action the GM accepted (ledger/actors.py)."""
    if not actor or actor == "gm":
        return ""
    name = actor.split(":", 1)[1] if actor.startswith("seat:") else actor
    said = f"{name} · {channel}" if channel and channel != "unrecorded" else name
    if confirmed_by:
        said += f" · confirmed by {'GM' if confirmed_by == 'gm' else who(confirmed_by)}"
    return said
