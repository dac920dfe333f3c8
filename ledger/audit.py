"""Audit: is the ledger intact, and what in it deserves a second look?

Reads the whole ledger once (streamed): the hash chain with the command log, the
snapshots (each must equal its aggregate replayed from the entries), an anchor if given,
GM overrides, house rules, reversals, and per player how many dice were entered at the
table or rolled by the program. Whether the read tables match a fresh rebuild is checked
by the read side.
"""
from __future__ import annotations

import os
from collections import Counter
from typing import Any, Iterator
from uuid import UUID

from campaign_ledger.ledger import rulesets
from campaign_ledger.ledger.chain import Break, ChainQueries, chained, parse_anchor, sign
from campaign_ledger.ledger.chain_halves import verify_whole
from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.reversible import Reversible


UNVERIFIED = Break(0, "not verified")  # `audit(verdict=...)` not given: the audit verifies the chain itself


def audit(app: Any, anchor: str | None = None, chain_only: bool = False, lists: bool = True,
          snapshots: bool = True, verdict: Break | None = UNVERIFIED) -> dict[str, Any]:
    """The whole audit, or (`chain_only`) the quick check: the chain and command log streamed at
    the pace of reading the rows, with an anchor and signatures; no snapshots, tables or notes.
    `lists=False`: the caller gathers the overrides, reversals and dice with a `Scan` instead;
    `snapshots=False`: it checks the snapshots with a `SnapshotCheck` instead; `verdict`: the
    caller verified the whole chain in its own pass (compare.scratch_rebuild), and this is its break."""
    recorder = chained(app.recorder)
    broken = verify_whole(app) if verdict is UNVERIFIED else verdict
    by_anchor = check_anchor(recorder, anchor) if broken is None else None
    signed_from = _signed_from(recorder)
    by_key = check_signatures(recorder, signed_from) if broken is None and by_anchor is None else None
    broken = broken or by_anchor or by_key or (None if chain_only or not snapshots else check_snapshots(app, recorder))
    report: dict[str, Any] = {"chain": "intact" if broken is None else broken.reason,
                              "broken_entry": None if broken is None else broken.entry,
                              "broken_by_anchor": bool(by_anchor), "broken_by_key": bool(by_key),
                              "signed_from": signed_from,
                              "entries": recorder.max_notification_id() or 0,  # a count: kept, see entry_count
                              "entry_count": recorder.max_notification_id() or 0, **empty_lists()}
    if chain_only:
        report["chain_only"] = True
    elif broken is None:
        if lists:
            scan(app, report)
        report["corrections"] = [{"entries": [first, last], "entry_range": [first, last], "corrects": detail["corrects"]}
                                 for first, last, _, _, detail in recorder.commands_saying("corrects")]
    return report


def empty_lists() -> dict[str, Any]:
    """What the audit lists (a `Scan` fills them), empty."""
    return {"overrides": [], "house_rules": [], "reversals": [], "dice": {}, "undone_program_rolls": []}


def check_anchor(recorder: ChainQueries, anchor: str | None) -> Break | None:
    """Does the ledger still extend the head someone kept outside the file? (Its chain is already
    verified: an anchor catches what recomputed hashes hide, up to the anchored entry.)"""
    if anchor is None:
        return None
    entry, kept = parse_anchor(anchor)
    found = recorder.hashes(entry, entry).get(entry)
    if found is None:
        return Break(entry, f"entry #{entry} of the anchor is not in the ledger (entries were removed, "
                            "or the anchor is another campaign's)")
    if found != kept:
        return Break(entry, f"entry #{entry} no longer has the anchor's hash: the ledger was rewritten "
                            f"at or before entry #{entry}")
    return None


def _signed_from(recorder: ChainQueries) -> int | None:
    rows = recorder._select("SELECT min(entry) FROM ledger_signatures")
    return rows[0][0] if rows else None


