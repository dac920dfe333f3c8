"""Opening a campaign file for a call: the ledger and its read tables, read-only where the file
cannot be written, and, for a read whose tables are current, without the ledger at all.

The same for the library and the CLI. A call says what it opens with as `Opening`: the file, the
GM's override reason, and where to leave what must be closed when the call is done (the CLI's
`ctx.call_on_close`; a library handle's `Kept`, closed by `close()`; no transaction, so no lock,
stays open between calls either way)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

from campaign_ledger.errors import CampaignError
from campaign_ledger.failures import read_only_media


@dataclass(frozen=True)
class Opening:
    """What a call opens a campaign with."""

    db: str  # the campaign file (its read tables; the ledger too, unless it is on PostgreSQL)
    override: str | None  # the GM's reason for letting this call break a rule
    on_close: Callable[[Callable[[], Any]], Any]  # takes what to run once the call is done


def open_campaign(opening: Opening, must_exist: bool = True, reading: bool = False) -> tuple[Any, Any]:
    """The ledger and its read tables; `reading` (a command that only reads) also opens a file that
    cannot be written, read-only (see ledger/read_only.py)."""
    from campaign_ledger.ledger import campaign_file, read_only
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.projections import runner

    path = opening.db
    if _read_on_postgres():
        return _open_on_postgres(opening, path)
    sqlite_ledger = os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") == "eventsourcing.sqlite"
    campaign_file.check(path, _every_read_table, creating=not (must_exist and sqlite_ledger),
                        ledger_in_file=sqlite_ledger)
    uri = read_only.uri(path) if reading and os.path.lexists(path) else None
    if uri is not None:
        return _open_read_only(opening, path, uri)
    if not reading and os.path.lexists(path) and not read_only.writable(path):  # before a server ledger appends
        raise CampaignError(*read_only_media({"db": path}))
    app = None if sqlite_ledger else open_ledger(path)  # a server that cannot be reached leaves no file
    if not os.path.lexists(path):
        campaign_file.create(path)
    app = app or open_ledger(path)
    app.gm_override = opening.override
    db = runner.connect(path)
    opening.on_close(lambda: _close(app, db))  # a warm process (the shell, a bot) runs many commands
    campaign_file.stamp(db.conn)
    bind_read_file(path, app, db)
    return app, db


def _close(app: Any, db: Any) -> None:
    """Both connections, once the command is done: the shell would otherwise hold two files open a
    line until a garbage collection found them."""
    db.conn.close()
    app.close()


def _read_on_postgres() -> bool:
    """CAMPAIGN_READ=postgres (beside a PostgreSQL ledger; any other setting refused in one line)."""
    if not os.environ.get("CAMPAIGN_READ"):
        return False  # the usual way, without importing the PostgreSQL side
    from campaign_ledger.ledger.errors import Unusable
    from campaign_ledger.projections import postgres_read

    why = postgres_read.refusal()
    if why is not None:
        raise Unusable(why)
    return postgres_read.wanted()


def _open_on_postgres(opening: Opening, path: str) -> tuple[Any, Any]:
    """Ledger and read tables both on the server: no local file is checked, created or stamped."""
    from campaign_ledger.ledger.application import open_ledger

    app = open_ledger(path)  # a server that cannot be reached is named here, before the read schema
    app.gm_override = opening.override
    db = connect_read(path)
    opening.on_close(lambda: _close(app, db))
    bind_read_file(path, app, db)
    return app, db


def connect_read(path: str) -> Any:
    """The read tables of the campaign named by --db: the SQLite file, or its PostgreSQL schema."""
    from campaign_ledger.projections import runner

    if not _read_on_postgres():
        return runner.connect(path)
    from campaign_ledger.projections import postgres_read

    return postgres_read.connect(path)


def _every_read_table() -> tuple[str, ...]:
    """Every ruleset's read tables: migrations make them all, whichever ruleset the campaign plays."""
    from campaign_ledger.projections import rulesets, runner

    rulesets.load_all()
    return runner.READ_TABLES


def _open_read_only(opening: Opening, path: str, uri: str) -> tuple[Any, Any]:
    """A file that cannot be written, for a read: nothing is created, stamped or caught up."""
    from campaign_ledger.ledger import campaign_file
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.projections import read_only

    app = open_ledger(path, read_only=uri)
    app.read_only = True
    opening.on_close(app.close)  # nothing holds the media once the command is done
    db, done = read_only.connect(app, uri)
    opening.on_close(done)
    if os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") != "eventsourcing.sqlite":
        campaign_file.check_binding(db.conn, path, _first_hash(app))
    return app, db


def _first_hash(app: Any) -> str | None:
    from campaign_ledger.ledger.chain import chained
    return chained(app.recorder).hash_of(1) if app.recorder.max_notification_id() else None


def bind_read_file(path: str, app: Any, db: Any) -> None:
    """With the ledger on PostgreSQL: the read file belongs to one ledger (see campaign_file.bind)."""
    from campaign_ledger.ledger import campaign_file

    if os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") != "eventsourcing.sqlite":
        campaign_file.bind(db.conn, path, _first_hash(app))


def current_read_tables(opening: Opening) -> tuple[Any, Any] | None:
    """(the ledger on demand, the read tables) of a writable SQLite campaign file whose read tables
    are current (see projections/current.py); None for any other file, which opens as usual."""
    from campaign_ledger.ledger import campaign_file, read_only

    path = opening.db
    if os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") != "eventsourcing.sqlite" or \
            not os.path.isfile(path) or read_only.uri(path) is not None or \
            not campaign_file.checked_and_stamped(path):
        return None  # another store, no file, read-only media, a file not stamped yet: the usual way
    from campaign_ledger.projections import current

    db = current.read_tables_if_current(path)
    if db is None:
        return None
    app = LedgerOnDemand(path)
    opening.on_close(lambda: _close(app, db))
    return app, db


class LedgerOnDemand:
    """The campaign's ledger, opened the first time a read asks it something (most reads do not)."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._app: Any = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if self._app is None:
            from campaign_ledger.ledger.application import open_ledger

            self._app = open_ledger(self._path)
        return getattr(self._app, name)

    def close(self) -> None:
        """The ledger, if a read opened it."""
        if self._app is not None:
            self._app.close()
