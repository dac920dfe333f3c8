"""Relics of the Moon: its rules, aggregates and commands (the ledger side of the ruleset `relics`)."""
from campaign_ledger.ledger.rulesets import Ruleset, register

RULESET = register(Ruleset(
    "relics", __name__,
    views="campaign_ledger.commands.rulesets.relics.views",
    is_default=True,
    commands="commands:RelicsCommands",
    versions=("0.6.1", "0.2.0"),
    demo="demo:play", demo_name="The Moon Heist", audit="audit",
    round_commands=frozenset({"cohort_turn", "challenge_turn", "roll", "place", "distribute"}),
    replay_round="replay",
    read_by_every_campaign=True,  # its pools and history lines project the core Campaign's events
    named=("character:pc_id", "challenge:challenge_id"),
    seated="character:pc_id",
    moved={
    "ledger.rules.relics": "rules",
    "ledger.character": "character",
    "ledger.challenge": "challenge",
    "ledger.turns": "turns",
    "ledger.scenes": "scenes",
    "ledger.tactics": "tactics",
    "ledger.recovery": "recovery",
    "ledger.traits": "traits",
}))
