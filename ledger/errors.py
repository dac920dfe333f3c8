"""Errors a game master reads.

Every refusal is one sentence in the table's words. The CLI turns any LedgerError
into one `Error: ...` line and a non-zero exit, and nothing is appended.
"""


class LedgerError(Exception):
    """A command was refused; its message is one sentence for the GM."""


class RuleViolation(LedgerError):
    """The command breaks a rule of the game."""


class BadInput(LedgerError):
    """The command's input cannot be read (a face, a modifier, a name)."""


class NotFound(LedgerError):
    """A PC, Challenge, trait or campaign the command names does not exist."""


class Conflict(LedgerError):
    """Another process changed the campaign at the same moment, even after retrying."""


class RollStands(RuleViolation):
    """A later step was refused after the program rolled: the roll was kept, the turn waits."""

    def __init__(self, message: str, entries: list[int]) -> None:
        super().__init__(message)
        self.entries = entries
