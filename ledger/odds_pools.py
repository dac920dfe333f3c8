"""The pool a roll would use, worked out on a scratch table that is never saved (for `campaign odds`).

Why a scratch table: a described pool must be the pool the turn would build, with every rule
check and refusal of the real command (the Huddle, trait costs, the pool cap), and nothing
appended. `Application.preview` runs the command's steps on aggregates loaded for this call
only; their new events are dropped with the table. The odds themselves live in `ledger.odds`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ledger import turns
from ledger.errors import RuleViolation
from ledger.table import Table


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
        camp, rules = t.campaign, t.rules
        return {"challenge": ch.name, "round": ch.round, "side": ch.pending["side"],
                "waiting": waiting and not huddle.described, "pending": dict(ch.pending),
                "rules": rules, "threat": ch.threat, "rating": ch.rating, "resolved": ch.resolved,
                "pcs": len(t.pcs_in_game()), "destiny": camp.destiny}
    return app.preview(command)


def _huddle(t: Table, ch: Any, h: Huddle) -> None:
    """Play the Huddle the turn would play (its checks and refusals too), on the scratch table."""
    if h.challenge_turn:
        turns.challenge_huddle(t, ch, h.uses)
    elif ch.phase == "challenge" and not h.described:
        turns.challenge_huddle(t, ch, [])
    else:
        turns.cohort_huddle(t, ch, h.leader, h.assists, h.uses, h.destiny, h.tactics)


# --- decision-2d6: a character's score, an item's supply die -----------------------------------

def decision_score(app: Any, name: str, stat: str) -> dict[str, Any]:
    """The character and the stat or attribute a decision roll would add (as `roll` finds them)."""
    from ledger.systems import decision_2d6_rolls as rolls

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("decision-2d6")
        hero = rolls.hero(t, name)
        _, label, value = hero.score(stat)
        return {"character": hero.name, "stat": label, "stat_value": value}
    return app.preview(command)


def supply_item(app: Any, name: str) -> dict[str, Any]:
    """An item's supply die and the campaign's threshold (as `supply-roll` reads them)."""
    from ledger.rules import decision_2d6 as d2
    from ledger.systems import decision_2d6_pools as pools

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("decision-2d6")
        item = pools._item(t, name)
        return {"item": item.name, "die": pools._die(item.die),
                "threshold": pools._setting(t, "supply_threshold", d2.DEFAULT_SUPPLY_THRESHOLD)}
    return app.preview(command)


# --- action dice: the pool and difficulty `action-dice roll` would use ---------------------------

def action_roll(app: Any, character: str, action: str, rating: str | None, difficulty: int | None,
                advantages: int, disadvantages: int, assets: list[str], features: list[str]) -> dict[str, Any]:
    """The three dice and the personal difficulty, with what the rules would refuse (the odds still show)."""
    from ledger.rules import action_dice as rules
    from ledger.systems import action_dice as system

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("action-dice")
        rated, base = system.base_difficulty(rating, difficulty)
        target = rules.action_difficulty(base, advantages, disadvantages)
        pc = system.ActionDiceCommands._character(t, character)
        system._unique(list(assets), "asset")
        chosen = [pc.asset(a) for a in assets]
        invoked = [pc.feature(f) for f in features]
        breaks = rules.rule_breaks(action, pc.current_conditions(), invoked, system.features_limit(t.campaign.settings))
        return {"character": pc.name, "action": action.strip().lower(), "rating": rated, "base": base,
                "difficulty": target, "assets": [a["name"] for a in chosen],
                "dice": list(rules.action_pool([a["die"] for a in chosen])), "refused_without_override": list(breaks)}
    return app.preview(command)
