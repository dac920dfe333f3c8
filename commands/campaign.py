"""Commands every campaign has, whatever its ruleset: make one, sessions, status, sheets, pools,
statements, rebuild and the demo (history and notes: commands/history.py)."""
from __future__ import annotations

import os
from typing import Any

import click

from campaign_ledger.commands import choices

from campaign_ledger.ledger.errors import BadInput, NotFound, Unusable
from campaign_ledger.commands.plumbing import as_list, bind_read_file, catch_up_warning, emit, json_option, known_character, noted, one_or_all, open_campaign, progress_bar, read_view, ruleset_of, write_command
from campaign_ledger.commands.parsing import at_option, parse_settings
from campaign_ledger.errors import CampaignError
from campaign_ledger.failures import read_only_media


COMMANDS = click.Group()  # added to `campaign` by cli.py


@COMMANDS.command()
@click.argument("name")
@click.option("--ruleset", type=choices.RULESET, default=None,
              help="The rules the campaign is played under (default: the registry's default, listed first in README).")
@click.option("--system", "system", type=choices.RULESET, default=None, hidden=True)  # demo's word for it
@click.option("--rules-version", default=None, help="Rules version (default: the ruleset's newest; README lists each ruleset's).")
@click.option("--setting", "settings", multiple=True, metavar="KEY=VALUE",
              help="A campaign setting of the ruleset (see README), e.g. supply_threshold=3. Repeatable.")
@json_option
@click.pass_context
def new(ctx: click.Context, name: str, ruleset: str | None, system: str | None, rules_version: str | None,
        settings: tuple[str, ...]) -> None:
    """Start a campaign in a new file.

    Example: campaign --db heist.db new "The Moon Heist" --rules-version 0.6.1
    """
    from campaign_ledger.ledger import rulesets

    ruleset = ruleset or system or rulesets.default_id()
    path = ctx.find_root().obj["db"]
    if os.path.exists(path) and os.path.getsize(path) and holds_campaign(ctx):
        raise Unusable(f"{path} already holds a campaign; choose another file with --db.")
    fresh = not os.path.exists(path)
    try:
        write_command(ctx, lambda app: app.start(name, ruleset, rules_version, parse_settings(settings)), must_exist=False)
    except Exception as e:
        if not fresh:
            raise
        for leftover in (path, path + "-wal", path + "-shm"):  # a refused campaign leaves no file behind
            if os.path.exists(leftover):
                os.remove(leftover)
        if ctx.find_root().obj.get("recorded"):  # its first entry went with the file (a disk full after it)
            raise _unrecorded(ctx, e) from None
        raise


def _unrecorded(ctx: click.Context, e: Exception) -> Exception:
    """The refusal of a new campaign whose file was removed after its first entry: nothing was kept."""
    from campaign_ledger.failures import FAILED, refusal

    ctx.find_root().obj["recorded"] = []
    failure = e.__context__ if isinstance(e, (click.ClickException, CampaignError)) and e.__context__ is not None else e
    named = refusal(ctx.find_root().obj, failure)
    return CampaignError(*named) if named else CampaignError(
        f"the campaign could not be made ({type(failure).__name__}: {failure}); nothing was kept (its new file was "
        "removed).", 1, FAILED)


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
    from campaign_ledger.projections import sessions

    def text(rows: list) -> str:
        return "\n".join(f"{r['number']}. {r['title']}: entries #{r['first_entry']}-"
                         f"{'#' + str(r['last_entry']) if r['last_entry'] else 'now (open)'}" for r in rows) \
            or "No sessions yet."
    read_view(ctx, lambda app, db: sessions.all_sessions(db), text)


@COMMANDS.command()
@click.argument("name", required=False)
@at_option
@json_option
@click.pass_context
def sheet(ctx: click.Context, name: str | None, at: str | None) -> None:
    """Show the character sheets (or one character's), now or as they stood --at an entry or time.

    Example: campaign sheet Kira --at 40
    """
    from campaign_ledger import views

    seen: dict[str, Any] = {}  # the ruleset's views the query found, for the text

    def query(app: Any, db: Any) -> Any:
        seen["views"] = views.views_of(db)
        return views.sheet(app, db, name, at)
    read_view(ctx, query, as_list(lambda rows: seen["views"].sheets_text(rows)))


@COMMANDS.command()
@at_option
@json_option
@click.pass_context
def pools(ctx: click.Context, at: str | None) -> None:
    """Show the pools: Destiny and Doom (Relics), Intensity (Beer Run), supply dice and trackers
    (decision-2d6); now or --at an entry or time.

    Example: campaign pools --at 2026-11-22T20:15
    """
    from campaign_ledger import views

    seen: dict[str, Any] = {}  # the ruleset's views the query found, for the text

    def query(app: Any, db: Any) -> Any:
        seen["views"] = views.views_of(db)
        return views.pools(app, db, at)
    read_view(ctx, query, lambda value: seen["views"].pools_text(value))


