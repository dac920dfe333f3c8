"""Read views of state a GM acts on that the rulesets' own groups did not show: every Beer Run
conflict, finished ones included, and the decision-2d6 roll log. With `status --json`
(Relics) and `action-dice rolls`, a script can compare two campaigns without reading tables.
"""
from __future__ import annotations

from typing import Any

import click

from ledger.errors import BadInput, NotFound
from commands.plumbing import json_option, read_view
from commands.beer_run import beer_run
from commands.decision_2d6 import decision_2d6


def _only(db: Any, ruleset: str) -> None:
    """A ruleset's read view on another ruleset's campaign is refused in one line."""
    from projections import views

    found = views.campaign(db).get("ruleset")
    if found != ruleset:
        raise BadInput(f"This is {'an' if (found or 'x')[0] in 'aeiou' else 'a'} {found} campaign; "
                       f"that command is for {ruleset} campaigns.")


@beer_run.command("conflicts")
@click.option("--open", "open_only", is_flag=True, help="Only the conflicts still going on.")
@json_option
@click.pass_context
def br_conflicts(ctx: click.Context, open_only: bool) -> None:
    """List every conflict, open or ended: its sides, round, who left and how it ended.

    Example: campaign beer-run conflicts --json
    """
    from projections.rulesets.beer_run import tables as views

    def query(app: Any, db: Any) -> list:
        _only(db, "beer-run")
        return [{k: c[k] for k in ("name", "sides", "target", "round", "out", "status", "result")}
                for c in views.conflicts(db, open_only)]
    read_view(ctx, query, _conflicts_text)


def _conflicts_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No conflicts yet."
    lines = []
    for c in rows:
        left = "; ".join(f"{side} {why}" for side, why in c["out"].items())
        ending = f"ended: {c['result']}" if c["status"] == "ended" else f"open, round {c['round']}"
        lines.append(f"{c['name']} ({', '.join(c['sides'])}): {ending}" + (f"; out: {left}" if left else ""))
    return "\n".join(lines)


@decision_2d6.command("rolls")
@click.argument("name", required=False)
@click.option("--limit", type=click.IntRange(1, 10**9), default=None, help="Only the last N rolls.")
@json_option
@click.pass_context
def d2d6_rolls(ctx: click.Context, name: str | None, limit: int | None) -> None:
    """Show the decision rolls (or one character's): dice as they exploded, modifiers, total, target.

    Example: campaign decision-2d6 rolls Billy --limit 5
    """
    from projections.rulesets.decision_2d6 import tables as read

    def query(app: Any, db: Any) -> list:
        _only(db, "decision-2d6")
        if name and not read.sheets(db, name):
            raise NotFound(f"There is no character named '{name}' in this campaign.")
        return read.rolls(db, name, limit)
    read_view(ctx, query, _rolls_text)


def _rolls_text(rows: list[dict[str, Any]]) -> str:
    from projections.rulesets.decision_2d6.tables import dice_text

    if not rows:
        return "No decision rolls yet."
    lines = []
    for r in rows:
        goal = f" vs {r['target']}: {'success' if r['success'] else 'failure'}" if r["target"] is not None else ""
        lines.append(f"#{r['entry']}  {r['character']} {r['stat']} {r['stat_value']:+d}  {dice_text(r['chains'])}"
                     f" = {r['total']}{goal}")
    return "\n".join(lines)
