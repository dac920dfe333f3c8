"""Destiny and Doom now, and after every ledger entry (a statement can be read off it)."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.projections import balances
from campaign_ledger.projections.schema_cache import append, memo
from campaign_ledger.ledger.ids import CAMPAIGN_ID
from campaign_ledger.ledger.reversible import Reversible


TABLES = ("pools", "balances")
MOVES = (Campaign.ScenarioStarted, Campaign.TraitActivated, Campaign.TidesShifted, Campaign.DestinySpent,
         Campaign.DestinyGained, Campaign.Paid, Reversible.Reversed)  # the events that may move a pool
BALANCE = "INSERT INTO balances (entry, destiny, doom) VALUES (?, ?, ?)"  # a row each entry, written a batch at a time
_MOVES: dict[type, bool] = {}  # per event type: is it one of MOVES (found once, not on every entry)
RESTORED = {Campaign: ("destiny", "doom", "scenario")}  # what an undo restores that the pools row shows
KEPT = "relics.pools"  # the pools row, in the read file's memo while a batch is applied


def apply(db: Database, entry: int, e: Any) -> None:
    kept = memo(db)
    found = kept.get(KEPT) if kept is not None else None
    moves = _MOVES.get(type(e))
    if moves is None:
        moves = _MOVES[type(e)] = issubclass(type(e), MOVES)
    if found is not None and not moves:  # most entries: the balances row only
        append(db, BALANCE, (entry, found[1], found[2]), kept)
        return
    if found is None:
        found = db.conn.execute("SELECT scenario, destiny, doom FROM pools WHERE id = 1").fetchone()
    row = {"id": 1, "scenario": found[0], "destiny": found[1], "doom": found[2]} if found else \
        {"id": 1, "scenario": None, "destiny": 0, "doom": 0}
    before = dict(row)
    if isinstance(e, Campaign.ScenarioStarted):
        row.update(scenario=e.title, destiny=e.destiny, doom=e.doom)
    elif isinstance(e, (Campaign.TraitActivated, Campaign.TidesShifted)):
        row.update(destiny=row["destiny"] + e.destiny, doom=row["doom"] + e.doom)
    elif isinstance(e, Campaign.DestinySpent):
        row.update(destiny=row["destiny"] - e.dice)
    elif isinstance(e, Campaign.DestinyGained):
        row.update(destiny=row["destiny"] + e.amount)
    elif isinstance(e, Campaign.Paid):
        row.update(destiny=row["destiny"] + e.destiny, doom=row["doom"] + e.doom)
    elif isinstance(e, Reversible.Reversed) and e.originator_id == CAMPAIGN_ID:
        row.update({k: e.changes[k] for k in RESTORED[Campaign] if k in e.changes})
    if row != before or not found:  # the common entry changes no pool: skip the writes it needs not
        db.conn.execute("INSERT OR REPLACE INTO pools (id, scenario, destiny, doom) VALUES (1, ?, ?, ?)",
                        [row["scenario"], row["destiny"], row["doom"]])
        balances.record(db, entry, "destiny", row["destiny"])
        balances.record(db, entry, "doom", row["doom"])
    if kept is not None:  # only this module writes the row: the next entry of the batch starts from it
        kept[KEPT] = (row["scenario"], row["destiny"], row["doom"])
    append(db, BALANCE, (entry, row["destiny"], row["doom"]), kept)
