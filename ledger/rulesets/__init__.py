"""The rulesets a campaign can be played under. Each declares itself once, in its package's
`__init__.py` (`RULESET = register(Ruleset(...))`); the core iterates what registered and
names none of them.

Rulesets are found as the packages beside this module, and as the entry points of the group
`campaign_ledger.rulesets` (a ruleset someone else wrote, installed with pip).
"""
from __future__ import annotations

import importlib
import itertools
import pkgutil
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterator, Mapping

GROUP = "campaign_ledger.rulesets"


@dataclass(frozen=True)
class Ruleset:
    """One ruleset, as the core sees it. Names of the form "module:attribute" are imported from
    the ruleset's package only when used, so declaring a ruleset stays cheap."""

    id: str  # what `campaign new --ruleset` takes
    package: str  # the ledger package that holds its rules, aggregates and commands
    commands: str  # "module:Class": its commands (a `Commands`), which the application composes
    versions: tuple[str, ...] = ("1",)  # its rules versions, the default first
    settings: tuple[str, ...] = ()  # the `--setting KEY=VALUE` keys a campaign may set
    check_settings_with: str = ""  # "module:function(table)": refuses a bad setting when the campaign is made
    demo: str = ""  # "module:function(app)": plays its demo campaign
    demo_name: str = ""  # the demo campaign's name
    round_commands: frozenset[str] = frozenset()  # commands that play a round (their unit is `Name:round`)
    command_prefix: str = ""  # dropped from its command names in undo's unit names (`d2d6_`)
    replay_round: str = ""  # "module": a round's replay (compare, recorded_choices, changed, play_on)
    replay_roll: str = ""  # "module:function(event)": how a recorded roll plays again, or None
    audit: str = ""  # "module": `leader(event)` and `roller(event, leaders)` say who threw its dice
    # Its read side projects the core Campaign's events, so every campaign's read tables hold its rows
    # (Relics' Destiny and Doom balances): it is imported for a campaign of any ruleset.
    read_by_every_campaign: bool = False
    # The CLI's views of it: the module (a full dotted name, under commands/) with `sheets(db)`,
    # `pools(db)`, `sheets_text(rows)`, `pools_text(value)`, that `campaign sheet`, `pools` and `demo` show.
    views: str = ""
    is_default: bool = False  # what `campaign new` and `demo` play without --ruleset / --system
    # "module:function(name) -> id": the things a GM's note can be about (`campaign note --about`).
    named: tuple[str, ...] = ()
    # "module:function(name) -> id": the player's character a seat can be given to (`campaign seat add`),
    # its aggregate recording the character's `name`; "" when no player has a character of their own.
    seated: str = ""
    # Modules moved since ledgers were written: old dotted name -> module name in the package.
    # Stored events name their classes by module, so old names must keep resolving.
    moved: Mapping[str, str] = field(default_factory=dict)

    def attribute(self, path: str) -> Any:
        module, _, name = path.partition(":")
        return getattr(importlib.import_module(f"{self.package}.{module}"), name)

    def cli_views(self) -> Any:
        """The CLI module that shows its sheets and pools (see `views`; the default ruleset's when it
        declares none, as a toy ruleset may)."""
        return importlib.import_module(self.views or find(default_id()).views)

    def version_of(self, version: str | None) -> str:
        """The rules version a new campaign takes: the one asked for, if this ruleset has it."""
        from campaign_ledger.ledger.errors import BadInput

        if version is None:
            return self.versions[0]
        if version not in self.versions and len(self.versions) == 1:
            raise BadInput(f"The {self.id} ruleset has one rules version so far: {self.versions[0]}.")
        if version not in self.versions:
            raise BadInput(f"The {self.id} ruleset has no rules version '{version}'; known versions: "
                           f"{', '.join(self.versions)}.")
        return version

    def check_settings(self, table: Any) -> None:
        if self.check_settings_with:
            self.attribute(self.check_settings_with)(table)


class Commands:
    """A ruleset's commands, bound to one application: what they do not define (`run`, the
    repository, another ruleset's helper) is the application's."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)


def find(ruleset_id: str) -> Ruleset:
    """The ruleset a campaign is made with; a GM's typo gets the list. The packages beside this
    module answer without the plug-ins' entry points being read."""
    from campaign_ledger.ledger.errors import BadInput

    load()
    if ruleset_id in _REGISTERED:
        return _REGISTERED[ruleset_id]
    for ruleset in all_rulesets():
        if ruleset.id == ruleset_id:
            return ruleset
    raise BadInput(f"'{ruleset_id}' is not a ruleset; choose one of {', '.join(ids())}.")


