"""A Beer Run round up to the comparisons: goals, helping rolls (before any pool), each side's pool.

Seed 002 "Selecting a Goal", "Helping Goal", "Situation Goal", "Assemble Dice Pool", "Compare Rolls".
Once every acting side has rolled, each side is compared with the target one by one and the pips
due are queued, upper hand first; ledger/systems/beer_run_effects.py lands them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from campaign_ledger.ledger.errors import BadInput, NotFound, RuleViolation
from campaign_ledger.ledger.rulesets.beer_run import rules
from campaign_ledger.ledger.rulesets.beer_run.character import CHARACTER, BeerRunCharacter
from campaign_ledger.ledger.rulesets.beer_run.conflict import OPPOSE, SITUATION, BeerRunConflict
from campaign_ledger.ledger.rulesets.beer_run.effects import advance
from campaign_ledger.ledger.rulesets.beer_run.play import Faces, ability_name, character, held_dice, price, throw, upper_name
from campaign_ledger.ledger.table import Table


# --- goals (seed "Selecting a Goal", "Situation Goal") -------------------------------------------

def difficulty_pool(die: str, against: Sequence[str], replace: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The die a helping or situational goal seeks and the pool it rolls against (rules.goal_difficulty)."""
    size = rules.parse_die(die)
    pool = [rules.parse_die(d) for d in against]
    if replace and not pool:
        raise BadInput("--replace needs the GM's difficulty pool given with --against.")
    return size, rules.goal_difficulty(size, pool, [i - 1 for i in replace])


def declare_goal(t: Table, c: BeerRunConflict, side: str, text: str, ability: str | None,
                 situation: str | None, against: Sequence[str], replace: Sequence[int]) -> dict[str, Any]:
    c.check_rolling()
    side = c.side(side)
    c.check_in(side)
    if side in c.helpers:
        raise RuleViolation(f"{side} is helping this round; the goal for round {c.round} is set.")
    if side in c.rolls:
        raise RuleViolation(f"{side} has already rolled; the goal for round {c.round} is set.")
    character(t, side).check_alive()
    if not text.strip():
        raise BadInput("State the goal in words.")
    if situation is None and (against or replace):
        raise BadInput("--against and --replace belong to a situational goal (--situation dN).")
    if situation is not None and ability:
        raise BadInput("A situational goal gains a die; it names no ability to take to zero.")
    if ability:
        found = [ability_name(ch, ability) for ch in (character(t, o) for o in c.opponents(side))
                 if any(a["name"].casefold() == ability.strip().casefold() for a in ch.abilities)]
        if not found:
            raise NotFound(f"No side against {side} has an ability called {ability.strip()}.")
        ability = found[0]
    size, difficulty = difficulty_pool(situation, against, replace) if situation else (None, ())
    kind = SITUATION if situation else OPPOSE
    c.goal_declared(c.round, side, kind, text.strip(), ability, size, list(difficulty))
    return c.goals[side]


# --- helping (seed "Helping Goal": rolled before the other pools) --------------------------------

@dataclass(frozen=True)
class HelpingPool:
    """A helping roll before its dice: who helps whom, the die sought, both pools and the price."""

    helper: BeerRunCharacter
    ally: BeerRunCharacter
    die: int
    difficulty: tuple[int, ...]
    abilities: list[str]
    dice: tuple[int, ...]
    cost: int
    situation: tuple[int, ...]
    penalty: tuple[int, ...]


def helping_pool(t: Table, c: BeerRunConflict, helper: str, ally: str, text: str, die: str,
                 against: Sequence[str], replace: Sequence[int], base: Sequence[str], extra: Sequence[str],
                 override: str | None) -> HelpingPool:
    """Every check of a helping goal and the pools it rolls (also what `campaign odds --helping` prices)."""
    c.check_rolling()
    h, a = character(t, helper), character(t, ally)
    h.check_character("can help")
    a.check_character("can use a situation die")
    h.check_alive()
    a.check_alive()
    if h.name == a.name:
        raise RuleViolation("A character cannot help itself; a situational goal gains a die for oneself.")
    if c.rolls:
        raise RuleViolation(f"Helping is rolled before the round's pools; {next(iter(c.rolls))} has "
                            f"already rolled in round {c.round}.")
    if h.name in c.helpers:
        raise RuleViolation(f"{h.name} has already helped in round {c.round}.")
    if h.name in c.sides:
        c.check_in(h.name)
        if h.name == c.target:
            raise RuleViolation(f"Every side of {c.name} opposes {h.name}; {h.name} cannot take a helping goal.")
        if a.name in c.opponents(h.name):
            raise RuleViolation(f"{h.name} opposes {a.name} in {c.name}.")
    if not text.strip():
        raise BadInput("State the goal in words.")
    size, difficulty = difficulty_pool(die, against, replace)
    names, dice, cost = price(t, h, base, extra, override)
    situation, penalty = held_dice(h)
    return HelpingPool(h, a, size, difficulty, names, dice, cost, situation, penalty)


