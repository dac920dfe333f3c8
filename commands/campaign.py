"""Commands every campaign has, whatever its ruleset: make one, sessions, status, sheets, pools,
statements, rebuild and the demo (history and notes: commands/history.py)."""
from __future__ import annotations

from typing import Any, Callable, Iterator

import click

from campaign_ledger.commands import choices
from campaign_ledger.commands.plumbing import as_list, campaign_of, emit, json_option, progress_bar, show_report
from campaign_ledger.commands.parsing import at_option, parse_settings


COMMANDS = click.Group()  # added to `campaign` by cli.py


@COMMANDS.command()
@click.argument("name")
@click.option("--ruleset", type=choices.RULESET, default=None,
              help="The rules the campaign is played under (default: the registry's default; docs/rulesets/ has a page for each).")
@click.option("--system", "system", type=choices.RULESET, default=None, hidden=True)  # demo's word for it
@click.option("--rules-version", default=None, help="Rules version (default: the ruleset's newest; its page in docs/rulesets/ lists them).")
@click.option("--setting", "settings", multiple=True, metavar="KEY=VALUE",
              help="A campaign setting of the ruleset (its page in docs/rulesets/ lists them), e.g. supply_threshold=3. Repeatable.")
@json_option
@click.pass_context
def new(ctx: click.Context, name: str, ruleset: str | None, system: str | None, rules_version: str | None,
        settings: tuple[str, ...]) -> None:
    """Start a campaign in a new file.

    Example: campaign --db heist.db new "The Moon Heist" --rules-version 0.6.1
    """
    from campaign_ledger.campaign import new_campaign

    camp = campaign_of(ctx)
    new_campaign(camp, name, ruleset=ruleset or system, rules_version=rules_version, settings=parse_settings(settings))
    show_report(ctx, camp.started)


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
    show_report(ctx, campaign_of(ctx).session_start(title))


@session.command("end")
@json_option
@click.pass_context
def session_end(ctx: click.Context) -> None:
    """End the open play session.

    Example: campaign session end
    """
    show_report(ctx, campaign_of(ctx).session_end())


@session.command("list")
@json_option
@click.pass_context
def session_list(ctx: click.Context) -> None:
    """List the play sessions and the entries each holds.

    Example: campaign session list
    """
    def text(rows: list) -> str:
        return "\n".join(f"{r['number']}. {r['title']}: entries #{r['first_entry']}-"
                         f"{'#' + str(r['last_entry']) if r['last_entry'] else 'now (open)'}" for r in rows) \
            or "No sessions yet."
    emit(ctx, campaign_of(ctx).session_list(), text)


@COMMANDS.command()
@click.argument("name", required=False)
@at_option
@json_option
@click.pass_context
def sheet(ctx: click.Context, name: str | None, at: str | None) -> None:
    """Show the character sheets (or one character's), now or as they stood --at an entry or time.

    Example: campaign sheet Kira --at 40
    """
    camp = campaign_of(ctx)
    emit(ctx, camp.sheet(name, at=at), as_list(lambda rows: views_of(camp).sheets_text(rows)))


@COMMANDS.command()
@at_option
@json_option
@click.pass_context
def pools(ctx: click.Context, at: str | None) -> None:
    """Show the pools: Destiny and Doom (Relics), Intensity (Beer Run), supply dice and trackers
    (decision-2d6); now or --at an entry or time.

    Example: campaign pools --at 2026-11-22T20:15
    """
    camp = campaign_of(ctx)
    emit(ctx, camp.pools(at=at), lambda value: views_of(camp).pools_text(value))


def views_of(camp: Any) -> Any:
    """The campaign's ruleset's views, for the text of what was just read: a glance at its read
    tables, or (a file a glance cannot open, on read-only media) a quiet handle's read, its
    warnings already said by the read itself."""
    from campaign_ledger.commands import glance
    from campaign_ledger.ledger import rulesets

    return rulesets.find(glance.ruleset(camp.path) or type(camp)(camp.path).ruleset()).cli_views()


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

    emit(ctx, campaign_of(ctx).statement(balance), statement_text)


@COMMANDS.command()
@click.option("--force", is_flag=True, help="Rebuild even from a ledger whose hash chain is broken.")
@json_option
@click.pass_context
def rebuild(ctx: click.Context, force: bool) -> None:
    """Re-derive every read table from the whole ledger, after verifying its hash chain.

    Example: campaign rebuild
    """
    emit(ctx, campaign_of(ctx).rebuild(force=force, progress=steps(ctx, "Rebuilding")),
         lambda r: f"Rebuilt the read model from {r['entry_count']} ledger entries.")


def steps(ctx: click.Context, label: str) -> Any:
    """A long call's progress as a bar on a terminal (none when output is piped or --json is given):
    given the number of steps, a context whose value takes each step's count."""
    import contextlib

    @contextlib.contextmanager
    def bar(total: int) -> Iterator[Callable[[int], Any] | None]:
        with progress_bar(ctx, total, label) as shown:
            yield shown.update if shown is not None else None
    return bar


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

    system = system or ruleset or rulesets.default_id()
    result = campaign_of(ctx).demo(system)
    shown = rulesets.find(system).cli_views()
    parts = [shown.sheets_text(result["sheets"])] + \
        ([shown.pools_text(result["pools"])] if getattr(shown, "HAS_POOLS", True) else [])
    emit(ctx, result, lambda r: "\n\n".join(parts + [history_text(r["history"])]))
