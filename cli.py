"""`campaign`: a thin click layer. Parse, call the ledger application, catch up, print.

Every refusal becomes one `Error: ...` line on stderr and a non-zero exit (1 for a
refused command, 2 for a malformed one); no traceback reaches the table.
Only the command run is imported (commands/index.py says where each lives), and heavy modules
only inside it, so `campaign --help` and a read stay quick (bench/startup.py measures them).
"""
from __future__ import annotations

import os
import sys
from typing import Any

import click

from commands.failures import server_message, storage_message
from commands.index import INDEX
from commands.lazy import LazyGroup, lean_imports
from ledger.errors import BadInput, LedgerError


class Refused(click.ClickException):
    """A refusal with its exit code: 1 when a rule refused the command, 2 when it was malformed."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class LedgerGroup(LazyGroup):
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
        argv = global_options_first(list(sys.argv[1:] if args is None else args))
        try:
            rv = super().main(argv, *rest, standalone_mode=False, **kwargs)
        except click.ClickException as e:
            _refuse(e.format_message(), e.exit_code, argv)
        except click.Abort:
            _refuse("aborted.", 1, argv)
        if standalone_mode:
            sys.exit(rv if isinstance(rv, int) else 0)
        return rv


GLOBAL_OPTIONS = {"--db": True, "--key": True, "--timeout": True, "--json": False}  # takes a value?


def global_options_first(argv: list[str]) -> list[str]:
    """`campaign pools --db s.db` as `campaign --db s.db pools`: the global options are the root's
    wherever they are written (before `--`, after which everything is an argument)."""
    end = argv.index("--") if "--" in argv else len(argv)
    moved: list[str] = []
    rest: list[str] = []
    i = 0
    while i < end:
        name = argv[i].split("=", 1)[0]
        takes = GLOBAL_OPTIONS.get(name)
        if takes is None:
            rest.append(argv[i])
            i += 1
            continue
        width = 2 if takes and "=" not in argv[i] and i + 1 < end else 1
        moved += argv[i:i + width]
        i += width
    return moved + rest + argv[end:]


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
    ctx.obj = {"db": db, "json": as_json, "key": key}
    if timeout is not None:
        os.environ["POSTGRES_CONNECT_TIMEOUT"] = str(timeout)


lean_imports()


def main() -> None:
    cli(prog_name="campaign")


if __name__ == "__main__":
    main()
