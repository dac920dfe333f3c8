"""Beer Run (seed 002): what a GM reads: sheets, pools, the Intensity statement, conflicts and what
each waits for; `campaign sheet` and `pools` show a beer-run campaign through `sheets` and `pools`."""
from __future__ import annotations

from typing import Any

import click

from campaign_ledger.commands.rulesets.beer_run.group import beer_run
from campaign_ledger.commands.plumbing import as_list, campaign_of, emit, json_option, show_report


def versioned() -> tuple[str, ...]:
    """The tables `sheets` and `pools` read, whose every version the read side keeps (for `--at`)."""
    from campaign_ledger.projections.rulesets.beer_run import VERSIONED
    return VERSIONED


def sheets(db: Any, name: str | None = None) -> list[dict[str, Any]]:
    from campaign_ledger.projections.rulesets.beer_run import tables
    return tables.sheets(db, name)


def pools(db: Any) -> list[dict[str, Any]]:
    from campaign_ledger.projections.rulesets.beer_run import tables
    return tables.pools(db)


# --- text ------------------------------------------------------------------------------------------

def br_die(size: int) -> str:
    return f"d{size}" if size > 0 else "gone"


def br_held(dice: list[dict], lasting_word: bool = False) -> str:
    if lasting_word:
        return ", ".join(f"d{d['size']} ({'lasting' if d['lasting'] else 'next roll'})" for d in dice) or "none"
    return ", ".join(f"d{d['size']} x{d['uses']}" for d in dice) or "none"


def br_waiting(c: dict[str, Any]) -> list[str]:
    from campaign_ledger.projections.text import shell_word

    q = shell_word(c["conflict"])
    if c["phase"] == "ended":
        return [f"{c['conflict']} is over."]
    if c["phase"] == "effects":
        due = c["next_pips"]
        return [f"{c['conflict']} round {c['round']} waits for {c['waiting_for'][0]}.",
                f"  Next: campaign beer-run pips {q} {due['by']} ABILITY=PIPS,... (on {due['on']})"]
    lines = [f"{c['conflict']} round {c['round']} waits for {', '.join(c['waiting_for']) or 'nothing'}."]

    def side(what: str) -> str:
        """The one side the round waits on for this (`Bob's goal and roll`), else SIDE."""
        names = [w.rsplit("'s ", 1)[0] for w in c["waiting_for"] if what in w.rsplit("'s ", 1)[-1]]
        return shell_word(names[0]) if len(names) == 1 else "SIDE"
    if any("goal" in w for w in c["waiting_for"]):
        lines.append(f"  Next: campaign beer-run goal {q} {side('goal')} \"GOAL\""
                     + (" (for a side with none)" if side("goal") == "SIDE" else ""))
    return lines + [f"  Next: campaign beer-run roll {q} {side('roll')} --faces ... (or without --faces to let the program roll)"]


def br_report_text(report: dict[str, Any]) -> str:
    lines = [f"#{r['entry']}  {r['line']}" for r in report.get("history", [])]
    if isinstance(report.get("conflict"), dict):
        lines += br_waiting(report["conflict"])
    return "\n".join(lines) or "Nothing to record."


def sheets_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No beer-run characters yet."
    blocks = []
    for r in rows:
        head = f"{r['name']}  ({r['status']})" + (f"  Intensity {r['intensity']}" if r["intensity"] is not None else "")
        lines = [head]
        for category, abilities in r["abilities"].items():
            dice = ", ".join(f"{a['name']} {br_die(a['size'])}" + (f" (of d{a['start']})" if a["size"] != a["start"] else "")
                             for a in abilities)
            lines.append(f"  {category}: {dice}")
        if r["situation"]:
            lines.append(f"  Situation dice: {br_held(r['situation'])}")
        if r["penalties"]:
            lines.append(f"  Penalty dice: {br_held(r['penalties'], True)}")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def pools_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No beer-run characters yet."
    width = max(len(r["name"]) for r in rows + [{"name": "Character"}])
    lines = [f"{'Character':<{width}}  Intensity  Situation dice  Penalty dice"]
    lines += [f"{r['name']:<{width}}  {r['intensity']:>9}  {br_held(r['situation']):<14}  "
              f"{br_held(r['penalties'], True)}" + ("  (dead)" if r["status"] == "dead" else "") for r in rows]
    return "\n".join(lines)


