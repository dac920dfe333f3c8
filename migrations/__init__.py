"""Schema changes of the read model, applied in order (sqlite_utils.Migrations).

The core tables come first; each ruleset registers its own tables after them.
"""
from migrations import action_dice, beer_run, decision_2d6  # noqa: F401  (they register migrations)
from migrations.read_model import migrations

__all__ = ["migrations"]
