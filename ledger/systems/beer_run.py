"""The beer_run ruleset on the ledger: its aggregates, events and commands (in progress)."""
from __future__ import annotations


class BeerRunCommands:
    """Commands of beer_run campaigns, mixed into CampaignLedger (they use self.run)."""
