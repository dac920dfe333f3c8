"""The read side of action_dice: its tables, the history lines of its events,
and the versions of the rows its sheets and pools show (projections/row_versions.py)."""
from campaign_ledger.projections.rulesets.action_dice import tables
from campaign_ledger.projections import row_versions

VERSIONED = (tables.CHARACTERS, tables.ASSETS, tables.FEATURES, tables.CONDITIONS)  # `sheet` and `pools` read these (`--at` too)
VERSIONS = row_versions.keeper(VERSIONED, {t: c for t, c in tables.OWNED.items() if t in VERSIONED})

MODULES = (tables, VERSIONS)
