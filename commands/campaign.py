"""Commands every campaign has, whatever its ruleset: make one, sessions, status, sheets, pools,
statements, rebuild and the demo (history and notes: commands/history.py)."""
from __future__ import annotations

import os
from typing import Any, Callable

import click

from commands import choices

from ledger.errors import BadInput, NotFound, RuleViolation, Unusable
from commands.plumbing import bind_read_file, catch_up_warning, emit, json_option, noted, open_campaign, progress_bar, read_view, write_command
from commands.parsing import at_option, entry_at, parse_settings


COMMANDS = click.Group()  # added to `campaign` by cli.py


@COMMANDS.command()
@click.argument("name")
@click.option("--ruleset", type=choices.RULESET, default="relics", show_default=True, help="The rules the campaign is played under.")
@click.option("--rules-version", default=None, help="Rules version (relics: 0.6.1 default, or 0.2.0).")
@click.option("--setting", "settings", multiple=True, metavar="KEY=VALUE",
              help="A campaign setting of the ruleset (see README), e.g. supply_threshold=3. Repeatable.")
@json_option
@click.pass_context
def new(ctx: click.Context, name: str, ruleset: str, rules_version: str | None, settings: tuple[str, ...]) -> None:
    """Start a campaign in a new file.

    Example: campaign --db heist.db new "The Moon Heist" --rules-version 0.6.1
    """
    path = ctx.find_root().obj["db"]
    if os.path.exists(path) and os.path.getsize(path) and holds_campaign(ctx):
        raise Unusable(f"{path} already holds a campaign; choose another file with --db.")
    fresh = not os.path.exists(path)
    try:
        write_command(ctx, lambda app: app.start(name, ruleset, rules_version, parse_settings(settings)), must_exist=False)
    except Exception:
        if fresh:  # the refused campaign leaves no empty file behind (nothing was ever written to it)
            for leftover in (path, path + "-wal", path + "-shm"):
                if os.path.exists(leftover):
                    os.remove(leftover)
        raise


def holds_campaign(ctx: click.Context) -> bool:
    app, _ = open_campaign(ctx)
    try:
        app.campaign()
    except Exception:
        return False
    return True


@COMMANDS.group()
def session() -> None:
    """Play sessions: the real-world sittings of the table."""


@session.command("start")
@click.argument("title")
@json_option
@click.pass_context
def session_start(ctx: click.Context, title: str) -> None:
    """Start a play session; entries until `session end` belong to it.

    Example: campaign session start "Session 12: the vault"
    """
    write_command(ctx, lambda app: app.start_session(title))


@session.command("end")
@json_option
@click.pass_context
def session_end(ctx: click.Context) -> None:
    """End the open play session.

    Example: campaign session end
    """
    write_command(ctx, lambda app: app.end_session())


@session.command("list")
@json_option
@click.pass_context
def session_list(ctx: click.Context) -> None:
    """List the play sessions and the entries each holds.

    Example: campaign session list
    """
    from projections import sessions

    def text(rows: list) -> str:
        return "\n".join(f"{r['number']}. {r['title']}: entries #{r['first_entry']}-"
                         f"{'#' + str(r['last_entry']) if r['last_entry'] else 'now (open)'}" for r in rows) \
            or "No sessions yet."
    read_view(ctx, lambda app, db: sessions.all_sessions(db), text)


@COMMANDS.command()
@json_option
@click.pass_context
def status(ctx: click.Context) -> None:
    """Show the unfinished turn (if any) and where each open Challenge stands.

    Example: campaign status
    """
    from projections.text import status_text
    from ledger.rulesets.relics.challenge import NEXT_STEP
    from ledger.ids import challenge_id
    from ledger.rulesets.relics.odds import pool_line
    from projections import views
    from projections.rulesets.relics import state as relics_state

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


@COMMANDS.command()
@click.argument("name", required=False)
@at_option
@json_option
@click.pass_context
def sheet(ctx: click.Context, name: str | None, at: str | None) -> None:
    """Show the character sheets (or one character's), now or as they stood --at an entry or time.

    Example: campaign sheet Kira --at 40
    """
    from projections import views

    seen: dict[str, str] = {}  # the ruleset the query found, for the text

    def query(app: Any, db: Any) -> list:
        ruleset = seen["ruleset"] = views.campaign(db).get("ruleset", "relics")
        if ruleset == "relics":
            rows = views.sheets(db, name, entry_at(db, at))
        else:
            with as_of(app, db, at) as past:
                rows = [r for r in sheets_of(ruleset, past)[0] if not name or r["name"].casefold() == name.casefold()]
        if name and not rows:
            raise NotFound(f"There is no character named '{name}' in this campaign.")
        return rows
    read_view(ctx, query, lambda rows: sheets_of(seen["ruleset"], None)[1](rows))


def as_of(app: Any, db: Any, at: str | None):
    """The read tables now, or rebuilt as they stood --at an entry (for tables without a history)."""
    import contextlib

    from projections import runner
    entry = entry_at(db, at)
    return contextlib.nullcontext(db) if entry is None else runner.as_of(app, entry)


@COMMANDS.command()
@at_option
@json_option
@click.pass_context
def pools(ctx: click.Context, at: str | None) -> None:
    """Show the pools: Destiny and Doom (Relics), Intensity (Beer Run), supply dice and trackers
    (decision-2d6); now or --at an entry or time.

    Example: campaign pools --at 2026-11-22T20:15
    """
    from projections import views

    seen: dict[str, str] = {}  # the ruleset the query found, for the text

    def query(app: Any, db: Any) -> Any:
        ruleset = seen["ruleset"] = views.campaign(db).get("ruleset", "relics")
        if ruleset == "relics":
            return views.pools(db, entry_at(db, at))
        with as_of(app, db, at) as past:
            return pools_of(ruleset, past)[0]
    read_view(ctx, query, lambda value: pools_of(seen["ruleset"], None)[1](value))


