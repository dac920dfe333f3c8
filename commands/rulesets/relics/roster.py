"""`campaign roster`: load a roster file (PCs, their traits, a bestiary of Challenges) in one unit,
or dump the campaign's back out in the same format (issue 13)."""
from __future__ import annotations

from typing import Any

import click

from campaign_ledger.commands.plumbing import campaign_of, emit, json_option, show_report
from campaign_ledger.commands.rulesets.relics.group import COMMANDS



@COMMANDS.group()
def roster() -> None:
    """Rosters: a campaign's PCs, their traits and its bestiary, as a TOML file."""


@roster.command("load")
@click.argument("path", metavar="FILE.toml")
@json_option
@click.pass_context
def roster_load(ctx: click.Context, path: str) -> None:
    """Add the file's PCs (with their traits) and its Challenges (to the bestiary, not opened) in one
    unit: one `undo` takes it all back. A bad file is refused with its line and key; nothing is added.

    Example: campaign roster load heist.toml
    """
    show_report(ctx, campaign_of(ctx).roster_load(path))


@roster.command("dump")
@click.argument("path", metavar="[FILE]", required=False)
@json_option
@click.pass_context
def roster_dump(ctx: click.Context, path: str | None) -> None:
    """Write the campaign's PCs, their traits and the bestiary as a roster file (or to the screen);
    `roster load` in another campaign gives the same sheets.

    Example: campaign roster dump heist.toml
    """
    from campaign_ledger.ledger.roster import dumps

    def text(data: dict[str, Any]) -> str:
        if path is None:
            return dumps(data).rstrip("\n")
        pcs, challenges = len(data.get("pc", [])), len(data.get("challenge", []))
        return (f"Wrote {pcs} PC{'s' * (pcs != 1)} and {challenges} Challenge{'s' * (challenges != 1)} "
                f"to {path}.")
    emit(ctx, campaign_of(ctx).roster_dump(path), text)