def check_signatures(recorder: ChainQueries, signed_from: int | None) -> Break | None:
    """With CAMPAIGN_KEY: every entry from the first signed one on must carry its hash's signature
    (hashes recomputed without the key cannot be re-signed). Without the key nothing is checked.
    Hashes and signatures are read together a page at a time, never held whole. With the key, a
    ledger of entries none of which is signed fails at its first entry: every signature removed
    (edit, recompute the hashes, delete the table) must not read as a file never signed."""
    if not os.environ.get("CAMPAIGN_KEY"):
        return None
    if signed_from is None:
        first = recorder._chained_between(0, None)  # the chain's first entry
        if first is None:  # no entries: nothing to sign
            return None
        return Break(first, f"entry #{first} is not signed with CAMPAIGN_KEY, nor is any entry after it (the "
                            "signatures were removed, or the file was written without the key: audit it "
                            "without CAMPAIGN_KEY if it never was signed)")
    rows = recorder._batches("SELECT c.entry, c.hash, s.mac FROM ledger_chain c LEFT JOIN ledger_signatures s "
                             "ON s.entry = c.entry WHERE c.entry > ? AND c.entry <= ? ORDER BY c.entry LIMIT ?",
                             signed_from - 1, 2**62, 1000)
    for entry, hash_, mac in rows:
        if mac != sign(hash_):
            return Break(entry, f"entry #{entry} is not signed with CAMPAIGN_KEY (forged, written "
                                "without the key, or this is not the key it was signed with)")
    return None


def check_snapshots(app: Any, recorder: ChainQueries) -> Break | None:
    """A snapshot is a shortcut a write command loads instead of the entries: it must say exactly
    what the entries say, or commands would build on a forged state. Snapshots and entries are
    both read a page at a time (a campaign's own record holds most of the ledger, and a snapshot
    every 50 of its events), and no entry past the last snapshot is read."""
    if app.snapshots is None:
        return None
    for aggregate_id, _ in recorder.long_aggregates(0):
        aggregate, events = None, None
        for snapshot in _paged(app.snapshots, aggregate_id, page=100):
            if events is None:
                events = _paged(app.events, aggregate_id, lte=_last_snapshot(app, aggregate_id))
            while aggregate is None or aggregate.version < snapshot.originator_version:
                event = next(events, None)
                if event is None:
                    break
                aggregate = event.mutate(aggregate)
            verdict = snapshot_verdict(app, aggregate, snapshot)
            if verdict is FORGED:
                entry = recorder.entry_of(aggregate_id, snapshot.originator_version)
                return Break(entry, f"the snapshot at entry #{entry} does not match the entries before it "
                                    "(a snapshot was edited or forged)")
            if verdict is OLD:
                refresh_snapshot(app, type(snapshot).take(aggregate))
    return None


FORGED, OLD, SAME = "forged", "old", "same"


def snapshot_verdict(app: Any, aggregate: Any, snapshot: Any) -> str:
    """Whether a stored snapshot says what the entries before it say (SAME); was written by an older
    version of the program, by the rules it had then (OLD: it lacks only state the program added
    since, the attributes its aggregate lists in STATE_DEFAULTS, and says what the entries say about
    all it holds); or says anything else (FORGED). An old snapshot is genuine, never called forged,
    but loading it would give the added state its default rather than what the entries made it:
    the audit writes it again from the entries (`refresh_snapshot`)."""
    if aggregate is None:
        return FORGED
    fresh = _snapshot_state(app, type(snapshot).take(aggregate))
    if fresh == (snapshot.originator_version, snapshot.topic, snapshot.state):
        return SAME  # the snapshot as read from its row is in stored form already: no second round trip
    stored = _snapshot_state(app, snapshot)
    if fresh == stored:
        return SAME
    (version, topic, now), (kept_version, kept_topic, then) = fresh, stored
    added = set(now) - set(then)
    if (version, topic) != (kept_version, kept_topic) or not added or set(then) - set(now) \
            or not added <= set(getattr(type(aggregate), "STATE_DEFAULTS", {})):
        return FORGED
    return OLD if all(then[k] == now[k] for k in then) else FORGED


def refresh_snapshot(app: Any, snapshot: Any) -> None:
    """An old snapshot written again, at its version, from the entries (a snapshot is a shortcut, not
    an entry: the ledger is unchanged). Only a writable SQLite file's: elsewhere it stays, as genuine."""
    recorder = app.snapshots.recorder
    if getattr(app, "read_only", False) or "sqlite" not in type(recorder).__module__:
        return
    stored = app.snapshots.mapper.to_stored_event(snapshot)
    oid = stored.originator_id.hex if isinstance(stored.originator_id, UUID) else stored.originator_id
    try:
        with recorder.datastore.transaction(commit=True) as c:
            c.execute(f"DELETE FROM {recorder.events_table_name} WHERE originator_id = ? AND originator_version = ?",
                      (oid, stored.originator_version))
            c.execute(recorder.insert_events_statement, (oid, stored.originator_version, stored.topic, stored.state))
    except Exception:  # a file that cannot be written now (read-only media, locked): it stays, as genuine
        pass


SNAPSHOTS_READ = 32  # the snapshots of an aggregate read together (see SnapshotCheck._stored)


