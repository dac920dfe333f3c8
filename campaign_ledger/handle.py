"""A campaign handle: every command and read view of the CLI as a call, for bots and notebooks.

    from campaign_ledger import open_campaign
    camp = open_campaign("heist.db")
    camp.cohort_turn("Vault Guards", leader="Kira", faces=[1, 1, 2, 3, 6])
    camp.sheet("Kira")

A handle keeps its campaign open between calls, one per thread (campaign_ledger/calls.py `Kept`),
yet holds no transaction, and so no lock, between them; each call first catches up with what other
processes wrote. `close()` (or a `with` block) closes it; the CLI's handle opens and closes per command. Writes return the report the CLI's `--json` prints; reads return
the rows its read views print. Every refusal is a CampaignError with `code` and `rule`.

The calls of each ruleset are in its own module beside this one (relics.py, ...), mixed in here.
"""
from __future__ import annotations

import copy
import functools
import inspect
import os
import threading
from typing import Any, Callable, Iterator, Mapping, TYPE_CHECKING, TypeVar, cast

from campaign_ledger import calls
from campaign_ledger.errors import CampaignError, refused

if TYPE_CHECKING:
    from campaign_ledger.shapes import HistoryLine, Pools, Report, Session, Sheet, UndoPlan, UnitListed

T = TypeVar("T")


def one_refusal(method: Callable[..., T]) -> Callable[..., T]:
    """A public call raises nothing but CampaignError: what its arguments' reading raises before the
    call opens anything (`dict(None)`, `int("x")`, a BadInput of the ledger's values) becomes the
    refusal of a malformed call (code 2) or the ledger's own refusal. What runs inside the call is
    converted there already (calls.py); a caller's own function's error passes as it was raised."""
    from campaign_ledger.ledger.errors import LedgerError

    @functools.wraps(method)
    def call(self: Any, *args: Any, **kwargs: Any) -> T:
        try:
            return method(self, *args, **kwargs)
        except LedgerError as e:
            raise refused(e, {"db": self.path}) from None
        except (TypeError, ValueError) as e:
            raise CampaignError(f"{method.__name__}: an argument is not of the kind it takes ({e}).", 2, None) from None
    return call


def _one_refusal_each(cls: type) -> None:
    for name, value in list(vars(cls).items()):
        if inspect.isfunction(value) and not name.startswith("_"):
            setattr(cls, name, one_refusal(value))


