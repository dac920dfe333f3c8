"""A toy ruleset that lives in the test suite only: a coin flipped, one tally per coin.

It declares itself in each layer the way a ruleset package does (ledger registry, read-side
projections, a migration), without a line in a core file: tests/test_toy_ruleset.py plays it
in a separate process, so its registration never leaks into the rest of the suite.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from uuid import NAMESPACE_URL, uuid5

from eventsourcing.domain import event
from sqlite_utils import Database

from campaign_ledger.ledger import rulesets
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.rulesets import Commands, Ruleset
from campaign_ledger.ledger.table import Table
from campaign_ledger.migrations import migrations
from campaign_ledger.projections import rulesets as read_side

ID = "coin-flip"
FACES = ("heads", "tails")


class Coin(Reversible):
    """One coin and its tally (the one tracker)."""

    @staticmethod
    def create_id(name: str) -> Any:
        return uuid5(NAMESPACE_URL, f"toy-coin:{name.strip().casefold()}")

    @event("Made")
    def __init__(self, name: str) -> None:
        self.name = name
        self.heads = 0
        self.flips = 0

    @event("Flipped")
    def flipped(self, face: str, entered: bool) -> None:
        self.flips += 1
        self.heads += face == "heads"


class CoinCommands(Commands):
    def coin_flip(self, name: str, face: str | None = None) -> dict[str, Any]:
        """Flip a coin (a face entered, or rolled by the program: a d2, 2 is heads)."""
        def command(t: Table) -> dict[str, Any]:
            t.expect_ruleset(ID)
            coin = t.load(Coin.create_id(name), "") if t.exists(Coin.create_id(name)) else t.add(Coin(name=name))
            shown = face or FACES[0 if t.dice.roll(1, 2).faces[0] == 2 else 1]
            coin.flipped(shown, face is not None)
            return {"coin": coin.name, "face": shown, "heads": coin.heads, "flips": coin.flips}
        return self.run(command, "coin_flip")


def _apply(db: Database, entry: int, e: Any) -> None:
    row = e.originator_id.hex
    if isinstance(e, Coin.Made):
        db.table("coin_tally").insert({"id": row, "name": e.name, "heads": 0, "flips": 0})
    elif isinstance(e, Coin.Flipped):
        tally = db.table("coin_tally").get(row)
        db.table("coin_tally").update(row, {"heads": tally["heads"] + (e.face == "heads"), "flips": tally["flips"] + 1})
    elif isinstance(e, Reversible.Reversed) and db.table("coin_tally").count_where("id = ?", [row]):
        db.table("coin_tally").update(row, {k: e.changes[k] for k in ("heads", "flips") if k in e.changes})


PROJECTION = SimpleNamespace(
    TABLES=("coin_tally",), OWNED={"coin_tally": "id"}, NAMED=(("coin_tally", "name"),), apply=_apply,
    LINES={Coin.Made: lambda n, e: f"The coin {e.name} is on the table",
           Coin.Flipped: lambda n, e: f"{n.me} lands {e.face}"})


def _tally_table(db: Database) -> None:
    db["coin_tally"].create({"id": str, "name": str, "heads": int, "flips": int}, pk="id")


def install() -> None:
    """Declare the toy in every layer (what a ruleset package's modules do at import)."""
    rulesets.register(Ruleset(ID, "tests", commands="toy_coin:CoinCommands", demo_name=""))
    read_side.register(ID, (PROJECTION,))
    migrations(name="m900_toy_coin_tally")(_tally_table)
