"""decision rolls with supply dice: its rules, aggregates and commands (the ledger side of the ruleset `decision-2d6`)."""
from ledger.rulesets import Ruleset, register

RULESET = register(Ruleset("decision-2d6", __name__, moved={
    "ledger.systems.decision_2d6": "commands",
    "ledger.systems.decision_2d6_model": "model",
    "ledger.systems.decision_2d6_pools": "pools",
    "ledger.systems.decision_2d6_rolls": "rolls",
    "ledger.rules.decision_2d6": "rules",
}))
