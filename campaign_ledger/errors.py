"""The one exception family of the library: every refusal a bot, a notebook or the CLI meets.

A refusal carries what the CLI's `--json` refusal carries (`{"error", "code", "rule"}`): the GM's
one line, `code` 1 when a rule of the game or of the ledger refused the call and 2 when the call
was malformed (a value that does not parse), and `rule`, a short stable id of the rule (None when
malformed; campaign_ledger/refusals.py lists the ids). Nothing a refused call meant to record is in
the ledger, unless its message says which entries were recorded (a full disk after the save).
"""
from __future__ import annotations

from typing import TypedDict


class ErrorBody(TypedDict):
    """A refusal as JSON: the CLI's `--json` refusal and the HTTP API's error body."""

    error: str
    code: int
    rule: str | None


class CampaignError(Exception):
    """A call refused: `str(e)` is the GM's one line, `code` 1 (a rule) or 2 (malformed), `rule` its id."""

    def __init__(self, message: str, code: int = 1, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.rule = rule

    def as_json(self) -> ErrorBody:
        return {"error": self.message, "code": self.code, "rule": self.rule}
