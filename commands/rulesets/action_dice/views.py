"""Action dice (seed 003): what a GM reads: sheets, the roll log, the difficulty ladder; `campaign
sheet` and `demo` show an action-dice campaign through `sheets` (it keeps no pools)."""
from __future__ import annotations

from typing import Any

import click

from campaign_ledger.commands.rulesets.action_dice.group import action_dice
from campaign_ledger.commands.plumbing import as_list, campaign_of, emit, json_option


HAS_POOLS = False


def versioned() -> tuple[str, ...]:
    """The tables `sheets` and `pools` read, whose every version the read side keeps (for `--at`)."""
    from campaign_ledger.projections.rulesets.action_dice import VERSIONED
    return VERSIONED


def sheets(db: Any, name: str | None = None) -> list[dict[str, Any]]:
    from campaign_ledger.projections.rulesets.action_dice import tables
    return tables.sheets(db, name)


def pools(db: Any) -> list:
    return []


def pools_text(_: Any) -> str:
    return "An action-dice campaign keeps no pools; see `campaign action-dice sheet`."


def sheets_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No characters yet."
    blocks = []
    for r in rows:
        lines = [f"{r['name']}  ({r['rolls']} {'roll' if r['rolls'] == 1 else 'rolls'})",
                 "  Assets: " + (", ".join(f"{a} d{d}" for a, d in r["assets"].items()) or "none"),
                 "  Features: " + (", ".join(r["features"]) or "none")]
        lines += [f"  Condition {c['name']}: level {c['level']}, impacts {', '.join(c['impacts']) or 'no action'}"
                  for c in r["conditions"]]
        if r["incapacitated_for"]:
            lines.append(f"  Incapacitated for: {', '.join(r['incapacitated_for'])} (until treated)")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def rolls_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No action rolls yet."
    lines = []
    for r in rows:
        dice = " ".join(f"d{d}={f}" for d, f in zip(r["dice"], r["faces"]))
        test = f" (test {'passed' if r['succeeded'] else 'failed'})" if r["test"] else ""
        override = f"  GM override: {r['gm_override']}" if r["gm_override"] is not None else ""
        lines.append(f"#{r['entry']}  {r['character']} {r['action']}  difficulty {r['difficulty']}  {dice}  "
                     f"{r['successes']} success{'' if r['successes'] == 1 else 'es'}: {r['outcome']}{test}{override}")
    return "\n".join(lines)


def difficulty_text(rows: list[dict[str, Any]]) -> str:
    def line(r: dict[str, Any]) -> str:
        position = ", ".join(f"{r[k]} {k[:-1] if r[k] == 1 else k}" for k in ("advantages", "disadvantages") if r[k])
        rated = f"{r['rating']}: base" if r["rating"] != "-" else "Difficulty"  # `-` (no rating) is for --json
        return f"{rated} {r['base']}" + (f", {position}" if position else "") \
            + f" -> difficulty {r['difficulty']}"
    return "\n".join(line(r) for r in rows)


@action_dice.command("difficulty")
@click.argument("rating", required=False)
@click.option("--difficulty", type=int, help="The GM's pick for ++ (7-10).")
@click.option("--advantage", "advantages", count=True, help="A circumstance in the character's favour.")
@click.option("--disadvantage", "disadvantages", count=True, help="A circumstance against the character.")
@json_option
@click.pass_context
def action_dice_difficulty(ctx: click.Context, rating: str | None, difficulty: int | None,
                           advantages: int, disadvantages: int) -> None:
    """Show the difficulty a challenge rating gives (without a rating: the whole ladder). Records nothing.

    Example: campaign action-dice difficulty D8 --disadvantage
    """
    emit(ctx, campaign_of(ctx).action_dice_difficulty(rating, difficulty=difficulty, advantages=advantages,
                                                      disadvantages=disadvantages), difficulty_text)


@action_dice.command("sheet")
@click.argument("name", required=False)
@json_option
@click.pass_context
def action_dice_sheet(ctx: click.Context, name: str | None) -> None:
    """Show the character sheets (or one): assets, features, conditions, incapacitation.

    Example: campaign action-dice sheet Mara
    """
    emit(ctx, campaign_of(ctx).action_dice_sheet(name), as_list(sheets_text))


@action_dice.command("rolls")
@click.argument("name", required=False)
@click.option("--limit", type=click.IntRange(1, 10**9), default=None, help="Only the last N rolls.")
@json_option
@click.pass_context
def action_dice_rolls(ctx: click.Context, name: str | None, limit: int | None) -> None:
    """Show the action rolls (or one character's): dice, faces, difficulty and outcome.

    Example: campaign action-dice rolls Mara --limit 5
    """
    emit(ctx, campaign_of(ctx).action_dice_rolls(name, limit=limit), rolls_text)
