"""The decision_2d6 ruleset on the ledger: its aggregates, events and commands (in progress)."""
from __future__ import annotations


class Decision2d6Commands:
    """Commands of decision_2d6 campaigns, mixed into CampaignLedger (they use self.run)."""
