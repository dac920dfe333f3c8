"""Schema changes of the read model, applied in order (sqlite_utils.Migrations)."""
from migrations.read_model import migrations

__all__ = ["migrations"]
