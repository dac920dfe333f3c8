"""Import's first pass: the whole JSON Lines file walked against the hash chain before anything is
written, refusing the first line that gives an edit, a truncation or a reordering away, and any
event type the program does not define (nothing in a file picks code to run)."""
from __future__ import annotations

import functools
import json
import re
from types import SimpleNamespace
from typing import Any, Iterator
from uuid import UUID

from campaign_ledger.ledger.chain import GENESIS, link_hash
from campaign_ledger.ledger import values
from campaign_ledger.ledger.interchange_head import decoded, hashed, loads
from campaign_ledger.ledger.errors import BadInput, Unusable
from campaign_ledger.ledger.topic_guard import ForeignTopic, check_data

FORMAT = "campaign-ledger/1"


_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # what json.dumps would build per call


def encode(data: Any) -> bytes:
    """Exactly as eventsourcing's JSON transcoder writes state, so hashes survive the trip."""
    return _COMPACT.encode(data).encode("utf-8")


class Checker:
    """The chain walked one line at a time, so a single pass can check a line and write it.

    `line` returns, for an entry line, the decoded row, its aggregate id, its stored state bytes and its command row
    (None for the header, the closing line and blank lines); `finish` refuses a truncated file and
    returns the entry count. Whoever writes while walking must discard what it wrote when any line
    (or `finish`) refuses: a file is only good once its closing line matches.
    """

    def __init__(self) -> None:
        self.header: dict[str, Any] | None = None
        self.previous, self.expected, self.number = GENESIS, 1, 0
        self.end: dict[str, Any] | None = None
        self.versions: dict[UUID, int] = {}  # each aggregate's last version: its entries follow on one by one
        self.topics: frozenset[str] = frozenset()  # the header's ruleset's (ruleset_topics); every one's on a miss
        self.ids: dict[str, UUID] = {}  # aggregate ids read so far, each made a UUID once (see _check_shape)
        self.details: dict[str, Any] = {}  # commands' details read so far, by their text (interchange_head)

    def line(self, raw: str | bytes, number: int) -> tuple[dict[str, Any], UUID, bytes, tuple | None] | None:
        self.number = number
        if not raw.strip():
            return None
        if self.end is not None:
            raise Unusable(f"Line {number} comes after the closing line; the file was edited.")
        row, verbatim = _entry_line(raw, self.details) or (_json(raw, number), None)
        if self.header is None:
            self.header = _header(row, number)
            ruleset = self.header.get("ruleset")
            self.topics = ruleset_topics(ruleset) if isinstance(ruleset, str) else known_topics()
            return None
        if row.get("end") is True:
            self.end = row
            return None
        entry = row.get("entry")
        if row.get("type") not in self.topics:  # not the header's ruleset's: asked of every ruleset
            self.topics = known_topics()
        aggregate = _check_shape(row, number, self.topics, self.ids)
        if entry != self.expected:
            raise Unusable(f"Line {number} holds entry #{entry} where #{self.expected} was expected: "
                           "entries are missing or out of order.")
        _check_version(row, number, self.versions, aggregate)
        _check_values(row, number, verbatim)
        command, v2_from = _command_of(row), self.header.get("chain_v2_from")
        state, spelled = verbatim if verbatim is not None else state_of(row, number), hashed(command)
        if link_hash(self.previous, entry, row["aggregate"], row["version"], row["type"], state, spelled,
                     v2_from) != row.get("hash"):
            state = state_of(row, number)  # the data as the program writes it (a file from before, or edited)
            if verbatim is None or link_hash(self.previous, entry, row["aggregate"], row["version"], row["type"],
                                             state, spelled, v2_from) != row.get("hash"):
                raise Unusable(f"Line {number} (entry #{entry}) does not match its hash: it was edited.")
        self.previous, self.expected = row["hash"], self.expected + 1
        return row, aggregate, state, command

    def v2_from(self) -> int | None:
        """The entry chain version 2 starts at, as the header says (None: the whole file is version 1)."""
        return self.header.get("chain_v2_from") if self.header else None

    def finish(self) -> int:
        if self.header is None:
            raise Unusable("The file is empty.")
        if self.end is None:
            raise Unusable(f"The file stops at line {self.number} without its closing line: it is truncated.")
        if self.end.get("entries") != self.expected - 1 or self.end.get("last_hash") != self.previous:
            raise Unusable(f"The closing line (line {self.number}) does not match the entries before it.")
        return self.expected - 1


def check(lines: Iterator[str]) -> int:
    """Walk a whole file against the chain; return its entry count or refuse at the first bad line."""
    checker = Checker()
    for number, raw in enumerate(lines, 1):
        checker.line(raw, number)
    return checker.finish()


