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
from typing import Any, Callable, Mapping

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
    # "module:function(name) -> id": the things a GM's note can be about (`campaign note --about`).
    named: tuple[str, ...] = ()
    # Modules moved since ledgers were written: old dotted name -> module name in the package.
    # Stored events name their classes by module, so old names must keep resolving.
    moved: Mapping[str, str] = field(default_factory=dict)

    def attribute(self, path: str) -> Any:
        module, _, name = path.partition(":")
        return getattr(importlib.import_module(f"{self.package}.{module}"), name)

    def version_of(self, version: str | None) -> str:
        """The rules version a new campaign takes: the one asked for, if this ruleset has it."""
        from ledger.errors import BadInput

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
    """The ruleset a campaign is made with; a GM's typo gets the list."""
    from ledger.errors import BadInput

    for ruleset in all_rulesets():
        if ruleset.id == ruleset_id:
            return ruleset
    raise BadInput(f"'{ruleset_id}' is not a ruleset; choose one of {', '.join(ids())}.")


def ids() -> list[str]:
    return [r.id for r in all_rulesets()]


def commands_of(app: Any) -> list[Commands]:
    """Every ruleset's commands bound to `app`, made once per application (and again for a
    ruleset registered since)."""
    bound = app.__dict__.setdefault("_ruleset_commands", {})
    for ruleset in all_rulesets():
        if ruleset.id not in bound:
            bound[ruleset.id] = ruleset.attribute(ruleset.commands)(app)
    return list(bound.values())


def audit_hooks() -> list[Any]:
    """The modules that tell audit who threw a ruleset's dice (see Ruleset.audit)."""
    return [importlib.import_module(f"{r.package}.{r.audit}") for r in all_rulesets() if r.audit]


def roll_replays() -> list[Callable[[Any], Any]]:
    return [r.attribute(r.replay_roll) for r in all_rulesets() if r.replay_roll]


def demos() -> dict[str, tuple[str, Callable[[Any], None]]]:
    """Ruleset id -> (demo campaign name, what plays it)."""
    return {r.id: (r.demo_name, r.attribute(r.demo)) for r in all_rulesets() if r.demo}


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
