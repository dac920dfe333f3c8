"""The Relics state a GM acts on between turns, read from the read tables for `status --json`:
which limited traits were used and whether they are spent, the opportunities created, the
Challenges already finished, and the Scenario, Scene and Event in play.

A trait used once a round, a scene or a scenario keeps the scope of its last use (`G:2`,
`scene 3`, `scenario 1`); the ledger refuses another use while that scope is the current one
(ledger/traits.py `check_use`), so a use is *spent* exactly while its scope is still going on.
"""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from campaign_ledger.projections.campaign import stage as stage_row

FINISHED = ("resolved", "ended")
RECOVERY = "cohort:scene recovery"  # recovery keeps the Scene it followed, after that Scene ended
CHECK_THIS_OUT = "cohort:check this out"  # once a scene, kept in no trait row (ledger/tactics.py)


def stage(db: Database) -> dict[str, Any]:
    """Where the campaign stands: the Scenario's number, the open Scene's and Event's (or null)."""
    row = stage_row(db)
    return {"scenario": row["scenario_number"], "scene": row["scene"], "event": row["encounter"]}


def trait_uses(db: Database) -> list[dict[str, Any]]:
    """Each limited trait's last use, in the order first used, and whether it is spent now."""
    rows = db.execute("SELECT key, trait, scope FROM trait_uses ORDER BY entry, key").fetchall()
    live = _live_scopes(db)
    return [{"trait": trait, "scope": scope, "spent": _spent(db, key, scope, live)} for key, trait, scope in rows]


def _spent(db: Database, key: str, scope: str, live: set[str]) -> bool:
    """Whether the ledger would refuse another use now (the scope the use would get is its last)."""
    row = stage_row(db)
    if key == RECOVERY:
        return scope == f"scene {row['scenes']}"
    if scope == "applied":  # a recovery Test's Stress, removed once
        return True
    if scope.startswith("scenario ") and row["scene"] is not None and _once_a_scene(db, key):
        return False  # used outside any Scene (scoped to the Scenario): a Scene begun since is a new scope
    return scope in live


def _once_a_scene(db: Database, key: str) -> bool:
    """Whether the trait a use is keyed by (`owner:name`, casefolded as the ledger keys it) is once a scene."""
    rows = db.execute("SELECT owner, name, frequency FROM traits").fetchall()
    return key == CHECK_THIS_OUT or any(f"{o}:{n}".casefold() == key and f == "scene" for o, n, f in rows)


def opportunities(db: Database) -> list[dict[str, Any]]:
    """Every opportunity created: the Challenge and round, and the PC who created it."""
    rows = db.execute("SELECT challenge, round, pc FROM opportunities ORDER BY entry").fetchall()
    return [{"challenge": c, "round": r, "pc": pc} for c, r, pc in rows]


def _live_scopes(db: Database) -> set[str]:
    """The scopes going on now, keyed as the ledger keys a use (ledger/traits.py `scope`)."""
    row = stage_row(db)
    live = {f"scenario {row['scenario_number']}"}
    live |= {f"scene {row['scene']}"} if row["scene"] is not None else set()
    live |= {f"event {row['encounter']}"} if row["encounter"] is not None else set()
    for name, round_ in db.execute("SELECT name, round FROM challenges WHERE phase NOT IN (?, ?)", FINISHED):
        live |= {f"{name}:{round_}", f"challenge {name}"}
    return live


def status_fields(db: Database) -> dict[str, Any]:
    """What `status --json` adds to the open Challenges and the pools."""
    return {"finished": [{k: r[k] for k in ("name", "threat", "type", "rating", "resolved", "leader", "round",
                                            "phase")}
                         for r in db.table("challenges").rows_where("phase IN (?, ?)", FINISHED, order_by="opened")],
            "trait_uses": trait_uses(db), "opportunities": opportunities(db), "stage": stage(db)}
