"""The read side of beer_run: its tables, the history lines of its events,
and the versions of the rows its sheets and pools show (projections/row_versions.py)."""
from campaign_ledger.projections.rulesets.beer_run import lines, tables
from campaign_ledger.projections import row_versions

VERSIONED = ("beer_run_sheets", "beer_run_abilities")  # `sheet` and `pools` read these (`--at` too)
VERSIONS = row_versions.keeper(VERSIONED, {t: c for t, c in tables.OWNED.items() if t in VERSIONED})

MODULES = (tables, lines, VERSIONS)
