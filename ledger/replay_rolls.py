"""Replay a contested roll on its own faces (a ruleset whose units are single rolls declares `replay_roll`).

A roll's choices are read back from its event; `--set KEY=VALUE` changes any of them; the
changed roll is played on a scratch copy of the ledger as it stood before it through the
ruleset's own command, so every rule applies exactly once. The recorded column is the
event's own figures, never a re-computation; an undone roll replays as a what-if.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from campaign_ledger.ledger import rulesets, scratch_folders
from campaign_ledger.ledger.errors import BadInput, LedgerError
from campaign_ledger.ledger.units import Unit

Choices = dict[str, Any]
INTS = {"advantages", "disadvantages", "difficulty", "grants", "target"}
LISTS = {"assets", "features"}


def roll_event(app: Any, unit: Unit) -> tuple[Any, Any] | None:
    """The unit's roll and how its ruleset replays it (`replay_roll`), or None for a round."""
    hooks = rulesets.roll_replays()
    for first, last in unit.ranges:
        for n in app.recorder.select_notifications(first, last - first + 1, stop=last):
            e = app.mapper.to_domain_event(n)
            for replay in hooks:
                if (parts := replay(e)) is not None:
                    return e, parts
    return None


def compare_roll(app: Any, found: Any, roll: tuple[Any, Any], sets: dict[str, str]) -> dict[str, Any]:
    """The roll's recorded figures beside the changed roll's (`found`: ledger/replay.py's Found); a
    changed roll the rules refuse is refused."""
    from campaign_ledger.ledger.what_if import scratch
    unit = found.unit
    event, (play, choices, figures) = roll
    changed = {**choices, **{k: _value(k, v, choices) for k, v in sets.items() if k != "faces"}}

    def attempt(c: Choices) -> dict[str, Any]:
        with scratch_folders.folder("replay") as tmp:
            return figures(play(scratch(app, unit.first - 1, tmp, lazily=True), c))  # plays the roll alone
    given = _value("faces", sets["faces"], choices) if "faces" in sets else None
    changed["faces"], notes = _faces(attempt, changed, given)
    try:
        replayed = attempt(changed)
    except LedgerError as e:
        hint = " (--set faces=... gives the faces of the dice the record lacks)" if given is None else ""
        raise type(e)(f"The changed roll is refused: {str(e).rstrip('.')}{hint}.") from None
    if found.undone_at is not None:
        notes.insert(0, f"{unit.key} was undone at entry #{found.undone_at}; the replayed roll is a what-if")
    return {"round": unit.key, "undone_at": found.undone_at,
            "after_round": side_by_side(_plain(figures(vars(event))), _plain(replayed)),
            "notes": notes, "choices": {"recorded": choices, "replayed": changed}}


def _faces(fits: Callable[[Choices], Any], changed: Choices, given: list[int] | None) -> tuple[list[int], list[str]]:
    """The faces of the changed roll: the recorded ones, then those given for the dice the record lacks.

    A roll's dice count is only known by the rules (a 6 explodes), so the given faces are
    tried after the recorded ones, then, as a what-if of other luck, alone (with a note).
    """
    recorded = list(changed["faces"])
    if given is None:
        return recorded, []
    refusals: list[str] = []
    for faces, note in ((recorded + given, []),
                        (given, [f"The recorded faces ({_listed(recorded)}) are replaced by {_listed(given)}"])):
        try:
            fits({**changed, "faces": faces})
            return faces, note
        except BadInput as e:
            refusals.append(str(e).rstrip("."))
        except LedgerError:
            return faces, note  # the faces fit; the rules refuse something else (reported by the caller)
    raise BadInput(f"The faces {_listed(given)} do not fit after the recorded {_listed(recorded)}: "
                   f"{refusals[0]}; nor alone as a whole roll: {refusals[1]}.")


def _listed(faces: list[int]) -> str:
    return ", ".join(str(f) for f in faces)


def _plain(figures: dict[str, Any]) -> dict[str, Any]:
    """Figures as JSON gives them back (tuples as lists), so equal values compare equal."""
    return json.loads(json.dumps(figures))


def _value(key: str, text: str, choices: Choices) -> Any:
    if key not in choices:
        raise BadInput(f"A roll's choices are {', '.join(sorted(choices))}; not '{key}'.")
    if key == "faces":
        return [int(f) for f in text.replace(",", " ").split()]
    if key in LISTS:
        return [p.strip() for p in text.split(",") if p.strip()]
    if key in INTS:
        try:
            return int(text)
        except ValueError:
            raise BadInput(f"{key} is a number, not '{text}'.") from None
    return text


def side_by_side(recorded: dict[str, Any], replayed: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per figure; a figure only one side has (a PC not yet in play, a turn not taken) is None there."""
    return [{"figure": k, "recorded": recorded.get(k), "replayed": replayed.get(k),
             "changed": recorded.get(k) != replayed.get(k)} for k in dict.fromkeys([*recorded, *replayed])]
