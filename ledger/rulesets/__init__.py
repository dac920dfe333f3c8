"""The rulesets a campaign can be played under. Each declares itself once, in its package's
`__init__.py` (`RULESET = register(Ruleset(...))`); the core iterates what registered and
names none of them.

Rulesets are found as the packages beside this module, and as the entry points of the group
`campaign_ledger.rulesets` (a ruleset someone else wrote, installed with pip).
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any, Mapping

GROUP = "campaign_ledger.rulesets"


@dataclass(frozen=True)
class Ruleset:
    id: str  # what `campaign new --ruleset` takes
    package: str  # the ledger package that holds its rules, aggregates and commands
    # Modules moved since ledgers were written: old dotted name -> module name in the package.
    # Stored events name their classes by module, so old names must keep resolving.
    moved: Mapping[str, str] = field(default_factory=dict)


_REGISTERED: dict[str, Ruleset] = {}
_loaded = False


def register(ruleset: Ruleset) -> Ruleset:
    """Declare a ruleset (called once, from its package); a second declaration must be the same."""
    if _REGISTERED.get(ruleset.id, ruleset) != ruleset:
        raise ValueError(f"Two rulesets declare the id {ruleset.id!r}.")
    _REGISTERED[ruleset.id] = ruleset
    if _loaded:  # declared after the others loaded (a plug-in imported late): its old names now
        _register_moved(ruleset)
    return ruleset


def all_rulesets() -> list[Ruleset]:
    load()
    return list(_REGISTERED.values())


def load() -> None:
    """Import every ruleset package once: those beside this module, then installed plug-ins."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for info in pkgutil.iter_modules(__path__, f"{__name__}."):
        if info.ispkg:
            importlib.import_module(info.name)
    for point in entry_points(group=GROUP):
        point.load()
    for ruleset in _REGISTERED.values():
        _register_moved(ruleset)


def _register_moved(ruleset: Ruleset) -> None:
    """Old module names resolve to the modules now holding their classes (eventsourcing's topics)."""
    from eventsourcing.utils import register_topic

    for old, new in ruleset.moved.items():
        register_topic(old, importlib.import_module(f"{ruleset.package}.{new}"))


def moved_topics() -> dict[str, type]:
    """Every event topic a ledger written before a move may hold, with the class it names now."""
    from eventsourcing.domain import DomainEvent

    topics: dict[str, type] = {}
    for ruleset in all_rulesets():
        for old, new in ruleset.moved.items():
            module = importlib.import_module(f"{ruleset.package}.{new}")
            for cls in _classes(module):
                for name in dir(cls):
                    value = getattr(cls, name)
                    if isinstance(value, type) and issubclass(value, DomainEvent):
                        topics[f"{old}:{cls.__qualname__}.{name}"] = value
    return topics


def _classes(module: ModuleType) -> list[Any]:
    return [v for v in vars(module).values() if isinstance(v, type) and v.__module__ == module.__name__]
