"""The whole hash chain verified as two halves at once, one on each core (undo, `audit --chain`,
`rebuild --force`'s verdict): each half starts from the hash stored before it, and the first
half's own check covers what the second starts from, so the first break in entry order is the
one verifying it whole finds. A short ledger, a server's, or a one-core machine: verified whole."""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.chain import chained
from campaign_ledger.ledger.chain_verify import Break
from campaign_ledger.ledger.side_process import SideProcess, worth_it


def verify_whole(app: Any) -> Break | None:
    """The first break of the whole chain, command log included, or None."""
    chain = chained(app.recorder)
    if not worth_it(app):
        return chain.verify_all()
    middle = (app.recorder.max_notification_id() or 0) // 2
    second = SideProcess(_from, type(app), dict(app.env), middle + 1)
    try:
        first = chain.verify_span(1, middle)
    except BaseException:
        second.stop()
        raise
    if first is not None:  # the earlier break: what the second half finds does not count
        second.stop()
        return first
    return second.finish()


def _from(kind: type, env: dict, first: int) -> Break | None:
    """The second process: its own connection to the same ledger, the chain from `first` to its end."""
    app = kind(env=env)
    try:
        return chained(app.recorder).verify_span(first, None)
    finally:
        app.close()
