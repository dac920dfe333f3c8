"""What the campaign is: its name, ruleset and rules version, for every reader of the file."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from ledger.campaign import Campaign


TABLES = ("campaign",)


def apply(db: Database, entry: int, e: Any) -> None:
    if isinstance(e, Campaign.Started):
        db.table("campaign").insert_all([{"key": "name", "value": e.name}, {"key": "ruleset", "value": e.ruleset},
                                   {"key": "rules_version", "value": e.rules_version}])
