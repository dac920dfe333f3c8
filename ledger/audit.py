"""Audit: is the ledger intact, and what in it deserves a second look?

Reads the whole ledger once (streamed): the hash chain, GM overrides, house rules,
reversals, and per player how many dice were entered at the table or rolled by the
program. Whether the read tables match a fresh rebuild is checked by the read side.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ledger.chain import chained, verify
from ledger.campaign import Campaign
from ledger.challenge import Challenge
from ledger.reversible import Reversible


def audit(app: Any) -> dict[str, Any]:
    recorder = chained(app.recorder)
    broken = verify(recorder.stored_entries(), recorder.chain())
    report: dict[str, Any] = {"chain": "intact" if broken is None else broken.reason,
                              "broken_entry": None if broken is None else broken.entry,
                              "entries": recorder.max_notification_id() or 0,
                              "overrides": [], "house_rules": [], "reversals": [],
                              "dice": {}, "undone_program_rolls": []}
    if broken is None:
        _scan(app, report)
        report["corrections"] = [{"entries": [first, last], "corrects": detail["corrects"]}
                                 for first, last, _, _, detail in recorder.commands() if "corrects" in detail]
    return report


def _scan(app: Any, report: dict[str, Any]) -> None:
    entered: Counter = Counter()
    rolled: Counter = Counter()
    leaders: dict[Any, str] = {}
    program_rolls: dict[int, dict[str, Any]] = {}
    start = 0
    while batch := app.recorder.select_notifications(start, 500, inclusive_of_start=False):
        for n in batch:
            e = app.mapper.to_domain_event(n)
            reason = getattr(e, "gm_override", None) or getattr(e, "override", None)
            if reason:
                report["overrides"].append({"entry": n.id, "reason": reason, "type": type(e).__qualname__,
                                            "rule": getattr(e, "rule", None)})
            if isinstance(e, Campaign.HouseRuleChanged):
                report["house_rules"].append({"entry": n.id, "rule": e.rule, "value": e.value, "reason": e.reason})
            if isinstance(e, Reversible.Reversed) and (not report["reversals"]
                                                     or report["reversals"][-1]["unit"] != e.unit):
                report["reversals"].append({"entry": n.id, "unit": e.unit})
            if isinstance(e, Reversible.Reversed):
                for entry in e.entries:
                    if entry in program_rolls:
                        report["undone_program_rolls"].append({**program_rolls.pop(entry), "unit": e.unit,
                                                               "undone_at": n.id})
            if isinstance(e, Challenge.LeaderChosen):
                leaders[e.originator_id] = e.leader
            if hasattr(e, "faces") and hasattr(e, "entered"):
                who = _roller(e, leaders)
                (entered if e.entered else rolled)[who] += len(e.faces)
                if not e.entered:
                    program_rolls[n.id] = {"entry": n.id, "by": who, "faces": list(e.faces),
                                           "side": getattr(e, "side", None)}
        start = batch[-1].id
    for who in sorted(set(entered) | set(rolled)):
        report["dice"][who] = {"entered": entered[who], "rolled": rolled[who]}


def _roller(e: Any, leaders: dict[Any, str]) -> str:
    """Who threw the dice: the Cohort's leader, the GM for a Challenge, or the character named."""
    if isinstance(e, Challenge.PoolRolled):
        return leaders.get(e.originator_id, "?") if e.side == "cohort" else "GM"
    for who in ("character", "side", "helper", "name"):
        if isinstance(getattr(e, who, None), str):
            return getattr(e, who)
    return "?"
