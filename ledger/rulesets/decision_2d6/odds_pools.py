"""The pool a decision-2d6 turn or roll would use, built on a scratch table for `campaign odds`
(the real command's checks and refusals; nothing is saved). The odds live in odds.py beside it."""
from __future__ import annotations

from typing import Any

from ledger.table import Table


def decision_score(app: Any, name: str, stat: str) -> dict[str, Any]:
    """The character and the stat or attribute a decision roll would add (as `roll` finds them)."""
    from ledger.rulesets.decision_2d6 import rolls

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("decision-2d6")
        hero = rolls.hero(t, name)
        _, label, value = hero.score(stat)
        return {"character": hero.name, "stat": label, "stat_value": value}
    return app.preview(command)


def supply_item(app: Any, name: str) -> dict[str, Any]:
    """An item's supply die and the campaign's threshold (as `supply-roll` reads them)."""
    from ledger.rulesets.decision_2d6 import rules as d2
    from ledger.rulesets.decision_2d6 import pools

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("decision-2d6")
        item = pools._item(t, name)
        return {"item": item.name, "die": pools._die(item.die),
                "threshold": pools._setting(t, "supply_threshold", d2.DEFAULT_SUPPLY_THRESHOLD)}
    return app.preview(command)