def _command_of(row: dict[str, Any]) -> tuple | None:
    """The command-log row an entry line carries, as chain version 2 hashes it."""
    c = row.get("command")
    return None if not isinstance(c, dict) else (c.get("last"), c.get("name"), c.get("unit"), c.get("detail"))


def _check_shape(row: dict[str, Any], number: int, topics: frozenset[str] | None = None,
                 ids: dict[str, UUID] | None = None) -> UUID:
    """Only the program's own event types, a real aggregate id and version: nothing in the file picks code to run.
    `ids`: the ids already read, by their text (a campaign's lines name the same few aggregates turn
    after turn: UUID() a line was 1 us of 17), a few thousand kept at most."""
    if row.get("type") not in (topics if topics is not None else known_topics()):
        raise Unusable(f"Line {number} holds an event type this program does not know ({str(row.get('type'))[:80]}); "
                       "nothing was imported.")
    try:  # the topics its data names (a creation's aggregate, a `Remade` entry's): resolving one imports it
        check_data(row["type"], row.get("data"))
    except ForeignTopic as foreign:
        raise Unusable(f"Line {number} names code this program does not know ({str(foreign.topic)[:80]}); "
                       "nothing was imported.") from None
    text = row.get("aggregate")
    aggregate = ids.get(text) if ids is not None and isinstance(text, str) else None
    if aggregate is None:
        try:
            aggregate = UUID(str(text))
        except ValueError:
            raise Unusable(f"Line {number} has no valid aggregate id; the file is damaged.") from None
        if ids is not None and isinstance(text, str):
            if len(ids) >= IDS_KEPT:
                ids.clear()
            ids[text] = aggregate
    if type(row.get("version")) is not int or row["version"] < 1:
        raise Unusable(f"Line {number} has no valid aggregate version; the file is damaged.")
    return aggregate


IDS_KEPT = 4096  # aggregate ids a Checker keeps made (memory stays flat however long the file)
NAMED = ("name", "title")  # an entry's fields the commands take through values.name (a PC's, a session's...)


# What in a data's JSON text could spell a value `check_recordable` refuses: a control character
# (U+0000-U+001F, U+007F-U+009F, U+2028, U+2029, in UTF-8), any escape (`\n`, `\u0085`...), or a
# number of 19 digits or more (past SQLite's 64 bits). A text without any, no longer than a text may
# be, holds no value it refuses: walking the decoded data would only say so again.
_MAYBE_REFUSED = re.compile(rb"[\x00-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]|\\|\d{19}")
_CONTROL = re.compile(rb"[\x00-\x1f\x7f\\]")  # its branches an ASCII text can match, but the digits
_DIGITS = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))  # a byte 0-9 -> 0, any other -> a space
_NINETEEN = b"0" * 19


def maybe_refused(text: bytes) -> bool:
    """Whether `text` could spell a value `check_recordable` refuses (_MAYBE_REFUSED finds anything).
    An ASCII text, nearly every one, is asked in two C passes: one character class, then its digits
    as zeros and a search for nineteen of them (the one pattern took 4.5 us a line, a quarter of
    checking it; these, 0.7 us)."""
    if not text.isascii():
        return _MAYBE_REFUSED.search(text) is not None
    return _CONTROL.search(text) is not None or _NINETEEN in text.translate(_DIGITS)


def _check_values(row: dict[str, Any], number: int, text: bytes | None = None) -> None:
    """Every value an entry holds, checked as the commands check theirs before they record
    (ledger/values.py: names and titles as `name`, every value as `check_recordable`), so an import
    takes nothing a command would have refused (a 50 MB campaign name, a control character);
    `text`: the data's own JSON bytes, when the line carried them (see _MAYBE_REFUSED)."""
    data = row.get("data")
    if not isinstance(data, dict):  # an encrypted state (state_base64): its replay checks it
        return
    try:
        for field in NAMED:
            if isinstance(data.get(field), str):
                values.name(data[field], f"The {field} in it", recorded=True)
        if text is None or len(text) > values.TEXT_MAX or maybe_refused(text):
            values.check_recordable([SimpleNamespace(**{k: v for k, v in data.items() if isinstance(k, str)})])
    except BadInput as refused:
        raise Unusable(f"Line {number} (entry #{row.get('entry')}) holds a value no command records: "
                       f"{str(refused).rstrip('.')}; nothing was imported.") from None


def _check_version(row: dict[str, Any], number: int, versions: dict[UUID, int], aggregate: UUID) -> None:
    wanted = versions.get(aggregate, 0) + 1
    if row["version"] != wanted:
        raise Unusable(f"Line {number} holds version {row['version']} of its record where {wanted} was expected; "
                       "nothing was imported.")
    versions[aggregate] = wanted


