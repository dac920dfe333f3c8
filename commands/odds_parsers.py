"""The registry of each ruleset's `campaign odds` options: odds.py (Relics), odds_rulesets.py (the
others) and odds_free.py (every ruleset's odds without a campaign) register into it, and odds.py reads it."""
from __future__ import annotations

from typing import Any, Callable

import click

PARSERS: dict[str, click.Command] = {}  # ruleset id (and a mode: "decision-2d6 contest") -> its odds' options
FREE = "without a campaign"  # the mode of `campaign odds --ruleset ID ...`: the pool described in full
Parsed = tuple[tuple[Any, ...], dict[str, Any]]  # a parser's answer: the names and keyword values of the library's call


def parser(ruleset: str, usage: str) -> Callable[[Callable[..., Any]], click.Command]:
    """Register a ruleset's odds options (a plain click command, never on `cli` itself): it parses
    the command line into the library's values, (names, keyword values) for `Campaign.odds`."""
    def register(f: Callable[..., Any]) -> click.Command:
        command = click.command(f"odds ({ruleset})", options_metavar=usage,
                                context_settings={"help_option_names": []})(f)
        PARSERS[ruleset] = command
        return command
    return register
