"""The record itself, as calls: audit, anchor, rebuild, statements, export, replay and the demo
(a new file from an export is campaign.py's `import_campaign`).

    camp.audit(anchor=line)["clean"]           # `campaign audit --anchor LINE`
    camp.export("jsonl", output="heist.jsonl")  # `campaign export --format jsonl -o heist.jsonl`

A long export or rebuild can show its progress: `progress(total)` is a context (a progress bar)
whose value takes each step's count, or None for no bar.
"""
from __future__ import annotations

import contextlib
import os
from typing import Any, Callable, ContextManager, Mapping, Sequence, TYPE_CHECKING, cast

from campaign_ledger.ledger.values import given_faces
from campaign_ledger.handle import Core, Theirs

if TYPE_CHECKING:
    from campaign_ledger.shapes import AuditReport, Report, Row

Progress = Callable[[int], ContextManager[Callable[[int], Any] | None]]
Writer = Callable[[str], Any]  # takes each piece of an export as it is made (a stream's write)
Places = Mapping[str, Sequence[int]] | Sequence[tuple[str, Sequence[int]]]  # by trait label, dice from 1


class RecordCalls(Core):
    """What every campaign's record answers (`campaign audit`, `anchor`, `export`, `replay`, ...)."""

    def audit(self, *, anchor: str | None = None, chain: bool = False) -> AuditReport:
        """Verify the hash chain, command log, snapshots and read tables; list overrides, house rules,
        reversals and dice (`campaign audit --json`; "clean" says whether all is well). `anchor`: a
        line `anchor()` gave, kept outside the file, the ledger must still extend; `chain`: only the
        chain and command log, quickly."""
        from campaign_ledger import audits

        if anchor is not None:
            self._valid(lambda: _parsed_anchor(anchor))
        return cast("AuditReport", self._opened(lambda app, db: audits.audit(app, db, anchor, chain, self._warning,
                                                                            self.path)))

    def anchor(self) -> Row:
        """The head of the hash chain as one line to keep outside the file (`campaign anchor --json`);
        `audit(anchor=...)` later proves the ledger still extends it."""
        def query(app: Any, db: Any) -> Row:
            from campaign_ledger.ledger.chain import anchor_line, chained

            entry, hash_ = chained(app.recorder).head()
            return {"entry": entry, "hash": hash_, "anchor": anchor_line(entry, hash_)}
        return self._opened(query)

    def rebuild(self, *, force: bool = False, progress: Progress | None = None) -> Row:
        """Re-derive every read table from the whole ledger, verifying its hash chain as it reads it
        (`campaign rebuild`); a broken chain is refused unless `force`."""
        from campaign_ledger import audits

        return self._opened(lambda app, db: audits.rebuild(app, db, force, _steps(progress), self._warning),
                            reading=False)

    def statement(self, balance: str) -> Row:
        """Every entry that changed a balance, with the running balance, like a bank statement
        (`campaign statement`): destiny, doom, "Kira:stress", "Kira:agony", or a ruleset's own."""
        def query(app: Any, db: Any) -> Row:
            from campaign_ledger.ledger.errors import NotFound
            from campaign_ledger.projections import views

            rows = views.statement(db, balance)
            if not rows:
                known = ", ".join(views.balance_names(db)) or "none yet"
                raise NotFound(f"No balance named '{balance}'; balances: {known}.")
            return {"balance": balance, "entries": rows, "changes": rows}  # `changes`; `entries` kept for old scripts
        return self._read(query)

    def export(self, format: str = "md", *, session: int | None = None, first: int | None = None,  # noqa: A002
               last: int | None = None, output: str | os.PathLike[str] | Writer | None = None,
               gm_notes: bool = False, progress: Progress | None = None) -> Any:
        """The campaign, a session or entries `first`-`last` as "md", "html", "csv" or "jsonl"
        (`campaign export`), ending with the anchor line. Without `output`, the text; with a path,
        written there (the report `--json` prints: format, output, first, last); with a function,
        each piece handed to it as it is made. JSON Lines holds every entry and hash: `import_campaign`
        reads it. `gm_notes`: the notes taken gm_only too (jsonl always holds them)."""
        from campaign_ledger import exports

        self._valid(lambda: exports.check_format(format))
        pieces: list[str] = []
        theirs = Theirs()
        write = theirs.run(output) if callable(output) else pieces.append

        def query(app: Any, db: Any) -> Any:
            span = exports.span(app, db, session, first, last)
            target = exports.opened(os.fspath(output)) if output is not None and not callable(output) else None
            try:
                exports.write(app, db, format, span, gm_notes, target.write if target else write, _steps(progress))
            finally:
                if target:
                    target.close()
            return span
        with theirs:
            span = self._read(query)
        if output is None:
            return "".join(pieces)
        return {"format": format, "output": None if callable(output) else os.fspath(output),
                "first": span.first, "last": span.last}

    def replay(self, round: str | None = None, *, leader: str | None = None,  # noqa: A002
               assists: Sequence[str] | None = None, destiny: int | None = None, add_traits: Sequence[str] = (),
               drop_traits: Sequence[str] = (), places: Places | None = None, faces: Sequence[int] | None = None,
               challenge_places: Places | None = None, challenge_faces: Sequence[int] | None = None,
               stress: Mapping[str, int] | None = None, sets: Mapping[str, Any] | None = None,
               commit: bool = False, cascade: bool = False, key: str | None = None) -> Report:
        """A recorded round or roll (default: the latest) played again on its own faces with other
        choices, side by side with the record (`campaign replay --json`). `add_traits` as
        "OWNER:TRAIT[=destiny|doom]", `drop_traits` as "OWNER:TRAIT"; `sets` changes a single roll's
        choices (action-dice, decision-2d6), e.g. {"advantages": 1}. `commit` appends the correction
        (a reversal, then the corrected round; `cascade`: every later round reversed too) and
        returns what it recorded."""
        asked = {"round": round, "leader": leader, "assists": assists, "destiny": destiny, "add": list(add_traits),
                 "drop": list(drop_traits), "places": places, "faces": faces, "challenge_places": challenge_places,
                 "challenge_faces": challenge_faces, "stress": stress, "sets": sets, "cascade": cascade}
        changes = self._valid(lambda: _changes(leader, assists, destiny, add_traits, drop_traits, places, faces,
                                               challenge_places, challenge_faces, stress, sets))
        if commit:
            return self._write("replay", asked, lambda app: app.replay(round, changes, commit=True, cascade=cascade),
                               key=key)
        return self._read(lambda app, db: app.replay(round, changes))

    def demo(self, ruleset: str | None = None) -> Row:
        """Make this new file a sample campaign of `ruleset` (default: the registry's default) and
        play a short scene of it with entered faces (`campaign demo --json`); on a file that holds
        the demo already, it as it stands. Returns its sheets, pools and history."""
        existed = os.path.exists(self.path)
        return self._opened(lambda app, db: _demo(app, db, ruleset, self._call, existed, self._warning),
                            reading=existed, must_exist=False)  # shown again, a read-only copy will do

    def _imported(self, export_path: str | os.PathLike[str], progress: Progress | None = None) -> None:
        """Make this handle's new file from a JSON Lines export (campaign.py `import_campaign`), every
        line's hash checked before anything is kept; `started` is the report `import --json` prints."""
        from campaign_ledger.errors import refused
        from campaign_ledger.ledger import interchange
        from campaign_ledger.ledger.application import open_ledger
        from campaign_ledger.opening import bind_read_file
        from campaign_ledger.projections import import_replay, runner

        source = os.fspath(export_path)
        facts = self._facts(None, None)
        try:
            # Each entry is a step twice: written and checked, then through the read tables.
            steps = 2 * max(_lines_in(source) - 2, 0) if progress is not None and os.path.isfile(source) else 0
            with _steps(progress)(steps) as step:
                report = interchange.import_file(open_ledger, source, self.path, step, import_replay.replay_check)
        except Exception as e:
            raise refused(e, facts) from None

        def caught_up(app: Any, db: Any) -> None:
            runner.catch_up(app, db)  # the read tables were built while the import was checked
            bind_read_file(self.path, app, db)
        self._opened(caught_up, reading=False)
        self.started = {**report, "actor": "gm", "channel": "import"}  # the entries keep the actors they were written by


