"""The read side of decision_2d6: its tables, the history lines of its events,
and the versions of the rows its sheets and pools show (projections/row_versions.py)."""
from campaign_ledger.projections.rulesets.decision_2d6 import tables
from campaign_ledger.projections import row_versions

VERSIONED = ("d2d6_sheets", "d2d6_supplies", "d2d6_trackers")  # `sheet` and `pools` read these (`--at` too)
VERSIONS = row_versions.keeper(VERSIONED, {t: c for t, c in tables.OWNED.items() if t in VERSIONED})

MODULES = (tables, VERSIONS)
