"""The read views every campaign has, as the library and the CLI answer them: a ruleset's sheets and
pools (its `Ruleset.views` module says how), now or as they stood at an entry or a time.

`at` is an entry number or a time (`40`, `"2026-11-22T20:15"`, the GM's local time unless it gives
its zone); past the last entry is refused, naming it.
"""
from __future__ import annotations

from typing import Any, Callable

from campaign_ledger.ledger import values
from campaign_ledger.ledger.errors import BadInput


def sheet(app: Any, db: Any, name: str | None, at: int | str | None) -> Any:
    """The sheets (or NAME's): one object for a name, a list for all (the CLI contract)."""
    shown = views_of(db)

    def standing(entry: int | None) -> list[Any]:
        if getattr(shown, "KEEPS_HISTORY", False):
            return shown.sheets(db, name, entry)
        with as_of(app, db, entry, shown) as past:
            return [r for r in shown.sheets(past) if not name or r["name"].casefold() == name.casefold()]
    entry = entry_at(db, None if at is None else str(at))
    rows = standing(entry)
    if name and not rows and entry is not None:
        not_joined_yet(db, entry, standing)
    return one_or_all(name, known_character(name, rows, db))


def pools(app: Any, db: Any, at: int | str | None) -> Any:
    """The campaign's pools, now or as they stood."""
    shown = views_of(db)
    entry = entry_at(db, None if at is None else str(at))
    if getattr(shown, "KEEPS_HISTORY", False):
        return shown.pools(db, entry)
    with as_of(app, db, entry, shown) as past:
        return shown.pools(past)


def views_of(db: Any) -> Any:
    """The campaign's ruleset's CLI views (its `Ruleset.views` module: sheets, pools and their text)."""
    from campaign_ledger.ledger import rulesets

    return rulesets.find(ruleset_of(db)).cli_views()


def as_of(app: Any, db: Any, entry: int | None, shown: Any = None) -> Any:
    """The read tables now, or as they stood after an entry (--at): from the versions of their rows the
    ruleset keeps (its views' `versioned()`, see projections/row_versions.py), else rebuilt up to it."""
    import contextlib

    if entry is None:
        return contextlib.nullcontext(db)
    from campaign_ledger.projections import row_versions, runner
    tables = shown.versioned() if hasattr(shown, "versioned") else ()
    if tables and row_versions.kept(db) and db.table(row_versions.TABLE).exists():
        return row_versions.standing(db, tables, entry)
    return runner.as_of(app, entry)


def entry_at(db: Any, at: str | None, option: str = "--at") -> int | None:
    """`--at 42` is entry 42; `--at 2026-11-22T20:15` the last entry made by then (local time unless
    given). Past the last entry is refused, naming it: the GM asked about a moment not recorded yet."""
    from campaign_ledger.projections import views

    if at is None:
        return None
    if values.is_number(at.strip()):
        entry = values.integer(int(at.strip()), option, 0)
        _not_past(db, option, at.strip(), entry=entry)
        return entry
    stamp = parse_time(at, option)
    _not_past(db, option, at.strip(), stamp=stamp)
    return views.last_entry_by(db, stamp)


def _not_past(db: Any, option: str, given: str, entry: int | None = None, stamp: str | None = None) -> None:
    from datetime import datetime

    from campaign_ledger.ledger.errors import RuleViolation

    row = db.execute("SELECT entry, time FROM history ORDER BY entry DESC LIMIT 1").fetchone()
    if row is None or (entry is not None and entry <= row[0]) or (stamp is not None and stamp <= row[1]):
        return
    when = datetime.fromisoformat(row[1])
    local = when.astimezone().isoformat(timespec="seconds")
    utc = f" ({when.isoformat(timespec='seconds')})" if when.astimezone().utcoffset() else ""
    raise RuleViolation(f"{option} {given} is past the campaign's last entry, #{row[0]} at {local}{utc}.")


def parse_time(text: str, option: str) -> str:
    """A GM's time as the ledger stamps entries (UTC, ISO, seconds). A time without a zone is the
    GM's local time (the machine's zone, or $TZ): what the clock on the wall said at the table."""
    from datetime import datetime, timezone

    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise BadInput(f"{option} takes an entry number or a time like 2026-11-22T20:15, not '{text}'.") from None
    when = when if when.tzinfo else when.astimezone()  # a naive time is local
    return when.astimezone(timezone.utc).isoformat(timespec="seconds")


def not_joined_yet(db: Any, entry: int, standing: Callable[[int | None], list[Any]]) -> None:
    """`sheet Ash --at 5` for Ash, who joined at #6, in the GM's words, not "there is no character
    named Ash": the first entry after `entry` at which `standing` (the sheets found as they stood
    after an entry; None: now) finds the character, found by halving (each a read of the versions)."""
    from campaign_ledger.ledger.errors import NotFound

    now = standing(None)
    if not now:
        return  # not in the campaign at all: known_character says so
    low, high = entry, db.execute("SELECT max(entry) FROM history").fetchone()[0]
    while high - low > 1:  # standing(low) finds no one, standing(high) finds them
        middle = (low + high) // 2
        low, high = (low, middle) if standing(middle) else (middle, high)
    who = now[0]["name"]
    raise NotFound(f"{who} had not joined yet at entry #{entry}: {who}'s sheet begins at entry #{high}.",
                   rule="unknown-character")


def one_or_all(name: str | None, rows: list[Any]) -> Any:
    """A read of one named thing answers an object, of all of them a list (the CLI contract)."""
    return rows[0] if name and rows else rows


def known_character(name: str | None, rows: list[Any], db: Any = None) -> list[Any]:
    """The sheets found for NAME; none found is refused in the GM's words, saying what NAME names
    instead when the campaign has it (`sheet "Vault Guards"`: a Challenge, and where to see it)."""
    from campaign_ledger.ledger.errors import NotFound
    from campaign_ledger.projections.views import named_thing

    if name and not rows:
        other = named_thing(db, name) if db is not None else None
        if other:
            raise NotFound(f"'{name}' is not a character of this campaign but {other}.", rule="unknown-character")
        raise NotFound(f"There is no character named '{name}' in this campaign.")
    return rows


def ruleset_of(db: Any) -> str:
    """The campaign's ruleset, as its read tables say; a ledger with no campaign yet is refused in
    one line (no ruleset's view stands in for it)."""
    from campaign_ledger.ledger.errors import NO_CAMPAIGN, NotFound
    from campaign_ledger.projections import views

    found = views.campaign(db).get("ruleset")
    if not found:
        raise NotFound(NO_CAMPAIGN)
    return found


def only_ruleset(db: Any, ruleset: str) -> None:
    """A ruleset's read view on another ruleset's campaign is refused in one line (by the campaign,
    exit 1, as its commands are: the command itself is well formed)."""
    from campaign_ledger.ledger.errors import RuleViolation

    found = ruleset_of(db)
    if found != ruleset:
        raise RuleViolation(f"This is {'an' if found[0] in 'aeiou' else 'a'} {found} campaign; "
                       f"that command is for {ruleset} campaigns.")
