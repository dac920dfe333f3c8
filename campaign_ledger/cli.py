"""`campaign`: a thin click layer. Parse, call the library (campaign_ledger.campaign's handle), print.

Every refusal becomes one `Error: ...` line on stderr and a non-zero exit (1 for a
refused command, 2 for a malformed one; commands/root.py); no traceback reaches the table.
Only the command run is imported (commands/index.py says where each lives), and heavy modules
only inside it, so `campaign --help` and a read stay quick (bench/startup.py measures them).
"""
from __future__ import annotations

import atexit
import gc
import os

import click

from campaign_ledger.commands.index import INDEX
from campaign_ledger.commands.lazy import lean_imports
from campaign_ledger.commands.root import LedgerGroup


def _version() -> str:
    """The installed package's version; from a source tree, pyproject's (the same number)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("campaign-ledger")
    except PackageNotFoundError:
        import tomllib
        with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pyproject.toml"), "rb") as f:
            return tomllib.load(f)["project"]["version"]


def _print_version(ctx: click.Context, _: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"campaign {_version()}")
        ctx.exit(0)


# `-h` is `--help` for every command: child contexts inherit the root's help option names.
@click.group(cls=LedgerGroup, index=INDEX, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Print the version and exit.")
@click.option("--db", default="campaign.db", envvar="CAMPAIGN_DB", show_default=True,
              help="The campaign file (also $CAMPAIGN_DB).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--key", default=None, envvar="CAMPAIGN_COMMAND_KEY", metavar="K",
              help="This command's idempotency key (also $CAMPAIGN_COMMAND_KEY): a command run again with "
                   "the key of one already recorded appends nothing. Generated when absent.")
@click.option("--timeout", type=click.IntRange(1, 600), default=None, metavar="SECONDS",
              help="With the ledger on PostgreSQL: how long to try reaching the server (default 5).")
@click.pass_context
def cli(ctx: click.Context, db: str, as_json: bool, key: str | None, timeout: int | None) -> None:
    """An append-only ledger of a tabletop campaign: every action an entry, every number replayed.

    Example: campaign --db heist.db new "The Moon Heist"
    """
    given = ctx.obj if isinstance(ctx.obj, dict) else {}  # the shell runs each line with its channel
    ctx.obj = {"db": db, "json": as_json, "key": key, "channel": given.get("channel") or "cli"}
    if timeout is not None:
        os.environ["POSTGRES_CONNECT_TIMEOUT"] = str(timeout)


lean_imports()

START_UP_ALLOCATIONS = 100_000  # a write's imports make some 50,000 objects; a long run soon passes this


def collect_after_start_up() -> None:
    """No garbage collection until the process has made START_UP_ALLOCATIONS more objects than it
    freed, then the interpreter's usual thresholds again. A start-up's objects are classes, functions
    and modules that live as long as the process (every event class a dataclass): the 45-odd young
    collections a write made walked them for nothing (some 10 ms of its CPU). A long run (serve, shell,
    a rebuild) collects as before once past the allowance: its first collection restores them."""
    usual = gc.get_threshold()

    def restore(phase: str, _: dict[str, int]) -> None:
        if phase == "start":
            gc.set_threshold(*usual)
            gc.callbacks.remove(restore)

    gc.set_threshold(START_UP_ALLOCATIONS, *usual[1:])
    gc.callbacks.append(restore)


def main() -> None:
    # At exit, every object still alive is frozen first: the interpreter's last collections then skip
    # the thousands of classes and functions the imports made (every event class a dataclass), which
    # die with the process anyway. Registered first, it runs after every other exit handler (the
    # application's connections are closed by then). A cohort-turn: about 28 ms less CPU (bench/startup.py).
    atexit.register(gc.freeze)
    collect_after_start_up()
    if "_CAMPAIGN_COMPLETE" in os.environ:  # a shell asks for completions: offer the campaign's own names too
        from campaign_ledger.commands.completion import attach
        attach(cli)
    cli(prog_name="campaign")


if __name__ == "__main__":
    main()
