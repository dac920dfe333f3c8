"""The effects of a Beer Run round, and Cede (seed 002 "Determine Effects", "Abilities Reduced to Zero", "Cede").

The pips due land one side at a time, upper hand first, split as the side says; an ability at zero
gives that side its goal, Health at zero is death. With nothing left to land the round ends, and
the conflict ends when no side is left against its target.
"""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.errors import RuleViolation
from campaign_ledger.ledger.rulesets.beer_run import rules
from campaign_ledger.ledger.rulesets.beer_run.character import DIFFICULTY
from campaign_ledger.ledger.rulesets.beer_run.conflict import BeerRunConflict
from campaign_ledger.ledger.rulesets.beer_run.play import ability_name, character, dead_strike_back
from campaign_ledger.ledger.table import Table


# --- effects (seed "Determine Effects", "Abilities Reduced to Zero") -----------------------------

def land_pips(t: Table, c: BeerRunConflict, by: str, split: dict[str, int], on: str | None) -> dict[str, Any]:
    c.check_open()
    if not c.due:
        raise RuleViolation(f"{c.name} has no pips to land; it is waiting for {', '.join(c.waiting_for())}.")
    due = c.due[0]
    if c.side(by) != due["by"] or (on is not None and c.side(on) != due["on"]):
        raise RuleViolation(f"{c.name} round {c.round} is waiting for {c.waiting_for()[0]}.")
    target = character(t, due["on"])
    split = {ability_name(target, name): pips for name, pips in split.items()}
    effect = rules.apply_pips(target.sheet(), split, due["kept"])
    rnd = c.round
    c.pips_landed(rnd, due["by"], due["on"], due["kept"], dict(effect.pips), effect.lost, list(effect.zeroed))
    target.take(effect, c.name, rnd, due["by"])
    if effect.goal_gained:
        gone = " and ".join(effect.zeroed)
        gain_goal(t, c, due["by"], f"{target.name}'s {gone} {'is' if len(effect.zeroed) == 1 else 'are'} gone")
    if target.dead:
        c.side_left(rnd, target.name, "dead")
    elif target.pips_left() == 0:
        c.side_left(rnd, target.name, "no dice left")
    advance(t, c)
    return {"by": due["by"], "on": due["on"], "pips": dict(effect.pips), "lost": effect.lost,
            "zeroed": list(effect.zeroed), "died": target.dead}


def gain_goal(t: Table, c: BeerRunConflict, side: str, how: str) -> None:
    """An ability at zero gives the other side its goal; it may declare another at once."""
    goal = c.goals.get(side)
    if goal is not None or character(t, side).kind == DIFFICULTY:
        c.goal_gained(c.round, side, goal["text"] if goal else None, how)


def advance(t: Table, c: BeerRunConflict) -> None:
    """Drop pips that can land nowhere; with none left the round ends."""
    strike_back = dead_strike_back(t)
    while c.due:
        due = c.due[0]
        on = character(t, due["on"])
        why = (f"{due['by']} died before striking back" if c.out.get(due["by"]) == "dead" and not strike_back
               else f"{on.name} is dead" if on.dead
               else f"{on.name} has no dice left to lower" if on.pips_left() == 0 else None)
        if why is None:
            return
        c.pips_lost(c.round, due["by"], due["on"], due["kept"], why)
    rnd = c.round
    c.round_ended(rnd)
    check_end(c, rnd)


def check_end(c: BeerRunConflict, rnd: int) -> None:
    if c.ended:
        return
    if c.target in c.out:
        c.conflict_ended(rnd, f"{c.target} has left ({c.out[c.target]})")
    elif not c.opponents(c.target):
        c.conflict_ended(rnd, f"no side is left against {c.target}")


# --- Cede (seed "Cede") --------------------------------------------------------------------------

def cede(t: Table, c: BeerRunConflict, side: str) -> dict[str, Any]:
    c.check_rolling()
    side = c.side(side)
    c.check_in(side)
    if c.rolls or c.helpers:
        raise RuleViolation(f"{side} can cede only between rounds; round {c.round} has begun.")
    ceder = character(t, side)
    rnd, opponents = c.round, c.opponents(side)
    c.ceded(rnd, side, opponents)
    for opponent in opponents:
        goal = c.goals.get(opponent)
        wanted = goal and goal["ability"]
        if wanted and not ceder.dead and any(a["name"] == wanted for a in ceder.abilities):
            effect = rules.cede(ceder.sheet(), wanted)
            if effect.pips:
                ceder.take(effect, c.name, rnd, opponent, ceded=True)
        gain_goal(t, c, opponent, f"{side} ceded")
    check_end(c, rnd - 1)  # a cede comes between rounds: the last round played is the one before
    return {"side": side, "to": opponents, "died": ceder.dead}
