"""Units of play: what `undo`, `replay` and the history name, read from the command log.

Every accepted command after `new` is a unit of play, filed under a name in the command
log: a round groups the commands of one turn (`Guards:2`), any other command is its own
unit, named from what the GM did plus a per-campaign sequence (`push Kira #2`). The
sequence is counted when the log is read (the log is append-only, so a name never
changes and no two units share one), never an internal version number. What a unit
depends on, and how it is reversed, is ledger/undo.py's.
"""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger import rulesets
from campaign_ledger.ledger.values import is_number
from campaign_ledger.ledger.errors import NotFound, RuleViolation
from campaign_ledger.ledger.unit_walk import NONE, NOT_UNITS, OWN_COUNT, REOPENS, ROUND, Touches, Unit, every_unit  # noqa: F401  (named here too)

CORE_ROUND_COMMANDS = frozenset({"replay"})  # a committed replay plays its round again
SUBJECTS = ("pc", "hero", "character", "difficulty", "challenge", "item", "tracker", "contest", "conflict",
            "owner", "rule", "scenario", "title", "name")


def filed(command: str, report: dict[str, Any], touched: set[tuple[str, str]],
          recorder: Any = None) -> tuple[str | None, dict]:
    """The unit name and detail the command log keeps for one command (see the docstring).

    With the `recorder`, a name is never given twice (issue 35): a round played again after an
    undo, or a roll whose own count an undo took back, takes the next name no unit was filed
    under (`fresh`)."""
    detail = dict(report.get("detail") or {})
    if command in NOT_UNITS:
        return report.get("unit"), detail
    by_aggregate: dict[str, list[str]] = {}
    for aggregate_id, name in sorted(touched):
        by_aggregate.setdefault(aggregate_id, []).append(name)
    detail["touches"] = by_aggregate
    unit = report.get("unit") or label(command, report)
    if command not in round_commands() or not ROUND.match(unit):
        detail["single"] = True  # a name like `push Bo:1` is no round
    return (unit if recorder is None else fresh(recorder, unit, detail)), detail


def fresh(recorder: Any, unit: str, detail: dict) -> str:
    """The name to file a new command under: a round's name as ledger/unit_log.py `round_name`
    gives it (the round it continues, or the next name never given; a correction keeps the name
    of the round it corrects), noting the round it plays when the two differ; a roll's own count
    (`(#3)`) moved past every count already filed (an undone roll's count comes back with the
    character's state, its name does not)."""
    from campaign_ledger.ledger.unit_log import filed_under, round_name

    if not detail.get("single"):
        played = detail.get("round", unit)
        name = unit if detail.get("reverses") else round_name(recorder, played)
        if name != played:
            detail["round"] = played
        return name
    while OWN_COUNT.search(unit) and filed_under(recorder, unit):
        count = OWN_COUNT.search(unit)
        unit = f"{unit[:count.start()]}(#{int(count.group()[2:-1]) + 1})"
    return unit


def given(recorder: Any, stored: str, detail: dict, first: int) -> str:
    """The name `undo` takes for the command just filed under `stored` from entry `first` (issue
    35: its report says this name): `_name`'s rules, asked of the few log rows filed under that
    name and the name it would take (the log's index), not of the whole log."""
    from campaign_ledger.ledger.unit_log import filed_under, light

    if ROUND.match(stored) and not detail.get("single"):
        return stored

    def before(name: str) -> list[tuple]:
        return [r for r in filed_under(recorder, name) if r[3] == name and r[0] <= first and r[2] not in NOT_UNITS]

    seen = len([r for r in before(stored) if not ROUND.match(stored) or light(r[4]).get("single")])
    own = OWN_COUNT.search(stored) or ("#" in stored and "touches" not in detail)
    name = stored if own and seen == 1 else f"{stored} #{seen}"
    if name != stored and any("touches" not in light(r[4]) for r in before(name) if r[0] < first):
        name = f"{name} (entry {first})"  # an older unit filed under this very name, with its own number
    return name


def round_commands() -> frozenset[str]:
    """The commands that play a round: their unit is `Name:round`, shared by the round's commands."""
    return CORE_ROUND_COMMANDS.union(*(r.round_commands for r in rulesets.declared()))  # the command's own is


def label(command: str, report: dict[str, Any]) -> str:
    """What the GM did, in a few words: the command and what it was about (`add pc Kira`)."""
    subject = next((report[k] for k in SUBJECTS if isinstance(report.get(k), str) and report[k]), "")
    for ruleset in rulesets.declared():  # `supply roll Rope`, whichever way it was played
        command = command.removeprefix(ruleset.command_prefix) if ruleset.command_prefix else command
    return f"{command.replace('_', ' ')} {subject}".strip()


def live_units(recorder: Any) -> list[Unit]:
    """Units not yet reversed, in the order they began, read without what each touched (an empty
    set where the log kept it, None where it did not: ledger/unit_log.py; undo reads the touches of
    the units it weighs, ledger/undo.py `touches`), so a long campaign's units are not all held whole."""
    from campaign_ledger.ledger.unit_log import WithoutTouches

    return [unit for unit, reversal in every_unit(WithoutTouches(recorder)) if reversal is None]


def find(units: list[Unit], key: str | None) -> Unit:
    """A unit by its name, its first entry number (`23` or `#23`), or a name it was filed under."""
    if not units:
        raise RuleViolation("There is nothing to undo.")
    if key is None:
        return max(units, key=lambda u: u.last)
    wanted = key.strip().casefold()
    for unit in units:
        if unit.key.casefold() == wanted:
            return unit
    if is_number(wanted.lstrip("#")):
        for unit in units:
            if unit.first == int(wanted.lstrip("#")):
                return unit
    filed_as = [u for u in units if u.stored.casefold() == wanted]
    if len(filed_as) == 1:
        return filed_as[0]
    if filed_as:
        raise RuleViolation(f"Several units are named '{key}': {', '.join(u.key for u in filed_as)}; "
                            "give one of these names.")
    latest = sorted(units, key=lambda u: u.last, reverse=True)[:8]  # newest first, as `undo --list` lists them
    raise NotFound(f"No unit '{key}' can be undone; the latest: {', '.join(u.key for u in latest)} "
                   "(see `campaign undo --list`).")
