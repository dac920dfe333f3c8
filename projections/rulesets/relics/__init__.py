"""Relics of the Moon, read side: sheets, Challenges, traits, Destiny and Doom, the state between turns."""
from projections.rulesets.relics import bestiary, challenges, lines, pools, sheets, traits

MODULES = (sheets, challenges, traits, pools, bestiary, lines)