def default_id() -> str:
    """The ruleset a campaign is played under when none is named."""
    load()
    return next((r.id for r in _REGISTERED.values() if r.is_default), next(iter(_REGISTERED)))


def demo_ids() -> list[str]:
    """The rulesets with a demo campaign (named, not imported)."""
    return [r.id for r in all_rulesets() if r.demo]


def ids() -> list[str]:
    return [r.id for r in all_rulesets()]


def commands_of(app: Any, first: str | None = None) -> Iterator[Commands]:
    """The rulesets' commands bound to `app`, each made once per application: the ruleset `first`
    (the campaign's own) before any other, and the others (imported) only if still asked for."""
    bound = app.__dict__.setdefault("_ruleset_commands", {})
    own = [find(first)] if first is not None and first in ids_declared() else []
    for ruleset in itertools.chain(own, (r for r in _declared_then_plugins() if r not in own)):  # lazily
        if ruleset.id not in bound:
            bound[ruleset.id] = ruleset.attribute(ruleset.commands)(app)
        yield bound[ruleset.id]


def ids_declared() -> list[str]:
    return [r.id for r in declared()]


def _declared_then_plugins() -> Iterator[Ruleset]:
    """The rulesets declared so far, then any an installed plug-in adds (read only when asked)."""
    seen = declared()
    yield from seen
    yield from (r for r in all_rulesets() if r not in seen)


def audit_hooks() -> list[Any]:
    """The modules that tell audit who threw a ruleset's dice (see Ruleset.audit)."""
    return [importlib.import_module(f"{r.package}.{r.audit}") for r in all_rulesets() if r.audit]


def roll_replays() -> list[Callable[[Any], Any]]:
    return [r.attribute(r.replay_roll) for r in all_rulesets() if r.replay_roll]


def demos() -> dict[str, tuple[str, Callable[[Any], None]]]:
    """Ruleset id -> (demo campaign name, what plays it)."""
    return {r.id: (r.demo_name, r.attribute(r.demo)) for r in all_rulesets() if r.demo}


_REGISTERED: dict[str, Ruleset] = {}
_loaded = False  # the packages beside this module are declared
_plugged = False  # and the installed plug-ins (entry points) too
_MOVED: set[str] = set()  # old module names already pointed at their new homes


def register(ruleset: Ruleset) -> Ruleset:
    """Declare a ruleset (called once, from its package); a second declaration must be the same."""
    if _REGISTERED.get(ruleset.id, ruleset) != ruleset:
        raise ValueError(f"Two rulesets declare the id {ruleset.id!r}.")
    _REGISTERED[ruleset.id] = ruleset
    _register_moved(ruleset)
    return ruleset


def all_rulesets() -> list[Ruleset]:
    """Every ruleset: those beside this module and the installed plug-ins."""
    global _plugged
    load()
    if not _plugged:
        _plugged = True
        from importlib.metadata import entry_points  # read only when every ruleset is asked for

        for point in entry_points(group=GROUP):
            point.load()
    return list(_REGISTERED.values())


def declared() -> list[Ruleset]:
    """The rulesets declared so far: the packages beside this module, and the plug-ins imported
    (a campaign's own plug-in is, once it plays), without reading every plug-in's entry point."""
    load()
    return list(_REGISTERED.values())


def load() -> None:
    """Declare the ruleset packages beside this module, once. A package's `__init__` only declares
    its ruleset: its aggregates and commands are imported when a campaign of it plays."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for info in pkgutil.iter_modules(__path__, f"{__name__}."):
        if info.ispkg:
            importlib.import_module(info.name)


def _register_moved(ruleset: Ruleset) -> None:
    """Old module names resolve to the modules now holding their classes (eventsourcing's topics),
    each imported only when a stored event names it."""
    from eventsourcing.utils import register_topic

    for old, new in ruleset.moved.items():
        if old not in _MOVED:
            _MOVED.add(old)
            register_topic(old, _Moved(f"{ruleset.package}.{new}"))


class _Moved:
    """Stands for a moved module in eventsourcing's topic cache: it has the module's name (for
    topics of its submodules) and hands out the module's classes, importing it on first use."""

    def __init__(self, name: str) -> None:
        self.__name__ = name

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(importlib.import_module(self.__name__), name)


def moved_topics(chosen: list[Ruleset] | None = None) -> dict[str, type]:
    """Every event topic a ledger written before a move may hold, with the class it names now (of
    the `chosen` rulesets only, when given: interchange_check.ruleset_topics)."""
    from eventsourcing.domain import DomainEvent

    topics: dict[str, type] = {}
    for ruleset in all_rulesets() if chosen is None else chosen:
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
