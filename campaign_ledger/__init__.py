"""Campaign Ledger: an append-only, verifiable ledger of a tabletop campaign, as a Python library.

    from campaign_ledger import new_campaign, open_campaign, CampaignError

    camp = new_campaign("heist.db", "The Moon Heist")          # ruleset="relics" by default
    camp.pc_add("Kira", {"Phantom": 3, "Venger": 1}, "Phantom")
    camp = open_campaign("heist.db")                            # later, or in another process
    camp.sheet("Kira")                                          # the same dict `campaign sheet Kira --json` prints

Every call returns what the CLI's `--json` prints and raises CampaignError (with `code` and
`rule`) where the CLI refuses. This is the one name the project installs: its folders (ledger/,
projections/, migrations/, commands/, web/) are installed as subpackages of it (pyproject.toml),
and the `campaign` command is `campaign_ledger.cli:main`.

The names below are imported on first use, so `import campaign_ledger.cli` (every `campaign`
command) does not pay for the library's modules.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from campaign_ledger.campaign import Campaign, new_campaign, open_campaign
    from campaign_ledger.errors import CampaignError

__all__ = ["Campaign", "CampaignError", "new_campaign", "open_campaign"]

_HOMES = {"Campaign": "campaign", "new_campaign": "campaign", "open_campaign": "campaign", "CampaignError": "errors"}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'campaign_ledger' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"campaign_ledger.{_HOMES[name]}"), name)
    globals()[name] = value
    return value
