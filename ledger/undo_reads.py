"""What undo reads, verified before anything it planned is shown or appended, at a cost that does
not grow with the campaign (the whole chain is `audit`'s to verify).

An undo of a unit plans from: the command-log rows that name the unit, its dependents and what
reversed what (ledger/units_newest.py reads them from the newest backwards); the entries of those
units; and the aggregates they changed, each loaded from its events (after its snapshot, if any).
So it verifies:

- the chain from where the read tables last verified it (`checked`: the entry, its hash, the end
  of its command; projections/verifying.py keeps it as they apply entries, and the caller has
  refused a hash there that changed since) to the ledger's end, from the oldest row the backward
  read reached if that is earlier: every entry, hash and command row of the span undo plans over,
  tied to the hash verified before;
- every older entry it read (an older range of a unit, an aggregate's earlier events, a command
  row filed under a name it weighed): its hash recomputed from the stored hash before it, its
  command row included, and each aggregate's versions read one after another with none missing.

What it no longer finds, and `audit` does: a change to an entry or command row undo did not read,
older than that span (a row deleted there; an older entry rewritten with its own hash recomputed
but not the hashes after it). Without a verified head (a read-only file, read tables never caught
up), or when the backward read had to read the whole log, the whole chain is verified, as before.
"""
from __future__ import annotations

from typing import Any, Callable, TypeVar

from campaign_ledger.ledger.chain import chained
from campaign_ledger.ledger.chain_hash import GENESIS
from campaign_ledger.ledger.chain_verify import Break, Walk

T = TypeVar("T")
CHUNK = 500  # entries asked for in one statement


class Reads:
    """What the store gave while undo planned: entries by number, and each aggregate's events asked for."""

    def __init__(self) -> None:
        self.entries: set[int] = set()
        self.events: list[tuple[Any, int | None, int | None, bool, list[int]]] = []

    def notifications(self, found: Any) -> None:
        self.entries.update(n.id for n in found)

    def aggregate(self, originator_id: Any, gt: int | None, lte: int | None, whole: bool, found: Any) -> None:
        self.events.append((originator_id, gt, lte, whole, [e.originator_version for e in found]))


def planned(app: Any, checked: tuple | None, newest: Any, plan: Callable[[], T]) -> T:
    """`plan()`'s answer once what it read verified; a break found is the refusal, even when the
    plan itself was refused (a tampered read is the graver news)."""
    recorder = chained(app.recorder)
    reads = recorder.reads = Reads()
    try:
        answer = plan()
    except Exception:
        recorder.reads = None
        _refuse(verify(app, checked, newest, reads))
        raise
    finally:
        recorder.reads = None
    _refuse(verify(app, checked, newest, reads))
    return answer


def _refuse(broken: Break | None) -> None:
    if broken is not None:
        raise broken.error().refusing("undo", "run `campaign audit`") from None


def verify(app: Any, checked: tuple | None, newest: Any, reads: Reads) -> Break | None:
    """The first break in what undo read (see the module docstring), or None."""
    if checked is None or newest.read_whole:
        from campaign_ledger.ledger.chain_halves import verify_whole
        return verify_whole(app)
    chain = chained(app.recorder)
    start = checked[0] + 1 if newest.lowest is None else min(checked[0] + 1, newest.lowest)
    older = _older(chain, start, reads, set(newest.rows_read))
    return older or chain.verify_span(start, None)


def _older(chain: Any, start: int, reads: Reads, rows: set[int]) -> Break | None:
    """The first break among the entries read before `start`, each checked on its own."""
    wanted, breaks = older_entries(chain, start, reads, rows)
    found = chain.entries_checked(sorted(wanted), CHUNK)
    for entry in sorted(wanted):
        row = found.get(entry)
        if row is None:
            breaks.append(Break(entry, f"entry #{entry} is missing"))
            continue
        broken = _check(chain.v2_from(), entry, row)
        if broken is not None:
            breaks.append(broken)
    return min(breaks, key=lambda b: b.entry) if breaks else None


def older_entries(chain: Any, start: int, reads: Reads, rows: set[int]) -> tuple[set[int], list[Break]]:
    """The entries read before `start` (by number, as command rows, as an aggregate's events), and a
    break for each aggregate whose versions read skip one (an entry deleted)."""
    breaks: list[Break] = []
    wanted = {e for e in reads.entries | rows if e < start}
    for originator_id, gt, lte, whole, versions in reads.events:
        low = (gt or 0) + 1
        if whole and (sorted(versions) != list(range(low, low + len(versions))) or
                      lte is not None and max(versions, default=low - 1) != lte):
            entry = chain.entry_of(_uuid(originator_id), max([low - 1, *versions]))
            breaks.append(Break(entry, f"an entry of the same record after entry #{entry} is missing "
                                       "(its versions skip)"))
        wanted.update(chain.entries_of(originator_id, low, lte, start))
    return wanted, breaks


def _check(v2_from: int | None, entry: int, row: tuple) -> Break | None:
    """One entry against its stored hash and the stored hash before it (ledger.chain_verify.Walk's
    check: the same reasons worded the same)."""
    oid, version, topic, state, hash_, previous, c_last, c_name, c_unit, c_detail = row
    if hash_ is None:
        return Break(entry, f"entry #{entry} has no hash in the chain")
    command = None if c_last is None else (c_last, c_name, c_unit, c_detail)
    walk = Walk({}, {}, v2_from, previous or GENESIS, entry - 1 if command is not None else entry)
    return walk.check(entry, oid, version, topic, state, hash_, command)


def _uuid(originator_id: Any) -> Any:
    from uuid import UUID

    return originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id))
