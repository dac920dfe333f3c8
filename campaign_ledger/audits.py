"""Audit and rebuild (`RecordCalls.audit`, `RecordCalls.rebuild`): the whole record verified, and the
read tables derived from it again. Each takes the ledger and read tables as they stand (not caught
up: each verifies what it reads itself) and a `warn` for the lines a GM is told on the way."""
from __future__ import annotations

from typing import Any, Callable, ContextManager

Warn = Callable[[str], Any]


def audit(app: Any, db: Any, anchor: str | None, chain_only: bool, warn: Warn, path: str) -> dict[str, Any]:
    """The audit's report; "clean" says whether all is well."""
    from campaign_ledger.projections import schema_repair

    schema_repair.refuse_missing(db)  # a dropped read table: named, with what restores it
    if chain_only or app.read_only:
        report = _apart(app, db, anchor, chain_only, warn, path)
    else:
        report = _in_one_pass(app, db, anchor)
    if not chain_only and report["broken_entry"] is None:
        from campaign_ledger.projections import actors

        report["actors"] = actors.counted(db)  # entries per actor (issue 38)
    return report


def _in_one_pass(app: Any, db: Any, anchor: str | None) -> dict[str, Any]:
    """The ledger read once: a rebuild into a scratch file verifies the chain as it reads the rows,
    and every entry feeds the lists and the snapshot check (ledger.audit.Pass: the events the rebuild
    decoded, or on a long ledger those its second process decodes as it verifies them); then the anchor and
    signatures, the read tables caught up, and compared with the scratch file."""
    from campaign_ledger.ledger.audit import Pass, check_snapshots, scan, audit as audit_ledger
    from campaign_ledger.ledger.chain import chained
    from campaign_ledger.projections import compare, notes, runner

    with compare.scratch_rebuild(app, watch=Pass) as scratch:
        report = audit_ledger(app, anchor, lists=False, snapshots=False, verdict=scratch.broken)
        report["stuck_entry"] = None
        _catch_up(app, db, report)
        if report["broken_entry"] is None and report["stuck_entry"] is None and scratch.stuck is not None:
            # the read tables took every entry before it changed; rebuilt now, they cannot
            report["stuck_entry"], report["stuck"] = scratch.stuck.entry, str(scratch.stuck)
        if report["broken_entry"] is None:
            # the pass stopped short at a stuck entry (it saw no more): the snapshots checked on their own
            lists, broken = scratch.watched or (None, check_snapshots(app, chained(app.recorder)))
            if broken is not None:  # as a broken chain is reported: the entry, and nothing listed or compared
                report.update(chain=broken.reason, broken_entry=broken.entry)
                runner.record_verdict(db, broken.entry, broken.reason)
            else:
                if report["stuck_entry"] is None:
                    report["read_tables_differ"] = compare.differing(db, scratch.fresh)
                if lists is None:
                    scan(app, report)
                else:
                    report.update(lists)
    report["read_notes"] = notes.since(db)  # entries applied by working around them: clean, but said
    report["clean"] = report["broken_entry"] is None and report["stuck_entry"] is None \
        and not report.get("read_tables_differ")
    return report


def _apart(app: Any, db: Any, anchor: str | None, chain_only: bool, warn: Warn, path: str) -> dict[str, Any]:
    """The quick check (`--chain`), or a read-only file's audit (nothing can be caught up or
    recorded): the chain verified on its own, then the tables compared as far as they go."""
    from campaign_ledger.calls import catch_up
    from campaign_ledger.ledger.audit import scan, audit as audit_ledger
    from campaign_ledger.projections import compare, notes, runner

    report = audit_ledger(app, anchor, chain_only, lists=False)
    report["stuck_entry"] = None
    if chain_only:
        if report["broken_entry"] is not None and not app.read_only and not (
                report["broken_by_anchor"] or report["broken_by_key"]):
            runner.record_verdict(db, report["broken_entry"], report["chain"])  # a break locks; a pass clears nothing
        report["clean"] = report["broken_entry"] is None
        return report
    catch_up(app, db, warn, path)
    if report["broken_entry"] is None:
        report["read_tables_differ"] = compare.matches_rebuild(app, db, runner.position(db))
        scan(app, report)
    report["read_notes"] = notes.since(db)
    report["clean"] = report["broken_entry"] is None and not report.get("read_tables_differ")
    return report


def _catch_up(app: Any, db: Any, report: dict[str, Any]) -> None:
    """Keep the verdict (a broken chain then refuses writes), and catch the read tables up, checking as it goes."""
    from campaign_ledger.ledger.chain import ChainBroken
    from campaign_ledger.ledger.errors import ReadModelStuck
    from campaign_ledger.projections import runner

    if not (report["broken_by_anchor"] or report["broken_by_key"]):  # a mistyped anchor or key locks nothing
        runner.record_verdict(db, report["broken_entry"], report["broken_entry"] and report["chain"])
    if report["broken_entry"] is None:
        try:
            runner.catch_up(app, db)
        except ChainBroken as e:
            report.update(chain=e.reason, broken_entry=e.entry)
        except ReadModelStuck as e:
            report["stuck_entry"], report["stuck"] = e.entry, str(e)


def rebuild(app: Any, db: Any, force: bool, progress: Callable[[int], ContextManager[Callable[[int], Any] | None]],
            warn: Warn) -> dict[str, Any]:
    """Every read table from the whole ledger; a broken chain refused unless `force`."""
    from campaign_ledger.ledger.chain import ChainBroken, chained
    from campaign_ledger.ledger.chain_halves import verify_whole
    from campaign_ledger.projections import notes, runner, verifying

    broken, applied = verifying.recorded_break(app, db), None
    with progress(app.recorder.max_notification_id() or 0) as step:
        if broken is None:
            try:  # the chain verified whole as its rows are read for the tables: a break rolls it all back
                applied = runner.rebuild(app, db, step, whole=True)
            except ChainBroken as e:
                broken = chained(app.recorder).broken(e.entry, e.reason)
        if broken is not None and not force:
            raise broken.error().refusing("rebuild", "`campaign rebuild --force` copies it into the tables anyway")
        if applied is None:
            broken = verify_whole(app) or broken  # the first break, for the verdict kept
            applied = runner.rebuild(app, db, None, check=False)
    runner.record_verdict(db, broken and broken.entry, broken and broken.reason)
    for n in notes.since(db):  # each entry applied by working around it (projections/notes.py)
        warn(f"entry #{n['entry']}: {n['note']}")
    return {"entries": applied, "entry_count": applied}  # `entries` (a count) kept for old scripts