class SnapshotCheck:
    """`check_snapshots` as the entries stream by (a rebuild's pass feeds `see` the events it maps
    for the tables; on a long ledger, the second process verifying its chain): each aggregate that
    has snapshots is played entry by entry, and at each snapshot's version its state must be the snapshot's. Only
    aggregates with a snapshot still ahead are held; `broken` is the first mismatch, by entry."""

    def __init__(self, app: Any, recorder: ChainQueries) -> None:
        self.app, self.recorder = app, recorder
        # aggregate id (as its int: a UUID's own hash is a Python call, three an entry) -> versions of
        # its snapshots not reached yet
        self.ahead: dict[int, list[int]] = {}
        if app.snapshots is not None:
            for oid, version in recorder._select("SELECT originator_id, originator_version FROM "
                                                 f"{app.snapshots.recorder.events_table_name} "
                                                 "ORDER BY originator_id, originator_version DESC"):
                self.ahead.setdefault((oid if isinstance(oid, UUID) else UUID(oid)).int, []).append(version)
        self.live: dict[int, Any] = {}
        self.rows: dict[int, list] = {}  # aggregate id's int -> its snapshots' stored rows read ahead, last first
        self.broken: Break | None = None

    def see(self, entry: int, e: Any) -> None:
        key = e.originator_id.int
        versions = self.ahead.get(key)
        if not versions or self.broken is not None:
            return
        aggregate = self.live[key] = e.mutate(self.live.get(key))
        if aggregate is None or aggregate.version < versions[-1]:
            return
        version = versions.pop()
        stored = self._stored(key, e.originator_id, version)  # mapped once (the event store's `get` mapped it thrice)
        snapshot = self.app.mapper.to_domain_event(stored) if stored is not None else None
        verdict = FORGED if snapshot is None else snapshot_verdict(self.app, aggregate, snapshot)
        if verdict is FORGED:
            self.broken = Break(entry, f"the snapshot at entry #{entry} does not match the entries before it "
                                       "(a snapshot was edited or forged)")
        elif verdict is OLD:
            refresh_snapshot(self.app, type(snapshot).take(aggregate))
        if not versions:  # no snapshot of it ahead: let it go
            del self.ahead[key]
            del self.live[key]
            self.rows.pop(key, None)

    def _stored(self, key: int, aggregate_id: Any, version: int) -> Any:
        """The stored row of an aggregate's snapshot at `version`, or None. Its next snapshots are read
        with it, a page at a time: a query a snapshot was 1,788 at 100,000 entries (0.1 s CPU); a
        campaign's own record has most of them, so a page is bounded, never the aggregate's all."""
        rows = self.rows.get(key)
        if not rows:
            rows = self.rows[key] = self.app.snapshots.recorder.select_events(aggregate_id, gt=version - 1,
                                                                              limit=SNAPSHOTS_READ)[::-1]
        while rows and rows[-1].originator_version < version:  # (written since this check began)
            rows.pop()
        return rows.pop() if rows and rows[-1].originator_version == version else None

    def finish(self) -> Break | None:
        """The first mismatch; or a snapshot the entries never reached (a version its aggregate never had)."""
        if self.broken is None and self.ahead:
            key, versions = min(self.ahead.items(), key=lambda item: self.recorder.entry_of(UUID(int=item[0]),
                                                                                               item[1][-1]))
            entry = self.recorder.entry_of(UUID(int=key), versions[-1])
            self.broken = Break(entry, f"the snapshot at entry #{entry} does not match the entries before it "
                                       "(a snapshot was edited or forged)")
        return self.broken


def _last_snapshot(app: Any, aggregate_id: Any) -> int | None:
    newest = list(app.snapshots.get(aggregate_id, desc=True, limit=1))
    return newest[0].originator_version if newest else None


def _paged(store: Any, aggregate_id: Any, page: int = 1000, lte: int | None = None) -> Iterator[Any]:
    """An aggregate's events (or snapshots) a page at a time: a campaign's own record can hold most of the ledger."""
    after = 0
    while True:
        events = list(store.get(aggregate_id, gt=after, lte=lte, limit=page))
        yield from events
        if len(events) < page:
            return
        after = events[-1].originator_version


def _snapshot_state(app: Any, snapshot: Any) -> tuple:
    """What a snapshot restores, in stored form (its own timestamp aside)."""
    state = app.mapper.to_domain_event(app.mapper.to_stored_event(snapshot)).state
    return snapshot.originator_version, snapshot.topic, state