class Core:
    """The calls every campaign has, whatever its ruleset, and the machinery each call goes through."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _one_refusal_each(cls)  # each ruleset's calls too

    started: Mapping[str, Any] | None = None  # what made the file, when this handle did: `campaign new --json` or `import --json`

    def __init__(self, path: str | os.PathLike[str], *, warn: Callable[[str], Any] | None = None,
                 bound: Mapping[str, Any] | None = None) -> None:
        """`warn` takes each warning line (default: kept in `warnings`, the last call's). `bound` is
        for the CLI: its own call's facts (its --db, --key, --gm-override, and the digest of its
        words under "invocation"), so its keys and refusals read as they always have."""
        self.path = os.fspath(path)
        self._warn = warn
        self._bound = bound
        # Who this handle writes as (ledger/actors.py): the GM, by the CLI (its own bound facts may say
        # "shell") or, for a library handle, by the API; `acting` gives a handle writing as another.
        self._who = {"actor": "gm", "channel": (bound or {}).get("channel") or ("cli" if bound is not None else "api")}
        # Per thread, so one handle serves a server's worker threads: the campaign kept open between
        # calls (calls.Kept), the last call's warning lines and its facts (what it recorded, its key).
        self._threads = threading.local()

    @property
    def warnings(self) -> list[str]:
        """The warning lines of this thread's last call (a stuck read table, a broken chain on a read)."""
        return getattr(self._threads, "warnings", [])

    @warnings.setter
    def warnings(self, lines: list[str]) -> None:
        self._threads.warnings = lines

    @property
    def _call(self) -> dict[str, Any]:
        return getattr(self._threads, "call", {})

    @_call.setter
    def _call(self, facts: dict[str, Any]) -> None:
        self._threads.call = facts

    def close(self) -> None:
        """Close what this thread keeps open (the next call opens the file again). A handle used as a
        context manager closes at the end of its block; one left open, when it is collected."""
        kept = getattr(self._threads, "kept", None)
        if kept is not None:
            kept.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def _kept(self) -> calls.Kept | None:
        """This thread's open campaign; none for the CLI, which opens and closes per command."""
        if self._bound is not None:
            return None
        kept = getattr(self._threads, "kept", None)
        if kept is None:
            kept = self._threads.kept = calls.Kept()
        return kept

    def __repr__(self) -> str:
        return f"<Campaign {self.path}>"

    def acting(self, actor: str, channel: str, confirmed_by: str | None = None) -> Any:
        """A handle on the same campaign whose writes record `actor` ("gm" or "seat:<name>") and
        `channel` (cli, shell, page, api, import) in each entry's command row, inside the hash chain;
        `confirmed_by` ("gm") when the GM accepted a player's pending action. It shares this handle's
        open campaign; a malformed actor or channel is refused (code 2)."""
        from campaign_ledger.ledger import actors

        def check() -> dict[str, str]:
            return actors.recorded(actors.actor(actor), actors.channel(channel),
                                   actors.actor(confirmed_by, "Who confirmed") if confirmed_by is not None else None)
        who = self._valid(check)
        other = copy.copy(self)  # the same path, threads (what each keeps open) and warnings
        other._who = who
        return other

    # --- the machinery -------------------------------------------------------------------------

    def _facts(self, key: str | None, override: str | None) -> dict[str, Any]:
        self.warnings = []
        if self._bound is not None:  # the CLI's own dict, filled in as the call goes
            self._call = self._bound  # type: ignore[assignment]
            self._call.pop("confirmed_by", None)  # (set again below when this handle's)
        else:
            self._call = {"db": self.path, "key": key, "override": override}
        self._call.update(self._who)
        return self._call

    def _warning(self, line: str) -> None:
        self.warnings.append(line)
        if self._warn is not None:
            self._warn(line)

    def _invocation(self, command: str, asked: Mapping[str, Any], facts: Mapping[str, Any]) -> str:
        said = facts.get("invocation") or calls.digest(command, asked, facts.get("override"))
        return calls.as_actor(said, facts.get("actor"))

    def _write(self, command: str, asked: Mapping[str, Any], call: Callable[[Any], Any], *,
               key: str | None = None, override: str | None = None, must_exist: bool = True) -> Report:
        """Run one ledger command (`call(app)` returns its report) as one call, logged under `key`."""
        facts = self._facts(key, override)
        kept = self._kept() if must_exist else None  # a new campaign's first call opens and closes
        return cast("Report", calls.write(facts, call, self._warning, invocation=self._invocation(command, asked, facts),
                                          must_exist=must_exist, kept=kept))

    def _read(self, query: Callable[[Any, Any], Any]) -> Any:
        """One read view: `query(app, db)` on read tables caught up with the ledger."""
        return calls.read(self._facts(None, None), query, self._warning, self._kept())

    def _opened(self, query: Callable[[Any, Any], T], *, reading: bool = True, must_exist: bool = True,
                key: str | None = None) -> T:
        """`query(app, db)` on the ledger and read tables as they stand, not caught up: for the calls
        that verify what they read themselves (audit, anchor, undo, rebuild, demo)."""
        facts = self._facts(key, None)
        try:
            with calls.opened(facts, must_exist, reading) as (app, db):
                return query(app, db)
        except Exception as e:
            raise refused(e, facts) from None

    def _valid(self, check: Callable[[], T]) -> T:
        """Arguments checked before the file is opened (a malformed call is refused as such, first)."""
        try:
            return check()
        except Exception as e:
            raise refused(e, {"db": self.path}) from None

    # --- every campaign ------------------------------------------------------------------------

    def ruleset(self) -> str:
        """The campaign's ruleset id (`relics`, `beer-run`, `action-dice`, `decision-2d6`)."""
        from campaign_ledger.views import ruleset_of

        return self._read(lambda app, db: ruleset_of(db))

    def session_start(self, title: str, *, key: str | None = None) -> Report:
        """Begin a play session (`campaign session start TITLE`): entries until `session_end` belong to it."""
        return self._write("session start", {"title": title}, lambda app: app.start_session(title), key=key)

    def session_end(self, *, key: str | None = None) -> Report:
        """End the play session going on (`campaign session end`)."""
        return self._write("session end", {}, lambda app: app.end_session(), key=key)

    def session_list(self) -> list[Session]:
        """Every play session and the entries it holds (`campaign session list --json`)."""
        from campaign_ledger.projections import sessions

        return self._read(lambda app, db: sessions.all_sessions(db))

    def note(self, text: str, *, tags: tuple[str, ...] | list[str] = (), about: str | None = None,
             round: str | None = None, entry: int | None = None, gm_only: bool = False,  # noqa: A002
             key: str | None = None) -> Report:
        """Append a GM's note (`campaign note`): an entry of its own, undone like any other. `about`
        names a PC or thing, `round` a round ("Vault Guards:2"), `entry` an entry; `gm_only` keeps
        it out of the md, html and csv exports."""
        tags = tuple(tags)
        return self._write("note", {"text": text, "tags": tags, "about": about, "round": round, "entry": entry,
                                    "gm_only": gm_only},
                           lambda app: app.note(text, tags, about, round, entry, gm_only), key=key)

    def undo(self, unit: str | None = None, *, cascade: bool = False, dry_run: bool = False,
             confirm: Callable[[UndoPlan], bool] | None = None, key: str | None = None) -> Report | UndoPlan:
        """Reverse the latest unit of play, or `unit` (a name from `undo_list`, e.g. "Vault Guards:2",
        or its first entry number), with new entries (`campaign undo`); `cascade` reverses the later
        units that used it too. `dry_run` only says what would change (when later play used the unit,
        the plan is cascade's, with the refusal an undo without it would meet under "needs_cascade"). `confirm` is asked with the plan
        before anything is appended (a GM at a terminal); declined, nothing is (rule `not-confirmed`)."""
        if dry_run:
            return self._opened(lambda app, db: _preview(app, unit, cascade, _verified_head(app, db)))
        asked = {"unit": unit, "cascade": cascade}
        theirs = Theirs()
        agreed = theirs.run(confirm) if confirm is not None else None

        def plan(app: Any, db: Any) -> tuple[Any, ...] | None:
            checked = _verified_head(app, db)  # undo verifies what it reads from there (ledger/undo_reads.py)
            if agreed is not None:
                given = self._call.get("key")
                app.command_invocation = self._invocation("undo", asked, self._call)
                if not (given and app.already_recorded(given, "undo")):  # a retry: no new plan to ask about
                    _confirmed(agreed(app.undo(unit, cascade, dry_run=True, checked=checked)))
            return checked
        with theirs:
            checked = self._opened(plan, reading=False, key=key)
        return self._write("undo", asked, lambda app: app.undo(unit, cascade, checked=checked), key=key)

    def undo_list(self, limit: int | None = None) -> list[UnitListed]:
        """The units undo can take, newest first, each with what `cascade` would take with it
        (`campaign undo --list --json`); the newest `limit` of them (default: all)."""
        from campaign_ledger.ledger import values

        if limit is not None:
            self._valid(lambda: values.integer(limit, "--limit", 1))
        return self._opened(lambda app, db: app.undo_list(limit, _verified_head(app, db)))

    def history(self, *, limit: int | None = None, at: int | str | None = None, pc: str | None = None,
                challenge: str | None = None, round: str | None = None, session: int | None = None,  # noqa: A002
                tags: tuple[str, ...] | list[str] = (), kinds: tuple[str, ...] | list[str] = (),
                grep: str | None = None, scene: str | None = None, since: int | str | None = None,
                until: int | str | None = None) -> list[HistoryLine]:
        """The campaign history, one line per entry (`campaign history --json`), filtered as its
        options filter (every filter given must hold): `since`/`until` an entry number or a time
        ("2026-11-22T20:15", local unless it gives its zone), `at` the history as it stood then,
        `limit` the last N lines; `grep` takes FTS5's OR, AND, NOT, capt* and "phrases"."""
        return self.history_each(lambda newest, lines: list(lines), limit=limit, at=at, pc=pc, challenge=challenge,
                                 round=round, session=session, tags=tags, kinds=kinds, grep=grep, scene=scene,
                                 since=since, until=until)

    def history_each(self, take: Callable[[int | None, Iterator[HistoryLine]], T], *, limit: int | None = None,
                     at: int | str | None = None, pc: str | None = None, challenge: str | None = None,
                     round: str | None = None, session: int | None = None,  # noqa: A002
                     tags: tuple[str, ...] | list[str] = (), kinds: tuple[str, ...] | list[str] = (),
                     grep: str | None = None, scene: str | None = None, since: int | str | None = None,
                     until: int | str | None = None) -> T:
        """`history`, handed to `take(newest, lines)` as it is read and never held whole (a million
        entries as one list took 2.7 GiB): `newest` is the last entry among the lines (None: no
        line), `lines` is good only while `take` runs. Returns what `take` returns."""
        from campaign_ledger.ledger import values
        from campaign_ledger.projections import history_search as search

        def check() -> None:
            if limit is not None:
                values.integer(limit, "--limit", 1)  # 0 or less would give everything
            if session is not None:
                values.integer(session, "--session", 1)
        self._valid(check)
        theirs = Theirs()
        taken = theirs.run(take)

        def query(app: Any, db: Any) -> T:
            from campaign_ledger.views import entry_at

            last = [e for e in (entry_at(db, _text(at)), entry_at(db, _text(until), "--until")) if e is not None]
            filters = search.Filters(pc, challenge, round, session, tuple(tags), tuple(k.casefold() for k in kinds),
                                     grep, _since(db, _text(since)), min(last) if last else None, scene)
            if limit is not None:
                rows = search.rows(db, filters, limit)
                return taken(rows[-1]["entry"] if rows else None, iter(rows))
            return taken(*search.stream(db, filters))
        with theirs:
            return self._read(query)

    def sheet(self, name: str | None = None, *, at: int | str | None = None) -> Sheet | list[Sheet]:
        """One character's sheet (a dict), or every sheet (a list) (`campaign sheet [NAME] --json`),
        now or as it stood at `at` (an entry number or a time)."""
        from campaign_ledger import views

        return self._read(lambda app, db: views.sheet(app, db, name, at))

    def pools(self, *, at: int | str | None = None) -> Pools:
        """The campaign's pools (Destiny and Doom, Intensity, supply dice...) (`campaign pools --json`),
        now or as they stood at `at` (an entry number or a time)."""
        from campaign_ledger import views

        return self._read(lambda app, db: views.pools(app, db, at))


