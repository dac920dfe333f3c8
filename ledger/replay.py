"""Replay, the part every ruleset shares: find a round or roll by name (undone ones too: a what-if,
or played again) and a scratch copy of the ledger as it stood before it. What a round or roll is
and how it plays again is its ruleset's (`replay_round` / `replay_roll` in its declaration).
"""
from __future__ import annotations

import dataclasses
import importlib
import json
import weakref
from dataclasses import dataclass
from typing import Any

from campaign_ledger.ledger import rulesets, units
from campaign_ledger.ledger import undo as undoing
from campaign_ledger.ledger.chain import chained
from campaign_ledger.ledger.errors import BadInput, NotFound, RuleViolation
from campaign_ledger.ledger.table import Table
from campaign_ledger.ledger.units import Unit, every_unit
from campaign_ledger.ledger.unit_log import WithoutTouches, round_incarnations
from campaign_ledger.ledger.replay_rolls import side_by_side  # noqa: F401  (the rulesets' replays take it from here)
from campaign_ledger.ledger.what_if import scratch  # noqa: F401  (the rulesets' replays take their scratch ledger from here)


@dataclass(frozen=True)
class Found:
    """A round or roll named for replay: live, or reversed (`reversal`: the entries of that command)."""

    unit: Unit
    reversal: tuple[int, int] | None = None
    undone_at: int | None = None  # the entry that reversed it, when it was


def replay(app: Any, key: str | None, changes: Any, commit: bool = False, cascade: bool = False) -> dict[str, Any]:
    """Compare a recorded round (or roll) with the same faces and other choices; --commit corrects a round.

    `changes` is the ruleset's own (a Relics round's Changes; `changes.sets` for a single roll)."""
    try:
        return _replay(app, key, changes, commit, cascade)
    finally:
        _READ[:] = [None, 0, []]  # a long-lived process (the shell) does not keep a campaign's units


def _replay(app: Any, key: str | None, changes: Any, commit: bool, cascade: bool) -> dict[str, Any]:
    from campaign_ledger.ledger import replay_rolls

    if commit and app.command_key and (done := app.already_recorded(app.command_key, "replay")):
        return done  # a retried correction: the round it corrected has changed since, compare nothing
    found = find_unit(app, key)  # undone rounds too: a what-if, or played again
    unit = found.unit
    roll = replay_rolls.roll_event(app, unit)
    if roll is not None:
        if commit:
            raise BadInput("A replayed roll is shown, not committed: undo the roll and roll it again.")
        return replay_rolls.compare_roll(app, found, roll, changes.sets)
    ruleset = rulesets.find(app.ruleset_id())
    if not ruleset.replay_round:
        raise BadInput(f"{unit.key} cannot be replayed: {ruleset.id} rounds cannot be replayed yet.")
    rounds = importlib.import_module(f"{ruleset.package}.{ruleset.replay_round}")
    if changes.sets:
        raise BadInput("--set changes a single roll's choices; a round takes --leader, --add-trait, "
                       "--place and the like.")
    comparison = rounds.compare(app, found, changes)
    if not commit:
        return comparison

    def command(t: Table) -> dict[str, Any]:
        live = units.live_units(app.recorder)
        # An undone round played again has nothing of itself left to reverse; a correction corrected
        # again has its play reversed, not the reversal it began with (see ledger/units.py).
        reversed_keys = [r.unit.key for r in undoing.reversals(t, live, unit, cascade, play_only=True)] \
            if found.reversal is None else []
        choices = rounds.changed(rounds.recorded_choices(app, unit), changes)
        played = rounds.play_on(t, choices, {}, strict=True)
        # a correction keeps the name of the round it corrects; a round played again after its undo
        # is a new round (ledger/units.py `fresh`); either way the detail says which round it plays
        return {**comparison, "unit": unit.key if reversed_keys else played["unit"],
                "detail": {"reverses": reversed_keys, "corrects": [unit.first, unit.entries[-1]],
                           "round": played["unit"]}}
    return app.run(command, "replay")


def find_unit(app: Any, key: str | None) -> Found:
    """The unit `key` names (default: the latest live round or roll); a live one wins over an undone namesake."""
    if key is None and (latest := _latest_from_the_end(app)) is not None:
        return latest  # the newest live round, found from the log's end (not the whole log)
    if key is not None and (quick := named_incarnations(app.recorder, key.strip())):
        every = quick  # a round named: its own rows of the log, not the whole log (see unit_log.py)
    else:
        every = incarnations(app.recorder)
    live = [f for f in every if f.reversal is None]
    if key is None or not every:
        if not live:
            raise RuleViolation("There is nothing to replay yet.")
        return _latest_round_or_roll(app, live)
    named = [f for f in every if f.unit.key.casefold() == key.strip().casefold()]
    if not named:
        known = ", ".join(_replayable(app, every)) or "none yet"
        raise NotFound(f"There is no round or roll '{key.strip()}' to replay; the latest are: {known}.")
    chosen = ([f for f in named if f.reversal is None] or named)[-1]
    if chosen.reversal is None:
        return chosen
    return dataclasses.replace(chosen, undone_at=_reversed_at(app, chosen))


LOOK_BACK = 500  # live units looked through for the latest round or roll