class Scan:
    """What the audit lists, gathered one entry at a time: overrides, house rules, reversals and
    who threw which dice. `see` takes each entry as it streams by (a rebuild's pass, or the second
    process verifying a long ledger's chain, can feed it); `into` writes the lists into the report."""

    def __init__(self, report: dict[str, Any]) -> None:
        self.report = report
        self.entered: Counter = Counter()
        self.rolled: Counter = Counter()
        self.leaders: dict[Any, str] = {}
        self.hooks = rulesets.audit_hooks()
        self.program_rolls: dict[int, dict[str, Any]] = {}
        self.renames: dict[int, tuple[str, str]] = {}  # entry: (old, new) of each standing PC rename

    def see(self, entry: int, e: Any) -> None:
        report = self.report
        reason = getattr(e, "gm_override", None) or getattr(e, "override", None)
        if reason:
            report["overrides"].append({"entry": entry, "reason": reason, "type": type(e).__qualname__,
                                        "rule": getattr(e, "rule", None)})
        if isinstance(e, Campaign.HouseRuleChanged):
            report["house_rules"].append({"entry": entry, "rule": e.rule, "value": e.value, "reason": e.reason})
        if isinstance(e, Campaign.PCRenamed):
            self.renames[entry] = (e.old, e.new)
        if isinstance(e, Reversible.Reversed):
            if not report["reversals"] or report["reversals"][-1]["unit"] != e.unit:
                report["reversals"].append({"entry": entry, "unit": e.unit})
            for undone in e.entries:
                self.renames.pop(undone, None)
                if undone in self.program_rolls:
                    report["undone_program_rolls"].append({**self.program_rolls.pop(undone), "unit": e.unit,
                                                           "undone_at": entry})
        for hooks in self.hooks:
            if (leader := hooks.leader(e)) is not None:
                self.leaders[e.originator_id] = leader
        if hasattr(e, "faces") and hasattr(e, "entered"):
            who = _roller(e, self.leaders, self.hooks)
            (self.entered if e.entered else self.rolled)[who] += len(e.faces)
            if not e.entered:
                self.program_rolls[entry] = {"entry": entry, "by": who, "faces": list(e.faces),
                                             "side": getattr(e, "side", None)}

    def into(self) -> None:
        entered, rolled = Counter(), Counter()  # under each PC's name now: a renamed PC is one roller
        for counts, into in ((self.entered, entered), (self.rolled, rolled)):
            for who, n in counts.items():
                into[self._named_now(who)] += n
        for who in sorted(set(entered) | set(rolled)):
            self.report["dice"][who] = {"entered": entered[who], "rolled": rolled[who]}

    def _named_now(self, who: str) -> str:
        """The name a roller has after every rename that stands, in order (Kira, then Kira Vale...)."""
        for old, new in (self.renames[e] for e in sorted(self.renames)):
            if who.casefold() == old.strip().casefold():
                who = new.strip()
        return who


class Pass:
    """What an audit makes of each entry as the ledger streams by (`see`): the lists (`Scan`) and
    the snapshot check; `result()`, once every entry was seen: the lists, and the first snapshot
    that does not match its entries (or None): plain data, which a second process can send back."""

    def __init__(self, app: Any) -> None:
        self.lists = empty_lists()
        self.found, self.snapshots = Scan(self.lists), SnapshotCheck(app, chained(app.recorder))

    def see(self, entry: int, e: Any) -> None:
        self.found.see(entry, e)
        self.snapshots.see(entry, e)

    def result(self) -> tuple[dict[str, Any], Break | None]:
        self.found.into()
        return self.lists, self.snapshots.finish()


def scan(app: Any, report: dict[str, Any]) -> None:
    """The lists read straight off the ledger, streamed (when no rebuild pass feeds a `Scan`)."""
    from eventsourcing.persistence import MapperDeserialisationError

    found = Scan(report)
    start = 0
    while batch := app.recorder.select_notifications(start, 500, inclusive_of_start=False):
        for n in batch:
            try:
                found.see(n.id, app.mapper.to_domain_event(n))
            except MapperDeserialisationError:  # the rebuild stopped at it too: the report names it stuck
                found.into()
                return
        start = batch[-1].id
    found.into()


def _roller(e: Any, leaders: dict[Any, str], ruleset_hooks: list[Any]) -> str:
    """Who threw the dice: as the ruleset says (a Cohort's leader, the GM), or the character named."""
    for hooks in ruleset_hooks:
        if (who := hooks.roller(e, leaders)) is not None:
            return who
    for who in ("character", "side", "helper", "name"):
        if isinstance(getattr(e, who, None), str):
            return getattr(e, who)
    return "?"
