"""A campaign handle: every command and read view of the CLI as a call, for bots and notebooks.

    from campaign_ledger import open_campaign
    camp = open_campaign("heist.db")
    camp.cohort_turn("Vault Guards", leader="Kira", faces=[1, 1, 2, 3, 6])
    camp.sheet("Kira")

A handle holds the file's path, never an open connection: each call opens the campaign, does its
work and closes it (campaign_ledger/calls.py), so a long-lived bot sees other processes' entries
and holds no lock between calls. Writes return the report the CLI's `--json` prints; reads return
the rows its read views print. Every refusal is a CampaignError with `code` and `rule`.

The calls of each ruleset are in its own module beside this one (relics.py, ...), mixed in here.
"""
from __future__ import annotations

import os
import threading
from typing import Any, Callable, Mapping, cast

from campaign_ledger import calls
from campaign_ledger.shapes import HistoryLine, Report, Row


class Core:
    """The calls every campaign has, whatever its ruleset, and the machinery each call goes through."""

    def __init__(self, path: str | os.PathLike[str], *, warn: Callable[[str], Any] | None = None,
                 bound: dict[str, Any] | None = None) -> None:
        """`warn` takes each warning line (default: kept in `warnings`, the last call's). `bound` is
        for the CLI: its own call's facts (its --db, --key, --gm-override, and the digest of its
        words under "invocation"), so its keys and refusals read as they always have."""
        self.path = os.fspath(path)
        self.warnings: list[str] = []
        self._warn = warn
        self._bound = bound
        self._threads = threading.local()  # each thread's campaign kept open between calls (calls.Kept)

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

    # --- the machinery -------------------------------------------------------------------------

    def _facts(self, key: str | None, override: str | None) -> dict[str, Any]:
        self.warnings = []
        if self._bound is not None:
            return self._bound  # the CLI's own dict, filled in as the call goes
        return {"db": self.path, "key": key, "override": override}

    def _warning(self, line: str) -> None:
        self.warnings.append(line)
        if self._warn is not None:
            self._warn(line)

    def _write(self, command: str, asked: Mapping[str, Any], call: Callable[[Any], Any], *,
               key: str | None = None, override: str | None = None, must_exist: bool = True) -> Report:
        """Run one ledger command (`call(app)` returns its report) as one call, logged under `key`."""
        facts = self._facts(key, override)
        invocation = facts.get("invocation") or calls.digest(command, asked, facts.get("override"))
        kept = self._kept() if must_exist else None  # a new campaign's first call opens and closes
        return cast(Report, calls.write(facts, call, self._warning, invocation=invocation, must_exist=must_exist,
                                        kept=kept))

    def _read(self, query: Callable[[Any, Any], Any]) -> Any:
        """One read view: `query(app, db)` on read tables caught up with the ledger."""
        return calls.read(self._facts(None, None), query, self._warning, self._kept())

    # --- every campaign ------------------------------------------------------------------------

    def ruleset(self) -> str:
        """The campaign's ruleset id (`relics`, `beer-run`, `action-dice`, `decision-2d6`)."""
        from campaign_ledger.views import ruleset_of

        return self._read(lambda app, db: ruleset_of(db))

    def session_start(self, title: str, *, key: str | None = None) -> Report:
        """Begin a play session (`campaign session start TITLE`)."""
        return self._write("session start", {"title": title}, lambda app: app.start_session(title), key=key)

    def session_end(self, *, key: str | None = None) -> Report:
        """End the play session going on (`campaign session end`)."""
        return self._write("session end", {}, lambda app: app.end_session(), key=key)

    def session_list(self) -> list[Row]:
        """Every play session (`campaign session list --json`)."""
        from campaign_ledger.projections import sessions

        return self._read(lambda app, db: sessions.all_sessions(db))

    def note(self, text: str, *, tags: tuple[str, ...] | list[str] = (), about: str | None = None,
             round: str | None = None, entry: int | None = None, gm_only: bool = False,  # noqa: A002
             key: str | None = None) -> Report:
        """Append a GM's note (`campaign note`): an entry of its own, undone like any other."""
        tags = tuple(tags)
        return self._write("note", {"text": text, "tags": tags, "about": about, "round": round, "entry": entry,
                                    "gm_only": gm_only},
                           lambda app: app.note(text, tags, about, round, entry, gm_only), key=key)

    def undo(self, unit: str | None = None, *, cascade: bool = False, dry_run: bool = False,
             key: str | None = None) -> Report:
        """Reverse the latest unit of play, or `unit` (a name from `undo_list`, e.g. "Vault Guards:2");
        `cascade` reverses the later units that used it too; `dry_run` says what would change."""
        if dry_run:
            return self._read(lambda app, db: app.undo(unit, cascade, dry_run=True))
        return self._write("undo", {"unit": unit, "cascade": cascade},
                           lambda app: app.undo(unit, cascade), key=key)

    def undo_list(self, limit: int | None = None) -> list[Row]:
        """The units undo can take, newest first (`campaign undo --list --json`)."""
        return self._read(lambda app, db: app.undo_list(limit))

    def history(self, *, limit: int | None = None, pc: str | None = None, challenge: str | None = None,
                round: str | None = None, session: int | None = None,  # noqa: A002
                tags: tuple[str, ...] | list[str] = (), kinds: tuple[str, ...] | list[str] = (),
                grep: str | None = None, scene: str | None = None, since: int | None = None,
                until: int | None = None) -> list[HistoryLine]:
        """The campaign history, one line per entry, filtered as `campaign history` filters
        (`since`/`until`: entry numbers); `grep` takes FTS5's OR, AND, NOT, capt* and "phrases"."""
        from campaign_ledger.ledger import values
        from campaign_ledger.projections import history_search as search

        if limit is not None:
            values.integer(limit, "limit", 1)
        filters = search.Filters(pc, challenge, round, session, tuple(tags), tuple(k.casefold() for k in kinds),
                                 grep, since, until, scene)

        def query(app: Any, db: Any) -> list[Any]:
            if limit is not None:
                return search.rows(db, filters, limit)
            return list(search.stream(db, filters)[1])
        return self._read(query)

    def sheet(self, name: str | None = None, *, at: int | None = None) -> Any:
        """One character's sheet (a dict), or every sheet (a list), now or as it stood at entry `at`."""
        from campaign_ledger import views

        return self._read(lambda app, db: views.sheet(app, db, name, at))

    def pools(self, *, at: int | None = None) -> Row:
        """The campaign's pools (Destiny and Doom, Intensity, supply dice...), now or at entry `at`."""
        from campaign_ledger import views

        return self._read(lambda app, db: views.pools(app, db, at))
