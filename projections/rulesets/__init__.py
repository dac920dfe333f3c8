"""The read side of every ruleset: each package here lists its projection modules in `MODULES`
(each with `TABLES`, `apply`, and optionally `OWNED`, `LINES`, `NAMED`, `NAMED_CHARACTERS`, `round_of`); the runner
and the history iterate them and name no ruleset.

Packages beside this module are found by themselves; a ruleset from elsewhere (a plug-in, a
test's toy) calls `register` with its modules.
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
from types import ModuleType

_REGISTERED: dict[str, tuple[ModuleType, ...]] = {}
_loaded = False


def register(name: str, modules: tuple[ModuleType, ...]) -> None:
    """Add a ruleset's projection modules (after every ruleset found here, in registration order)."""
    _REGISTERED[name] = tuple(modules)
    runner = sys.modules.get("projections.runner")
    if runner is not None and _loaded:
        runner.refresh()


def modules() -> tuple[ModuleType, ...]:
    """Every ruleset's projection modules, in a stable order."""
    global _loaded
    if not _loaded:
        _loaded = True
        for info in sorted(pkgutil.iter_modules(__path__, f"{__name__}."), key=lambda i: i.name):
            if info.ispkg and info.name not in _REGISTERED:
                _REGISTERED[info.name] = tuple(importlib.import_module(info.name).MODULES)
    return tuple(m for group in _REGISTERED.values() for m in group)
