"""The one exception family of the library: every refusal a bot, a notebook or the CLI meets.

A refusal carries what the CLI's `--json` refusal carries (`{"error", "code", "rule"}`): the GM's
one line, `code` 1 when a rule of the game or of the ledger refused the call and 2 when the call
was malformed (a value that does not parse), and `rule`, a short stable id of the rule (None when
malformed; campaign_ledger/refusals.py lists the ids). Nothing a refused call meant to record is in
the ledger, unless its message says which entries were recorded (a full disk after the save).
"""
from __future__ import annotations

from typing import Any, Mapping, TypedDict


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


def refused(e: BaseException, facts: Mapping[str, Any]) -> CampaignError:
    """Any failure of a call as the one refusal the library raises: a ledger's refusal with its rule,
    a storage failure in the GM's words (campaign_ledger/failures.py), anything unforeseen as one line
    saying nothing was recorded unless entries were named. `facts`: what the call knows of itself
    ("db", "key_used", "recorded"), for the words of a storage failure."""
    from campaign_ledger.failures import FAILED, refusal
    from campaign_ledger.ledger.errors import BadInput, LedgerError
    from campaign_ledger.refusals import rule_of

    if isinstance(e, CampaignError):
        return e
    if isinstance(e, LedgerError):  # a value that does not parse is malformed, like the CLI's usage errors
        return CampaignError(str(e), 2 if isinstance(e, BadInput) else 1, rule_of(e))
    named = refusal(facts, e)
    if named is not None:
        return CampaignError(*named)
    key = facts.get("key_used")
    retry = f"; to retry, use --key {key}: nothing is then recorded twice" if key else ""
    return CampaignError(f"the command failed unexpectedly ({type(e).__name__}: {e}); "
                         f"nothing was recorded unless its entries were printed{retry}.", 1, FAILED)
