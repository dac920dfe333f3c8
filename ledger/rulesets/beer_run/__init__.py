"""Beer Run: its rules, aggregates and commands (the ledger side of the ruleset `beer-run`)."""
from ledger.rulesets import Ruleset, register

RULESET = register(Ruleset("beer-run", __name__, moved={
    "ledger.systems.beer_run": "commands",
    "ledger.systems.beer_run_character": "character",
    "ledger.systems.beer_run_conflict": "conflict",
    "ledger.systems.beer_run_effects": "effects",
    "ledger.systems.beer_run_play": "play",
    "ledger.systems.beer_run_round": "round",
    "ledger.rules.beer_run": "rules",
}))
