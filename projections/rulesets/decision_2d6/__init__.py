"""The read side of decision_2d6: its tables and the history lines of its events."""
from projections.rulesets.decision_2d6 import tables

MODULES = (tables,)
