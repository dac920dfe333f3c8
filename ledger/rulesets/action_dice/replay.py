"""Replaying an action roll with other choices on its own faces."""
from __future__ import annotations

from typing import Any, Callable

from campaign_ledger.ledger.rulesets.action_dice.character import ActionCharacter

Choices = dict[str, Any]


def roll(e: Any) -> tuple[Callable, Choices, Callable] | None:
    """How a recorded roll replays (see ledger/replay_rolls.py): the command that plays it again,
    its recorded choices, and the figures compared; None for any other entry."""
    return _action(e) if isinstance(e, ActionCharacter.ActionRolled) else None


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
