"""Action dice (seed 003), as calls: `action_dice_roll` is `campaign action-dice roll`."""
from __future__ import annotations

from campaign_ledger.handle import Core


class ActionDiceCalls(Core):
    """Action dice (`campaign action-dice ...`)."""
