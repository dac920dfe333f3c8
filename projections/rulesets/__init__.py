"""The read side of every ruleset: each package here lists its projection modules in `MODULES`
(each with `TABLES`, `apply`, and optionally `HANDLED` (the event types `apply` is called for; every one
when absent), `OWNED`, `LINES`, `NAMED`, `NAMED_CHARACTERS`, `round_of`); the runner and the history
iterate them and name no ruleset.

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
    """Add a ruleset's projection modules: the packages here in the order of their names, then
    those registered from elsewhere, in the order they came (whatever order they were imported in)."""
    _REGISTERED[name] = tuple(modules)
    ordered = sorted(_REGISTERED.items(), key=lambda item: (not item[0].startswith(f"{__name__}."),
                                                            item[0] if item[0].startswith(f"{__name__}.") else ""))
    _REGISTERED.clear()
    _REGISTERED.update(ordered)
    runner = sys.modules.get("campaign_ledger.projections.runner")
    if runner is not None:
        runner.refresh()


def use(ruleset_id: str) -> None:
    """Import the read side of one ruleset (a campaign's), and no other but those every campaign's
    read tables hold (see the ledger's `Ruleset.read_by_every_campaign`)."""
    from campaign_ledger.ledger import rulesets

    if ruleset_id in _used:
        return
    _used.add(ruleset_id)
    rulesets.load()
    try:
        wanted = [rulesets.find(ruleset_id)]
    except Exception:  # not a ruleset this program knows: its own `register` call brings its modules
        wanted = []
    every = [r for r in rulesets.declared() if r.read_by_every_campaign and r not in wanted]
    for ruleset, whole in sorted([(r, True) for r in wanted] + [(r, False) for r in every], key=lambda p: p[0].package):
        package = ruleset.package.rsplit(".", 1)[-1]
        name = f"{__name__}.{package}"
        if package in _packages() and (whole or name not in _REGISTERED):
            _load(name, whole)


def _load(name: str, whole: bool = True) -> None:
    """Register a package's projection modules: all of them, or those it keeps for every campaign
    (its `EVERY_CAMPAIGN` names; the whole package replaces them, in the same place)."""
    package = importlib.import_module(name)
    if whole:
        modules = tuple(package.MODULES)
    else:
        modules = tuple(importlib.import_module(f"{name}.{n}") for n in getattr(package, "EVERY_CAMPAIGN", ()))
    if _REGISTERED.get(name) != modules:
        register(name, modules)


def use_campaign(db: Any, app: Any = None) -> None:
    """Import the read side of the campaign's own ruleset (named in its read tables, or by its
    ledger), and of no other; every ruleset's when neither can say yet (nothing recorded)."""
    row = db.execute("SELECT value FROM campaign WHERE key = 'ruleset'").fetchone()
    ruleset = row[0] if row else None
    if ruleset is None and app is not None:
        try:
            ruleset = app.ruleset_id() if hasattr(app, "ruleset_id") else app.campaign().ruleset  # None: not started
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
    for package in sorted(_packages()):
        _load(f"{__name__}.{package}")
    runner = sys.modules.get("campaign_ledger.projections.runner")
    if runner is not None:
        runner.refresh()


def _packages() -> list[str]:
    return [info.name for info in pkgutil.iter_modules(__path__) if info.ispkg]
