"""Exact odds of a roll before its dice, as calls; nothing is recorded.

    camp.odds("Vault Guards", leader="Kira", traits=["Kira:Keen Eye"], destiny=1)   # relics
    camp.odds("Billy", "Strength", difficulty="challenging")                         # decision-2d6
    camp.odds(contest=(("Billy", "Stealth"), ("Ogre", "Wits")), grants=["Billy"])
    odds_without_campaign("beer-run", pool=["d8", "d6"], against=["d10", "d4"])      # no file at all

`Campaign.odds` is `campaign odds --json`: the pool waiting on a turn, or the one its values
describe, in the campaign's ruleset (its positional names and keyword values are those of the
ruleset's roll or turn: campaign_ledger/odds_campaign.py lists them). `odds_without_campaign` is
`campaign odds --ruleset ID --json` (campaign_ledger/odds_described.py). Both answer what `--json`
prints: probabilities as exact fractions in strings ("767/1296"), since a float would not be exact;
`exact=True` keeps them as Fractions (and counts as int keys), for arithmetic in a notebook.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Mapping, TYPE_CHECKING

from campaign_ledger.handle import Core

if TYPE_CHECKING:
    from campaign_ledger.shapes import Row

IN_CAMPAIGN = {"relics": "relics", "decision-2d6": "decision", "action-dice": "action", "beer-run": "beer_run"}
MODES = {("decision-2d6", "contest"): "contest"}  # a keyword that asks another roll of the ruleset
DESCRIBED = {"relics": "relics", "decision-2d6": "decision", "action-dice": "action", "beer-run": "beer_run"}


def jsonable(value: Any) -> Any:
    """Fractions become "n/d" strings, mapping keys strings, tuples lists; the rest as it is."""
    from fractions import Fraction  # (imported by whatever made one: a call's start-up need not)

    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


class OddsCalls(Core):
    """`campaign odds`, in the campaign's ruleset."""

    def odds(self, *names: str, exact: bool = False, **options: Any) -> Row:
        """Exact odds of a roll before the dice (`campaign odds --json`): of the pool waiting on a
        turn, or of one described by the values its turn or roll takes. Relics: `odds(CHALLENGE,
        leader=, assists=, traits=, destiny=, ..., challenge_turn=)`; decision-2d6: `odds(CHARACTER,
        STAT, target=, bonuses=, advantage=, ...)`, `odds(item=)`, `odds(tracker=)` or
        `odds(contest=((CHARACTER, STAT), (CHARACTER, STAT)), advantage=(NAME, "minor"), ...)`;
        action-dice: `odds(CHARACTER, ACTION, rating=, ...)`; beer-run: `odds(CONFLICT, SIDE, base=,
        against=, situation=, ...)` or `odds(CONFLICT, HELPER, helping=ALLY, die="d6")`."""
        from campaign_ledger import odds_campaign

        def query(app: Any, db: Any) -> Row:
            ruleset = app.campaign().ruleset
            if ruleset not in IN_CAMPAIGN:
                raise _malformed(f"Odds for {ruleset} campaigns are not worked out yet.")
            given, args = dict(options), list(names)
            mode = next((m for (r, m) in MODES if r == ruleset and m in given), None)
            if mode is not None:
                if args:
                    raise _malformed(f"A {mode}'s odds take its sides as {mode}=(FIRST, SECOND), not names before it.")
                args = list(given.pop(mode))
            call = getattr(odds_campaign, MODES[(ruleset, mode)] if mode else IN_CAMPAIGN[ruleset])
            return _answered(call, f"in {_a(ruleset)} {ruleset} campaign", app, *args, **given)
        result = self._read(query)
        return result if exact else jsonable(result)


def odds_without_campaign(ruleset: str, *, exact: bool = False, **options: Any) -> Row:
    """The odds of a pool described in full, with no campaign file (`campaign odds --ruleset ID
    --json`): every figure a campaign would give is a value here (relics: dice=, traits=["+1d6"],
    threat=, rating=, pcs=, ...; decision-2d6: stat=, against_stat=, die=, tracker_value=, ...;
    action-dice: rating=, assets=["d8"], ...; beer-run: pool=["d8", "d6"], against= or goal=)."""
    from campaign_ledger import odds_described
    from campaign_ledger.errors import CampaignError, refused

    chosen = str(ruleset).strip().lower()
    try:
        if chosen not in DESCRIBED:
            raise _malformed(f"--ruleset takes one of {', '.join(DESCRIBED)}, not '{ruleset}'.")
        result = _answered(getattr(odds_described, DESCRIBED[chosen]), f"of {chosen} without a campaign", **options)
    except Exception as e:
        raise e if isinstance(e, CampaignError) else refused(e, {}) from None
    return result if exact else jsonable(result)


def _answered(call: Callable[..., dict[str, Any]], where: str, *args: Any, **options: Any) -> dict[str, Any]:
    """`call`'s figures; values it does not take, and a malformed value, are refused as the CLI
    refuses a malformed command (code 2, no rule)."""
    from campaign_ledger.ledger.errors import BadInput

    try:
        inspect.signature(call).bind(*args, **options)
    except TypeError as e:
        taken = [p for p in inspect.signature(call).parameters if p != "app"]
        raise _malformed(f"Odds {where}: {e}; they take {', '.join(taken)}.") from None
    try:
        return call(*args, **options)
    except BadInput as e:  # the CLI's `odds` refuses a value that does not parse as a usage error
        raise _malformed(str(e)) from None


def _malformed(message: str) -> Exception:
    from campaign_ledger.errors import CampaignError

    return CampaignError(message, 2, None)


def _a(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"
