"""The action_dice ruleset on the ledger: its aggregates, events and commands (in progress)."""
from __future__ import annotations


class ActionDiceCommands:
    """Commands of action_dice campaigns, mixed into CampaignLedger (they use self.run)."""
