"""action dice: its rules, aggregates and commands (the ledger side of the ruleset `action-dice`)."""
from campaign_ledger.ledger.rulesets import Ruleset, register

RULESET = register(Ruleset(
    "action-dice", __name__,
    views="campaign_ledger.commands.rulesets.action_dice.views",
    commands="commands:ActionDiceCommands",
    settings=("features_limit",), check_settings_with="commands:check_campaign_settings",
    demo="commands:play_demo", demo_name="The Drowned Archive",
    replay_roll="replay:roll",
    named=("character:pc_id",),
    seated="character:pc_id",
    moved={
    "ledger.systems.action_dice": "commands",
    "ledger.systems.action_dice_character": "character",
    "ledger.rules.action_dice": "rules",
}))
