"""One call on a campaign, from a bot or the CLI alike: open the file, check the key, catch the read
tables up, run the command, catch up again, say what was recorded, close everything.

No transaction, and so no lock, is held between calls: a long-lived handle keeps the ledger and
read tables open per thread (`Kept`), the CLI opens and closes them per command, and each call's
catch-up first reads what other processes wrote. Every failure leaves as one CampaignError
(campaign_ledger/errors.py) saying what, if anything, was recorded.
"""
from __future__ import annotations

import contextlib
import json
import uuid
from typing import Any, Callable, Iterator, Mapping

from campaign_ledger.errors import CampaignError, refused
from campaign_ledger.opening import Opening, bind_read_file, current_read_tables, open_campaign

Warn = Callable[[str], Any]  # takes one warning line (a stuck read table, a broken chain on a read)


def digest(command: str, asked: Mapping[str, Any], override: str | None) -> str:
    """What a call was asked (its command, arguments and GM override), kept with its key: the same
    key with other arguments is another command, not a retry. The CLI digests its own words."""
    import hashlib

    said = [["override", override], [command, sorted(asked.items())]]
    return hashlib.sha256(json.dumps(said, default=str).encode()).hexdigest()[:16]


def as_actor(invocation: str, actor: str | None) -> str:
    """The invocation digest of a call made as `actor`: a key a player's call used is refused to
    another actor's (the GM's digests stay as they were, so keys kept before still match)."""
    import hashlib

    if not actor or actor == "gm":
        return invocation
    return hashlib.sha256(f"{invocation}\x1f{actor}".encode()).hexdigest()[:16]


def new_key(asked: str | None) -> str:
    """The key this call's entries are logged under: the caller's, or a fresh one."""
    from campaign_ledger.ledger import values

    return values.key(asked) if asked is not None else uuid.uuid4().hex[:12]


class Kept:
    """A campaign kept open between calls by a long-lived handle, for one thread (SQLite connections
    belong to the thread that made them): the ledger and read tables stay open, so a call skips
    opening and closing the file (closing its last connection writes the log back to the file),
    yet holds no transaction, and so no lock, between calls; each call's catch-up reads what other
    processes wrote meanwhile. A call that fails for a reason outside the rules closes it: the next
    call opens the file afresh."""

    def __init__(self) -> None:
        self.pair: tuple[Any, Any] | None = None
        self.closers: list[Callable[[], Any]] = []

    def close(self) -> None:
        closers, self.closers, self.pair = self.closers, [], None
        for close in reversed(closers):
            close()


@contextlib.contextmanager
def opened(facts: dict[str, Any], must_exist: bool = True, reading: bool = False,
           kept: Kept | None = None) -> Iterator[tuple[Any, Any]]:
    """The ledger and read tables of facts["db"]: `kept` open, or opened and closed around the block."""
    from campaign_ledger.ledger.errors import LedgerError

    if kept is None:
        closers: list[Callable[[], Any]] = []
        try:
            pair = open_campaign(Opening(facts["db"], facts.get("override"), closers.append), must_exist, reading)
            yield acting(pair, facts)
        finally:
            for close in reversed(closers):
                close()
        return
    if kept.pair is None:
        kept.pair = open_campaign(Opening(facts["db"], None, kept.closers.append), must_exist, reading)
    kept.pair[0].gm_override = facts.get("override")  # this call's, not the first call's
    try:
        yield acting(kept.pair, facts)
    except LedgerError:
        raise  # a rule refused the call: what is open is as good as before
    except BaseException:
        kept.close()
        raise


def acting(pair: tuple[Any, Any], facts: Mapping[str, Any]) -> tuple[Any, Any]:
    """The ledger set to record this call's actor and channel (ledger/actors.py) with every command
    it runs: a kept ledger serves handles acting for others, so each call sets its own."""
    app = pair[0]
    app.command_actor = facts.get("actor") or "gm"
    app.command_channel = facts.get("channel") or "api"
    app.command_confirmed_by = facts.get("confirmed_by")
    return pair


def who(facts: Mapping[str, Any]) -> dict[str, str]:
    """A report's "actor" and "channel" (and "confirmed_by" when set): who this call wrote as."""
    from campaign_ledger.ledger import actors

    return actors.recorded(facts.get("actor") or "gm", facts.get("channel") or "api", facts.get("confirmed_by"))


def keepable(path: str) -> bool:
    """A writable campaign file (a read-only one is read per call, as the CLI reads it)."""
    import os

    from campaign_ledger.ledger import read_only

    return os.path.isfile(path) and read_only.uri(path) is None and read_only.writable(path)