def pools_of(ruleset: str, db: Any) -> tuple[Any, Callable[[Any], str]]:
    """Each ruleset's own pools (read from `db` when given), and how to print them."""
    from projections.rulesets.beer_run import tables as beer_run
    from projections.rulesets.decision_2d6 import tables as decision_2d6
    from projections.text import pools_text
    from projections import views

    if ruleset == "beer-run":
        from commands.beer_run import br_pools_text
        return (beer_run.pools(db) if db is not None else None), br_pools_text
    if ruleset == "decision-2d6":
        from commands.decision_2d6 import d2d6_pools_text
        return (decision_2d6.pools(db) if db is not None else None), d2d6_pools_text
    if ruleset == "action-dice":
        return [], lambda _: "An action-dice campaign keeps no pools; see `campaign action-dice sheet`."
    return (views.pools(db) if db is not None else None), pools_text


@COMMANDS.command()
@click.argument("balance")
@json_option
@click.pass_context
def statement(ctx: click.Context, balance: str) -> None:
    """Every entry that changed a balance, with the running balance, like a bank statement.

    BALANCE is destiny, doom, or NAME:stress / NAME:agony (and a ruleset's own balances).
    Example: campaign statement doom
    """
    from projections.text import statement_text
    from projections import views

    def query(app: Any, db: Any) -> dict:
        rows = views.statement(db, balance)
        if not rows:
            known = ", ".join(views.balance_names(db)) or "none yet"
            raise NotFound(f"No balance named '{balance}'; balances: {known}.")
        return {"balance": balance, "entries": rows}
    read_view(ctx, query, statement_text)


@COMMANDS.command()
@click.option("--force", is_flag=True, help="Rebuild even from a ledger whose hash chain is broken.")
@json_option
@click.pass_context
def rebuild(ctx: click.Context, force: bool) -> None:
    """Re-derive every read table from the whole ledger, after verifying its hash chain.

    Example: campaign rebuild
    """
    from ledger.chain import chained
    from projections import runner

    app, db = open_campaign(ctx)
    head = chained(app.recorder).head()[0]  # entries up to it are verified now, not hashed again below
    broken = chained(app.recorder).verify_all() or runner.recorded_break(app, db)
    if broken is not None and not force:
        raise broken.error().refusing("rebuild", "`campaign rebuild --force` copies it into the tables anyway")
    with progress_bar(ctx, app.recorder.max_notification_id() or 0, "Rebuilding") as bar:
        applied = runner.rebuild(app, db, bar.update if bar is not None else None, check=broken is None,
                                 trusted=head)
    runner.record_verdict(db, broken and broken.entry, broken and broken.reason)
    noted(db)
    emit(ctx, {"entries": applied}, lambda r: f"Rebuilt the read model from {r['entries']} ledger entries.")


@COMMANDS.command()
@click.option("--system", default="relics", show_default=True,
              type=click.Choice(["relics", "beer-run", "action-dice", "decision-2d6"]), help="The ruleset to demo.")
@json_option
@click.pass_context
def demo(ctx: click.Context, system: str) -> None:
    """Create a sample campaign and play a short scene of its ruleset with entered faces.

    Run again on the same file, it shows the demo campaign as it stands.

    Example: campaign --db demo.db demo
    """
    from projections.text import history_text
    from ledger import rulesets
    from projections import runner, views

    path = ctx.find_root().obj["db"]
    existed = os.path.exists(path)
    app, db = open_campaign(ctx, must_exist=False, reading=existed)  # shown again, a read-only copy will do
    demos = rulesets.demos()
    if system not in demos:
        raise BadInput(f"There is no {system} demo yet.")
    name, play = demos[system]
    if existed:
        catch_up_warning(app, db)
        if views.campaign(db).get("name") != name:
            raise Unusable(f"{path} holds another campaign; the demo needs a new file, choose one with --db.")
    else:
        play(app)
        runner.catch_up(app, db)
        bind_read_file(path, app, db)
    sheets, sheets_as_text = sheets_of(system, db)
    pools, pools_as_text = pools_of(system, db)
    result = {"sheets": sheets, "pools": pools, "history": views.history(db)}
    parts = [sheets_as_text(sheets)] + ([pools_as_text(pools)] if system != "action-dice" else [])
    emit(ctx, result, lambda r: "\n\n".join(parts + [history_text(r["history"])]))


def sheets_of(ruleset: str, db: Any) -> tuple[Any, Callable[[Any], str]]:
    """Each ruleset's own sheets (read from `db` when given), and how to print them."""
    from projections import views
    from projections.rulesets.action_dice import tables as action_dice
    from projections.rulesets.beer_run import tables as beer_run
    from projections.rulesets.decision_2d6 import tables as decision_2d6
    from projections.text import sheets_text

    if ruleset == "action-dice":
        from commands.action_dice import action_dice_sheets_text
        return (action_dice.sheets(db) if db is not None else None), action_dice_sheets_text
    if ruleset == "decision-2d6":
        from commands.decision_2d6 import d2d6_sheets_text
        return (decision_2d6.sheets(db) if db is not None else None), d2d6_sheets_text
    if ruleset == "beer-run":
        from commands.beer_run import br_sheets_text
        return (beer_run.sheets(db) if db is not None else None), br_sheets_text
    return (views.sheets(db) if db is not None else None), sheets_text
