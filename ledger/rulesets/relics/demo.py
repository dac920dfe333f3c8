"""A sample campaign: three PCs play one Challenge to its end with faces entered at the table.

It touches a Disaster (round 1), a critical and a botch (round 2), a PC Stressed Out and
Pushing the Limit, and the Challenge resolved (round 3).
"""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.rulesets.relics.turns import Placing, Throw, TraitUse

GUARDS = "Vault Guards"
DEMO_NAME = "The Moon Heist"


def _faces(text: str) -> Throw:
    return Throw(tuple(int(f) for f in text.split(",")))


def _place(*given: tuple[str, tuple[int, ...]]) -> Placing:
    return Placing(tuple(given))


def play(app: Any) -> None:
    app.start(DEMO_NAME, "relics", "0.6.1")
    app.add_pc("Kira", {"Phantom": 3, "Venger": 1}, "Phantom")
    app.add_pc("Bo", {"Venger": 4, "Phantom": 2, "Stallion": 1}, "Venger")
    app.add_pc("Ash", {"Sparrow": 3, "Stallion": 2, "Phantom": 1}, "Sparrow")
    app.add_trait("Kira", "Shadowstep", "+1 / 1d", None, "free", "cohort")
    app.add_trait("Kira", "Smoke Bomb", "-1 / 1d", None, "destiny", "challenge")
    app.add_trait("Bo", "Steady Hands", "+2 / 1d", None, "destiny-or-doom", "cohort")
    app.start_session("Session 1: the vault")
    app.start_scenario("Night at the Vault")
    app.open_challenge(GUARDS, "Major", "Phantom", 5)
    app.add_trait(GUARDS, "Alarm Bells", "-1 / 1d", None, "doom", "cohort", challenge=True)

    # Round 1: the Alarm Bells and two botches make a Disaster; the guards hit back hard.
    app.cohort_turn(GUARDS, "Kira", None, [TraitUse("Kira", "Shadowstep"), TraitUse(GUARDS, "Alarm Bells")], 0,
                    _faces("1,1,2,3,6"), _place(("Alarm Bells", (5,)), ("Shadowstep", (4,))))
    app.challenge_turn(GUARDS, [TraitUse("Kira", "Smoke Bomb")], _faces("6,6,6,5,5"),
                       _place(("Smoke Bomb", (1,))), {"Bo": 5})

    # Round 2: Steady Hands turns a 6 into a critical 8; a botch adds Doom; Bo is Stressed Out.
    app.cohort_turn(GUARDS, None, None, [TraitUse("Bo", "Steady Hands", "doom")], 1,
                    _faces("6,5,4,3,5,1"), _place(("Steady Hands", (1,))))
    app.challenge_turn(GUARDS, [], _faces("6,5"), Placing(), {"Bo": 5})
    app.push_the_limit("Bo")

    # Round 3: the Cohort finishes the job.
    app.cohort_turn(GUARDS, None, None, [], 0, _faces("6,6,2,3,4"), Placing())
    app.end_session()

