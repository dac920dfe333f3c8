"""`campaign`: a thin click layer. Parse, call the ledger application, catch up, print.

Every refusal becomes one `Error: ...` line on stderr and a non-zero exit (1 for a
refused command, 2 for a malformed one); no traceback reaches the table.
Heavy modules are imported inside commands so `campaign --help` stays quick.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from typing import Any

import click

from commands.failures import server_message, storage_message
from ledger.errors import BadInput, LedgerError


class Refused(click.ClickException):
    """A refusal with its exit code: 1 when a rule refused the command, 2 when it was malformed."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class LedgerGroup(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:  # output piped into `head` and the like: stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(0) from None
        except LedgerError as e:  # a value that does not parse is malformed, like click's own usage errors
            raise Refused(str(e), 2 if isinstance(e, BadInput) else 1) from None
        except Exception as e:  # a failure we did not foresee still gets one line, never a traceback
            storage = storage_message(ctx, e) or server_message(e)
            if storage:
                raise click.ClickException(storage) from None
            if os.environ.get("CAMPAIGN_DEBUG"):
                raise
            key = (ctx.obj or {}).get("key_used")
            retry = f"; to retry, use --key {key}: nothing is then recorded twice" if key else ""
            raise click.ClickException(f"the command failed unexpectedly ({type(e).__name__}: {e}); "
                                       f"nothing was recorded unless its entries were printed{retry}.") from None

    def main(self, args: list[str] | None = None, *rest: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        try:
            rv = super().main(argv, *rest, standalone_mode=False, **kwargs)
        except click.ClickException as e:
            _refuse(e.format_message(), e.exit_code, argv)
        except click.Abort:
            _refuse("aborted.", 1, argv)
        if standalone_mode:
            sys.exit(rv if isinstance(rv, int) else 0)
        return rv


def _refuse(message: str, code: int, argv: list[str]) -> None:
    """The one way a command is refused: an `Error:` line on stderr and, for a script that asked for
    --json (even one whose other arguments did not parse), the same refusal as JSON on stdout."""
    import json

    click.echo(f"Error: {message}", err=True)
    if "--json" in (argv[:argv.index("--")] if "--" in argv else argv):
        click.echo(json.dumps({"error": message, "code": code}))
    sys.exit(code)


def _version() -> str:
    """The installed package's version; from a source tree, pyproject's (the same number)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("campaign-ledger")
    except PackageNotFoundError:
        import tomllib
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyproject.toml"), "rb") as f:
            return tomllib.load(f)["project"]["version"]


def _print_version(ctx: click.Context, _: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"campaign {_version()}")
        ctx.exit(0)


# `-h` is `--help` for every command: child contexts inherit the root's help option names.
@click.group(cls=LedgerGroup, context_settings={"help_option_names": ["-h", "--help"]})
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
    ctx.obj = {"db": db, "json": as_json, "key": key}
    if timeout is not None:
        os.environ["POSTGRES_CONNECT_TIMEOUT"] = str(timeout)


def _add_commands() -> None:
    """Every command module's commands join `campaign` (each module names its own; none imports this one)."""
    import commands

    for info in sorted(pkgutil.iter_modules(commands.__path__, "commands."), key=lambda i: i.name):
        group = getattr(importlib.import_module(info.name), "COMMANDS", None)
        for name, command in (group.commands.items() if group is not None else ()):
            cli.add_command(command, name)


_add_commands()


def main() -> None:
    if "_CAMPAIGN_COMPLETE" in os.environ:  # a shell asks for completions: offer the campaign's own names too
        from commands.completion import attach
        attach(cli)
    cli(prog_name="campaign")


if __name__ == "__main__":
    main()
