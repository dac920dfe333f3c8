"""Noticing a command run in another process: a thread that watches the ledger's latest
notification id and, when it moves, catches the read tables up and builds the page's view.

The thread owns its own connections to the ledger and the read tables (SQLite connections stay in
the thread that made them), so the server's event loop never waits on the file. Asking for the
newest notification id is one indexed query on either store (SQLite or PostgreSQL); at the default
interval of 0.2 s a change reaches the page well within a second.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from campaign_ledger.web.view import TableView, build

INTERVAL = 0.2  # seconds between two looks at the ledger's head


class Watcher:
    """Calls `publish(view)` once at start and again after every change of the ledger's head."""

    def __init__(self, open_campaign: Callable[[], tuple[Any, Any]], show_gm: bool,
                 publish: Callable[[TableView], None], interval: float = INTERVAL) -> None:
        self.open_campaign, self.show_gm, self.publish, self.interval = open_campaign, show_gm, publish, interval
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="ledger-watcher", daemon=True)
        self.failure: BaseException | None = None

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        try:
            app, db = self.open_campaign()
        except Exception as e:  # the page says so rather than waiting for a view that never comes
            self.failure = e
            self.publish(TableView(entry=0, name="Campaign", ruleset="",
                                   warning=f"The campaign cannot be read: {e}"))
            return
        try:
            seen = None
            while not self.stopping.is_set():
                head = app.recorder.max_notification_id() or 0
                if head != seen:
                    self.publish(build(app, db, self.show_gm, _catch_up(app, db)))
                    seen = head
                self.stopping.wait(self.interval)
        finally:
            db.conn.close()
            app.close()


def _catch_up(app: Any, db: Any) -> str | None:
    """Bring the read tables up to the ledger; a stuck entry or a broken chain becomes one warning
    the page shows (the tables then show what they could apply), never a stopped server."""
    from campaign_ledger.ledger.chain import ChainBroken
    from campaign_ledger.ledger.errors import ReadModelStuck
    from campaign_ledger.projections import runner

    try:
        runner.catch_up(app, db)
    except (ReadModelStuck, ChainBroken) as e:
        return str(e)
    return None
