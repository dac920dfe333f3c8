"""Schema changes of the read model, applied in order (sqlite_utils.Migrations).

The core tables come first; each ruleset's module in migrations/rulesets/ registers its own
tables after them (found by itself: the core names no ruleset).
"""
import importlib
import pkgutil

from migrations import rulesets
from migrations.read_model import migrations

for _info in sorted(pkgutil.iter_modules(rulesets.__path__, "migrations.rulesets."), key=lambda i: i.name):
    importlib.import_module(_info.name)

__all__ = ["migrations"]
