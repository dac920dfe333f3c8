"""action dice: its rules, aggregates and commands (the ledger side of the ruleset `action-dice`)."""
from ledger.rulesets import Ruleset, register

RULESET = register(Ruleset("action-dice", __name__, moved={
    "ledger.systems.action_dice": "commands",
    "ledger.systems.action_dice_character": "character",
    "ledger.rules.action_dice": "rules",
}))
