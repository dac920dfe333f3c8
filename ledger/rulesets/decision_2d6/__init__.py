"""decision rolls with supply dice: its rules, aggregates and commands (the ledger side of the ruleset `decision-2d6`)."""
from campaign_ledger.ledger.rulesets import Ruleset, register

RULESET = register(Ruleset(
    "decision-2d6", __name__,
    views="campaign_ledger.commands.rulesets.decision_2d6.views",
    commands="commands:Decision2d6Commands",
    settings=("supply_threshold", "d100_step"), check_settings_with="pools:check_settings",
    demo="commands:play_demo", demo_name="The Heavy Gate",
    command_prefix="d2d6_",
    replay_roll="replay:roll",
    named=("model:hero_id", "model:item_id", "model:tracker_id"),
    seated="model:hero_id",
    moved={
    "ledger.systems.decision_2d6": "commands",
    "ledger.systems.decision_2d6_model": "model",
    "ledger.systems.decision_2d6_pools": "pools",
    "ledger.systems.decision_2d6_rolls": "rolls",
    "ledger.rules.decision_2d6": "rules",
}))
