"""A turn's tally as a report shows it (`--json`'s "tally" of cohort-turn, challenge-turn, roll and
place), read from the events the command just recorded, so it says exactly what the ledger keeps."""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.rulesets.relics.challenge import COHORT, Challenge
from campaign_ledger.ledger.table import Table


def tally_of(t: Table, ch: Challenge, pool: dict[str, Any]) -> dict[str, Any] | None:
    """The side's tally this command recorded, for scripts (`--json`'s "tally"): the faces rolled, the
    results after placement, what they count, and on a Cohort turn the Tides; None while it waits."""
    tallied = [e for e in ch.pending_events if isinstance(e, Challenge.RoundTallied)]
    if not tallied:
        return None
    e = tallied[-1]
    shifted = [s for s in t.campaign.pending_events if type(s).__name__ == "TidesShifted" and s.challenge == ch.name]
    tides = {"destiny": shifted[-1].destiny, "doom": shifted[-1].doom, "destiny_lost_to_cap": shifted[-1].destiny_lost} \
        if shifted else {"destiny": 0, "doom": 0, "destiny_lost_to_cap": 0}
    return {"side": e.side, "round": e.round, "faces": list(pool.get("faces") or []), "autos": list(pool.get("autos") or []),
            "results": list(e.results), "successes": e.successes, "criticals": e.criticals,
            "overpowering": e.overpowering, "botches": e.botches, "major_botches": e.major_botches,
            "disaster": e.disaster, "tides": tides if e.side == COHORT else None}
