"""Helpers for tests/test_undo_*_tables.py: every state attribute an undo can restore has a restorer,
and after an undo the read tables equal those of a campaign that never played the undone commands.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sqlite3
import textwrap
from pathlib import Path
from typing import Any

from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.projections import reversal_map
from tests.conftest import Table

# Columns that only say at which entry a row was made or last written: two campaigns differ there
# by the undo's own entries, whatever the state.
ENTRY_COLUMNS = {"entry", "joined", "opened"}


def aggregates(package: str) -> list[type]:
    """Every Reversible aggregate class defined in the ruleset's ledger package."""
    found: dict[str, type] = {}
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, package + "."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Reversible) and cls is not Reversible and cls.__module__ == module.__name__:
                found[cls.__qualname__] = cls
    return list(found.values())


def state_attributes(cls: type, after_creation: bool = False) -> set[str]:
    """Every attribute the class's events can set or change (read from their bodies: `self.x`
    assigned, or mutated through `self.x`), its STATE_DEFAULTS, and `unmade` (what undo sets);
    `after_creation`: those the events after the creating one touch."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    methods = {n for n, v in vars(cls).items() if callable(v) or isinstance(v, (property, staticmethod))}
    names = set() if after_creation else set(cls.STATE_DEFAULTS) | {"unmade"}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(_is_event(d) for d in node.decorator_list) and not (
                after_creation and node.name == "__init__"):
            names |= {a.attr for a in _changed(node) if a.attr not in methods}
    return names


def _changed(method: ast.FunctionDef) -> list[ast.Attribute]:
    """The `self.x` a body assigns, or changes in place (`self.x[k] = v`, `self.x.append(v)`, ...)."""
    own = [n for n in ast.walk(method) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
           and n.value.id == "self"]
    parents = {id(child): parent for parent in ast.walk(method) for child in ast.iter_child_nodes(parent)}
    found = []
    for a in own:
        up = parents.get(id(a))
        if isinstance(a.ctx, ast.Store) or isinstance(up, ast.AugAssign) \
                or (isinstance(up, ast.Subscript) and isinstance(up.ctx, (ast.Store, ast.Del))) \
                or (isinstance(up, ast.Attribute) and isinstance(parents.get(id(up)), ast.Call)):
            found.append(a)
    return found


def _is_event(decorator: ast.expr) -> bool:
    call = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(call, ast.Name) and call.id == "event"


def missing_restorers(package: str, restorers: dict[type, reversal_map.Restorers]) -> dict[str, Any]:
    """What the map lacks or names wrongly, by aggregate: empty when every attribute is declared."""
    problems: dict[str, Any] = {}
    for cls in aggregates(package):
        declared = restorers.get(cls)
        if declared is None:
            problems[cls.__qualname__] = "no map at all"
            continue
        attributes = state_attributes(cls)
        lacking, stale = attributes - set(declared), set(declared) - attributes
        changing = {n for n in state_attributes(cls, after_creation=True) if declared.get(n) is reversal_map.FIXED}
        if lacking or stale or changing:
            problems[cls.__qualname__] = {"no restorer": sorted(lacking), "not an attribute": sorted(stale),
                                          "declared fixed, yet an event changes it": sorted(changing)}
    return problems


def state(t: Table, tables: tuple[str, ...]) -> dict[str, list[dict]]:
    """The tables' rows without their entry columns, each table sorted (the views give the order)."""
    with sqlite3.connect(t.path) as con:
        con.row_factory = sqlite3.Row
        return {name: sorted((repr(sorted((k, r[k]) for k in r.keys() if k not in ENTRY_COLUMNS))
                              for r in con.execute(f"SELECT * FROM [{name}]")))
                for name in tables}


def rows_in_order(t: Table, tables: tuple[str, ...]) -> dict[str, list[tuple]]:
    """Every row as stored, in rowid order (a rebuild must give exactly these)."""
    with sqlite3.connect(t.path) as con:
        return {name: con.execute(f"SELECT rowid, * FROM [{name}] ORDER BY rowid").fetchall() for name in tables}


def check_as_never_played(tmp_path: Path, played: list[list[str]], undone: int, views: list[list[str]],
                          tables: tuple[str, ...], undos: int | None = None, logs: tuple[str, ...] = ()) -> Table:
    """Play every command, then `undo` `undos` times (default: `undone`, one command a unit); a second
    campaign plays all but the last `undone` commands. Their views (JSON, in order) and state
    tables must be equal, and a rebuild must leave the first campaign's tables, `logs` too, as they
    are, row for row."""
    a, b = Table(tmp_path / "undone.db"), Table(tmp_path / "never.db")
    for args in played:
        a(*args)
    for args in played[:len(played) - undone]:
        b(*args)
    for _ in range(undone if undos is None else undos):
        a("undo", "--yes")
    for view in views:
        assert a.json(*view) == b.json(*view), view
    assert state(a, tables) == state(b, tables)
    before = rows_in_order(a, tables + logs)
    a("rebuild")
    assert rows_in_order(a, tables + logs) == before
    assert a.json("audit")["clean"] is True
    return a
