"""Read tables of action_dice campaigns (in progress)."""
from __future__ import annotations

from typing import Any, Callable

from sqlite_utils import Database

TABLES: tuple[str, ...] = ()
LINES: dict[type, Callable[[Any, Any], str]] = {}


def apply(db: Database, entry: int, e: Any) -> None:
    """Update this ruleset's read tables for one ledger entry."""
