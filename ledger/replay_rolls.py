"""Replay a contested roll of the action-dice or decision-2d6 rulesets on its own faces.

A roll's choices are read back from its event; `--set KEY=VALUE` changes any of them; the
roll is played twice on scratch copies of the ledger as it stood before it (as recorded,
and as changed) through the ruleset's own command, so every rule applies exactly once.
"""
from __future__ import annotations

import tempfile
from typing import Any, Callable

from ledger.errors import BadInput, LedgerError
from ledger.undo import Unit

Choices = dict[str, Any]
INTS = {"advantages", "disadvantages", "difficulty", "grants", "target"}
LISTS = {"assets", "features"}


def roll_event(app: Any, unit: Unit) -> Any | None:
    from ledger.systems.action_dice_character import ActionCharacter
    from ledger.systems.decision_2d6_model import Hero
    for first, last in unit.ranges:
        for n in app.recorder.select_notifications(first, last - first + 1, stop=last):
            e = app.mapper.to_domain_event(n)
            if isinstance(e, (ActionCharacter.ActionRolled, Hero.DecisionRolled)):
                return e
    return None


def compare_roll(app: Any, unit: Unit, event: Any, sets: dict[str, str]) -> dict[str, Any]:
    from ledger.replay import scratch, _side_by_side
    play, choices, figures = _action(event) if hasattr(event, "outcome") else _decision(event)
    changed = {**choices, **{k: _value(k, v, choices) for k, v in sets.items()}}
    results = {}
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        for label, chosen, tmp in (("recorded", choices, a), ("replayed", changed, b)):
            try:
                results[label] = figures(play(scratch(app, unit.first - 1, tmp), chosen))
            except LedgerError as e:
                results[label] = {"refused": str(e)}
    return {"round": unit.key, "after_round": _side_by_side(results["recorded"], results["replayed"]),
            "notes": [f"The changed roll is refused: {results['replayed']['refused']}"]
            if "refused" in results["replayed"] else [],
            "choices": {"recorded": choices, "replayed": changed}}


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


def _action(e: Any) -> tuple[Callable, Choices, Callable]:
    fixed = e.rating in (None, "++")
    choices = {"character": e.character, "action": e.action, "rating": e.rating,
               "difficulty": e.base if fixed else None, "advantages": e.advantages,
               "disadvantages": e.disadvantages, "assets": list(e.assets), "features": list(e.features),
               "faces": list(e.faces), "test": e.test, "gm_override": e.gm_override}

    def play(app: Any, c: Choices) -> dict:
        return app.roll_action(c["character"], c["action"], rating=c["rating"], difficulty=c["difficulty"],
                               advantages=c["advantages"], disadvantages=c["disadvantages"], assets=c["assets"],
                               features=c["features"], faces=c["faces"], test=c["test"],
                               gm_override=c["gm_override"])
    return play, choices, lambda r: {k: r[k] for k in ("difficulty", "dice", "faces", "successes", "outcome",
                                                        "succeeded")}


def _decision(e: Any) -> tuple[Callable, Choices, Callable]:
    from ledger.systems.decision_2d6 import Stated
    choices = {"character": e.name, "stat": e.stat, "target": e.target, "advantage": e.advantage,
               "grants": e.grants, "faces": list(e.faces), "purpose": e.purpose,
               "modifiers": [(m["kind"], m["value"]) for m in e.modifiers]}

    def play(app: Any, c: Choices) -> dict:
        return app.d2d6_roll(c["character"], c["stat"], target=c["target"], advantage=c["advantage"],
                             grants=c["grants"], faces=c["faces"], purpose=c["purpose"],
                             modifiers=[Stated(kind, value) for kind, value in c["modifiers"]])
    return play, choices, lambda r: {k: r[k] for k in ("stat", "chains", "total", "target", "success")}