_one_refusal_each(Core)


class Theirs:
    """The caller's own function run inside a call (a prompt, a writer of output): what it raises is
    the caller's (a closed pipe, an aborted prompt) and leaves the call as it was raised, not as a
    CampaignError. `run(f)` wraps f; a `with` block around the call re-raises it."""

    def __init__(self) -> None:
        self.raised: BaseException | None = None

    def run(self, f: Callable[..., T]) -> Callable[..., T]:
        def running(*args: Any) -> T:
            try:
                return f(*args)
            except BaseException as e:
                self.raised = e
                raise
        return running

    def __enter__(self) -> Theirs:
        return self

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if isinstance(error, CampaignError) and self.raised is not None:
            raise self.raised


def _text(value: int | str | None) -> str | None:
    return None if value is None else str(value)


def _since(db: Any, since: str | None) -> int | None:
    """`since` 40 is entry 40; a time, the first entry made at or after it."""
    from campaign_ledger.ledger import values
    from campaign_ledger.views import parse_time

    if since is None or values.is_number(since.strip()):
        return None if since is None else values.integer(int(since), "--since", 0)
    stamp = parse_time(since, "--since")
    row = db.execute("SELECT min(entry) FROM history WHERE time >= ?", [stamp]).fetchone()
    return row[0] if row[0] is not None else 2**62