@functools.lru_cache(maxsize=1)
def known_topics() -> frozenset[str]:
    """The allow-list: the topic of every event class the ledger's aggregates define (and inherit)."""
    from campaign_ledger.ledger import rulesets

    return _topics(rulesets.all_rulesets())  # a command imports only its own ruleset: a file may hold any


@functools.lru_cache(maxsize=8)
def ruleset_topics(ruleset_id: str) -> frozenset[str]:
    """Part of the allow-list, enough for a file of one ruleset's campaign: the core's topics and
    that ruleset's, without importing every other ruleset (0.09 s of an import of a Relics campaign).
    A type missing from it is asked of the whole list (`known_topics`) before it is refused."""
    from campaign_ledger.ledger import rulesets

    chosen = [r for r in rulesets.declared() if r.id == ruleset_id]
    return _topics(chosen) if chosen else known_topics()


def _topics(chosen: list[Any]) -> frozenset[str]:
    """The topics of the events the aggregates of the core and of the `chosen` rulesets define
    (a subset of the whole list for some of them: what more rulesets define only adds to it)."""
    from eventsourcing.domain import DomainEvent
    from eventsourcing.utils import get_topic

    import campaign_ledger.ledger.application  # noqa: F401  (defines the core's aggregates)
    from campaign_ledger.ledger import rulesets
    from campaign_ledger.ledger.reversible import Reversible

    for ruleset in chosen:
        ruleset.attribute(ruleset.commands)   # its commands import its aggregates
    homes = ("campaign_ledger.ledger.", *(f"{r.package}." for r in chosen))  # the core's and each ruleset's
    topics = set()
    for aggregate in [Reversible, *_subclasses(Reversible)]:
        for name in dir(aggregate):
            value = getattr(aggregate, name)
            if isinstance(value, type) and issubclass(value, DomainEvent) and value.__module__.startswith(homes):
                topics.add(get_topic(value))  # snapshots (eventsourcing's own class) never travel in an export
    return frozenset(topics | set(rulesets.moved_topics(chosen)))  # and the names older ledgers gave them


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


DATA = ', "data": '  # an export line ends with its data, spelled as the stored bytes (ledger/interchange.py)


def _entry_line(raw: str | bytes, details: dict[str, Any] | None = None) -> tuple[dict[str, Any], bytes] | None:
    """An entry line whose data comes last, and those data's own bytes (what the chain hashed, if
    the line is intact), without encoding the decoded data again; None for any other line (the
    header, the closing line, an older export, or a line edited by hand): it is read whole.

    The cut is the first `, "data": ` outside every string (a quote inside one is escaped): what
    precedes it must read as an object on its own, with no `data` of its own, so the cut is at the
    top level, and what follows must read as one value; the data checked are the bytes kept.
    `details`: the commands' details read so far (interchange_head.decoded), kept by the caller."""
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    text = text.rstrip()
    at = text.find(DATA)
    if at < 0 or not text.endswith("}") or text[:at].rstrip().endswith("{"):  # `{, "data": ...` is no JSON
        return None
    body = text[at + len(DATA):-1]
    try:
        row, data = decoded(text[:at], {} if details is None else details), loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(row, dict) or "data" in row:
        return None
    row["data"] = data
    return row, body.encode("utf-8")


def _json(raw: str, number: int) -> dict[str, Any]:
    try:
        row = json.loads(raw)
    except RecursionError:
        raise Unusable(f"Line {number} is nested too deeply to be an entry; the file is damaged.") from None
    except ValueError:
        raise Unusable(f"Line {number} is not JSON; the file is damaged.") from None
    if not isinstance(row, dict):
        raise Unusable(f"Line {number} is not an entry; the file is damaged.")
    return row


def _header(row: dict[str, Any], number: int) -> dict[str, Any]:
    if row.get("format") != FORMAT:
        raise Unusable(f"Line {number} is not a campaign ledger export header.")
    v2_from = row.get("chain_v2_from")
    if v2_from is not None and (type(v2_from) is not int or v2_from < 1):
        raise Unusable(f"Line {number} names no valid chain version; the file is damaged.")
    if row.get("campaign") is not None:
        try:
            values.name(row["campaign"] if isinstance(row["campaign"], str) else "", "The campaign's name", recorded=True)
        except BadInput as refused:
            raise Unusable(f"Line {number}: {str(refused).rstrip('.')}; nothing was imported.") from None
    if row.get("first") != 1 or row.get("previous_hash") != GENESIS:
        raise Unusable(f"This file starts at entry #{row.get('first')}; only a whole-campaign export "
                       "can be imported.")
    return row


def state_of(row: dict[str, Any], number: int) -> bytes:
    if "data" in row:
        return encode(row["data"])
    if "state_base64" in row:
        import base64
        return base64.b64decode(row["state_base64"])
    raise Unusable(f"Line {number} has no data.")
