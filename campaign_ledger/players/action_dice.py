"""Action dice: what the rules leave to a player for their own character (seed 003, RULES.md).

- An action roll for their own character: the action, the challenge rating or difficulty the GM
  named, the circumstances, the assets and features they bring, and the faces they rolled or the
  program's: `action_dice.roll`.

The GM's: characters, assets, features, conditions (worsen, ease, treat), and the override that
lets an incapacitated character act or passes the features limit.
"""
from __future__ import annotations

from typing import Any

from campaign_ledger.players.common import Given, Reader, Ready, chance, dice_words, field, odds_or_none, offer
from campaign_ledger.players.shapes import PlayerAction

RATINGS = ("XX", "D4", "D6", "D8", "D10", "D12", "++")
CIRCUMSTANCES = ("none", "advantage", "disadvantage")


def actions(campaign: Any, pc: str) -> list[PlayerAction]:
    """An action roll, with the exact odds of the character's three best assets at every difficulty."""
    sheet = campaign.action_dice_sheet(pc)
    best = sorted(sheet["assets"], key=lambda a: -sheet["assets"][a])[:3]
    odds = odds_or_none(lambda: campaign.odds(sheet["name"], "an action", difficulty=1, assets=best), _test_line)
    fields = [field("action", "The action (e.g. climb)", "text", required=True),
              field("rating", "Challenge rating", "choice", choices=list(RATINGS)),
              field("difficulty", "Or the difficulty itself (1-10; with ++, 7-10)", "int"),
              field("circumstances", "Net circumstances", "choice", choices=list(CIRCUMSTANCES)),
              *(field(f"asset:{a}", f"{a} (d{size})", "flag") for a, size in sheet["assets"].items()),
              *(field(f"feature:{f}", f"Invoke {f}", "flag") for f in sheet["features"]),
              field("test", "A pass/fail test", "flag"),
              field("faces", "Faces of the three dice: the assets' in the order above, then d4s; empty: the program "
                             "rolls", "faces", dice=3)]
    return [offer("action_dice.roll", "Make an action roll", fields, odds=odds)]


def _test_line(r: dict[str, Any]) -> str:
    """The chance a pass/fail test passes with the three dice, at every difficulty."""
    at = " · ".join(f"{d}: {chance(p)}" for d, p in r["test_passes_at"].items() if p != "0")
    return f"{dice_words(r['dice'])} (your best assets), a test passes at difficulty {at}"


def _roll(campaign: Any, pc: str, given: Given) -> Ready:
    action = given.text("action", required=True)
    rating = given.choice("rating", RATINGS)
    difficulty = given.number("difficulty")
    side = given.choice("circumstances", CIRCUMSTANCES) or "none"
    ups, downs = int(side == "advantage"), int(side == "disadvantage")
    assets = [a for a in given.names("asset:") if given.flag(f"asset:{a}")]
    features = [f for f in given.names("feature:") if given.flag(f"feature:{f}")]
    test, faces = given.flag("test"), given.faces()
    chosen = {"rating": rating, "difficulty": difficulty, "advantages": ups, "disadvantages": downs,
              "assets": assets, "features": features}
    return Ready(lambda key: campaign.action_dice_roll(pc, action, **chosen, faces=faces, test=test, key=key),
                 lambda: _refused_without_override(campaign.odds(pc, action, **chosen)))


def _refused_without_override(r: dict[str, Any]) -> None:
    """The odds of a roll the rules refuse without the GM's override carry the refusal: raise it."""
    from campaign_ledger.errors import CampaignError
    from campaign_ledger.refusals import rule_of_sentence

    if r["refused_without_override"]:  # in the words the roll refuses it (ledger/rulesets/action_dice/commands.py)
        why = r["refused_without_override"][0].rstrip(".") + " (the GM may allow it with --gm-override REASON)."
        raise CampaignError(why, 1, rule_of_sentence(why) or "game-rule")


READERS: dict[str, Reader] = {"action_dice.roll": _roll}
