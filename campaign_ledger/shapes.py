"""The shapes the library returns: the same as the CLI's `--json` (the JSON contract in docs/).

A write returns its report: what the command's own `--json` prints, plus the bookkeeping every
write has. A read returns its view's rows. Each is a plain JSON value (dicts, lists, numbers,
strings), typed here so a bot's editor and mypy know the fields every such value has; a ruleset
adds fields of its own to a report (a roll's faces, a Challenge's outcome), which stay in the dict.
"""
from __future__ import annotations

from typing import Any, TypedDict


class HistoryLine(TypedDict, total=False):
    """One entry of the campaign history, as `history --json` lists it."""

    entry: int
    time: str  # UTC, ISO 8601, seconds
    type: str  # the entry's kind, e.g. "Challenge.Opened"
    line: str  # the GM's words for it
    round: str | None  # the round it was played in, "Vault Guards:2"
    about: str | None  # the id of the thing it is about
    unit: str  # the undo unit it belongs to
    reversed_at: int | None  # the entry that undid it
    reversed_by: str | None  # and that entry's unit


class Report(TypedDict, total=False):
    """What a write recorded: `entries` (numbers), the idempotency `key` it was logged under, the
    undo `unit` that takes it back (`undo(unit)`), and its `history` lines. A repeat (the key of a
    call already recorded) appends nothing: `repeated` is True and `entries` the original's."""

    entries: list[int]
    key: str
    unit: str
    history: list[HistoryLine]
    repeated: bool
    command: str


class UndoPlan(TypedDict, total=False):
    """What `undo` reversed, or with `dry_run` would reverse (`undo --dry-run --json`)."""

    unit: str
    entries: list[int]
    reversed: list[int]
    changes: list[Any]


Row = dict[str, Any]  # one row of a read view (a sheet, a Challenge, a session): its fields are the ruleset's
