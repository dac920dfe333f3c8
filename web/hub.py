"""Handing each new view of the table to every open stream.

The watcher publishes from its thread; the hub keeps only the newest view, numbered, and wakes
every stream waiting on it. A stream that was busy while two views were published gets the newer
one: each view is the whole table, so skipping one loses nothing, and a stream that reconnects
starts from the newest view, which is how a dropped page catches up.
"""
from __future__ import annotations

import asyncio
from typing import AsyncIterator

from campaign_ledger.web.view import TableView


class Hub:
    def __init__(self) -> None:
        self.latest: TableView | None = None
        self.version = 0            # views published since start
        self.streams = 0            # streams open now
        self.loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Attach to the server's event loop (at start-up, before the watcher publishes)."""
        self.loop, self._changed = loop, asyncio.Event()

    def publish(self, view: TableView) -> None:
        """From any thread: make `view` the newest and wake the streams (in the order published)."""
        assert self.loop is not None
        self.loop.call_soon_threadsafe(self._set, view)

    def _set(self, view: TableView) -> None:
        self.latest, self.version = view, self.version + 1
        woken, self._changed = self._changed, asyncio.Event()  # later waiters wait for the next one
        woken.set()

    async def first(self) -> TableView:
        """The newest view, waiting for the first one if the watcher has not built it yet."""
        while self.latest is None:
            await self._changed.wait()
        return self.latest

    async def wait(self, seen: int, timeout: float, *others: asyncio.Event) -> int:
        """The version once one newer than `seen` is published, or any of `others` is set, or after
        `timeout` seconds, whichever is first: a player's stream also wakes for its pending actions
        and looks at its seat now and then (web/players.py)."""
        if self.version <= seen:
            waits = [asyncio.ensure_future(e.wait()) for e in (self._changed, *others)]
            try:
                await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waits:
                    w.cancel()
        return self.version

    async def views(self) -> AsyncIterator[TableView]:
        """The newest view now, then each newer one as it comes, for as long as the stream is open."""
        seen = 0
        self.streams += 1
        try:
            while True:
                while self.version <= seen:
                    await self._changed.wait()
                seen = self.version
                yield self.latest
        finally:
            self.streams -= 1
