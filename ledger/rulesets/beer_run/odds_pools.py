"""The pool a beer-run turn or roll would use, built on a scratch table for `campaign odds`
(the real command's checks and refusals; nothing is saved). The odds live in odds.py beside it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.table import Table


@dataclass(frozen=True)
class Opposed:
    """Who rolls (and with which abilities), and against whom (optionally their abilities)."""

    side: str
    base: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    against: str | None = None
    against_base: list[str] = field(default_factory=list)
    against_extra: list[str] = field(default_factory=list)
    situation: str | None = None  # a situational goal described for the side: the die it seeks
    goal_against: list[str] = field(default_factory=list)  # the GM's pool for that goal
    replace: list[int] = field(default_factory=list)  # which of its dice (from 1) become the die sought


def beer_run_pools(app: Any, conflict: str, o: Opposed) -> dict[str, Any]:
    """Both pools of one comparison: dice to roll (priced as the roll prices them, refusals and all)
    or the faces of a side that has rolled this round; each side's penalty dice join the other pool."""
    from campaign_ledger.ledger.rulesets.beer_run import play
    from campaign_ledger.ledger.rulesets.beer_run.round import declare_goal

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("beer-run")
        c = play.conflict(t, conflict)
        c.check_rolling()
        me = c.side(o.side)
        c.check_in(me)
        if o.situation is not None:  # declared on the scratch copy, with every check of `beer-run goal`
            declare_goal(t, c, me, "a situational goal (odds)", None, o.situation, o.goal_against, o.replace)
        elif o.goal_against or o.replace:
            raise BadInput("--goal-against and --replace describe a situational goal (--situation dN) or a "
                           "helping goal (--helping ALLY).")
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
    from campaign_ledger.ledger.rulesets.beer_run import play

    ch = play.character(t, side)
    abilities = {a.name: a.size for a in ch.sheet()}
    declared = c.goals.get(side) or {}
    goal = declared.get("ability")
    strikes = declared.get("kind", "oppose") != "situation"  # a situational goal lands nothing
    situational = None if strikes else {"die": declared["die"], "difficulty": list(declared["difficulty"]),
                                        "difficulty_faces": []}
    if side in c.rolls:
        if base or extra:
            raise RuleViolation(f"{side} has already rolled in round {c.round}; its faces are on the table.")
        roll = c.rolls[side]
        if situational:  # its difficulty dice were thrown with its pool
            situational.update(difficulty=[], difficulty_faces=list(roll.get("difficulty_faces", [])))
        return {"side": side, "rolled": True, "abilities": [], "dice": [], "faces": roll["faces"],
                "penalty": {"dice": [], "faces": roll["penalty_faces"]}, "sheet": abilities, "goal_ability": goal,
                "strikes": strikes, "situational_goal": situational}
    ch.check_alive()
    names, dice, cost = play.price(t, ch, base, extra, None)
    situation, penalty = play.held_dice(ch)
    return {"side": side, "rolled": False, "abilities": names, "dice": list(dice + situation), "faces": [],
            "cost": cost, "intensity": ch.intensity if ch.kind != "difficulty" else None,
            "penalty": {"dice": list(penalty), "faces": []}, "sheet": abilities, "goal_ability": goal, "strikes": strikes,
            "situation": list(situation), "situational_goal": situational}


def helping_pools(app: Any, conflict: str, helper: str, ally: str, die: str, against: list[str],
                  replace: list[int], base: list[str], extra: list[str]) -> dict[str, Any]:
    """A helping goal's roll before its dice: the helper's pool (priced, held dice and all) against the
    goal's difficulty pool and the helper's penalty dice, with every check of `beer-run helping`."""
    from campaign_ledger.ledger.rulesets.beer_run import play
    from campaign_ledger.ledger.rulesets.beer_run.round import helping_pool

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("beer-run")
        c = play.conflict(t, conflict)
        h = helping_pool(t, c, helper, ally, "a helping goal (odds)", die, against, replace, base, extra, None)
        return {"conflict": c.name, "round": c.round, "helper": h.helper.name, "ally": h.ally.name, "die": h.die,
                "abilities": h.abilities, "dice": list(h.dice + h.situation), "situation": list(h.situation),
                "cost": h.cost, "intensity": h.helper.intensity, "difficulty": list(h.difficulty),
                "penalty": list(h.penalty)}
    return app.preview(command)
