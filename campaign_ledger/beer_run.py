"""Beer Run, as calls: characters and difficulties, conflicts and their rounds, Intensity.
Each method is `campaign beer-run ...` with its words joined: `beer_run_roll` is `beer-run roll`."""
from __future__ import annotations

from campaign_ledger.handle import Core


class BeerRunCalls(Core):
    """Beer Run (`campaign beer-run ...`)."""
