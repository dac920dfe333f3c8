"""Relics of the Moon on the command line: the rounds' turns (turns.py), the GM's named rules (gm.py),
PCs, traits, Scenarios, Scenes, Events and Challenges (setup.py, corrections.py), rosters (roster.py)
and what a GM reads (views.py)."""
from campaign_ledger.commands.rulesets.relics import corrections, gm, roster, setup, turns, views  # noqa: F401  (their commands join the group)
from campaign_ledger.commands.rulesets.relics.group import COMMANDS  # noqa: F401  (what commands/index.py names)
