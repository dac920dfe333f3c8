"""The shapes the library returns: the same as the CLI's `--json` (the JSON contract in docs/).

A write returns its report: what the command's own `--json` prints, plus the bookkeeping every
write has. A read returns its view's rows. Each is a plain JSON value (dicts, lists, numbers,
strings), typed here so a bot's editor and mypy know the fields every such value has; a ruleset
adds fields of its own to a report (a roll's faces, a Challenge's outcome), which stay in the dict.

The calls' modules import these names for a type checker only (`if TYPE_CHECKING:`): a command
does not pay for defining them (1.4 ms CPU), and web/openapi.py reads the calls' hints with them.
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
    actor: str  # who wrote it: "gm" or "seat:<name>" (issue 38); "gm" for entries written before
    channel: str  # how it came: cli, shell, page, api, import; "unrecorded" for entries written before
    confirmed_by: str  # only for a player's action a GM accepted: "gm"


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
    actor: str  # who the call wrote as: "gm" or "seat:<name>"
    channel: str  # and by what: cli, shell, page, api
    confirmed_by: str  # only when a GM accepted a player's action: "gm"


class SeatListed(TypedDict):
    """A player's seat (`seat list --json`): the character it is for, who plays it, whether its link
    opens it ("active") or not ("revoked"), how many links it has had, and the actor its entries name."""

    seat: str
    pc: str
    player: str
    state: str  # "active" | "revoked"
    generation: int
    actor: str  # "seat:<seat>"


class SeatLink(TypedDict):
    """An active seat's invite link (`seat_links`): `link_path` after the server's address opens it."""

    seat: str
    pc: str
    player: str
    link_path: str
    token: str


class Reversal(TypedDict, total=False):
    """One unit an undo reverses (or would): its entries and what changes, in the GM's words."""

    unit: str
    entries: list[int]
    entry_range: list[int]
    changes: list[str]


class UndoPlan(TypedDict, total=False):
    """What `undo` reversed, or with `dry_run` would reverse (`undo --dry-run --json`); a done undo
    is also a Report (its entries, key and history)."""

    dry_run: bool
    reversed: list[Reversal]
    detail: dict[str, Any]
    needs_cascade: str  # the refusal an undo without cascade would meet (later play used the unit)


class UnitListed(TypedDict, total=False):
    """A unit undo can take (`undo --list --json`), newest first."""

    unit: str
    first_entry: int
    entries: list[int]
    entry_range: list[int]
    commands: list[str]
    did: str
    dependents: list[str]
    cascade_refused: str | None
    actor: str  # who wrote it: its first command's actor ("gm", "seat:Kira")
    channel: str  # and how ("unrecorded" before issue 38)
    confirmed_by: str  # only when a GM accepted a player's action
    actors: list[str]  # only when more than one actor wrote its commands


class Session(TypedDict, total=False):
    """A play session (`session list --json`)."""

    number: int
    title: str
    started: str
    ended: str | None
    first_entry: int
    last_entry: int | None


class AuditReport(TypedDict, total=False):
    """`audit --json`: `clean`, the chain's verdict and what the record holds (docs/json-contract.md)."""

    clean: bool
    chain: Any
    entries: int
    entry_count: int
    broken_entry: int | None
    broken_by_anchor: bool
    broken_by_key: bool
    stuck_entry: int | None
    read_tables_differ: list[Any]
    read_notes: list[Any]
    signed_from: int | None
    overrides: list[Any]
    house_rules: list[Any]
    reversals: list[Any]
    corrections: list[Any]
    dice: dict[str, Any]
    undone_program_rolls: list[Any]
    actors: dict[str, int]  # entries per actor ("gm", "seat:Kira"), when the chain holds (not with `chain`)


class RelicsSheet(TypedDict, total=False):
    """A Relics PC's sheet (`sheet --json`)."""

    name: str
    primary: str
    expertise: dict[str, int]
    stress: int
    agony: int
    status: str
    retired: str | None
    traits: list[dict[str, Any]]


class BeerRunSheet(TypedDict, total=False):
    """A Beer Run character's sheet (`beer-run sheet --json`)."""

    name: str
    kind: str
    status: str
    intensity: int
    abilities: dict[str, dict[str, str]]
    situation: list[Any]
    penalties: list[Any]


class ActionDiceSheet(TypedDict, total=False):
    """An action-dice character's sheet (`action-dice sheet --json`)."""

    name: str
    rolls: int
    assets: dict[str, str]
    features: list[str]
    conditions: list[dict[str, Any]]
    incapacitated_for: list[str]


class Decision2d6Sheet(TypedDict, total=False):
    """A decision-2d6 character's sheet (`decision-2d6 sheet --json`)."""

    name: str
    level: int
    will: int
    fort: int
    stress: int
    vitality: int
    stats: dict[str, int]
    attributes: dict[str, int]


Sheet = RelicsSheet | BeerRunSheet | ActionDiceSheet | Decision2d6Sheet  # `sheet`: the campaign's ruleset's


class RelicsPools(TypedDict, total=False):
    """Destiny and Doom (`pools --json` of a Relics campaign)."""

    scenario: str | None
    destiny: int
    doom: int
    cohort_traits: list[dict[str, Any]]


class Decision2d6Pools(TypedDict, total=False):
    """Supply dice and trackers (`pools --json` of a decision-2d6 campaign)."""

    supplies: list[dict[str, Any]]
    trackers: list[dict[str, Any]]


Pools = RelicsPools | Decision2d6Pools | list[dict[str, Any]]  # a Beer Run campaign's: a row per character
Row = dict[str, Any]  # one row of a read view (a sheet, a Challenge, a session): its fields are the ruleset's
