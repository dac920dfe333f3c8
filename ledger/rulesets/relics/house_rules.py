"""The rules in play at a Relics table: the campaign's rules version, amended by its house rules."""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.rulesets.relics import rules as relics


def in_play(t: Any) -> relics.RulesVersion:
    """Read afresh each time: a house rule changed earlier in the same command applies at once."""
    return relics.with_house_rules(relics.rules_for(t.campaign.rules_version), t.campaign.house_rules)
