"""The names the ledger stores for the program's classes (eventsourcing's topics).

eventsourcing names a class in a stored entry by its module and qualified name. The program's
modules moved under one installed name, `campaign_ledger` (issue 37), but a name in the record must
not move with the code: files written before say `ledger.campaign:Campaign.Joined`, and so do the
entries written now, so old and new files read alike, hash alike and export alike. A class of the
program gives its topic through `TOPIC` (eventsourcing's own hook, read by `get_topic`), without
the package prefix; the old prefix resolves to the package (eventsourcing's `register_topic`).
"""
from __future__ import annotations

import importlib
from typing import Any

PACKAGE = "campaign_ledger."  # where the program's modules live now; not part of a stored name


def stored_name(cls: type) -> str:
    """`ledger.campaign:Campaign.Joined` for campaign_ledger.ledger.campaign's Campaign.Joined."""
    return f"{cls.__module__.removeprefix(PACKAGE)}:{cls.__qualname__}"


class StoredName:
    """A class attribute that reads as the stored topic of the class it is read from, so every
    subclass (each aggregate, each of its events) is named by its own module and qualified name."""

    def __get__(self, instance: Any, owner: type) -> str:
        return stored_name(owner)


def register_old_prefix() -> None:
    """`ledger.…` topics resolve to the modules under campaign_ledger.ledger (imported when named)."""
    from eventsourcing.utils import register_topic

    register_topic("ledger", importlib.import_module(f"{PACKAGE}ledger"))
