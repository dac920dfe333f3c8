"""How an entry's hash is made: over its own bytes, the previous hash and (chain version 2) its
command-log row; anchors, the chain's head written as one line to keep outside the file; and
signatures, an entry's hash signed with CAMPAIGN_KEY. Pure functions: no store is read here."""
from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import re
from json.encoder import encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any
from uuid import UUID

from campaign_ledger.ledger.errors import BadInput

GENESIS = "0" * 64
ANCHOR_RE = re.compile(r"campaign-ledger anchor #(\d+) sha256:([0-9a-f]{64})")
Command = tuple  # (last_entry, command, unit, detail dict): a command-log row as the chain hashes it


def entry_hash(previous: str, entry: int, originator_id: Any, version: int, topic: str, state: bytes,
               command: Any = False) -> str:
    """Version 1 hashes the entry alone; version 2 (any `command`, None included) adds its command row."""
    oid = originator_id.hex if isinstance(originator_id, UUID) else str(originator_id).replace("-", "")
    # each part followed by \x1f, then the state: the same bytes as one update per part, in one call
    # (an audit hashes every entry: the calls were most of the cost)
    # a state read back as text (its row rewritten as TEXT, not the BLOB written) hashes as its bytes: an
    # edit is then named by its entry, not a crash
    h = hashlib.sha256(f"{previous}\x1f{entry}\x1f{oid}\x1f{version}\x1f{topic}\x1f".encode()
                       + (state.encode() if isinstance(state, str) else bytes(state)))
    if command is not False:
        h.update(b"\x1e" + command_bytes(command))
    return h.hexdigest()


def command_bytes(command: Command | None) -> bytes:
    """A command row in one canonical form, however the store or an export spells its detail."""
    if command is None:
        return b"-"
    last, name, unit, detail = command
    if not isinstance(detail, (str, type(None))):
        return json.dumps([last, name, unit, detail], sort_keys=True, separators=(",", ":")).encode()
    # the same bytes as dumping the list whole: its items, each as json.dumps spells it alone
    return f"[{_scalar(last)},{_scalar(name)},{_scalar(unit)},{_canonical(detail or '{}')}]".encode()


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if type(value) is int:  # a command's last entry: json.dumps spells it as str() does, at a tenth of the cost
        return str(value)
    return encode_basestring_ascii(value) if isinstance(value, str) else json.dumps(value)


@functools.lru_cache(maxsize=512)
def _canonical(detail: str) -> str:
    """A stored detail in canonical JSON, kept for the next time (a campaign's commands repeat their
    details, the same aggregates and fields turn after turn: a whole-chain check parsed and dumped
    each one, most of its hashing time); a few hundred kept at most, so memory stays flat."""
    return json.dumps(json.loads(detail), sort_keys=True, separators=(",", ":"))


def link_hash(previous: str, entry: int, oid: Any, version: int, topic: str, state: bytes,
              command: Command | None, v2_from: int | None) -> str:
    """The hash an entry must carry: version 2 from the marker's entry on, version 1 before."""
    if v2_from is not None and entry >= v2_from:
        return entry_hash(previous, entry, oid, version, topic, state, command)
    return entry_hash(previous, entry, oid, version, topic, state)


def anchor_line(entry: int, hash_: str) -> str:
    """The head of the chain as one line to keep outside the file (chat, printout, export)."""
    return f"campaign-ledger anchor #{entry} sha256:{hash_}"


def parse_anchor(text: str) -> tuple[int, str]:
    """Find the anchor in a pasted line (any export's last line will do)."""
    found = ANCHOR_RE.search(text.strip().lower())
    if not found:
        raise BadInput("An anchor reads like `campaign-ledger anchor #42 sha256:` and 64 hex digits; "
                       "copy it whole from `campaign anchor` or the end of an export.")
    return int(found.group(1)), found.group(2)


def sign(hash_: str) -> str:
    """An entry's hash signed with CAMPAIGN_KEY: recomputing hashes without the key cannot re-sign."""
    return hmac.new(os.environ["CAMPAIGN_KEY"].encode(), hash_.encode(), hashlib.sha256).hexdigest()
