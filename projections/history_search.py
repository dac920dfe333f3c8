"""Finding things in the history (issue 13): filters that combine, each one SQL condition.

`--grep` answers from the FTS5 index on the history lines (`history_fts`, notes included), its
operators obeyed (fts_query.py), never from a LIKE scan: a long campaign's search stays an index
lookup. Names (`--pc`, `--challenge`) match the entries whose aggregate is that thing, the notes about it, and the
lines that name it as a word (the index again), since a Cohort turn names its PCs in its line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from sqlite_utils import Database

from campaign_ledger.ledger.errors import BadInput, NotFound
from campaign_ledger.ledger.notes import no_round
from campaign_ledger.projections import actors, long_reads
from campaign_ledger.projections.fts_query import match_query, words_query

KINDS = {  # --kind: which history lines each names, by the event type the line came from
    "rolls": "h.type LIKE '%Rolled' OR h.type LIKE '%.Rolled'",
    "overrides": "h.type LIKE '%GMOverrode' OR h.line LIKE '%GM override%'",
    "reversals": "h.type LIKE '%Reversed'",
    "notes": "h.type LIKE '%NoteTaken' AND h.reversed_at IS NULL",
    "house-rules": "h.type LIKE '%HouseRuleChanged'",
    "corrections": "h.line LIKE 'Correction: %'",  # a rename, retirement, trait removed... (issue 13)
}


@dataclass
class Filters:
    """What `campaign history` was asked for; every field left empty filters nothing."""
    pc: str | None = None
    challenge: str | None = None
    round: str | None = None
    session: int | None = None
    tags: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    grep: str | None = None
    since: int | None = None  # first entry
    until: int | None = None  # last entry
    scene: str | None = None  # a Relics Scene, by title or number


@dataclass
class _Query:
    """The conditions (each one SQL expression over `history h`) and their arguments, in order."""
    where: list[str] = field(default_factory=list)
    args: list[Any] = field(default_factory=list)

    def add(self, condition: str, *args: Any) -> None:
        self.where.append(condition)
        self.args.extend(args)


def rows(db: Database, f: Filters, limit: int | None = None) -> list[dict[str, Any]]:
    """The history rows every filter lets through, in entry order (the last `limit` of them)."""
    sql, args = sql_of(db, f)
    if limit:
        sql, args = sql + " DESC LIMIT ?", args + [limit]
    found = list(_dicts(db, sql, args))
    found = found[::-1] if limit else found
    for row in found:
        actors.shaped(row)
    return found


def stream(db: Database, f: Filters) -> tuple[int | None, Iterator[dict[str, Any]]]:
    """`rows` without a limit, as they are read (a long campaign's history is never held whole),
    with the last entry among them first (a listing aligns its numbers to it), None when none is."""
    sql, args = sql_of(db, f)
    last = next(_dicts(db, sql + " DESC LIMIT 1", args), None)

    def rows() -> Iterator[dict[str, Any]]:
        for row in _dicts(db, sql, args):
            yield actors.shaped(row)
    return (last["entry"] if last else None), rows()


def sql_of(db: Database, f: Filters) -> tuple[str, list[Any]]:
    """The query `rows` runs (also for EXPLAIN QUERY PLAN in the tests and the bench)."""
    q = _build(db, f)
    return ("SELECT h.* FROM history h WHERE " + " AND ".join(f"({w})" for w in q.where or ["1"])
            + " ORDER BY h.entry", q.args)


def _dicts(db: Database, sql: str, args: list[Any]):
    cursor = long_reads.cursor(db, sql, args)
    names = [d[0] for d in cursor.description]
    return (dict(zip(names, r)) for r in cursor)


def _build(db: Database, f: Filters) -> _Query:
    q = _Query()
    if f.since is not None:
        q.add("h.entry >= ?", f.since)
    if f.until is not None:
        q.add("h.entry <= ?", f.until)
    if f.pc is not None:
        _named(db, q, f.pc, "PC", lambda t: t in _characters())
    if f.challenge is not None:
        _named(db, q, f.challenge, "Challenge", lambda t: t not in _characters())
    if f.round is not None:
        _known_round(db, f.round)
        q.add("h.round = ? COLLATE NOCASE OR h.entry IN (SELECT entry FROM notes WHERE round = ? COLLATE NOCASE)",
             f.round, f.round)
    if f.session is not None:
        _session(db, q, f.session)
    if f.scene is not None:
        _scene(db, q, f.scene)
    for tag in f.tags:
        q.add("h.entry IN (SELECT n.entry FROM notes n, json_each(n.tags) t WHERE t.value = ? "
                "AND n.reversed_at IS NULL)", tag.strip().lstrip("#").casefold())
    if f.kinds:
        unknown = [k for k in f.kinds if k not in KINDS]
        if unknown:
            raise BadInput(f"--kind takes {', '.join(KINDS)}; not '{unknown[0]}'.")
        q.add(" OR ".join(f"({KINDS[k]})" for k in dict.fromkeys(f.kinds)))
    if f.grep is not None:
        q.add("h.entry IN (SELECT rowid FROM history_fts WHERE history_fts MATCH ?)", match_query(f.grep))
    return q


def _named(db: Database, q: _Query, name: str, what: str, wanted: Any) -> None:
    """Entries about one PC or Challenge: its own events, the notes about it, the lines naming it."""
    from campaign_ledger.projections import rulesets

    ids: list[str] = []
    for table, column in (p for m in rulesets.modules() for p in getattr(m, "NAMED", ())):
        if wanted(table) and db[table].exists():
            ids += [r[0] for r in db.execute(f"SELECT id FROM [{table}] WHERE [{column}] = ? COLLATE NOCASE", [name])]
    names = [name]
    if what == "PC" and db["pc_names"].exists():  # a renamed PC: found by any name it had, its lines too
        ids += [r[0] for r in db.execute("SELECT id FROM pc_names WHERE name = lower(?)", [name.strip()])]
        names = _every_name(db, ids, name)
    if not ids:
        raise NotFound(f"There is no {what} named '{name}' in this campaign.")
    parts = [(f"h.about IN ({', '.join('?' for _ in ids)})", [i.replace("-", "") for i in ids]),
             (" OR ".join("h.entry IN (SELECT entry FROM notes WHERE about = ? COLLATE NOCASE)" for _ in names), names)]
    for each in (n for n in names if any(ch.isalnum() for ch in n)):  # punctuation only is no word to search
        parts.append(("h.entry IN (SELECT rowid FROM history_fts WHERE history_fts MATCH ?)", [words_query(each)]))
    if what == "Challenge":  # its rounds: `Vault Guards:2`
        parts.append(("h.round LIKE ? ESCAPE '\\'", [name.replace("%", "\\%").replace("_", "\\_") + ":%"]))
    q.add(" OR ".join(c for c, _ in parts), *(a for _, args in parts for a in args))


def _every_name(db: Database, ids: list[str], name: str) -> list[str]:
    """The names a PC has had: its sheet's and each former one (as the GM spelled them in the history)."""
    marks = ", ".join("?" for _ in ids)
    found = [r[0] for r in db.execute(f"SELECT name FROM sheets WHERE id IN ({marks})", ids)] if ids else []
    found += [r[0] for r in db.execute(f"SELECT name FROM pc_names WHERE id IN ({marks})", ids)] if ids else []
    return list(dict.fromkeys([name, *found]))


def _characters() -> set[str]:
    """The tables of characters each ruleset names things in (`NAMED_CHARACTERS`)."""
    from campaign_ledger.projections import rulesets

    return {t for m in rulesets.modules() for t in getattr(m, "NAMED_CHARACTERS", ())}


def _known_round(db: Database, wanted: str) -> None:
    """`--round` naming no round the history files (played, undone or noted) is refused, as `--pc`,
    `--session` and `--scene` naming nothing are, not answered "No entries."."""
    if not db.execute("SELECT 1 FROM history WHERE round = ? COLLATE NOCASE UNION ALL SELECT 1 FROM notes "
                      "WHERE round = ? COLLATE NOCASE LIMIT 1", [wanted, wanted]).fetchone():
        raise no_round(wanted)


def _session(db: Database, q: _Query, number: int) -> None:
    from campaign_ledger.projections import sessions

    span = sessions.entries_of(db, number)
    if span is None:
        raise NotFound(f"There is no session {number}; see `campaign session list`.")
    q.add("h.entry BETWEEN ? AND ?", *span)


SCENE_START = re.compile(r"^Scene (\d+) starts: (.*)$")


def _scene(db: Database, q: _Query, wanted: str) -> None:
    """A Scene's entries, from its start to its end (or to now), every Scene of that title or number;
    a Scene whose start was undone is no Scene."""
    spans = []
    starts = db.execute("SELECT entry, line FROM history WHERE type LIKE '%SceneStarted' AND reversed_at IS NULL "
                        "ORDER BY entry").fetchall()
    for entry, line in starts:
        found = SCENE_START.match(line)
        if not found or wanted.strip().casefold() not in (found[1], found[2].casefold(), f"scene {found[1]}"):
            continue
        end = db.execute("SELECT min(entry) FROM history WHERE type LIKE '%SceneEnded' AND reversed_at IS NULL "
                         "AND entry > ? AND line LIKE ?", [entry, f"Scene {found[1]} (%"]).fetchone()[0]
        spans.append((entry, end if end is not None else 2**62))
    if not spans:
        raise NotFound(f"There is no Scene '{wanted.strip()}' in this campaign (give its title or number).")
    q.add(" OR ".join("h.entry BETWEEN ? AND ?" for _ in spans), *(e for span in spans for e in span))
