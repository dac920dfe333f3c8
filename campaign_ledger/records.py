"""The record itself, as calls: audit, anchor, rebuild, statements, export, replay and odds."""
from __future__ import annotations

from campaign_ledger.handle import Core


class RecordCalls(Core):
    """What every campaign's record answers (`campaign audit`, `anchor`, `export`, ...)."""
