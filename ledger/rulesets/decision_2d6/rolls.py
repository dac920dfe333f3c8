"""Decision rolls and contested rolls of decision-2d6 campaigns, worked out before any event.

Every rule comes from `ledger.rulesets.decision_2d6.rules` (seed 004); this module reads the table's
input, gets the faces (entered, or rolled one d6 at a time until every chain is complete),
and hands the rules' answer to the aggregates as plain values.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger.rulesets.decision_2d6 import rules as d2
from campaign_ledger.ledger.rulesets.decision_2d6.model import Contest, Hero, hero_id, plain
from campaign_ledger.ledger.table import Table

KINDS = ("bonus", "penalty", "modifier")
LABELS = {d2.Difficulty.SIMPLE: "Simple Task", d2.Difficulty.CHALLENGING: "Challenging Task",
          d2.Difficulty.STRENUOUS: "Strenuous Task", d2.Difficulty.IMPOSSIBLE: "\u201cImpossible\u201d Task"}


@dataclass(frozen=True)
class Stated:
    """A modifier as the table states it: `bonus 2`, `penalty -1`, `modifier -2`."""

    kind: str
    value: int

    def rule(self) -> d2.Modifier:
        if self.kind not in KINDS:
            raise BadInput(f"A modifier is a bonus, a penalty or a modifier, not '{self.kind}'.")
        return d2.Modifier(self.value, d2.ModifierKind(self.kind))


def advantage(text: str) -> d2.Advantage:
    """'minor-advantage', 'Major Disadvantage', 'neutral' -> a step of the scale."""
    key = text.strip().upper().replace("-", "_").replace(" ", "_")
    try:
        return d2.Advantage[key]
    except KeyError:
        names = ", ".join(a.name.lower().replace("_", "-") for a in reversed(d2.Advantage))
        raise BadInput(f"'{text}' is not a step of the advantage scale; use one of {names}.") from None


def advantage_name(level: d2.Advantage | int) -> str:
    return d2.Advantage(level).name.replace("_", " ").title()


def target(number: int | None, difficulty: str | None) -> tuple[int | None, str | None]:
    """The target number and its label on the difficulty scale, if it has one."""
    if number is not None and difficulty is not None:
        raise BadInput("Give a target number or a difficulty, not both.")
    if difficulty is not None:
        number = d2.target_number(difficulty)
    if number is None:
        return None, None
    named = {d.value: d for d in d2.Difficulty}.get(number)
    return number, LABELS[named] if named else None


def decision_faces(t: Table, faces: Sequence[int] | None, level: d2.Advantage) -> tuple[list[int], bool]:
    """Entered faces, checked to be exactly the dice the roll needs; or roll them one by one."""
    if faces is not None:
        d2.split_chains(faces, level)  # refuses too few or too many faces (every 6 adds a die)
        return list(faces), True
    rolled: list[int] = []
    while d2.dice_still_needed(rolled, level):
        rolled += t.dice.roll(1, 6).faces
    return rolled, False


def counted(stated: Sequence[Stated]) -> list[dict[str, Any]]:
    return [{"kind": s.kind, "value": s.value, "counted": s.rule().counted} for s in stated]


def decision(t: Table, hero: Hero, stat: str, number: int | None, difficulty: str | None,
             stated: Sequence[Stated], base: str, grants: int, faces: Sequence[int] | None,
             purpose: str) -> dict[str, Any]:
    """One decision roll of a character: 2d6 + stat + modifiers vs the target number."""
    kind, stat_name, stat_value = hero.score(stat)
    if grants < 0:
        raise BadInput("Count the effects that grant advantage: 0 or more.")
    start = advantage(base)
    level = d2.grant_advantage(start, grants)
    goal, label = target(number, difficulty)
    mods = counted(stated)
    flat, entered = decision_faces(t, faces, level)
    roll = d2.decision_roll(flat, stat_value, [s.rule() for s in stated], level)
    success = None if goal is None else d2.succeeds(roll.total, goal)
    fact = dict(name=hero.name, stat=stat_name, stat_value=stat_value, modifiers=mods,
                advantage=start.name, grants=grants, rolled_with=level.name, faces=flat,
                chains=plain(roll.chains), entered=entered, total=roll.total, target=goal,
                difficulty=label, success=success, purpose=purpose)
    hero.decision_rolled(**fact)
    return {**fact, "dice_total": roll.dice_total, "modifier_total": roll.modifiers,
            "advantage_modifier": level.flat_modifier, "unit": f"{hero.name}'s {stat_name} roll (#{hero.rolls})"}


@dataclass(frozen=True)
class Side:
    """One side of a contest as typed: who, with which stat, and what it adds."""

    name: str
    stat: str
    stated: tuple[Stated, ...] = ()


@dataclass(frozen=True)
class Contenders:
    """Both sides of a contest before the dice: who, with which score, at which step of the scale."""

    heroes: list[Hero]
    stats: list[tuple[Any, str, int]]
    position: d2.Advantage
    levels: tuple[d2.Advantage, d2.Advantage]
    people: list[d2.Contestant]


def contenders(t: Table, sides: tuple[Side, Side], favoured: tuple[str, str] | None,
               grants: Sequence[str]) -> Contenders:
    """Every check of a contest and what each side adds (also what `campaign odds contest` asks about)."""
    heroes = [hero(t, s.name) for s in sides]
    if heroes[0].id == heroes[1].id:
        raise BadInput("A contested roll needs two different characters.")
    names = [h.name.casefold() for h in heroes]

    def toward(name: str) -> int:  # +1 toward the first side on the scale, -1 toward the second
        if name.strip().casefold() not in names:
            raise BadInput(f"{name} is not one of the two sides of this contest.")
        return 1 if name.strip().casefold() == names[0] else -1

    position = d2.Advantage.NEUTRAL
    if favoured is not None:
        level = advantage(favoured[1] + "_advantage" if favoured[1].strip().lower() in ("minor", "major")
                          else favoured[1])
        if level < d2.Advantage.NEUTRAL:
            raise BadInput("In a contest the GM gives advantage to a side, never disadvantage.")
        position = d2.Advantage(level * toward(favoured[0]))
    position = d2.shift_advantage(position, sum(toward(g) for g in grants))
    levels = d2.contested_advantage(position)
    stats = [h.score(s.stat) for h, s in zip(heroes, sides)]
    people = [d2.Contestant(st[2], tuple(m.rule() for m in s.stated), lv)
              for st, s, lv in zip(stats, sides, levels)]
    return Contenders(heroes, stats, position, levels, people)


def contested(t: Table, sides: tuple[Side, Side], favoured: tuple[str, str] | None,
              grants: Sequence[str], rounds: Sequence[tuple[Sequence[int], Sequence[int]]] | None,
              purpose: str) -> dict[str, Any]:
    """Both sides roll; the higher total wins; a tie rerolls the decision dice until one wins."""
    found = contenders(t, sides, favoured, grants)
    heroes, stats, position, levels = found.heroes, found.stats, found.position, found.levels
    result, faces, entered = _rounds(t, found.people, rounds)
    rows = [{"first": {"faces": plain(fa), "chains": plain(a.chains), "total": a.total},
             "second": {"faces": plain(fb), "chains": plain(b.chains), "total": b.total}}
            for (a, b), (fa, fb) in zip(result.rounds, faces)]
    winner = heroes[0 if result.winner is d2.Side.FIRST else 1].name
    facts = [{"name": h.name, "stat": st[1], "stat_value": st[2], "modifiers": counted(s.stated),
              "advantage": lv.name} for h, st, s, lv in zip(heroes, stats, sides, levels)]
    record = Contest(sides=facts, position=position.name, grants=[g.strip() for g in grants],
                     rounds=rows, winner=winner, entered=entered, purpose=purpose)
    t.add(record)
    return {"sides": facts, "position": position.name, "rounds": rows, "winner": winner,
            "entered": entered, "purpose": purpose}


def _rounds(t: Table, people: list[d2.Contestant], rounds: Sequence | None) -> tuple[d2.Contest, list, bool]:
    """Every roll of the contest and its faces: entered (all of them), or rolled until one wins."""
    if rounds is not None:
        result = d2.contest(people[0], people[1], rounds)
        if result.needs_reroll:
            raise BadInput(f"Roll {len(rounds)} is a tie, and a tie is rerolled until one side wins; "
                           "enter the reroll's faces too.")
        return result, list(rounds), True
    played: list[tuple[list[int], list[int]]] = []
    while True:
        played.append((decision_faces(t, None, people[0].advantage)[0],
                       decision_faces(t, None, people[1].advantage)[0]))
        result = d2.contest(people[0], people[1], played)
        if not result.needs_reroll:
            return result, played, False


def hero(t: Table, name: str) -> Hero:
    return t.load(hero_id(name), f"There is no character named '{name}' in this campaign.")
