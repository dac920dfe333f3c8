"""The pool a relics turn or roll would use, built on a scratch table for `campaign odds`
(the real command's checks and refusals; nothing is saved). The odds live in odds.py beside it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ledger.rulesets.relics import turns
from ledger.errors import RuleViolation
from ledger.table import Table
from ledger.rulesets.relics.house_rules import in_play


@dataclass(frozen=True)
class Huddle:
    """A Cohort or Challenge turn's Huddle as `cohort-turn` / `challenge-turn` take it."""

    challenge_turn: bool = False
    leader: str | None = None
    assists: list[str] | None = None
    uses: list[turns.TraitUse] = field(default_factory=list)
    destiny: int = 0
    tactics: turns.Tactics = turns.Tactics()
    described: bool = False  # any option given: build this pool, not the one waiting


def relics_pool(app: Any, challenge: str, huddle: Huddle) -> dict[str, Any]:
    """The pool waiting on a Challenge's roll, or the one its next Huddle would build."""
    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("relics")
        ch = t.challenge(challenge)
        if ch.finished:
            raise RuleViolation(f"{ch.name} is {'resolved' if ch.phase == 'resolved' else 'over'}; "
                                "no pool is left to roll.")
        waiting = ch.phase.endswith("-roll")
        if ch.phase.endswith(("-place", "-stress")):
            raise RuleViolation(f"{ch.name}'s pool is already rolled (faces {turns.pool_dice(ch)}); "
                                "nothing is left to chance.")
        if not waiting or huddle.described:
            _huddle(t, ch, huddle)
        camp, rules = t.campaign, in_play(t)
        return {"challenge": ch.name, "round": ch.round, "side": ch.pending["side"],
                "waiting": waiting and not huddle.described, "pending": dict(ch.pending),
                "rules": rules, "threat": ch.threat, "rating": ch.rating, "resolved": ch.resolved,
                "pcs": len(t.pcs_in_game()), "destiny": camp.destiny, "test": ch.test}
    return app.preview(command)


def _huddle(t: Table, ch: Any, h: Huddle) -> None:
    """Play the Huddle the turn would play (its checks and refusals too), on the scratch table."""
    if h.challenge_turn:
        turns.challenge_huddle(t, ch, h.uses)
    elif ch.phase == "challenge" and not h.described:
        turns.challenge_huddle(t, ch, [])
    else:
        turns.cohort_huddle(t, ch, h.leader, h.assists, h.uses, h.destiny, h.tactics)