def _verified_head(app: Any, db: Any) -> tuple[Any, ...] | None:
    """Where the read tables last verified the chain (None: nowhere, or a file only read: undo
    verifies the whole chain); a break already known (an audit's verdict, that entry's hash
    changed since) refuses at once."""
    from campaign_ledger.projections.verifying import chain_checked, recorded_break

    if app.read_only:
        return None
    broken = recorded_break(app, db)
    if broken is not None:
        raise broken.error().refusing("undo", "run `campaign audit`")
    return chain_checked(db)


def _preview(app: Any, unit: str | None, cascade: bool, checked: tuple[Any, ...] | None) -> Any:
    """What a dry run shows: the plan; when later play used the unit and cascade was not asked,
    the plan cascade would carry out, with the refusal the undo itself would meet."""
    from campaign_ledger.ledger.errors import RuleViolation
    from campaign_ledger.ledger.undo import LATER_PLAY_USED_IT

    try:
        return app.undo(unit, cascade, dry_run=True, checked=checked)
    except RuleViolation as e:
        if cascade or getattr(e, "rule", None) != LATER_PLAY_USED_IT:
            raise
        return {**app.undo(unit, True, dry_run=True, checked=checked), "needs_cascade": str(e)}


def _confirmed(agreed: bool) -> None:
    from campaign_ledger.ledger.errors import RuleViolation

    if not agreed:
        raise RuleViolation("nothing was appended: the reversal was not confirmed.", rule="not-confirmed")
