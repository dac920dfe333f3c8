"""History lines of Beer Run events (the core history, projections/history.py, asks every ruleset
for these); the tables they name characters and conflicts from are in tables.py."""
from __future__ import annotations

from typing import Any, Callable

from sqlite_utils import Database
from sqlite_utils.db import NotFoundError

from campaign_ledger.ledger.rulesets.beer_run.character import CHARACTER, BeerRunCharacter as Ch
from campaign_ledger.ledger.rulesets.beer_run.conflict import SITUATION, BeerRunConflict as Co
from campaign_ledger.ledger.words import faces

TABLES: tuple[str, ...] = ()  # lines only: the history table is the core's
WORDS = {**Ch.WORDS, **Co.WORDS}  # an undo's line restores `abilities -> (Muscle d10, Attention d4)`, not the names alone


def apply(db: Database, entry: int, e: Any) -> None:
    """Nothing of its own to keep: the history applies these lines."""


def _d(size: int) -> str:
    return f"d{size}" if size > 0 else "gone"


def _dice(sizes: list[int]) -> str:
    return ", ".join(_d(s) for s in sizes) or "none"



def _n(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


def _created_line(_: Any, e: Ch.Created) -> str:
    if e.kind != CHARACTER:
        return f"Difficulty pool {e.name}: " + ", ".join(f"{a['name']} {_d(a['size'])}" for a in e.abilities)
    cats: dict[str, list[str]] = {}
    for a in e.abilities:
        cats.setdefault(a["category"], []).append(f"{a['name']} {_d(a['size'])}")
    return f"{e.name} joins: " + "; ".join(f"{c} {', '.join(v)}" for c, v in cats.items()) \
        + f"; Intensity {e.intensity}"


def _spent(_: Any, e: Ch.IntensitySpent) -> str:
    short = f" of the {e.cost} it costs" if e.paid != e.cost else ""
    why = f" (GM override: {e.override})" if e.override else ""
    return f"pays {e.paid} Intensity{short} for a pool in {e.conflict} round {e.round}, {e.balance} left{why}"


def _pips_taken(_: Any, e: Ch.PipsTaken) -> str:
    how = f"cedes {e.conflict} before round" if e.ceded else \
        f"takes {_n(sum(e.pips.values()), 'pip')} from {e.by} in {e.conflict} round"
    changes = ", ".join(f"{k} {_d(e.sizes[k] + p)} -> {_d(e.sizes[k])}" for k, p in e.pips.items())
    return f"{how} {e.round}: {changes or 'nothing changes'}"


def _paired(e: Any, mine: list[int], theirs: list[int], a: str, b: str) -> str:
    """Faces high to low, each pair with its winner; a padded d1 is marked (seed "Compare Rolls")."""
    marks = []
    for i, (x, y) in enumerate(e.pairs):
        sx = f"{x}{' (d1)' if i >= len(mine) else ''}"
        sy = f"{y}{' (d1)' if i >= len(theirs) else ''}"
        marks.append(f"{sx}{'>' if x > y else '<' if x < y else '='}{sy}")
    upper = f"{e.upper_hand} has the upper hand" if e.upper_hand else "every pair ties"
    return (f"{a} ({faces(sorted(mine, reverse=True))}) vs {b} ({faces(sorted(theirs, reverse=True))}): "
            f"{', '.join(marks)}; {upper}; {a} keeps {e.kept[0]} of {_n(e.scored[0], 'success')}, "
            f"{b} {e.kept[1]} of {e.scored[1]}")


def _penalties(n: int) -> str:
    return f"{n} penalty {'die' if n == 1 else 'dice'}"


def _help_line(_: Any, e: Co.HelpRolled) -> str:
    got = f"{e.ally} gets a d{e.die} for {_n(e.uses, 'roll')}" if e.uses else f"{e.ally} gets nothing"
    pen = f", {e.helper} {_penalties(e.penalties)}" if e.penalties else ""
    return (f"round {e.round}: {e.helper} helps {e.ally} ({e.text}), a d{e.die} against {_dice(e.difficulty)}: "
            + _paired(e, e.faces, e.difficulty_faces, e.helper, "the difficulty") + f": {got}{pen}")


def _rolled(_: Any, e: Co.PoolRolled) -> str:
    dice = ", ".join(f"{n} {_d(s)}" for n, s in zip(e.abilities, e.dice))
    extra = f" + situation {_dice(e.situation)}" if e.situation else ""
    shows = "shows" if len(e.penalty) == 1 else "show"
    penalty = f"; penalty {_dice(e.penalty)} against it {shows} {faces(e.penalty_faces)}" if e.penalty else ""
    diff = f"; its difficulty shows {faces(e.difficulty_faces)}" if e.difficulty_faces else ""
    how = "entered from the table" if e.entered else "rolled by the program"
    why = f" (GM override: {e.override})" if e.override else ""
    return f"round {e.round}: {e.side} rolls {dice}{extra}: {faces(e.faces)} ({how}){penalty}{diff}{why}"


def _goal(_: Any, e: Co.GoalDeclared) -> str:
    if e.kind == SITUATION:
        return f"round {e.round}: {e.side}'s situational goal: {e.text} (a d{e.die} against {_dice(e.difficulty)})"
    aim = f" ({e.ability} to zero)" if e.ability else ""
    return f"round {e.round}: {e.side}'s goal: {e.text}{aim}"


def _situation(_: Any, e: Co.SituationRolled) -> str:
    return (f"round {e.round}: {e.side}'s situational goal, a d{e.die} against {_dice(e.difficulty)}: "
            + _paired(e, e.faces, e.difficulty_faces, e.side, "the difficulty")
            + f": {e.side} gets a d{e.die} for {_n(e.uses, 'roll')}, {_penalties(e.penalties)}")


def _sides(e: Co.Opened) -> str:
    others = [s for s in e.sides if s != e.target]
    return f"{others[0]} against {e.target}" if len(others) == 1 else f"{', '.join(others)} each against {e.target}"


def _owner(names: Any, table: str, e: Any) -> str:
    """The character's or conflict's name, from this ruleset's tables (history passes its db)."""
    try:
        return names.db.table(table).get(e.originator_id.hex)["name"]
    except (AttributeError, TypeError, NotFoundError):
        return "?"


def _of_character(line: Callable[[Any, Any], str]) -> Callable[[Any, Any], str]:
    return lambda names, e: f"{_owner(names, 'beer_run_sheets', e)} {line(names, e)}"


def _of_conflict(line: Callable[[Any, Any], str]) -> Callable[[Any, Any], str]:
    return lambda names, e: f"{_owner(names, 'beer_run_conflicts', e)} {line(names, e)}"


def _held_dice(dice: list[dict]) -> str:
    return ", ".join(f"d{d['size']} x{d['uses']}" for d in dice) or "none"


LINES: dict[type, Callable[[Any, Any], str]] = {
    Ch.Created: _created_line,
    Ch.IntensityAdjusted: _of_character(lambda n, e: f"{'gains' if e.change > 0 else 'loses'} {abs(e.change)} "
                                        f"Intensity, {e.balance} now" + (f": {e.reason}" if e.reason else "")),
    Ch.IntensitySpent: _of_character(_spent),
    Ch.SituationDiceUsed: _of_character(lambda n, e: f"rolls situation {_dice(e.used)} in {e.conflict} round "
                                        f"{e.round} (left: {_held_dice(e.left)})"),
    Ch.PenaltyDiceUsed: _of_character(lambda n, e: f"has penalty {_dice(e.used)} join the pool against it in "
                                      f"{e.conflict} round {e.round}"),
    Ch.SituationDieGained: _of_character(lambda n, e: f"gains a situation d{e.size} for {_n(e.uses, 'roll')} "
                                         f"({e.source})"),
    Ch.PenaltyDiceGained: _of_character(lambda n, e: f"suffers a lasting penalty {_dice(e.sizes)}"
                                        + (f": {e.source}" if e.source else "") if e.lasting else
                                        f"takes penalty {_dice(e.sizes)} against the next roll ({e.source})"),
    Ch.PenaltyLifted: _of_character(lambda n, e: f"is freed of the lasting penalty d{e.size}"
                                    + (f": {e.reason}" if e.reason else "")),
    Ch.PipsTaken: _of_character(_pips_taken),
    Ch.Died: _of_character(lambda n, e: f"dies in {e.conflict} round {e.round}"),
    Ch.OutcomeDieGained: _of_character(lambda n, e: f"gains the outcome die {e.ability} d{e.size} ({e.category})"
                                       + (f": {e.reason}" if e.reason else "")),
    Co.Opened: lambda n, e: f"Conflict {e.name} opened: {_sides(e)}",
    Co.GoalDeclared: _of_conflict(_goal),
    Co.HelpRolled: _of_conflict(_help_line),
    Co.PoolRolled: _of_conflict(_rolled),
    Co.Compared: _of_conflict(lambda n, e: f"round {e.round}: "
                              + _paired(e, e.faces, e.opponent_faces, e.side, e.opponent)),
    Co.SituationRolled: _of_conflict(_situation),
    Co.PipsLanded: _of_conflict(lambda n, e: f"round {e.round}: {e.by} lands {_n(e.kept, 'pip')} on {e.on}: "
                                + (", ".join(f"{k} {v}" for k, v in e.pips.items()) or "none")
                                + (f" ({e.lost} lost)" if e.lost else "")),
    Co.PipsLost: _of_conflict(lambda n, e: f"round {e.round}: {e.by}'s {_n(e.kept, 'pip')} on {e.on} are lost: "
                              f"{e.why}"),
    Co.GoalGained: _of_conflict(lambda n, e: f"round {e.round}: {e.side} gains "
                                + (f"the goal '{e.goal}'" if e.goal else "its goal") + f" ({e.how})"),
    Co.SideLeft: _of_conflict(lambda n, e: f"round {e.round}: {e.side} leaves the conflict ({e.why})"),
    Co.Ceded: _of_conflict(lambda n, e: f"before round {e.round}: {e.side} cedes to {', '.join(e.to) or 'no one'}"),
    Co.RoundEnded: _of_conflict(lambda n, e: f"round {e.round} ends"),
    Co.Ended: _of_conflict(lambda n, e: (f"ends after round {e.round}" if e.round else "ends before any roll")
                           + f": {e.reason}"),
}
