"""Beer Run: its rules, aggregates and commands (the ledger side of the ruleset `beer-run`)."""
from campaign_ledger.ledger.rulesets import Ruleset, register

RULESET = register(Ruleset(
    "beer-run", __name__,
    views="campaign_ledger.commands.rulesets.beer_run.views",
    commands="commands:BeerRunCommands",
    settings=("categories", "intensity", "dead_strike_back"), check_settings_with="play:check_settings",
    demo="commands:play_demo", demo_name="The Beer Run",
    round_commands=frozenset({"beer_run_goal", "beer_run_help", "beer_run_roll", "beer_run_pips", "beer_run_cede"}),
    command_prefix="beer_run_",
    named=("character:character_id", "conflict:conflict_id"),
    seated="character:character_id",
    moved={
    "ledger.systems.beer_run": "commands",
    "ledger.systems.beer_run_character": "character",
    "ledger.systems.beer_run_conflict": "conflict",
    "ledger.systems.beer_run_effects": "effects",
    "ledger.systems.beer_run_play": "play",
    "ledger.systems.beer_run_round": "round",
    "ledger.rules.beer_run": "rules",
}))