def _demo(app: Any, db: Any, ruleset: str | None, facts: dict[str, Any], existed: bool,
          warn: Callable[[str], Any]) -> Row:
    from campaign_ledger.calls import catch_up
    from campaign_ledger.errors import CampaignError
    from campaign_ledger.failures import read_only_media
    from campaign_ledger.ledger import rulesets
    from campaign_ledger.ledger.errors import BadInput, Unusable
    from campaign_ledger.opening import bind_read_file
    from campaign_ledger.projections import runner, views

    ruleset = ruleset or rulesets.default_id()
    demos = rulesets.demos()
    if ruleset not in demos:
        raise BadInput(f"There is no {ruleset} demo yet.")
    name, play = demos[ruleset]
    if existed and not app.holds_no_campaign():
        catch_up(app, db, warn, facts["db"])
        if views.campaign(db).get("name") != name:
            raise Unusable(f"{facts['db']} holds another campaign; the demo needs a new file, choose one with --db.")
    else:  # a new file, or a ledger with no campaign in it (a demo or `new` killed before its first entry)
        if app.read_only:
            raise CampaignError(*read_only_media(facts))
        try:
            play(app)
        except Exception:  # whatever failed (a full disk, a lost server), the entries saved so far stay
            facts["stopped"] = ("the demo stopped part way, and what it recorded stays in "
                                "its ledger; run the demo again with a new --db file")
            raise
        runner.catch_up(app, db)
        bind_read_file(facts["db"], app, db)
    shown = rulesets.find(ruleset).cli_views()
    return {"sheets": shown.sheets(db), "pools": shown.pools(db), "history": views.history(db)}