def write(facts: dict[str, Any], call: Callable[[Any], dict[str, Any]], warn: Warn, *, invocation: str,
          must_exist: bool = True, kept: Kept | None = None) -> dict[str, Any]:
    """Run one ledger command and catch the read tables up; the report, with its history lines.

    `facts` ("db", "key", "override") is filled in as the call goes ("key_used", "recorded"), so a
    failure's words say what was recorded and the key to retry with. Catching up first verifies the
    new entries' chain: nothing is appended to a broken ledger."""
    from campaign_ledger.projections import runner, views

    try:
        with opened(facts, must_exist, kept=kept) as (app, db):
            app.command_key = facts["key_used"] = new_key(facts.get("key"))
            app.command_invocation = invocation
            catch_up(app, db, warn, facts["db"], writing=True)
            report = call(app)
            report.setdefault("key", facts["key_used"])
            report.update(who(facts))
            facts["recorded"] = report.get("entries", [])  # what an error after this point must not deny
            try:
                runner.catch_up(app, db)
                bind_read_file(facts["db"], app, db)  # a new campaign's file learns its ledger at once
            except Exception as e:  # the entries are in the ledger: say which, whatever failed after
                recorded_but(facts, report, e, warn)
            report["history"] = views.entries(db, report.get("entries", []))
            return report
    except Exception as e:
        raise refused(e, facts) from None


def read(facts: dict[str, Any], query: Callable[[Any, Any], Any], warn: Warn, kept: Kept | None = None) -> Any:
    """A read view's answer from the read tables, caught up as far as they go (a stuck entry warns).
    When the tables already show every entry, the ledger is opened only if the query asks it."""
    try:
        if kept is not None and (kept.pair is not None or keepable(facts["db"])):
            with opened(facts, kept=kept) as current:
                catch_up(*current, warn, facts["db"])
                return query(*current)
        closers: list[Callable[[], Any]] = []
        try:
            opening = Opening(facts["db"], None, closers.append)
            tables = current_read_tables(opening)
            if tables is None:
                tables = open_campaign(opening, reading=True)
                catch_up(*tables, warn, facts["db"])
            return query(*tables)
        finally:
            for close in reversed(closers):
                close()
    except Exception as e:
        raise refused(e, facts) from None


def catch_up(app: Any, db: Any, warn: Warn, path: str, writing: bool = False) -> None:
    """Reads still answer on a broken chain (from what verified) or a stuck read side, with one
    warning line; a write is refused on a broken chain (the ChainBroken error names the entry)."""
    from campaign_ledger.ledger.chain import ChainBroken
    from campaign_ledger.ledger.errors import ReadModelStuck
    from campaign_ledger.projections import notes, runner

    if app.read_only:  # catching up would write: say what the tables show instead
        from campaign_ledger.projections import read_only  # (and its scratch folders: not on every write's path)

        line = read_only.warning(app, db, path)
        if line:
            warn(line)
        return
    before = runner.position(db)
    try:
        runner.catch_up(app, db)
    except ReadModelStuck as e:
        if not writing:
            warn(str(e))
    except ChainBroken as e:
        if writing:
            raise
        warn(f"the hash chain is broken at entry #{e.entry}: {e.reason}; what follows may not match the record; "
             "run `campaign audit`.")
    for n in notes.since(db, before):  # each entry just applied by working around it (projections/notes.py)
        warn(f"entry #{n['entry']}: {n['note']}")


def recorded_but(facts: Mapping[str, Any], report: dict[str, Any], failure: Exception, warn: Warn) -> None:
    """After the ledger saved: a read side stuck before these entries only warns; else one refusal
    naming the entries recorded and the key to retry with."""
    from campaign_ledger.failures import FAILED, refusal
    from campaign_ledger.ledger.errors import ReadModelStuck
    from campaign_ledger.refusals import rule_of_sentence

    entries = report.get("entries") or []
    earlier = not entries or failure.entry < entries[0] if isinstance(failure, ReadModelStuck) else False
    if isinstance(failure, ReadModelStuck) and (report.get("repeated") or earlier):
        warn(str(failure))
        return
    if not entries:
        raise failure
    named = None if isinstance(failure, ReadModelStuck) else refusal(facts, failure)
    if named is not None:  # a full disk, a lost server: in the GM's words, with the entries and the key
        raise CampaignError(*named)
    cause = str(failure) if isinstance(failure, ReadModelStuck) else \
        f"the read tables could not catch up ({type(failure).__name__}: {failure})"
    message = (f"entries {span(entries)} were recorded (key {report['key']}), but {cause} "
               f"Run `campaign audit`; a retry with --key {report['key']} appends nothing.")
    raise CampaignError(message, 1, rule_of_sentence(message) or FAILED)


def span(entries: list[int]) -> str:
    return f"#{entries[0]}" + (f"-#{entries[-1]}" if len(entries) > 1 else "")
