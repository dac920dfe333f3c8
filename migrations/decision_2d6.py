"""Read-model tables of decision_2d6 campaigns, registered on the one migration set (in progress)."""
from sqlite_utils import Database  # noqa: F401

from migrations.read_model import migrations  # noqa: F401