def _steps(progress: Progress | None) -> Progress:
    return progress or (lambda total: contextlib.nullcontext(None))


def _parsed_anchor(line: str) -> None:
    from campaign_ledger.ledger.chain import parse_anchor

    parse_anchor(line)


def _lines_in(path: str) -> int:
    """The file's lines (a header, the entries, a closing line), for the progress's length."""
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def _changes(leader: str | None, assists: Sequence[str] | None, destiny: int | None, add: Sequence[str],
             drop: Sequence[str], places: Places | None, faces: Sequence[int] | None, challenge_places: Places | None,
             challenge_faces: Sequence[int] | None, stress: Mapping[str, int] | None,
             sets: Mapping[str, Any] | None) -> Any:
    """A replay's changes as the ledger takes them (anything left None keeps the record)."""
    from campaign_ledger.relics import trait_uses  # the one reader of OWNER:TRAIT=destiny
    from campaign_ledger.ledger.rulesets.relics.replay import Changes

    return Changes(leader=leader, assists=tuple(assists) if assists else None, destiny=destiny,
                   add=tuple(trait_uses(add)), drop=tuple(drop), place=_placed(places),
                   faces=given_faces(faces) if faces else None, challenge_place=_placed(challenge_places),
                   challenge_faces=given_faces(challenge_faces) if challenge_faces else None,
                   stress=dict(stress) if stress is not None else None,
                   sets={k: str(v) for k, v in (sets or {}).items()})


def _placed(places: Places | None) -> tuple[tuple[str, tuple[int, ...]], ...]:
    pairs = places.items() if isinstance(places, Mapping) else places or ()
    return tuple((label, given_faces(dice, 'Dice placed')) for label, dice in pairs)
