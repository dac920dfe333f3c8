"""The read side of action_dice: its tables and the history lines of its events."""
from projections.rulesets.action_dice import tables

MODULES = (tables,)
