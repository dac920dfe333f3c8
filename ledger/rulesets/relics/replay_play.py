"""Playing a Relics round again with given choices, on a scratch ledger or a Table: the recorded
faces first, the GM's for dice the record lacks, never a face replaced in a committed correction."""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.rulesets.relics.replay_choices import Choices, Side
from campaign_ledger.ledger.rulesets.relics.turns import Placing, Throw


def play(app: Any, choices: Choices) -> dict[str, Any]:
    """Play a whole round on `app` (a scratch ledger) with these choices."""
    outcome: dict[str, Any] = {}
    app.run(lambda t: play_on(t, choices, outcome), "replay")
    return outcome


def play_on(t: Any, choices: Choices, outcome: dict[str, Any], strict: bool = False) -> dict[str, Any]:
    """The round's steps on a Table; `outcome` gathers each side's successes and notes.

    Faces that do not fit a pool are refused (see `_fit_faces`); `strict` is for a
    correction to be committed, which may only add faces, never replace recorded ones.
    """
    from campaign_ledger.ledger.rulesets.relics import turns
    notes = outcome.setdefault("notes", [])
    ch = t.challenge(choices.challenge)
    key = f"{ch.name}:{ch.round}"
    turns.cohort_huddle(t, ch, choices.leader, list(choices.assists) if choices.assists is not None else None,
                        list(choices.cohort.uses), choices.destiny)
    _roll(t, ch, choices.cohort, None, notes, strict, "--faces")
    if ch.phase == "challenge" and choices.answer is None:
        notes.append(f"{ch.name} would take a turn here; its dice were never rolled (give them with --challenge-faces)")
    elif ch.phase == "challenge" and choices.answer is not None:
        turns.challenge_huddle(t, ch, list(choices.answer.uses))
        _roll(t, ch, choices.answer, choices.stress, notes, strict, "--challenge-faces")
        if ch.phase == "challenge-stress":
            notes.append(_undistributed(ch, choices.stress))
    elif choices.answer is not None and choices.answer.extra is not None:
        notes.append(f"{ch.name} takes no turn in this replay: --challenge-faces is not used")
    for e in ch._pending_events:  # this round's tallies, before they are saved
        if isinstance(e, Challenge.RoundTallied):
            outcome[f"{e.side.capitalize()} successes"] = e.successes
    return {"unit": key}


def _roll(t: Any, ch: Challenge, side: Side, stress: dict[str, int] | None, notes: list[str],
          strict: bool, option: str) -> None:
    from campaign_ledger.ledger.rulesets.relics import turns
    pending = ch.pending or {}
    need = pending["pool"]["size"] - len(pending["autos"])
    faces = _fit_faces(side, need, pending["side"].capitalize(), option, strict, notes)
    turns.advance(t, ch, Throw(faces), Placing(side.placement, True), None)
    fitted = _fit_stress(ch, stress)
    if ch.phase == "challenge-stress" and fitted is not None:
        turns.distribute(t, ch, fitted)


def _fit_faces(side: Side, need: int, name: str, option: str, strict: bool, notes: list[str]) -> tuple[int, ...]:
    """The faces a pool rolls in a replay: the recorded ones, then the GM's for the dice the record lacks.

    Dice are facts: given faces never silently replace recorded ones. A count that does not
    fit is refused with the number needed. Only a what-if of the Challenge turn may be given
    whole (other luck for the other side), and never in a committed correction.
    """
    recorded, given = tuple(side.faces or ()), side.extra
    lacking = need - len(recorded)
    pool = (f"In this replay the {name} pool rolls {_count(need, 'die', 'dice')} and the record has "
            f"{_count(len(recorded), 'face', 'faces')}")
    if given is None:
        if lacking > 0:
            raise BadInput(f"{pool}: give the {lacking} missing with {option}.")
        if lacking < 0:
            notes.append(f"{pool}: the first {need} are used ({_listed(recorded[:need])})")
        return recorded[:need]
    if lacking > 0 and len(given) == lacking:
        return recorded + given
    whole = option == "--challenge-faces" and not strict
    if whole and len(given) == need:
        notes.append(f"The {name}'s recorded faces ({_listed(recorded) or 'none'}) are replaced by "
                     f"{_listed(given)} in this what-if")
        return given
    if lacking <= 0:
        raise BadInput(f"{pool}: it lacks none, so {option} has no dice to fill; leave it out"
                       + (f" or give all {need} to try other luck." if whole else "."))
    raise BadInput(f"{pool}: {option} needs {_count(lacking, 'face', 'faces')}, not {len(given)}"
                   + (f" (or all {need} to try other luck)." if whole else "."))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _listed(faces: tuple[int, ...]) -> str:
    return ", ".join(str(f) for f in faces)


def _undistributed(ch: Challenge, recorded: dict[str, int] | None) -> str:
    """Why the replayed round stops before its Stress is distributed: the record's split no
    longer adds up, or the record has none (a round still waiting for it, as the replay then does)."""
    scored = (ch.pending or {}).get("stress")
    if recorded is None:
        return (f"{ch.name} scores {scored} Stress here; the record has not distributed this round's Stress "
                "yet, so neither does the replay")
    return f"{ch.name} would score {scored} Stress; the recorded distribution no longer adds up"


def _fit_stress(ch: Challenge, stress: dict[str, int] | None) -> dict[str, int] | None:
    """A changed round may score other Stress: the recorded split is kept only if it still adds up."""
    if ch.phase != "challenge-stress" or stress is None:
        return stress
    return stress if sum(stress.values()) == (ch.pending or {}).get("stress") else None


