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


# --- Beer Run: a side's pool against the side it opposes, as `beer-run roll` would build them -----

@dataclass(frozen=True)
class Opposed:
    """Who rolls (and with which abilities), and against whom (optionally their abilities)."""

    side: str
    base: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    against: str | None = None
    against_base: list[str] = field(default_factory=list)
    against_extra: list[str] = field(default_factory=list)


def beer_run_pools(app: Any, conflict: str, o: Opposed) -> dict[str, Any]:
    """Both pools of one comparison: dice to roll (priced as the roll prices them, refusals and all)
    or the faces of a side that has rolled this round; each side's penalty dice join the other pool."""
    from ledger.systems import beer_run_play as play

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("beer-run")
        c = play.conflict(t, conflict)
        c.check_rolling()
        me = c.side(o.side)
        c.check_in(me)
        them = _opponent(c, me, o.against)
        sides = [_pool(t, c, me, o.base, o.extra), _pool(t, c, them, o.against_base, o.against_extra)]
        for mine, theirs in ((sides[0], sides[1]), (sides[1], sides[0])):
            mine["opposing_penalty"] = theirs.pop("penalty")
        return {"conflict": c.name, "round": c.round, "sides": sides}
    return app.preview(command)


def _opponent(c: Any, me: str, named: str | None) -> str:
    """The side compared with: the target, or for the target the one opponent (named if several)."""
    others = c.opponents(me)
    if named is not None:
        them = c.side(named)
        if them not in others:
            raise RuleViolation(f"{me} is not compared with {them} in {c.name}; it faces {', '.join(others) or 'no one'}.")
        return them
    if len(others) != 1:
        raise RuleViolation(f"{me} faces {', '.join(others) or 'no one'} in {c.name}; name one with --against.")
    return others[0]


def _pool(t: Table, c: Any, side: str, base: list[str], extra: list[str]) -> dict[str, Any]:
    """A side's dice and penalty dice; the faces instead, if it has rolled this round."""
    from ledger.systems import beer_run_play as play

    ch = play.character(t, side)
    abilities = {a.name: a.size for a in ch.sheet()}
    goal = (c.goals.get(side) or {}).get("ability")
    strikes = (c.goals.get(side) or {}).get("kind", "oppose") != "situation"  # a situational goal lands nothing
    if side in c.rolls:
        if base or extra:
            raise RuleViolation(f"{side} has already rolled in round {c.round}; its faces are on the table.")
        roll = c.rolls[side]
        return {"side": side, "rolled": True, "abilities": [], "dice": [], "faces": roll["faces"],
                "penalty": {"dice": [], "faces": roll["penalty_faces"]}, "sheet": abilities, "goal_ability": goal,
                "strikes": strikes}
    ch.check_alive()
    names, dice, cost = play.price(t, ch, base, extra, None)
    situation, penalty = play.held_dice(ch)
    return {"side": side, "rolled": False, "abilities": names, "dice": list(dice + situation), "faces": [],
            "cost": cost, "intensity": ch.intensity if ch.kind != "difficulty" else None,
            "penalty": {"dice": list(penalty), "faces": []}, "sheet": abilities, "goal_ability": goal, "strikes": strikes, "situation": list(situation)}
