"""The root `campaign` group's behaviour: the global options wherever they are written, and the one
way a command is refused (an `Error:` line, the exit code, and under --json the same as JSON)."""
from __future__ import annotations

import os
import sys
from typing import Any

import click

from campaign_ledger.commands.arguments import db_refusal, not_text, one_line
from campaign_ledger.commands.lazy import LazyGroup
from campaign_ledger.errors import CampaignError, refused
from campaign_ledger.failures import FAILED
from campaign_ledger.refusals import rule_of_sentence


class Refused(click.ClickException):
    """A refusal on its way out of the CLI: the library's CampaignError (its code is the exit code)."""

    def __init__(self, message: str, exit_code: int = 1, rule: str | None = None) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.rule = rule


class LedgerGroup(LazyGroup):
    """The `campaign` group: global options anywhere on the line, and every refusal one line."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:  # output piped into `head` and the like: stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(0) from None
        except Exception as e:  # a rule's refusal, a full disk, a failure no one foresaw: one line, never a traceback
            error = refused(e, ctx.obj or {})  # the library's words and rule ids (campaign_ledger/errors.py)
            if error.rule == FAILED and not isinstance(e, CampaignError) and os.environ.get("CAMPAIGN_DEBUG"):
                raise
            raise Refused(error.message, error.code, error.rule) from None

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        """The command to run; with `--db ''` none is (its --help still answers)."""
        asked = args[:args.index("--")] if "--" in args else args
        helping = any(a in ("--help", "-h") for a in asked)
        if ctx.params.get("db") == "" and not helping:
            raise Refused("--db is empty: it names no file; give the campaign file, e.g. --db heist.db.", 2, None)
        unusable = None if helping else db_refusal(ctx.params.get("db") or "")
        if unusable:  # too long a name, or not UTF-8: no file can be opened by it
            raise Refused(unusable, 2, None)
        return super().resolve_command(ctx, args)

    def main(self, args: list[str] | None = None, *rest: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        argv = global_options_first(list(sys.argv[1:] if args is None else args))
        if any("\x00" in arg for arg in argv):  # only a line typed in the shell can hold one (exec cannot)
            _refuse("an argument holds a NUL character (\\x00), which no name, path or value may hold.", 2, argv,
                    None)
        undecodable = not_text(self, argv)  # before any command reads it: every command, one check
        if undecodable:
            _refuse(undecodable, 2, argv, None)
        try:
            rv = super().main(argv, *rest, standalone_mode=False, **kwargs)
        except click.ClickException as e:  # click's own usage errors are malformed commands: no rule
            rule = e.rule if isinstance(e, Refused) else None if e.exit_code == 2 else \
                rule_of_sentence(e.format_message()) or FAILED
            _refuse(e.format_message(), e.exit_code, argv, rule)
        except click.Abort:
            _refuse("aborted.", 1, argv, "aborted")
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


def _refuse(message: str, code: int, argv: list[str], rule: str | None) -> None:
    """The one way a command is refused: an `Error:` line on stderr and, for a script that asked for
    --json (even one whose other arguments did not parse), the same refusal as JSON on stdout."""
    import json

    message = one_line(message)  # a name quoted in it cannot break the line or reorder it
    click.echo(f"Error: {message}", err=True)
    if "--json" in (argv[:argv.index("--")] if "--" in argv else argv):
        click.echo(json.dumps({"error": message, "code": code, "rule": rule}))
    sys.exit(code)
