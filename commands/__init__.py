"""The command groups beyond the core: importing this package registers them on `cli`."""
from commands import action_dice, beer_run, decision_2d6, logs, records, relics  # noqa: F401
from commands import odds  # noqa: F401
