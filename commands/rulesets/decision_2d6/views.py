"""Decision rolls (seed 004): what a GM reads: sheets, supply dice and trackers, the roll log;
`campaign sheet` and `pools` show a decision-2d6 campaign through `sheets` and `pools`."""
from __future__ import annotations

from typing import Any

import click

from campaign_ledger.commands.rulesets.decision_2d6.group import decision_2d6
from campaign_ledger.commands.plumbing import as_list, campaign_of, emit, json_option, show_report


def versioned() -> tuple[str, ...]:
    """The tables `sheets` and `pools` read, whose every version the read side keeps (for `--at`)."""
    from campaign_ledger.projections.rulesets.decision_2d6 import VERSIONED
    return VERSIONED


def sheets(db: Any, name: str | None = None) -> list[dict]:
    from campaign_ledger.projections.rulesets.decision_2d6 import tables
    return tables.sheets(db, name)


def pools(db: Any) -> dict:
    from campaign_ledger.projections.rulesets.decision_2d6 import tables
    return tables.pools(db)


# --- formatting --------------------------------------------------------------------------------

def d2d6_dice_lines(chains: list[list[int]]) -> list[str]:
    """Each decision die on its own line, its explosions after it: 'Die 2: 6 -> 6 -> 2 = 14'."""
    from campaign_ledger.projections.rulesets.decision_2d6.tables import chain_text

    lines = []
    for number, chain in enumerate(chains, 1):
        boom = len(chain) - 1
        exploded = f" (exploded {({1: 'once', 2: 'twice'}).get(boom, f'{boom} times')})" if boom else ""
        lines.append(f"  Die {number}: {chain_text(chain)} = {sum(chain)}{exploded}")
    return lines


def d2d6_report_text(report: dict) -> str:
    lines = [f"#{r['entry']}  {r['line']}" for r in report.get("history", [])]
    if "chains" in report:
        lines += d2d6_dice_lines(report["chains"])
        parts = [f"dice {report['dice_total']}", f"{report['stat']} {report['stat_value']:+d}"]
        if report["modifiers"]:
            parts.append(f"modifiers {report['modifier_total']:+d}")
        if report["advantage_modifier"]:
            parts.append(f"advantage {report['advantage_modifier']:+d}")
        lines.append(f"  Total: {', '.join(parts)} = {report['total']}")
    for number, r in enumerate(report.get("rounds", []), 1):
        for side, key in zip(report["sides"], ("first", "second")):
            lines.append(f"  Roll {number}, {side['name']}: total {r[key]['total']}")
            lines += ["  " + line for line in d2d6_dice_lines(r[key]["chains"])]
    return "\n".join(lines) or "Nothing to record."


def sheets_text(rows: list[dict]) -> str:
    if not rows:
        return "No characters yet."
    blocks = []
    for r in rows:
        stats = ", ".join(f"{k} {v:+d}" for k, v in r["stats"].items()) or "none"
        attributes = ", ".join(f"{k} {v:+d}" for k, v in r["attributes"].items()) or "none"
        blocks.append(f"{r['name']}  Level {r['level']}  Will {r['will']}  Fort {r['fort']}\n"
                      f"  Stress {r['stress']}  Vitality {r['vitality']}\n"
                      f"  Stats: {stats}\n  Attributes: {attributes}")
    return "\n".join(blocks)


def _held(value: Any) -> str:
    """A supply die as named (D6, Empty), a tracker's value as the percentage it is (60%, not 60)."""
    return f"{value}%" if isinstance(value, int) else str(value)


def pools_text(p: dict) -> str:
    if "rows" in p:
        return "\n".join(f"#{r['entry']}  {r['change']}: {'' if r['before'] is None else _held(r['before']) + ' -> '}"
                         f"{_held(r['after'])}{'' if r['face'] is None else ' (rolled ' + str(r['face']) + ')'}"
                         f"{'  ' + r['note'] if r['note'] else ''}" for r in p["rows"])
    lines = [f"{s['item']}: {s['die']}" + (f"  (held by {s['holder']})" if s["holder"] else "")
             for s in p["supplies"]]
    lines += [f"{t['tracker']}: {t['value']}%  (a use costs {t['step']})"
              + (f"  (held by {t['holder']})" if t["holder"] else "") for t in p["trackers"]]
    return "\n".join(lines) or "No supply dice or trackers yet."


# --- reading -------------------------------------------------------------------------------------------

@decision_2d6.command("sheet")
@click.argument("name", required=False)
@json_option
@click.pass_context
def d2d6_sheet(ctx: click.Context, name: str | None) -> None:
    """Show the character sheets (or one), with Stress and Vitality.

    Example: campaign decision-2d6 sheet Billy
    """
    emit(ctx, campaign_of(ctx).decision_2d6_sheet(name), as_list(sheets_text))


@decision_2d6.command("pools")
@click.argument("name", required=False)
@json_option
@click.pass_context
def d2d6_pools(ctx: click.Context, name: str | None) -> None:
    """Show supply dice and trackers; with a NAME, every change of that item or tracker.

    Example: campaign decision-2d6 pools Torches
    """
    emit(ctx, campaign_of(ctx).decision_2d6_pools(name), pools_text)


@decision_2d6.command("rolls")
@click.argument("name", required=False)
@click.option("--limit", type=click.IntRange(1, 10**9), default=None, help="Only the last N rolls.")
@json_option
@click.pass_context
def d2d6_rolls(ctx: click.Context, name: str | None, limit: int | None) -> None:
    """Show the decision rolls (or one character's): dice as they exploded, modifiers, total, target.

    Example: campaign decision-2d6 rolls Billy --limit 5
    """
    emit(ctx, campaign_of(ctx).decision_2d6_rolls(name, limit=limit), d2d6_rolls_text)


def d2d6_rolls_text(rows: list[dict[str, Any]]) -> str:
    from campaign_ledger.projections.rulesets.decision_2d6.tables import dice_text

    if not rows:
        return "No decision rolls yet."
    lines = []
    for r in rows:
        goal = f" vs {r['target']}: {'success' if r['success'] else 'failure'}" if r["target"] is not None else ""
        lines.append(f"#{r['entry']}  {r['character']} {r['stat']} {r['stat_value']:+d}  {dice_text(r['chains'])}"
                     f" = {r['total']}{goal}")
    return "\n".join(lines)


def d2d6_show(ctx: click.Context, report: dict) -> None:
    """Print what a write appended, die by die."""
    show_report(ctx, report, d2d6_report_text)
