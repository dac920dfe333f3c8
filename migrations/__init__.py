"""Schema changes of the read model, applied in order (sqlite_utils.Migrations).

The core tables come first; each ruleset's module in migrations/rulesets/ registers its own
tables after them (found by itself: the core names no ruleset).
"""
import importlib
import pkgutil

from campaign_ledger.migrations import rulesets
from campaign_ledger.migrations.read_model import migrations

for _info in sorted(pkgutil.iter_modules(rulesets.__path__, "campaign_ledger.migrations.rulesets."), key=lambda i: i.name):
    importlib.import_module(_info.name)

__all__ = ["migrations"]
