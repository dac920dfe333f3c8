"""Relics of the Moon: what a GM reads (the sheets and Destiny and Doom, which `campaign sheet` and
`pools` show through `sheets` and `pools`, and `campaign status`: the turn and each Challenge)."""
from __future__ import annotations

from typing import Any

import click

from campaign_ledger.ledger.errors import RuleViolation
from campaign_ledger.commands.plumbing import json_option, read_view

COMMANDS = click.Group()  # added to `campaign` by cli.py
KEEPS_HISTORY = True  # its sheets and pools are read as they stood at an entry (`--at`) from their own tables


def sheets(db: Any, name: str | None = None, at: int | None = None) -> list[dict[str, Any]]:
    from campaign_ledger.projections import views
    return views.sheets(db, name, at)


def pools(db: Any, at: int | None = None) -> dict[str, Any]:
    from campaign_ledger.projections import views
    return views.pools(db, at)


def sheets_text(rows: list[dict[str, Any]]) -> str:
    from campaign_ledger.projections.text import sheets_text as text
    return text(rows)


def pools_text(value: dict[str, Any]) -> str:
    from campaign_ledger.projections.text import pools_text as text
    return text(value)


@COMMANDS.command()
@json_option
@click.pass_context
def status(ctx: click.Context) -> None:
    """Show the unfinished turn (if any) and where each open Challenge stands.

    Example: campaign status
    """
    from campaign_ledger.projections.text import status_text
    from campaign_ledger.ledger.rulesets.relics.challenge import NEXT_STEP
    from campaign_ledger.ledger.ids import challenge_id
    from campaign_ledger.ledger.rulesets.relics.odds import pool_line
    from campaign_ledger.projections import views
    from campaign_ledger.projections.rulesets.relics import state as relics_state

    def query(app: Any, db: Any) -> dict:
        camp = app.campaign()
        if camp.ruleset != "relics":
            raise RuleViolation(f"This is {'an' if camp.ruleset[0] in 'aeiou' else 'a'} {camp.ruleset} campaign; "
                           f"see `campaign {camp.ruleset} --help` (and `campaign sheet`, `pools`, `history`).")
        rows = views.challenges(db, open_only=True)
        for row in rows:
            ch = app.repository.get(challenge_id(row["name"]))
            row.update(phase=ch.phase, waiting_for=NEXT_STEP[ch.phase], pending=ch.pending,
                       odds=pool_line(ch.pending) if ch.phase.endswith("-roll") else None)
        return {"turn": camp.turn, "challenges": rows, **views.pools(db), **relics_state.status_fields(db)}
    read_view(ctx, query, status_text)