@COMMANDS.command()
@click.argument("balance")
@json_option
@click.pass_context
def statement(ctx: click.Context, balance: str) -> None:
    """Every entry that changed a balance, with the running balance, like a bank statement.

    BALANCE is destiny, doom, or NAME:stress / NAME:agony (and a ruleset's own balances).
    Example: campaign statement doom
    """
    from campaign_ledger.projections.text import statement_text
    from campaign_ledger.projections import views

    def query(app: Any, db: Any) -> dict:
        rows = views.statement(db, balance)
        if not rows:
            known = ", ".join(views.balance_names(db)) or "none yet"
            raise NotFound(f"No balance named '{balance}'; balances: {known}.")
        return {"balance": balance, "entries": rows, "changes": rows}  # `changes`; `entries` kept for old scripts
    read_view(ctx, query, statement_text)


@COMMANDS.command()
@click.option("--force", is_flag=True, help="Rebuild even from a ledger whose hash chain is broken.")
@json_option
@click.pass_context
def rebuild(ctx: click.Context, force: bool) -> None:
    """Re-derive every read table from the whole ledger, after verifying its hash chain.

    Example: campaign rebuild
    """
    from campaign_ledger.ledger.chain import ChainBroken, chained
    from campaign_ledger.ledger.chain_halves import verify_whole
    from campaign_ledger.projections import runner, verifying

    app, db = open_campaign(ctx)
    broken, applied = verifying.recorded_break(app, db), None
    with progress_bar(ctx, app.recorder.max_notification_id() or 0, "Rebuilding") as bar:
        if broken is None:
            try:  # the chain verified whole as its rows are read for the tables: a break rolls it all back
                applied = runner.rebuild(app, db, bar.update if bar is not None else None, whole=True)
            except ChainBroken as e:
                broken = chained(app.recorder).broken(e.entry, e.reason)
        if broken is not None and not force:
            raise broken.error().refusing("rebuild", "`campaign rebuild --force` copies it into the tables anyway")
        if applied is None:
            broken = verify_whole(app) or broken  # the first break, for the verdict kept
            applied = runner.rebuild(app, db, None, check=False)
    runner.record_verdict(db, broken and broken.entry, broken and broken.reason)
    noted(db)
    emit(ctx, {"entries": applied, "entry_count": applied},  # `entries` (a count) kept for old scripts
         lambda r: f"Rebuilt the read model from {r['entry_count']} ledger entries.")


@COMMANDS.command()
@click.option("--system", default=None, type=choices.DEMO, help="The ruleset to demo (default: the registry's default).")
@click.option("--ruleset", "ruleset", default=None, type=choices.DEMO, hidden=True)  # new's word for it
@json_option
@click.pass_context
def demo(ctx: click.Context, system: str | None, ruleset: str | None) -> None:
    """Create a sample campaign and play a short scene of its ruleset with entered faces.

    Run again on the same file, it shows the demo campaign as it stands.

    Example: campaign --db demo.db demo
    """
    from campaign_ledger.projections.text import history_text
    from campaign_ledger.ledger import rulesets
    from campaign_ledger.projections import runner, views

    system = system or ruleset
    path = ctx.find_root().obj["db"]
    existed = os.path.exists(path)
    app, db = open_campaign(ctx, must_exist=False, reading=existed)  # shown again, a read-only copy will do
    system = system or rulesets.default_id()
    demos = rulesets.demos()
    if system not in demos:
        raise BadInput(f"There is no {system} demo yet.")
    name, play = demos[system]
    if existed and not app.holds_no_campaign():
        catch_up_warning(app, db)
        if views.campaign(db).get("name") != name:
            raise Unusable(f"{path} holds another campaign; the demo needs a new file, choose one with --db.")
    else:  # a new file, or a ledger with no campaign in it (a demo or `new` killed before its first entry)
        if app.read_only:
            raise CampaignError(*read_only_media(ctx.find_root().obj))
        try:
            play(app)
        except Exception:  # whatever failed (a full disk, a lost server), the entries saved so far stay
            ctx.find_root().obj["stopped"] = ("the demo stopped part way, and what it recorded stays in "
                                              "its ledger; run the demo again with a new --db file")
            raise
        runner.catch_up(app, db)
        bind_read_file(path, app, db)
    shown = rulesets.find(system).cli_views()
    sheets, pools = shown.sheets(db), shown.pools(db)
    result = {"sheets": sheets, "pools": pools, "history": views.history(db)}
    parts = [shown.sheets_text(sheets)] + ([shown.pools_text(pools)] if getattr(shown, "HAS_POOLS", True) else [])
    emit(ctx, result, lambda r: "\n\n".join(parts + [history_text(r["history"])]))
