"""Beer Run (seed 002): opposed pools, Intensity, pips."""
from __future__ import annotations

from typing import Any, Callable

import click

from ledger.errors import BadInput, NotFound
from commands.plumbing import json_option, read_view, write_command
from commands.parsing import parse_pairs


# --- beer-run (seed 002): plumbing and the table's shorthand --------------------------------------------------------

COMMANDS = click.Group()  # added to `campaign` by cli.py


def _br_write(ctx: click.Context, call: Callable[[Any], dict]) -> None:
    """Like write_command, but the text says what the conflict waits for next."""
    write_command(ctx, call, text=_br_report_text)




def br_list(text: str | None) -> list[str]:
    """'Brawn,Wits' -> ['Brawn', 'Wits']."""
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def _br_abilities(values: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """'Physical:Brawn=d8,Physical:Health=d6' (repeatable) -> [(category, name, die), ...]."""
    result = []
    for value in values:
        for part in br_list(value):
            head, eq, die = part.rpartition("=")
            category, colon, name = head.partition(":")
            if not eq or not colon or not category.strip() or not name.strip():
                raise BadInput(f"Write an ability as CATEGORY:NAME=dN, e.g. Physical:Brawn=d8, not '{part}'.")
            result.append((category.strip(), name.strip(), die.strip()))
    return result


def _br_dice(text: str) -> list[tuple[str | None, str]]:
    """'d8,Lock=d10' -> [(None, 'd8'), ('Lock', 'd10')]."""
    return [(n.strip() or None, d.strip()) if eq else (None, n.strip())
            for n, eq, d in (p.partition("=") for p in br_list(text))]


def _br_numbers(text: str | None) -> list[int]:
    from ledger.dice import parse_faces
    return list(parse_faces(text)) if text else []


def _br_faces(faces: str | None, penalty: str | None, difficulty: str | None, roll: bool):
    from ledger.dice import parse_faces
    from ledger.rulesets.beer_run.play import Faces

    def read(text: str | None) -> tuple[int, ...] | None:
        return None if text is None else parse_faces(text)
    return Faces(read(faces), read(penalty), read(difficulty), roll)


_br_roll_options = [
    click.option("--base", help="The base pool, one ability per category, e.g. Brawn,Wits,Charm "
                                "(default: the biggest die left in each category)."),
    click.option("--extra", help="Extra abilities, e.g. Health,Guts: k extra cost k(k+1)/2 Intensity."),
    click.option("--faces", help="Faces rolled at the table, in pool order (abilities, then situation dice)."),
    click.option("--penalty-faces", help="Faces of the penalty dice that oppose this roll."),
    click.option("--difficulty-faces", help="Faces of the difficulty dice of a helping or situational goal."),
    click.option("--roll", is_flag=True, help="Let the program roll every die (also the default without --faces)."),
    click.option("--gm-override", "--override", "override", metavar="REASON",
                 help="The GM's reason to let a pool through that the rules refuse."),
]


def _br_roll_inputs(f: Callable) -> Callable:
    for option in reversed(_br_roll_options):
        f = option(f)
    return f


# --- text ------------------------------------------------------------------------------------------

def _br_die(size: int) -> str:
    return f"d{size}" if size > 0 else "gone"


def _br_held(dice: list[dict], lasting_word: bool = False) -> str:
    if lasting_word:
        return ", ".join(f"d{d['size']} ({'lasting' if d['lasting'] else 'next roll'})" for d in dice) or "none"
    return ", ".join(f"d{d['size']} x{d['uses']}" for d in dice) or "none"


def _br_waiting(c: dict[str, Any]) -> list[str]:
    q = f'"{c["conflict"]}"' if " " in c["conflict"] else c["conflict"]
    if c["phase"] == "ended":
        return [f"{c['conflict']} is over."]
    if c["phase"] == "effects":
        due = c["next_pips"]
        return [f"{c['conflict']} round {c['round']} waits for {c['waiting_for'][0]}.",
                f"  Next: campaign beer-run pips {q} {due['by']} ABILITY=PIPS,... (on {due['on']})"]
    lines = [f"{c['conflict']} round {c['round']} waits for {', '.join(c['waiting_for']) or 'nothing'}."]
    if any("goal" in w for w in c["waiting_for"]):
        lines.append(f"  Next: campaign beer-run goal {q} SIDE \"GOAL\" (for a side with none)")
    return lines + [f"  Next: campaign beer-run roll {q} SIDE --faces ... (or without --faces to let the program roll)"]


def _br_report_text(report: dict[str, Any]) -> str:
    lines = [f"#{r['entry']}  {r['line']}" for r in report.get("history", [])]
    if isinstance(report.get("conflict"), dict):
        lines += _br_waiting(report["conflict"])
    return "\n".join(lines) or "Nothing to record."


def br_sheets_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No beer-run characters yet."
    blocks = []
    for r in rows:
        head = f"{r['name']}  ({r['status']})" + (f"  Intensity {r['intensity']}" if r["intensity"] is not None else "")
        lines = [head]
        for category, abilities in r["abilities"].items():
            dice = ", ".join(f"{a['name']} {_br_die(a['size'])}" + (f" (of d{a['start']})" if a["size"] != a["start"] else "")
                             for a in abilities)
            lines.append(f"  {category}: {dice}")
        if r["situation"]:
            lines.append(f"  Situation dice: {_br_held(r['situation'])}")
        if r["penalties"]:
            lines.append(f"  Penalty dice: {_br_held(r['penalties'], True)}")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def br_pools_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No beer-run characters yet."
    width = max(len(r["name"]) for r in rows + [{"name": "Character"}])
    lines = [f"{'Character':<{width}}  Intensity  Situation dice  Penalty dice"]
    lines += [f"{r['name']:<{width}}  {r['intensity']:>9}  {_br_held(r['situation']):<14}  "
              f"{_br_held(r['penalties'], True)}" + ("  (dead)" if r["status"] == "dead" else "") for r in rows]
    return "\n".join(lines)


def _br_statement_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No Intensity changes yet."
    width = max(len(r["character"]) for r in rows)
    return "\n".join(f"#{r['entry']:<4} {r['character']:<{width}}  {r['change']:+4d}  = {r['balance']:<3}  {r['reason']}"
                     for r in rows)


def _br_status_text(states: list[dict[str, Any]]) -> str:
    if not states:
        return "No conflict is open."
    lines = []
    for c in states:
        lines.append(f"{c['conflict']}, round {c['round']} (target {c['target']}):")
        for side, s in c["sides"].items():
            goal = s["goal"]
            what = "no goal" if not goal else f"{goal['kind']} goal '{goal['text']}'" \
                + (f" ({goal['ability']} to zero)" if goal.get("ability") else "")
            state = f"out ({s['out']})" if s["out"] else "rolled" if s["rolled"] else "to roll"
            lines.append(f"  {side}: {what}; {state}")
        lines += ["  " + line for line in _br_waiting(c)]
    return "\n".join(lines)


# --- commands --------------------------------------------------------------------------------------

@COMMANDS.group("beer-run")
def beer_run() -> None:
    """Beer Run campaigns: ability dice in categories, Intensity, opposed pools worn down by pips."""


@beer_run.group("character")
def br_character() -> None:
    """Characters of a beer-run campaign (PCs and the GM's participants alike)."""


@br_character.command("add")
@click.argument("name")
@click.option("--ability", "abilities", multiple=True, required=True, metavar="CATEGORY:NAME=dN,...",
              help="Ability dice, e.g. Physical:Brawn=d8,Physical:Health=d6. Repeatable. Health is required.")
@click.option("--intensity", type=int, default=None,
              help="Starting Intensity (default: the campaign's intensity setting, else 10).")
@json_option
@click.pass_context
def br_character_add(ctx: click.Context, name: str, abilities: tuple[str, ...], intensity: int | None) -> None:
    """Add a character with ability dice grouped in the campaign's categories.

    Example: campaign beer-run character add Ann --ability Physical:Brawn=d8,Physical:Health=d6,Mental:Wits=d6,Social:Charm=d4
    """
    _br_write(ctx, lambda app: app.beer_run_add_character(name, _br_abilities(abilities), intensity))


@beer_run.group("difficulty")
def br_difficulty() -> None:
    """The GM's static difficulty pools."""


@br_difficulty.command("add")
@click.argument("name")
@click.option("--dice", required=True, help="Its dice, e.g. d8,d6,d6 or Lock=d8,Bars=d6.")
@json_option
@click.pass_context
def br_difficulty_add(ctx: click.Context, name: str, dice: str) -> None:
    """Add a static difficulty pool: it rolls all its dice each round and pays no Intensity.

    Example: campaign beer-run difficulty add "Locked Door" --dice Lock=d8,Bars=d6
    """
    _br_write(ctx, lambda app: app.beer_run_add_difficulty(name, _br_dice(dice)))


@beer_run.command("intensity")
@click.argument("name")
@click.option("--gain", type=int, default=0, help="Intensity the character gains.")
@click.option("--lose", type=int, default=0, help="Intensity the character loses.")
@click.option("--reason", default="", help="Why, for the statement.")
@json_option
@click.pass_context
def br_intensity(ctx: click.Context, name: str, gain: int, lose: int, reason: str) -> None:
    """Give or take Intensity (the GM's word; every change is a line of the statement).

    Example: campaign beer-run intensity Ann --gain 3 --reason "a night's sleep"
    """
    if gain < 0 or lose < 0:
        raise BadInput("Give --gain and --lose as positive numbers.")
    _br_write(ctx, lambda app: app.beer_run_intensity(name, gain - lose, reason))


@beer_run.group("conflict")
def br_conflict() -> None:
    """Conflicts: sides, rounds, and their end."""


@br_conflict.command("open")
@click.argument("name")
@click.option("--side", "sides", multiple=True, required=True, help="A side (a character or difficulty). Repeatable.")
@click.option("--target", help="With more than two sides: the side every other side opposes.")
@json_option
@click.pass_context
def br_conflict_open(ctx: click.Context, name: str, sides: tuple[str, ...], target: str | None) -> None:
    """Open a conflict; several sides against one target compare against it one by one.

    Example: campaign beer-run conflict open "Back Door" --side Ann --side Bouncer
    """
    _br_write(ctx, lambda app: app.beer_run_open_conflict(name, list(sides), target))


@br_conflict.command("end")
@click.argument("name")
@click.option("--reason", required=True, help="How it ended.")
@json_option
@click.pass_context
def br_conflict_end(ctx: click.Context, name: str, reason: str) -> None:
    """End a conflict (the GM's call, e.g. once a side has its goal and wants nothing more).

    Example: campaign beer-run conflict end "Back Door" --reason "Ann is inside"
    """
    _br_write(ctx, lambda app: app.beer_run_end_conflict(name, reason))


@beer_run.command("goal")
@click.argument("conflict")
@click.argument("side")
@click.argument("text")
@click.option("--ability", help="The opposing ability this goal takes to zero (a Cede gives it at once).")
@click.option("--situation", metavar="dN", help="A situational goal: the die to gain for later rolls.")
@click.option("--against", help="The GM's difficulty pool for it, e.g. d4,d6,d10 (default: three of the die).")
@click.option("--replace", help="Which dice of --against (from 1) become the gained die, at most three.")
@json_option
@click.pass_context
def br_goal(ctx: click.Context, conflict: str, side: str, text: str, ability: str | None,
            situation: str | None, against: str | None, replace: str | None) -> None:
    """State a side's goal for the round (it stands until changed or gained).

    Example: campaign beer-run goal "Back Door" Ann "slip past the Bouncer" --ability Attention
    """
    _br_write(ctx, lambda app: app.beer_run_goal(conflict, side, text, ability, situation,
                                                 br_list(against), _br_numbers(replace)))


@beer_run.command("helping")
@click.argument("conflict")
@click.argument("helper")
@click.argument("ally")
@click.argument("text")
@click.option("--die", required=True, metavar="dN", help="The die the ally gains, once per success.")
@click.option("--against", help="The GM's difficulty pool, e.g. d4,d6,d10 (default: three of the die).")
@click.option("--replace", help="Which dice of --against (from 1) become the die, at most three.")
@_br_roll_inputs
@json_option
@click.pass_context
def br_helping(ctx: click.Context, conflict: str, helper: str, ally: str, text: str, die: str,
               against: str | None, replace: str | None, base: str | None, extra: str | None,
               faces: str | None, penalty_faces: str | None, difficulty_faces: str | None, roll: bool,
               override: str | None) -> None:
    """A helping goal, rolled before the round's pools: each success is a use of the die for the ally.

    Example: campaign beer-run helping "Back Door" Cal Ann "distract him" --die d6 --faces 2,4,9 --difficulty-faces 5,5,3
    """
    _br_write(ctx, lambda app: app.beer_run_help(
        conflict, helper, ally, text, die, br_list(against), _br_numbers(replace), br_list(base),
        br_list(extra), _br_faces(faces, penalty_faces, difficulty_faces, roll), override))


@beer_run.command("roll")
@click.argument("conflict")
@click.argument("side")
@_br_roll_inputs
@json_option
@click.pass_context
def br_roll(ctx: click.Context, conflict: str, side: str, base: str | None, extra: str | None,
            faces: str | None, penalty_faces: str | None, difficulty_faces: str | None, roll: bool,
            override: str | None) -> None:
    """Pay Intensity and roll a side's pool; once every side has rolled, the pools are compared.

    Example: campaign beer-run roll "Back Door" Ann --base Brawn,Wits,Charm --extra Health --faces 8,6,3,2
    """
    _br_write(ctx, lambda app: app.beer_run_roll(conflict, side, br_list(base), br_list(extra),
                                                 _br_faces(faces, penalty_faces, difficulty_faces, roll), override))


@beer_run.command("pips")
@click.argument("conflict")
@click.argument("by")
@click.argument("split")
@click.option("--on", help="The side the pips land on (a check; the conflict knows it).")
@json_option
@click.pass_context
def br_pips(ctx: click.Context, conflict: str, by: str, split: str, on: str | None) -> None:
    """Land a side's kept successes as pips on opposing abilities, split as it likes; upper hand first.

    Example: campaign beer-run pips "Back Door" Ann Attention=2,Intimidate=1
    """
    _br_write(ctx, lambda app: app.beer_run_pips(conflict, by, parse_pairs(split, "pips"), on))


@beer_run.command("cede")
@click.argument("conflict")
@click.argument("side")
@json_option
@click.pass_context
def br_cede(ctx: click.Context, conflict: str, side: str) -> None:
    """Cede between rounds: the opposition gains its goal (an ability it aimed at goes to zero).

    Example: campaign beer-run cede "Back Door" Bouncer
    """
    _br_write(ctx, lambda app: app.beer_run_cede(conflict, side))


@beer_run.group("outcome")
def br_outcome() -> None:
    """Outcome dice: gained or inflicted for good."""


@br_outcome.command("gain")
@click.argument("name")
@click.argument("ability", metavar="CATEGORY:NAME=dN")
@click.option("--reason", default="", help="What was won.")
@json_option
@click.pass_context
def br_outcome_gain(ctx: click.Context, name: str, ability: str, reason: str) -> None:
    """A character gains a die for good: a new ability (or a gone one back).

    Example: campaign beer-run outcome gain Ann Social:Six-pack=d6 --reason "bought the beer"
    """
    parsed = _br_abilities((ability,))
    if len(parsed) != 1:
        raise BadInput(f"Give one outcome die as CATEGORY:NAME=dN, not '{ability}'.")
    [(category, ability_name, die)] = parsed
    _br_write(ctx, lambda app: app.beer_run_gain_outcome(name, category, ability_name, die, reason))


@br_outcome.command("inflict")
@click.argument("name")
@click.argument("die", metavar="dN")
@click.option("--reason", default="", help="What it stands for.")
@json_option
@click.pass_context
def br_outcome_inflict(ctx: click.Context, name: str, die: str, reason: str) -> None:
    """Inflict a die for good: it joins the pool against every roll of the character until lifted.

    Example: campaign beer-run outcome inflict Bouncer d4 --reason "laughed at by the queue"
    """
    _br_write(ctx, lambda app: app.beer_run_inflict_outcome(name, die, reason))


@br_outcome.command("lift")
@click.argument("name")
@click.argument("die", metavar="dN")
@click.option("--reason", default="", help="Why it is lifted.")
@json_option
@click.pass_context
def br_outcome_lift(ctx: click.Context, name: str, die: str, reason: str) -> None:
    """Lift a lasting penalty die.

    Example: campaign beer-run outcome lift Bouncer d4 --reason "the queue forgot"
    """
    _br_write(ctx, lambda app: app.beer_run_lift_penalty(name, die, reason))


@beer_run.command("sheet")
@click.argument("name", required=False)
@json_option
@click.pass_context
def br_sheet(ctx: click.Context, name: str | None) -> None:
    """Show the character sheets (or one): ability dice by category, Intensity, held dice.

    Example: campaign beer-run sheet Ann
    """
    from projections.rulesets.beer_run import tables as views

    def query(app: Any, db: Any) -> list:
        rows = views.sheets(db, name)
        if name and not rows:
            raise NotFound(f"There is no character named '{name}' in this campaign.")
        return rows
    read_view(ctx, query, br_sheets_text)


@beer_run.command("pools")
@json_option
@click.pass_context
def br_pools(ctx: click.Context) -> None:
    """Show each character's Intensity and the situation and penalty dice it holds.

    Example: campaign beer-run pools
    """
    from projections.rulesets.beer_run import tables as views
    read_view(ctx, lambda app, db: views.pools(db), br_pools_text)


@beer_run.command("statement")
@click.argument("name", required=False)
@json_option
@click.pass_context
def br_statement(ctx: click.Context, name: str | None) -> None:
    """Show every change of Intensity with the balance after it (one character's, or all).

    Example: campaign beer-run statement Ann
    """
    from projections.rulesets.beer_run import tables as views
    read_view(ctx, lambda app, db: views.statement(db, name), _br_statement_text)


@beer_run.command("status")
@click.argument("conflict", required=False)
@json_option
@click.pass_context
def br_status(ctx: click.Context, conflict: str | None) -> None:
    """Show the open conflicts (or one): goals, who has rolled, and what the round waits for.

    Example: campaign beer-run status "Back Door"
    """
    from projections.rulesets.beer_run import tables as views

    def query(app: Any, db: Any) -> list:
        names = [conflict] if conflict else [c["name"] for c in views.conflicts(db, open_only=True)]
        return [app.beer_run_conflict_state(n) for n in names]
    read_view(ctx, query, _br_status_text)
