"""The pool an action-dice turn or roll would use, built on a scratch table for `campaign odds`
(the real command's checks and refusals; nothing is saved). The odds live in odds.py beside it."""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.table import Table


def action_roll(app: Any, character: str, action: str, rating: str | None, difficulty: int | None,
                advantages: int, disadvantages: int, assets: list[str], features: list[str]) -> dict[str, Any]:
    """The three dice and the personal difficulty, with what the rules would refuse (the odds still show)."""
    from campaign_ledger.ledger.rulesets.action_dice import rules
    from campaign_ledger.ledger.rulesets.action_dice import commands as system

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("action-dice")
        rated, base = system.base_difficulty(rating, difficulty)
        target = rules.action_difficulty(base, advantages, disadvantages)
        pc = system.ActionDiceCommands._character(t, character)
        system._unique(list(assets), "asset")
        chosen = [pc.asset(a) for a in assets]
        invoked = [pc.feature(f) for f in features]
        breaks = rules.rule_breaks(action, pc.current_conditions(), invoked, system.features_limit(t.campaign.settings))
        return {"character": pc.name, "action": action.strip().lower(), "rating": rated, "base": base,
                "difficulty": target, "assets": [a["name"] for a in chosen],
                "dice": list(rules.action_pool([a["die"] for a in chosen])), "refused_without_override": list(breaks)}
    return app.preview(command)
