"""Decision rolls with supply dice (seed 004), as calls: `decision_2d6_roll` is `campaign decision-2d6 roll`."""
from __future__ import annotations

from campaign_ledger.handle import Core


class Decision2d6Calls(Core):
    """Decision rolls (`campaign decision-2d6 ...`)."""
