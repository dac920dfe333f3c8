"""Relics of the Moon: its rules, aggregates and commands (the ledger side of the ruleset `relics`)."""
from ledger.rulesets import Ruleset, register

RULESET = register(Ruleset("relics", __name__, moved={
    "ledger.rules.relics": "rules",
    "ledger.character": "character",
    "ledger.challenge": "challenge",
    "ledger.turns": "turns",
    "ledger.scenes": "scenes",
    "ledger.tactics": "tactics",
    "ledger.recovery": "recovery",
    "ledger.traits": "traits",
}))
