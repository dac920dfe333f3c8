"""The read side of every ruleset: each package here lists its projection modules in `MODULES`
(each with `TABLES`, `apply`, and optionally `OWNED`, `LINES`, `NAMED`, `NAMED_CHARACTERS`, `round_of`); the runner
and the history iterate them and name no ruleset.

Packages beside this module are found by themselves, and imported only when needed: `use(id)`
imports one campaign's ruleset (the package named as its ledger package is), `modules()` every
one when nothing narrowed it. A ruleset from elsewhere (a plug-in, a test's toy) calls `register`
with its modules.
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
from types import ModuleType
from typing import Any

_REGISTERED: dict[str, tuple[ModuleType, ...]] = {}
_used: set[str] = set()  # the rulesets `use` was asked for, so far
_all = False  # every package here imported


def register(name: str, modules: tuple[ModuleType, ...]) -> None:
    """Add a ruleset's projection modules (after those registered before it)."""
    _REGISTERED[name] = tuple(modules)
    runner = sys.modules.get("projections.runner")
    if runner is not None:
        runner.refresh()


def use(ruleset_id: str) -> None:
    """Import the read side of one ruleset (a campaign's), and no other but those every campaign's
    read tables hold (see the ledger's `Ruleset.read_by_every_campaign`)."""
    from ledger import rulesets

    if ruleset_id in _used:
        return
    _used.add(ruleset_id)
    rulesets.load()
    try:
        wanted = [rulesets.find(ruleset_id)]
    except Exception:  # not a ruleset this program knows: its own `register` call brings its modules
        wanted = []
    every = [r for r in rulesets.declared() if r.read_by_every_campaign]
    for ruleset in sorted({r.id: r for r in every + wanted}.values(), key=lambda r: r.package):
        package = ruleset.package.rsplit(".", 1)[-1]
        name = f"{__name__}.{package}"
        if name not in _REGISTERED and package in _packages():
            register(name, tuple(importlib.import_module(name).MODULES))


def use_campaign(db: Any, app: Any = None) -> None:
    """Import the read side of the campaign's own ruleset (named in its read tables, or by its
    ledger), and of no other; every ruleset's when neither can say yet (nothing recorded)."""
    row = db.execute("SELECT value FROM campaign WHERE key = 'ruleset'").fetchone()
    ruleset = row[0] if row else None
    if ruleset is None and app is not None:
        try:
            ruleset = app.campaign().ruleset
        except Exception:  # no campaign recorded yet
            ruleset = None
    if ruleset is None:
        load_all()
    else:
        use(ruleset)


def modules() -> tuple[ModuleType, ...]:
    """The projection modules in use: those `use` imported, or, when nothing narrowed them, every
    ruleset's (a stable order: the packages here by name, then those registered from elsewhere)."""
    if not _used:
        load_all()
    return loaded()


def loaded() -> tuple[ModuleType, ...]:
    """The projection modules imported so far."""
    return tuple(m for group in _REGISTERED.values() for m in group)


def load_all() -> None:
    """Every package here (an audit compares every read table with a rebuild)."""
    global _all
    if _all:
        return
    _all = True
    found = {f"{__name__}.{p}": None for p in sorted(_packages())}
    earlier = dict(_REGISTERED)
    for name in found:
        if name not in earlier:
            _REGISTERED[name] = tuple(importlib.import_module(name).MODULES)
    ordered = {name: _REGISTERED[name] for name in found} | {n: m for n, m in earlier.items() if n not in found}
    _REGISTERED.clear()
    _REGISTERED.update(ordered)
    runner = sys.modules.get("projections.runner")
    if runner is not None:
        runner.refresh()


def _packages() -> list[str]:
    return [info.name for info in pkgutil.iter_modules(__path__) if info.ispkg]
