"""Recomputing the chain: entry by entry, with the command log's structure (every entry belongs
to exactly one command), over entries streamed from the store (memory stays flat)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from campaign_ledger.ledger.chain_hash import GENESIS, Command, entry_hash, link_hash
from campaign_ledger.ledger.errors import RuleViolation


@dataclass(frozen=True)
class Break:
    entry: int
    reason: str

    def error(self) -> "ChainBroken":
        return ChainBroken(self.entry, self.reason)


class ChainBroken(RuleViolation):
    """The ledger no longer matches its hash chain: nothing may be appended to a record that lies."""

    def __init__(self, entry: int, reason: str) -> None:
        super().__init__(f"The ledger's hash chain is broken at entry #{entry}: {reason}. Nothing was recorded; "
                         "run `campaign audit` and restore the file from a copy you trust.")
        self.entry, self.reason = entry, reason

    def refusing(self, command: str, instead: str) -> LedgerError:
        """The same break, worded for a command that refuses to read a broken chain."""
        return RuleViolation(f"The ledger's hash chain is broken at entry #{self.entry}: {self.reason}. "
                             f"{command} refused; {instead}.")


class Walk:
    """The chain recomputed one entry at a time, with the command log's structure: every entry
    belongs to exactly one command, and (from chain version 2) each hash covers its command row."""

    def __init__(self, chain: dict[int, str], commands: dict[int, Command], v2_from: int | None,
                 previous: str = GENESIS, open_until: int | None = None) -> None:
        self.chain, self.commands, self.v2_from = chain, commands, v2_from
        self.previous, self.open_until = previous, open_until

    def step(self, entry: int, oid: Any, version: int, topic: str, state: bytes) -> Break | None:
        """The next entry, its hash and command row looked up in the walk's own `chain` and `commands`."""
        if entry not in self.chain:
            return Break(entry, f"entry #{entry} has no hash in the chain")
        return self.check(entry, oid, version, topic, state, self.chain[entry], self.commands.get(entry))

    def check(self, entry: int, oid: Any, version: int, topic: str, state: bytes, expected: str,
              command: Command | None) -> Break | None:
        """The next entry with the hash it must carry and the command row starting at it (or None)."""
        if isinstance(state, str):  # the program writes bytes: a text value was written by something else
            return Break(entry, f"entry #{entry} was rewritten outside the program (its data is stored as text)")
        if link_hash(self.previous, entry, oid, version, topic, state, command, self.v2_from) != expected:
            what = "it or its command-log row" if self.v2_from is not None and entry >= self.v2_from else "it"
            return Break(entry, f"entry #{entry} does not match its hash ({what} was edited, moved, "
                                "added or removed)")
        broken = self._command_structure(entry, command)
        if broken:
            return broken
        self.previous = expected
        return None

    def _command_structure(self, entry: int, command: Command | None) -> Break | None:
        if command is not None:
            if self.open_until is not None and self.open_until >= entry:
                return Break(entry, f"the command log has a command starting at entry #{entry} inside another")
            if command[0] < entry:
                return Break(entry, f"the command log's row for entry #{entry} ends before it starts")
            self.open_until = command[0]
        elif self.open_until is None or entry > self.open_until:
            return Break(entry, f"entry #{entry} belongs to no command in the command log")
        return None


