"""Fixed values as click choices, read from the ledger's own lists only when a command needs them.

A choice lets click refuse a misspelt value before anything is opened (exit 2), lets shell
completion offer the values, and lists them in `--help`. The lists stay where the rules keep them:
reading them here at import time would load the rulesets (and eventsourcing) on `campaign --help`.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Sequence

import click


class LazyChoice(click.Choice):
    """A case-insensitive `click.Choice` over "module:NAME" (a sequence) or a function returning
    one; it hands the command the ledger's own spelling ('minor' -> 'Minor')."""

    def __init__(self, source: str | Callable[[], Sequence[str]]) -> None:
        self._source = source
        super().__init__((), case_sensitive=False)

    @property  # type: ignore[override]
    def choices(self) -> tuple[str, ...]:
        if callable(self._source):
            return tuple(self._source())
        module, _, name = self._source.partition(":")
        return tuple(getattr(importlib.import_module(module), name))

    @choices.setter
    def choices(self, _: Any) -> None:
        """click.Choice.__init__ assigns the values; ours are read when asked for."""

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        """The values as the rules spell them (click's own message lower-cases them)."""
        return f"'{value}' is not one of {', '.join(self.choices)}."


def ruleset_ids() -> list[str]:
    """Every registered ruleset, a pip-installed one included; the application loads the registry."""
    import campaign_ledger.ledger.application  # noqa: F401  (the registry resolves its rulesets after the core is loaded)
    from campaign_ledger.ledger import rulesets

    return rulesets.ids()


def demo_ids() -> list[str]:
    """The rulesets with a demo campaign."""
    from campaign_ledger.ledger import rulesets

    return rulesets.demo_ids()


RULESET = LazyChoice(ruleset_ids)
DEMO = LazyChoice(demo_ids)
THREAT = LazyChoice("campaign_ledger.ledger.rulesets.relics.rules:THREATS")
CHALLENGE_TYPE = LazyChoice("campaign_ledger.ledger.rulesets.relics.rules:TYPES")
COST = LazyChoice("campaign_ledger.ledger.rulesets.relics.commands:COSTS")
TARGET = LazyChoice("campaign_ledger.ledger.rulesets.relics.commands:TARGETS")
FREQUENCY = LazyChoice("campaign_ledger.ledger.rulesets.relics.rules:FREQUENCIES")
