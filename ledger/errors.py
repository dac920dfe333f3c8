"""Errors a game master reads.

Every refusal is one sentence in the table's words. The CLI turns any LedgerError
into one `Error: ...` line and a non-zero exit, and nothing is appended.
"""


class LedgerError(Exception):
    """A command was refused; its message is one sentence for the GM. `rule` may name the rule that
    refused it (a short id for scripts, `--json`'s "rule"); the CLI reads it from the sentence otherwise."""

    rule: str | None = None

    def __init__(self, *args: object, rule: str | None = None) -> None:
        super().__init__(*args)
        if rule is not None:
            self.rule = rule


class RuleViolation(LedgerError):
    """The command breaks a rule of the game."""


class BadInput(LedgerError):
    """The command's input cannot be read (a face, a modifier, a name)."""


class Unusable(LedgerError):
    """A file, ledger or key the command names cannot be used as it stands (damaged, not empty,
    already used): the command itself is well formed, so this is a refusal (exit 1), not BadInput."""


class NotFound(LedgerError):
    """A PC, Challenge, trait or campaign the command names does not exist."""


# A ledger with no campaign in it (a new PostgreSQL database, one an import killed part way left
# empty): every command that needs the campaign says so, writes and reads alike.
NO_CAMPAIGN = ("This ledger holds no campaign yet; create one with `campaign new NAME` "
               "(or `campaign import FILE`).")


class Conflict(LedgerError):
    """Another process changed the campaign at the same moment, even after retrying."""


class RollStands(RuleViolation):
    """A later step was refused after the program rolled: the roll was kept, the turn waits."""

    def __init__(self, message: str, entries: list[int]) -> None:
        super().__init__(message)
        self.entries = entries


class ReadModelStuck(LedgerError):
    """The read tables cannot apply a ledger entry; they stop at the entry before it.

    The ledger itself is intact: reads show the campaign as it stood before `entry`,
    and `audit` and `rebuild` name the entry.
    """

    def __init__(self, entry: int, reason: str) -> None:
        self.entry = entry
        super().__init__(f"the read tables cannot apply entry #{entry} ({reason}); "
                         f"they show the campaign as of entry #{entry - 1}.")