def verify(rows: Iterable[tuple[int, Any, int, str, bytes]], chain: dict[int, str],
           commands: dict[int, Command] | None = None, v2_from: int | None = None) -> Break | None:
    """Recompute the chain over stored entries (entry, originator, version, topic, state).

    Entry numbers may skip (PostgreSQL's sequence does after a failed insert); the chain
    says which entries there are, so a number the chain has and the store lacks is missing.
    Without `commands` only the hashes are checked (a store older than the command log).
    """
    walk = Walk(chain, commands or {}, v2_from) if commands is not None else None
    expected = iter(sorted(chain))
    previous, last = GENESIS, 0
    for entry, oid, version, topic, state in rows:
        listed = next(expected, None)
        if listed is None or listed > entry:
            return Break(entry, f"entry #{entry} has no hash in the chain")
        if listed < entry:
            return Break(listed, f"entry #{listed} is missing")
        if walk is not None:
            broken = walk.step(entry, oid, version, topic, state)
            if broken:
                return broken
        elif entry_hash(previous, entry, oid, version, topic, state) != chain[entry]:
            return Break(entry, f"entry #{entry} does not match its hash (edited or moved)")
        previous, last = chain[entry], entry
    missing = next(expected, None)
    if missing is not None:
        return Break(missing, f"entry #{missing} is missing")
    stray = sorted(first for first in (commands or {}) if first > last or first not in chain)
    if stray:
        return Break(stray[0], f"the command log has a row for entry #{stray[0]}, which is not in the ledger")
    if walk is not None and walk.open_until is not None and walk.open_until > last:
        return Break(last, f"the command log says the last command runs past entry #{last}")
    return None


def verify_stored(rows: Iterable[tuple], chained_between: Callable[[int, int | None], int | None],
                  v2_from: int | None, stray_after: "Any", **span: Any) -> Break | None:
    """`verify` over the store as it streams: rows are (entry, originator, version, topic, state,
    hash or None, and the command-log row starting there: last entry, command, unit, detail, or
    four None), `chained_between(after, before)` the first entry the chain lists strictly between
    the two (`before` None: after `after` at all), `stray_after(last)` the first command-log row
    past the last entry or off the chain; `span`: where a span of the chain starts and ends (see
    `verified_rows`). The same verdicts as `verify`, in flat memory."""
    verdict: list[Break] = []
    for _ in verified_rows(rows, chained_between, v2_from, stray_after, verdict, **span):
        pass
    return verdict[0] if verdict else None


def verified_rows(rows: Iterable[tuple], chained_between: Callable[[int, int | None], int | None],
                  v2_from: int | None, stray_after: "Any", verdict: list[Break], after: int = 0,
                  previous: str = GENESIS, open_until: int | None = None,
                  upto: int | None = None) -> Iterator[tuple[int, Any, int, str, bytes]]:
    """`verify_stored` as a stream: each entry (entry, originator, version, topic, state) once it
    verified, so a rebuild applies the rows the check reads instead of reading them twice; the
    first break, if any, is put in `verdict` and nothing after it is given. The chain's own list
    is asked only where the entries skip a number (a stored entry missing shows there: its hash
    stays in the chain), not read beside every row. A span of the chain (`after`, with the stored
    hash and the end of the command open there, up to `upto`) is checked as the whole check
    checks it: the chain's end (a stray command row, a command running past the last entry) only
    by the span that reaches it (`upto` None)."""
    walk = Walk({}, {}, v2_from, previous, open_until)
    last = after
    for entry, oid, version, topic, state, hash_, c_last, c_name, c_unit, c_detail in rows:
        if entry != last + 1 and (missing := chained_between(last, entry)) is not None:
            verdict.append(Break(missing, f"entry #{missing} is missing"))
            return
        if hash_ is None:
            verdict.append(Break(entry, f"entry #{entry} has no hash in the chain"))
            return
        broken = walk.check(entry, oid, version, topic, state, hash_,
                            None if c_last is None else (c_last, c_name, c_unit, c_detail))
        if broken:
            verdict.append(broken)
            return
        last = entry
        yield entry, oid, version, topic, state
    missing = chained_between(last, None if upto is None else upto + 1)
    if missing is not None:
        verdict.append(Break(missing, f"entry #{missing} is missing"))
    if missing is not None or upto is not None:  # a span short of the end: the end is another's to check
        return
    stray = stray_after(last)
    if stray is not None:
        verdict.append(Break(stray, f"the command log has a row for entry #{stray}, which is not in the ledger"))
    elif walk.open_until is not None and walk.open_until > last:
        verdict.append(Break(last, f"the command log says the last command runs past entry #{last}"))