def help_ally(t: Table, c: BeerRunConflict, helper: str, ally: str, text: str, die: str,
              against: Sequence[str], replace: Sequence[int], base: Sequence[str], extra: Sequence[str],
              faces: Faces, override: str | None) -> dict[str, Any]:
    hp = helping_pool(t, c, helper, ally, text, die, against, replace, base, extra, override)
    h, a, size, difficulty, dice, situation, penalty = hp.helper, hp.ally, hp.die, hp.difficulty, hp.dice, \
        hp.situation, hp.penalty
    names, cost = hp.abilities, hp.cost
    own = throw(t, dice + situation, faces.own, faces.entered, "pool", "--faces")
    pen = throw(t, penalty, faces.penalty, faces.entered, "penalty dice", "--penalty-faces")
    diff = throw(t, difficulty, faces.difficulty, faces.entered, "difficulty dice", "--difficulty-faces")
    comparison = rules.compare(own, diff + pen)
    got = rules.goal_dice(size, comparison, 0)
    rnd = c.round
    paid = h.pay(c.name, rnd, cost, override)
    h.use_held_dice(c.name, rnd)
    c.help_rolled(rnd, h.name, a.name, text.strip(), size, names, list(dice + situation), own, list(penalty),
                  pen, list(difficulty), diff, faces.entered, [list(p) for p in comparison.pairs],
                  list(comparison.scored), list(comparison.kept), upper_name(comparison, (h.name, "difficulty")),
                  got.situation.uses if got.situation else 0, len(got.penalties))
    if got.situation:
        a.gain_situation_die(got.situation, f"{h.name}'s help in {c.name} round {rnd}")
    h.gain_penalty_dice(got.penalties, f"{h.name}'s helping in {c.name} round {rnd}")
    return {"helper": h.name, "ally": a.name, "cost": cost, "paid": paid, "uses": comparison.kept[0],
            "penalties": len(got.penalties)}


# --- rolling a side's pool ------------------------------------------------------------------------

def roll_pool(t: Table, c: BeerRunConflict, side: str, base: Sequence[str], extra: Sequence[str],
              faces: Faces, override: str | None) -> dict[str, Any]:
    side = c.side(side)
    c.check_can_roll(side)
    ch = character(t, side)
    ch.check_alive()
    goal = c.goals.get(side)
    if goal is None and ch.kind == CHARACTER:
        raise RuleViolation(f"{side} has no goal in round {c.round}; declare one with `campaign beer-run goal`.")
    names, dice, cost = price(t, ch, base, extra, override)
    situation, penalty = held_dice(ch)
    difficulty = goal["difficulty"] if goal and goal["kind"] == SITUATION else []
    own = throw(t, dice + situation, faces.own, faces.entered, "pool", "--faces")
    pen = throw(t, penalty, faces.penalty, faces.entered, "penalty dice", "--penalty-faces")
    diff = throw(t, difficulty, faces.difficulty, faces.entered, "difficulty dice", "--difficulty-faces")
    rnd = c.round
    paid = ch.pay(c.name, rnd, cost, override)
    ch.use_held_dice(c.name, rnd)
    c.pool_rolled(rnd, side, names, list(dice), list(situation), own, list(penalty), pen, diff,
                  faces.entered, cost, paid, override)
    if all(s in c.rolls for s in c.acting()):
        _compare_round(t, c)
    return {"side": side, "abilities": names, "dice": list(dice), "situation": list(situation),
            "faces": own, "penalty": list(penalty), "penalty_faces": pen, "cost": cost, "paid": paid,
            "comparisons": comparisons(c)}


def comparisons(c: BeerRunConflict) -> list[dict[str, Any]]:
    """The comparisons this roll completed (none until every side has rolled), as `--json` shows
    them: each pair of faces, who has the upper hand, and the successes each side keeps."""
    fields = ("side", "opponent", "faces", "opponent_faces", "pairs", "scored", "kept", "upper_hand")
    done = [e for e in c.pending_events if type(e).__name__ in ("Compared", "SituationRolled")]
    return [{"kind": "situation" if type(e).__name__ == "SituationRolled" else "opposed",
             **{k: getattr(e, k, None) for k in fields}, "round": e.round} for e in done]


def _strikes(c: BeerRunConflict, side: str) -> bool:
    goal = c.goals.get(side)
    return goal is None or goal["kind"] == OPPOSE


def _compare_round(t: Table, c: BeerRunConflict) -> None:
    """Each side against the target, one by one; a side's penalty dice join the pool opposing it."""
    target, rnd = c.target, c.round
    for side in c.acting():
        if side == target:
            continue
        mine = c.rolls[side]["faces"] + c.rolls[target]["penalty_faces"]
        theirs = c.rolls[target]["faces"] + c.rolls[side]["penalty_faces"]
        comparison = rules.compare(mine, theirs)
        sides = (side, target)
        first = comparison.upper_hand or 0  # the order of rules.resolve_effects: upper hand first
        due = [{"by": sides[i], "on": sides[1 - i], "kept": comparison.kept[i]}
               for i in (first, 1 - first) if comparison.kept[i] and _strikes(c, sides[i])]
        c.compared(rnd, side, target, mine, theirs, [list(p) for p in comparison.pairs],
                   list(comparison.scored), list(comparison.kept), upper_name(comparison, sides), due)
    for side in c.acting():
        goal = c.goals.get(side)
        if goal and goal["kind"] == SITUATION:
            roll = c.rolls[side]
            comparison = rules.compare(roll["faces"], roll["difficulty_faces"] + roll["penalty_faces"])
            got = rules.goal_dice(goal["die"], comparison, 0)
            c.situation_rolled(rnd, side, goal["die"], roll["faces"], goal["difficulty"],
                               roll["difficulty_faces"] + roll["penalty_faces"],
                               [list(p) for p in comparison.pairs], list(comparison.scored),
                               list(comparison.kept), upper_name(comparison, (side, "difficulty")),
                               got.situation.uses if got.situation else 0, len(got.penalties))
            ch = character(t, side)
            if got.situation:
                ch.gain_situation_die(got.situation, f"{side}'s situational goal in {c.name} round {rnd}")
            ch.gain_penalty_dice(got.penalties, f"{side}'s situational goal in {c.name} round {rnd}")
    advance(t, c)
