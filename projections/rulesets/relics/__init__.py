"""Relics of the Moon, read side: sheets, Challenges, traits, Destiny and Doom, the state between turns.

The modules are imported when `MODULES` is first asked for: a campaign of another ruleset needs
only `pools` (see EVERY_CAMPAIGN), and importing the others would load Relics' aggregates.
"""
from __future__ import annotations

import importlib
from typing import Any

NAMES = ("sheets", "challenges", "traits", "pools", "bestiary", "lines")
# Destiny and Doom are kept for every campaign (a `balances` row each entry, as files have always
# had): every campaign's read tables take this module, whatever its ruleset.
EVERY_CAMPAIGN = ("pools",)


def __getattr__(name: str) -> Any:
    if name == "MODULES":
        return tuple(importlib.import_module(f"{__name__}.{n}") for n in NAMES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
