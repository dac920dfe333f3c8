"""What every ruleset's player catalogue shares: the refusals a player meets, the fields an action
offers, and the reading of the values a page sends back.

The page is never trusted: `Given` reads each value by the kind its action declares, refuses a GM's
field (an override) and any field that names a character other than the seat's own, and refuses
whatever was sent and not read (a misspelt or invented field), before the library is called.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

from campaign_ledger.errors import CampaignError
from campaign_ledger.players.shapes import Field, FieldKind, PlayerAction
from campaign_ledger.shapes import Report

# The rule ids of a player's refusals (docs/json-contract.md lists them with the library's own).
GM_ONLY = "gm-only"
NOT_YOUR_CHARACTER = "not-your-character"
SEAT_INACTIVE = "seat-inactive"

# Fields a page might send that name who acts: the seat says who that is, so each must name the
# seat's own character (and is then dropped) or the action is refused.
CHARACTER_FIELDS = frozenset({"pc", "name", "character", "leader", "side", "by", "helper", "owner", "who", "actor",
                              "seat", "assists", "assist"})
# Fields only a GM may give: an override of a rule, a note kept from the players, a GM's Motto.
GM_FIELDS = {"override": "A GM override", "gm_override": "A GM override", "gm_only": "A GM-only note",
             "gm_motto": "The GM's Motto", "confirmed_by": "Confirming an action"}


def gm_only(what: str) -> CampaignError:
    """A refusal of something the rules leave to the GM."""
    return CampaignError(f"{what} is the GM's to do, not a player's.", 1, GM_ONLY)


def not_yours(message: str) -> CampaignError:
    """A refusal of an action for a character other than the seat's own."""
    return CampaignError(message, 1, NOT_YOUR_CHARACTER)


def malformed(message: str) -> CampaignError:
    """A value that does not parse, or an action that does not exist: code 2, as the CLI's usage errors."""
    return CampaignError(message, 2, None)


def same(a: object, b: object) -> bool:
    """Two names of one thing, as the ledger compares them (spaces around and case do not count)."""
    return isinstance(a, str) and isinstance(b, str) and a.strip().casefold() == b.strip().casefold()


def field(name: str, label: str, kind: FieldKind, *, choices: Sequence[str] = (), required: bool = False,
          dice: int | None = None) -> Field:
    return {"name": name, "label": label, "kind": kind, "choices": list(choices), "required": required,
            "dice": dice}


def offer(action: str, label: str, fields: list[Field], *, odds: str | None = None,
          waiting: bool = False) -> PlayerAction:
    return {"action": action, "label": label, "fields": fields, "odds": odds, "waiting": waiting}


def one_of(name: str, label: str, choices: Iterable[str]) -> Field:
    """The thing an action is about (a Challenge, a conflict, a stat), chosen among those it applies to."""
    return field(name, label, "choice", choices=list(choices), required=True)


# --- reading what a page sent -----------------------------------------------------------------

class Given:
    """The fields a page sent, screened for the seat's character `pc`; read each by its kind, then
    `done()` refuses any field no reading asked for."""

    def __init__(self, fields: object, pc: str) -> None:
        if fields is None:
            fields = {}
        if not isinstance(fields, Mapping) or not all(isinstance(k, str) for k in fields):
            raise malformed("An action's fields are an object of names and values.")
        self.pc = pc
        self.values: dict[str, Any] = {}
        for name, value in fields.items():
            plain = name.strip().lower().replace("-", "_")
            if plain in GM_FIELDS:
                raise gm_only(GM_FIELDS[plain])
            if plain in CHARACTER_FIELDS:
                self.own(value)
                continue
            self.values[name.strip()] = value
        self.read: set[str] = set()

    def own(self, value: object) -> None:
        """A value naming who acts: the seat's own character, or nobody (a list names each)."""
        for named in value if isinstance(value, (list, tuple)) else [value]:
            if named in (None, ""):
                continue
            if not same(named, self.pc):
                raise not_yours(f"{named} is not your character; you play {self.pc}.")

    def names(self, prefix: str) -> list[str]:
        """The fields sent whose names begin with `prefix` ("trait:"), without it."""
        return [name[len(prefix):] for name in self.values if name.startswith(prefix)]

    def _take(self, name: str) -> Any:
        self.read.add(name)
        value = self.values.get(name)
        return None if value == "" else value

    def faces(self, name: str = "faces") -> list[int] | None:
        """Faces read off the table, `[6, 5, 3]` or "6,5,3"; none at all: the program rolls."""
        value = self._take(name)
        if value is None or value == []:
            return None
        if isinstance(value, str):
            value = [v for v in value.replace(",", " ").split() if v]
        if not isinstance(value, (list, tuple)) or not all(_whole(v) for v in value):
            raise malformed(f"Faces are whole numbers in the order they came up, e.g. 6,5,3; not {value!r}.")
        return [int(v) for v in value]

    def number(self, name: str, *, default: int | None = None, low: int | None = None) -> int | None:
        value = self._take(name)
        if value is None:
            return default
        if not _whole(value):
            raise malformed(f"{name} takes a whole number, not {value!r}.")
        if low is not None and int(value) < low:
            raise malformed(f"{name} must be at least {low}, not {value}.")
        return int(value)

    def flag(self, name: str) -> bool:
        value = self._take(name)
        if value is None or isinstance(value, bool):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "on", "yes", "1", "false", "off", "no", "0"):
            return value.strip().lower() in ("true", "on", "yes", "1")
        raise malformed(f"{name} is on or off, not {value!r}.")

    def text(self, name: str, *, required: bool = False) -> str | None:
        value = self._take(name)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                raise malformed(f"Give {name}.")
            return None
        if not isinstance(value, str):
            raise malformed(f"{name} takes words, not {value!r}.")
        return value.strip()

    def choice(self, name: str, choices: Iterable[str], *, required: bool = False) -> str | None:
        """One of `choices`, as they are spelt there."""
        value = self.text(name, required=required)
        if value is None:
            return None
        options = list(choices)
        found = next((c for c in options if same(c, value)), None)
        if found is None:
            raise malformed(f"{name} takes one of {', '.join(options)}; not '{value}'.")
        return found

    def done(self) -> None:
        """Every field sent was one the action takes."""
        left = sorted(set(self.values) - self.read)
        if left:
            raise malformed(f"This action takes no field {', '.join(repr(n) for n in left)}.")


def _whole(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, str) and value.strip().lstrip("-").isdigit()


# --- an action read, ready to run -------------------------------------------------------------

@dataclass(frozen=True)
class Ready:
    """An action read and checked: `run(key)` makes the library call; `what_if()`, when the library
    has one for it (an odds call builds the same pool with every rule check and saves nothing), tries
    it without writing."""

    run: Callable[[str | None], Report]
    what_if: Callable[[], object] | None = None


Reader = Callable[[Any, str, Given], Ready]


# --- odds as one line ---------------------------------------------------------------------------

def chance(value: object) -> str:
    """An exact probability as the odds calls give it ("767/1296"), with its percentage."""
    p = Fraction(str(value))
    return f"{p} ({float(p) * 100:.1f}%)"


def odds_or_none(call: Callable[[], dict[str, Any]], line: Callable[[dict[str, Any]], str]) -> str | None:
    """The line of an odds call's answer; None when the call refuses the pool as too large to work
    out (its bound), or refuses it at all: the action may still be offered (the library will say why)."""
    try:
        return line(call())
    except CampaignError:
        return None


def dice_words(sizes: Iterable[int]) -> str:
    return ", ".join(f"d{d}" for d in sizes) or "no dice"
