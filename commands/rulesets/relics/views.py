"""Relics of the Moon: what a GM reads (the sheets and Destiny and Doom, which `campaign sheet` and
`pools` show through `sheets` and `pools`, and `campaign status`: the turn and each Challenge)."""
from __future__ import annotations

from typing import Any

import click

from campaign_ledger.commands.plumbing import campaign_of, emit, json_option
from campaign_ledger.commands.rulesets.relics.group import COMMANDS

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

    emit(ctx, campaign_of(ctx).status(), status_text)
