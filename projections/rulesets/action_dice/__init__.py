"""The read side of action_dice: its tables, the history lines of its events, and the versions of the rows its sheets and pools show (projections/row_versions.py)."""
from projections.rulesets.action_dice import tables
from projections import row_versions

VERSIONED = (tables.CHARACTERS, tables.ASSETS, tables.FEATURES, tables.CONDITIONS)  # what `sheet` and `pools` read, kept at every entry for `--at`
AHEAD, AFTER = row_versions.keeper(VERSIONED, tables.OWNED)

MODULES = (AHEAD, tables, AFTER)
