"""A `campaign` that imports only the command it runs.

`campaign --help` lists every command from the index (commands/index.py) without importing one;
`campaign pools` imports commands/campaign.py alone. Each command module keeps its commands on a
module-level `COMMANDS = click.Group()`, as before; the index says which module holds which name.
"""
from __future__ import annotations

import importlib
import sys
from typing import Any

import click


class LazyGroup(click.Group):
    """A click group whose commands are imported from their module the first time they are asked for."""

    def __init__(self, *args: Any, index: dict[str, tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.index = index

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.index) | set(self.commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in self.index:
            module = importlib.import_module(self.index[name][0])
            command = getattr(module, "COMMANDS", click.Group()).commands.get(name)
            if command is None:
                raise click.ClickException(f"the command index names {name} in {self.index[name][0]}, which lacks "
                                           "it; run `python3 -m campaign_ledger.commands.index` to write the index again.")
            self.add_command(command, name)
        return self.commands.get(name)

    def every_command(self, ctx: click.Context | None = None) -> dict[str, click.Command]:
        """Every command, imported (what a test walks, or completion lists)."""
        ctx = ctx or click.Context(self)
        return {name: command for name in self.list_commands(ctx) if (command := self.get_command(ctx, name))}

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their one-line help, from the index: nothing is imported to list them."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, click.Command(name, help=self.index[name][1]).get_short_help_str(limit) if name in self.index
                 else self.commands[name].get_short_help_str(limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


class WithoutDataFrames:
    """sqlite-utils imports numpy and pandas at import time when a GM has them installed (0.85 s,
    70 MiB), only to convert their values; the read tables never hold one. This import hook lets
    sqlite_utils.db's own `import numpy` / `import pandas` fail (it then goes without, as on a system
    without them); any other module importing numpy still gets it."""

    HIDDEN = ("numpy", "pandas")

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name in self.HIDDEN and _imported_by("sqlite_utils.db"):
            raise ModuleNotFoundError(f"{name} is not needed by sqlite_utils here", name=name)
        return None


class LaterDateParser:
    """sqlite-utils' recipes (its CLI's `convert` helpers, which no command here calls) import
    dateutil.parser at import time: 17-19 ms of every command that touches a read table. This hook
    hands sqlite_utils.recipes that module through the standard library's LazyLoader, so it is only
    executed (dateutil's parser and time zones loaded) if one of its names is ever used."""

    LATER = "dateutil.parser"

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != self.LATER or not _imported_by("sqlite_utils.recipes"):
            return None
        import importlib.util

        for finder in sys.meta_path:
            if finder is self or isinstance(finder, (WithoutDataFrames, LaterDateParser)):
                continue
            spec = getattr(finder, "find_spec", lambda *_: None)(name, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = importlib.util.LazyLoader(spec.loader)
                return spec
        return None


def _imported_by(module: str) -> bool:
    """Whether `module`'s own top-level code is what is importing now."""
    frame = sys._getframe(1)
    for _ in range(40):
        if frame is None:
            return False
        if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == module:
            return True
        frame = frame.f_back
    return False


def lean_imports() -> None:
    """Install the hooks once (before sqlite-utils is imported; afterwards they change nothing)."""
    for hook in (WithoutDataFrames, LaterDateParser):
        if not any(isinstance(f, hook) for f in sys.meta_path):
            sys.meta_path.insert(0, hook())


def subcommands(group: click.Group) -> dict[str, click.Command]:
    """A group's commands, the lazy root's imported: what a walk of the whole click tree uses."""
    return group.every_command() if isinstance(group, LazyGroup) else dict(group.commands)
