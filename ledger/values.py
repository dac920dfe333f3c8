"""The values a command may record: checked before anything is appended.

The ledger keeps every entry for ever and the read tables must be able to apply each one:
an entry they cannot store (a number past SQLite's 64 bits, a name that breaks a history
line) would stop the campaign's read side. So each value a projection stores is checked
here, once, when it enters: commands call `name`, `text` and `integer`, and
`CampaignLedger.run` passes every pending event through `check_recordable` as the last net.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from campaign_ledger.ledger.errors import BadInput

NAME_MAX = 200      # a PC, trait, Challenge, campaign name or a title
TEXT_MAX = 2000     # a reason, a Motto, a note
INT_MIN, INT_MAX = -(2**63), 2**63 - 1  # what an SQLite INTEGER holds
KEY_MAX = 64        # an idempotency key
_SKIPPED = frozenset({"originator_id", "originator_version", "timestamp"})
# The bidirectional controls: invisible, they reorder how the text after them is drawn (a PC named
# "\u202eevil" reads "live" in the history and on the players' page), so no new name or text holds one.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_number(text: str) -> bool:
    """Plain digits 0-9 only: `str.isdigit` also takes '²', which `int` then refuses with a crash."""
    return text.isascii() and text.isdigit()


def name(value: str, what: str = "A name", recorded: bool = False) -> str:
    """A name or title: trimmed, not empty, one line of at most NAME_MAX characters. One `recorded`
    already (an import's) may hold a bidirectional control: they were refused only from issue 35 on."""
    value = _line(value, what, NAME_MAX, bidi=not recorded)
    if not value:
        raise BadInput(f"{what} cannot be empty.")
    return value


def text(value: str, what: str = "A reason") -> str:
    """Free text (a reason, a Motto): trimmed, may be empty, one line of at most TEXT_MAX characters."""
    return _line(value, what, TEXT_MAX)


def integer(value: int, what: str, low: int = INT_MIN, high: int = INT_MAX) -> int:
    """A whole number within the game's bounds, which never reach past SQLite's 64 bits (a library
    caller's "3" or 3.0 is no whole number: refused as malformed, not compared)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadInput(f"{what} must be a whole number, not {repr(value)[:40]}.")
    low, high = max(low, INT_MIN), min(high, INT_MAX)
    if low <= value <= high:
        return value
    if high == INT_MAX:
        raise BadInput(f"{what} must be at least {low}, not {_short(value)}." if value < low else
                       f"{what} is too large: {_short(value)}.")
    if low == INT_MIN:
        raise BadInput(f"{what} can be at most {high}, not {_short(value)}." if value > high else
                       f"{what} is too small: {_short(value)}.")
    raise BadInput(f"{what} goes from {low} to {high}, not {_short(value)}.")


def key(value: str) -> str:
    """An idempotency key: letters, digits, '-' and '_' only, so it reads back exactly."""
    value = value.strip()
    if not value or len(value) > KEY_MAX or not all(c.isascii() and (c.isalnum() or c in "-_") for c in value):
        raise BadInput(f"A command key is 1 to {KEY_MAX} letters, digits, '-' or '_'.")
    return value


def check_recordable(events: Iterable[Any]) -> None:
    """Refuse any value in the pending events that the read tables could not store.

    The commands check their own values first with a message in the game's words; this
    is the net under all of them, so no entry the read side cannot apply is ever appended.
    """
    for event in events:
        for field, value in vars(event).items():
            if field not in _SKIPPED:
                _recordable(value, field)


def _recordable(value: Any, field: str) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        integer(value, f"A number ({field})")
    elif isinstance(value, str):
        _line(value, f"A text ({field})", TEXT_MAX, trim=False, bidi=False)
    elif isinstance(value, dict):
        for k, v in value.items():
            _recordable(k, field)
            _recordable(v, field)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _recordable(v, field)


def _line(value: str, what: str, limit: int, trim: bool = True, bidi: bool = True) -> str:
    value = value.strip() if trim else value
    if len(value) > limit:
        raise BadInput(f"{what} is {len(value):,} characters long; the most is {limit:,}.")
    if _BREAKS.search(value):
        raise BadInput(f"{what} cannot hold line breaks, tabs or other control characters.")
    # Not in the net under every entry, nor in an import: an entry may name one recorded before this
    # rule, and refusing it would jam that campaign for good.
    control = next((c for c in value if c in BIDI_CONTROLS), None) if bidi else None
    if control is not None:
        raise BadInput(f"{what} cannot hold a bidirectional control character (U+{ord(control):04X}): it would "
                       "reorder how the text around it reads.")
    return value


# Every character of Unicode's categories Cc, Zl and Zp (the control characters, U+2028, U+2029): one
# search in C, not a category looked up per character (an import checks every text of every entry).
_BREAKS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _short(value: int) -> str:
    digits = str(abs(value))
    return str(value) if len(digits) <= 20 else f"{'-' if value < 0 else ''}a {len(digits)}-digit number"


def given_faces(value: Any, what: str = "Faces") -> tuple[int, ...]:
    """Faces a caller of the library gives (a list of whole numbers): anything else, a string
    included, is refused as malformed, in one line, before it reaches a rule."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise BadInput(f"{what} must be a list of whole numbers, e.g. [1, 3, 3], not {value!r}.")
    faces = tuple(value)
    if not all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
        raise BadInput(f"{what} must be whole numbers, not {list(faces)!r}.")
    return faces
