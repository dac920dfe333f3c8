"""The read side of beer_run: its tables and the history lines of its events."""
from projections.rulesets.beer_run import lines, tables

MODULES = (tables, lines)
