"""Every wait for the PostgreSQL ledger's server bounded, so "cannot reach the server within N s"
is true (eventsourcing bounds only the wait for a pooled connection)."""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger import storage_faults


def bound(factory: Any, seconds: str | None) -> None:
    """Make "cannot reach the server within N s" true. eventsourcing gives its PostgreSQL pool the
    connect timeout only as the wait for a pooled connection: each connection attempt (in the pool's
    workers) had libpq's none, so a server that accepts and never answers, or a dropped network,
    kept them waiting, and closing the pool at exit waited 5 s for each of its three workers (23 s
    in all, measured). Here each attempt is bounded (connect_timeout), and so is a connection the
    network drops under a command: unacknowledged data (tcp_user_timeout) and an idle peer
    (keepalives) end it within about the same time, instead of the kernel's minutes."""
    pool = getattr(getattr(factory, "datastore", None), "pool", None)
    if seconds is None or not isinstance(getattr(pool, "kwargs", None), dict):
        return  # SQLite, or a pool that is not psycopg's
    wait = max(1, int(float(seconds)))
    pool.kwargs.update(connect_timeout=wait, keepalives=1, keepalives_idle=max(1, wait // 2), keepalives_interval=1,
                       keepalives_count=max(1, wait // 2), tcp_user_timeout=wait * 1000)
    _one_wait_after_a_loss(pool, wait)


def _one_wait_after_a_loss(pool: Any, wait: float) -> None:
    """eventsourcing retries each read and write ten times on a connection error, and each retry
    waited the whole timeout for a new connection: a dropped server took 24-76 s to report. Once a
    connection is found lost under a command, the retries share one short wait to reconnect (a
    blip); once a wait for a connection has run out, the server is gone: the next ask raises
    ServerLost, which eventsourcing does not retry."""
    import time

    deadline: list[float] = []  # set when the server is first found lost
    getconn, putconn = pool.getconn, pool.putconn

    def bounded_getconn(timeout: float | None = None) -> Any:
        if deadline:
            timeout = deadline[0] - time.monotonic()
            if timeout <= 0:
                raise storage_faults.ServerLost(f"no connection to the server within {wait} s")
        try:
            return getconn(timeout)
        except Exception as e:
            if type(e).__name__ == "PoolTimeout":
                deadline[:] = [time.monotonic()]  # the whole wait is spent: none is left
            raise

    def noting_putconn(conn: Any) -> None:
        if getattr(conn, "closed", False) and not deadline:  # a connection lost under a command
            deadline.append(time.monotonic() + max(1.0, wait / 5))
        putconn(conn)
    pool.getconn, pool.putconn = bounded_getconn, noting_putconn
