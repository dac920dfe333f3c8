"""Who threw a Relics roll, for audit's dice counts: the Cohort's leader of that round, or the GM."""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.rulesets.relics.challenge import Challenge


def leader(e: Any) -> str | None:
    """The leader an entry names for its Challenge's round (kept until the next one)."""
    return e.leader if isinstance(e, Challenge.LeaderChosen) else None


def roller(e: Any, leaders: dict[Any, str]) -> str | None:
    if isinstance(e, Challenge.PoolRolled):
        return leaders.get(e.originator_id, "?") if e.side == "cohort" else "GM"
    return None
