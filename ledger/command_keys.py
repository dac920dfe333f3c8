"""Idempotency keys: a command run again under its key appends nothing and reports its entries.

The command log keeps, with each key, a digest of the invocation (the command and its
arguments, made by the CLI), so the same key given to a different command, or to the same
command with other arguments, is refused instead of answering with the wrong entries.
Rows logged before the digest was kept compare the command's name only, as they always did.
"""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.chain import chained
from campaign_ledger.ledger.errors import Unusable


def keyed(detail: dict | None, key: str | None, invocation: str | None) -> dict | None:
    """The command's detail for the command log, with its key and invocation digest if it has a key."""
    if not key:
        return detail
    asked = {"invocation": invocation} if invocation else {}
    return {**(detail or {}), "key": key, **asked}


def already_recorded(recorder: Any, key: str, name: str, invocation: str | None) -> dict[str, Any] | None:
    """A retry of a command the log already holds: its entries to report, nothing to append.
    None when the key is new; refused when the key belongs to another command or invocation."""
    found = chained(recorder).command_with_key(key)
    if found is None:
        return None
    first, last, command, unit, detail = found
    if detail.get("invocation") and invocation:
        if detail["invocation"] != invocation:
            raise Unusable(f"key {key} was already used for {in_words(command, unit, detail)} "
                           f"(entries {span(first, last)}); use a new key for a different command.")
    elif command != name:
        raise Unusable(f"The key {key} belongs to another command ({command}, entries #{first}-#{last}); "
                       "give this one its own key.")
    return {"repeated": True, "key": key, "command": command, "entries": list(range(first, last + 1))}


def in_words(command: str, unit: str | None, detail: dict | None = None) -> str:
    """A logged command as a GM would name it: `add pc Kira`, `cohort turn (Vault Guards:2)`,
    `undo (Vault Guards:3)`."""
    words = command.replace("_", " ")
    if not unit and (detail or {}).get("reverses"):
        return f"{words} ({', '.join(detail['reverses'])})"
    if not unit or unit == words:
        return words
    return unit if unit.startswith(words.split(" ")[0]) else f"{words} ({unit})"


def span(first: int, last: int) -> str:
    return f"#{first}" + (f"-#{last}" if last != first else "")
