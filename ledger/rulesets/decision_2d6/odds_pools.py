"""The pool a decision-2d6 turn or roll would use, built on a scratch table for `campaign odds`
(the real command's checks and refusals; nothing is saved). The odds live in odds.py beside it."""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.table import Table


def decision_score(app: Any, name: str, stat: str) -> dict[str, Any]:
    """The character and the stat or attribute a decision roll would add (as `roll` finds them)."""
    from campaign_ledger.ledger.rulesets.decision_2d6 import rolls

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("decision-2d6")
        hero = rolls.hero(t, name)
        _, label, value = hero.score(stat)
        return {"character": hero.name, "stat": label, "stat_value": value}
    return app.preview(command)


def supply_item(app: Any, name: str) -> dict[str, Any]:
    """An item's supply die and the campaign's threshold (as `supply-roll` reads them)."""
    from campaign_ledger.ledger.rulesets.decision_2d6 import rules as d2
    from campaign_ledger.ledger.rulesets.decision_2d6 import pools

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("decision-2d6")
        item = pools._item(t, name)
        return {"item": item.name, "die": pools._die(item.die),
                "threshold": pools._setting(t, "supply_threshold", d2.DEFAULT_SUPPLY_THRESHOLD)}
    return app.preview(command)


def tracker_state(app: Any, name: str) -> dict[str, Any]:
    """A D100 tracker's value and the points a use costs (as `tracker-roll` reads them)."""
    from campaign_ledger.ledger.rulesets.decision_2d6.model import tracker_id

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("decision-2d6")
        tracker = t.load(tracker_id(name), f"There is no tracker named '{name}' in this campaign.")
        return {"tracker": tracker.name, "value": tracker.value, "step": tracker.step}
    return app.preview(command)


def contest_sides(app: Any, sides: tuple[Any, Any], favoured: tuple[str, str] | None,
                  grants: list[str]) -> dict[str, Any]:
    """Both sides of a contest as `contest` would set them (checks and refusals included), unrolled."""
    from campaign_ledger.ledger.rulesets.decision_2d6 import rolls
    from campaign_ledger.ledger.rulesets.decision_2d6 import rules as d2

    def command(t: Table) -> dict[str, Any]:
        t.expect_ruleset("decision-2d6")
        found = rolls.contenders(t, sides, favoured, grants)
        return {"position": found.position, "people": found.people,
                "sides": [{"name": h.name, "stat": st[1], "stat_value": st[2],
                           "modifier_total": d2.counted_modifiers(p.modifiers),
                           "advantage": lv.name.lower().replace("_", "-"), "decision_dice": lv.decision_dice}
                          for h, st, lv, p in zip(found.heroes, found.stats, found.levels, found.people)]}
    return app.preview(command)
