"""Replaying a decision roll with other choices on its own faces."""
from __future__ import annotations

from typing import Any, Callable

from campaign_ledger.ledger.rulesets.decision_2d6.model import Hero

Choices = dict[str, Any]


def roll(e: Any) -> tuple[Callable, Choices, Callable] | None:
    """How a recorded roll replays (see ledger/replay_rolls.py): the command that plays it again,
    its recorded choices, and the figures compared; None for any other entry."""
    return _decision(e) if isinstance(e, Hero.DecisionRolled) else None


def _decision(e: Any) -> tuple[Callable, Choices, Callable]:
    from campaign_ledger.ledger.rulesets.decision_2d6.commands import Stated
    choices = {"character": e.name, "stat": e.stat, "target": e.target, "advantage": e.advantage,
               "grants": e.grants, "faces": list(e.faces), "purpose": e.purpose,
               "modifiers": [(m["kind"], m["value"]) for m in e.modifiers]}

    def play(app: Any, c: Choices) -> dict:
        return app.d2d6_roll(c["character"], c["stat"], target=c["target"], advantage=c["advantage"],
                             grants=c["grants"], faces=c["faces"], purpose=c["purpose"],
                             modifiers=[Stated(kind, value) for kind, value in c["modifiers"]])
    return play, choices, lambda r: {k: r[k] for k in ("stat", "chains", "total", "target", "success")}
