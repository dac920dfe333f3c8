"""The pool a relics turn or roll would use, built on a scratch table for `campaign odds`
(the real command's checks and refusals; nothing is saved). The odds live in odds.py beside it."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from campaign_ledger.ledger.rulesets.relics import turns
from campaign_ledger.ledger.errors import RuleViolation
from campaign_ledger.ledger.table import Table
from campaign_ledger.ledger.rulesets.relics.house_rules import in_play
from campaign_ledger.ledger.rulesets.relics.outcome import facing


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
        assumed = None
        if not waiting or huddle.described:
            assumed = _assumed_leader(t, ch, huddle)
            _huddle(t, ch, replace(huddle, leader=huddle.leader or assumed))
        camp, rules = t.campaign, in_play(t)
        return {"challenge": ch.name, "round": ch.round, "side": ch.pending["side"],
                "waiting": waiting and not huddle.described, "pending": dict(ch.pending),
                "rules": rules, "threat": ch.threat, "rating": ch.rating, "resolved": ch.resolved,
                "pcs": len(t.pcs_in_game()), "destiny": camp.destiny, "test": ch.test, "assumed_leader": assumed}
    return app.preview(command)


def _assumed_leader(t: Table, ch: Any, h: Huddle) -> str | None:
    """The next Cohort turn's pool needs a leader; with none given and none kept (the first round, or a
    leader Stressed Out), the odds assume the PC facing it who would bring the most lead dice (the
    highest rank in its type; the first on the roster among equals), and say so."""
    if h.leader or h.challenge_turn or ch.phase != "cohort":
        return None
    current = t.pc(ch.leader) if ch.leader else None
    if current is not None and not (current.stressed_out or current.out or current.retired):
        return None  # the rules keep this leader until the Challenge is resolved
    rules = in_play(t)
    able = [pc for pc in (t.pc(name) for name in facing(t, ch)) if not pc.stressed_out]
    ranked = [(rules.lead_dice.get(pc.rank(ch.type), 0), pc.rank(ch.type), -i, pc.name) for i, pc in enumerate(able)]
    return max(ranked)[3] if ranked and max(ranked)[0] > 0 else None


def _huddle(t: Table, ch: Any, h: Huddle) -> None:
    """Play the Huddle the turn would play (its checks and refusals too), on the scratch table."""
    if h.challenge_turn:
        turns.challenge_huddle(t, ch, h.uses)
    elif ch.phase == "challenge" and not h.described:
        turns.challenge_huddle(t, ch, [])
    else:
        turns.cohort_huddle(t, ch, h.leader, h.assists, h.uses, h.destiny, h.tactics)