def br_statement_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No Intensity changes yet."
    width = max(len(r["character"]) for r in rows)
    return "\n".join(f"#{r['entry']:<4} {r['character']:<{width}}  {r['change']:+4d}  = {r['balance']:<3}  {r['reason']}"
                     for r in rows)


# A goal's kind as `status` says it (the JSON keeps the recorded kind: oppose, help, situation).
GOAL_WORDS = {"oppose": "goal", "help": "helping goal", "situation": "situational goal"}


def br_status_text(states: list[dict[str, Any]]) -> str:
    if not states:
        return "No conflict is open."
    lines = []
    for c in states:
        if c["phase"] == "ended":  # no side is still to roll: say only that it is over
            lines += br_waiting(c)
            continue
        lines.append(f"{c['conflict']}, round {c['round']} (target {c['target']}):")
        for side, s in c["sides"].items():
            goal = s["goal"]
            what = "no goal" if not goal else f"{GOAL_WORDS.get(goal['kind'], 'goal')} '{goal['text']}'" \
                + (f" ({goal['ability']} to zero)" if goal.get("ability") else f" (a d{goal['die']})" if goal.get("die") else "")
            state = f"out ({s['out']})" if s["out"] else "rolled" if s["rolled"] else "to roll"
            lines.append(f"  {side}: {what}; {state}")
        lines += ["  " + line for line in br_waiting(c)]
    return "\n".join(lines)


@beer_run.command("sheet")
@click.argument("name", required=False)
@json_option
@click.pass_context
def br_sheet(ctx: click.Context, name: str | None) -> None:
    """Show the character sheets (or one): ability dice by category, Intensity, held dice.

    Example: campaign beer-run sheet Ann
    """
    emit(ctx, campaign_of(ctx).beer_run_sheet(name), as_list(sheets_text))


@beer_run.command("pools")
@json_option
@click.pass_context
def br_pools(ctx: click.Context) -> None:
    """Show each character's Intensity and the situation and penalty dice it holds.

    Example: campaign beer-run pools
    """
    emit(ctx, campaign_of(ctx).beer_run_pools(), pools_text)


@beer_run.command("statement")
@click.argument("name", required=False)
@json_option
@click.pass_context
def br_statement(ctx: click.Context, name: str | None) -> None:
    """Show every change of Intensity with the balance after it (one character's, or all).

    Example: campaign beer-run statement Ann
    """
    emit(ctx, campaign_of(ctx).beer_run_statement(name), br_statement_text)


@beer_run.command("status")
@click.argument("conflict", required=False)
@json_option
@click.pass_context
def br_status(ctx: click.Context, conflict: str | None) -> None:
    """Show the open conflicts (or one): goals, who has rolled, and what the round waits for.

    Example: campaign beer-run status "Back Door"
    """
    emit(ctx, campaign_of(ctx).beer_run_status(conflict), br_status_text)


@beer_run.command("conflicts")
@click.option("--open", "open_only", is_flag=True, help="Only the conflicts still going on.")
@json_option
@click.pass_context
def br_conflicts(ctx: click.Context, open_only: bool) -> None:
    """List every conflict, open or ended: its sides, round, who left and how it ended.

    Example: campaign beer-run conflicts --json
    """
    emit(ctx, campaign_of(ctx).beer_run_conflicts(open_only=open_only), br_conflicts_text)


def br_conflicts_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No conflicts yet."
    lines = []
    for c in rows:
        left = "; ".join(f"{side} {why}" for side, why in c["out"].items())
        ending = f"ended: {c['result']}" if c["status"] == "ended" else f"open, round {c['round']}"
        lines.append(f"{c['name']} ({', '.join(c['sides'])}): {ending}" + (f"; out: {left}" if left else ""))
    return "\n".join(lines)


def br_show(ctx: click.Context, report: dict) -> None:
    """Print what a write appended; the text says what the conflict waits for next."""
    show_report(ctx, report, br_report_text)