def _latest_from_the_end(app: Any) -> Found | None:
    """`_latest_round_or_roll` read from the end of the command log: each round met (newest row
    first) is looked up by its own rows (`named_incarnations`), and the newest live one wins once
    the rows start before it. None (read the whole log) when a roll comes first, whose name counts
    from the campaign's start, when a name is no indexed round, or when nothing is found soon."""
    from campaign_ledger.ledger import replay_rolls

    best: Found | None = None
    for looked, (first, last, command, stored, detail) in enumerate(chained(app.recorder).command_rows_newest_first()):
        if best is not None and first < best.unit.first:
            return best
        if looked >= LOOK_BACK:
            return None
        if not stored or command in units.NOT_UNITS:
            continue
        if units.ROUND.match(stored) and not json.loads(detail or "{}").get("single"):
            named = named_incarnations(app.recorder, stored)
            if named is None:
                return None
            live = [f for f in named if f.reversal is None]
            if live and (best is None or live[-1].unit.first > best.unit.first):
                best = live[-1]
        elif replay_rolls.roll_event(app, Unit(stored, ((first, last),), stored)) is not None:
            return None
    return best


def _replayable(app: Any, every: list[Found], most: int = 8) -> list[str]:
    """The newest rounds and rolls, newest first (not the notes and PCs added since: those cannot be
    replayed), for a refusal to offer; looked for among the last LOOK_BACK units."""
    from campaign_ledger.ledger import replay_rolls

    found: list[str] = []
    for f in every[:-LOOK_BACK - 1:-1]:
        if f.unit.key not in found and (units.ROUND.match(f.unit.key) or replay_rolls.roll_event(app, f.unit)):
            found.append(f.unit.key)
            if len(found) == most:
                break
    return found


def _latest_round_or_roll(app: Any, live: list[Found]) -> Found:
    """What `replay` alone means: the newest live round or roll, past the notes, Challenges opened and
    other commands since (none among the latest: the latest unit, which its ruleset then refuses by name)."""
    from campaign_ledger.ledger import replay_rolls

    for found in live[:-LOOK_BACK - 1:-1]:
        if units.ROUND.match(found.unit.key) or replay_rolls.roll_event(app, found.unit) is not None:
            return found
    return live[-1]


def incarnations(recorder: Any) -> list[Found]:
    """Every unit the ledger ever played, in the order they began, with the command that reversed it.

    A key can come back (a round undone and played again): each coming is its own unit. What each
    unit touched is not read (see ledger/unit_log.py): replay plays and compares, it never asks.
    """
    newest = recorder.max_notification_id() or 0
    kept, at, every = _READ
    if kept is None or kept() is not recorder or at != newest:  # read once a replay (the round, then what follows)
        every = [Found(unit, reversal) for unit, reversal in every_unit(WithoutTouches(recorder))]
        _READ[:] = [weakref.ref(recorder), newest, every]
    return every


_READ: list[Any] = [None, 0, []]  # the recorder (weakly), its newest entry, and the incarnations read then


def named_incarnations(recorder: Any, key: str) -> list[Found] | None:
    """`incarnations` of the round `key` names alone (None or empty: not a round, or none of that
    name: the whole log is read then, for the refusal's list of the latest)."""
    units = round_incarnations(recorder, key)
    if not units:
        return None
    return [Found(unit, reversal) for unit, reversal in units if unit.key.casefold() == key.casefold()] or None


def incarnations_after(recorder: Any, entry: int, passing: tuple[str, ...] = ()) -> list[Found] | None:
    """`incarnations` of the units that own a command after `entry` and of those a command after it
    reversed (what playing the later entries again asks), read by their round names
    (`named_incarnations`: the rows filed under each and the reversals after), not the whole log.
    Commands in `passing` (notes: never played) are not asked about. None when one of them is no
    round (its name counts from the campaign's start) or more than LOOK_BACK commands follow:
    the caller reads the whole log then."""
    from campaign_ledger.ledger.unit_log import light

    names: dict[str, None] = {}
    for looked, (_, _, command, stored, detail) in enumerate(chained(recorder).command_rows_from(entry + 1)):
        if looked >= LOOK_BACK:
            return None
        given = light(detail)
        for key in given.get("reverses", []):
            if not isinstance(key, str) or not units.ROUND.match(key):
                return None
            names[key] = None
        if not stored or command in units.NOT_UNITS or command in passing:
            continue
        if not units.ROUND.match(stored) or given.get("single"):
            return None
        names[stored] = None
    every: dict[tuple[str, int], Found] = {}
    for name in names:
        named = named_incarnations(recorder, name)
        if named is None:  # a name the index cannot fold (not ASCII): the whole log
            return None
        for found in named:
            every[found.unit.key, found.unit.first] = found
    return list(every.values())


def _reversed_at(app: Any, found: Found) -> int:
    """The entry of the reversing command that restores this unit (its first, if none names it)."""
    from campaign_ledger.ledger.reversible import Reversible
    first, last = found.reversal or (0, 0)
    for n in app.recorder.select_notifications(first, last - first + 1, stop=last):
        e = app.mapper.to_domain_event(n)
        if isinstance(e, Reversible.Reversed) and e.unit == found.unit.key:
            return n.id
    return first
