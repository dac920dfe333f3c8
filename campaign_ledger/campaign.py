"""The campaign handle a bot gets: the calls of every campaign (handle.py), of the record
(records.py) and of each ruleset (relics.py, beer_run.py, action_dice.py, decision_2d6.py).

A method is named by its CLI command's words joined: `campaign cohort-turn` is `cohort_turn`,
`campaign pc add` is `pc_add`, `campaign beer-run roll` is `beer_run_roll`; `campaign new` is
`new_campaign()` and `campaign import` is `import_campaign()`, both here."""
from __future__ import annotations

import os
from typing import Any, Mapping

from campaign_ledger.action_dice import ActionDiceCalls
from campaign_ledger.beer_run import BeerRunCalls
from campaign_ledger.decision_2d6 import Decision2d6Calls
from campaign_ledger.odds import OddsCalls
from campaign_ledger.records import RecordCalls
from campaign_ledger.relics import RelicsCalls
from campaign_ledger.seats import SeatCalls


class Campaign(RelicsCalls, BeerRunCalls, ActionDiceCalls, Decision2d6Calls, OddsCalls, RecordCalls, SeatCalls):
    """One campaign file, by its path: `open_campaign(path)` or `new_campaign(path, name)` give one.
    A call of another ruleset than the campaign's is refused in one line (rule `wrong-ruleset`)."""


def open_campaign(path: str | os.PathLike[str]) -> Campaign:
    """The campaign in the file at `path` (refused in one line when there is none, rule
    `no-campaign-file`, or it is not a campaign file). With PERSISTENCE_MODULE=eventsourcing.postgres
    (and the POSTGRES_* settings) its ledger is on PostgreSQL and `path` holds its read tables."""
    campaign = Campaign(path)
    campaign.ruleset()  # opens it once: a missing or foreign file is refused here, not at the first call
    return campaign


def new_campaign(path: str | os.PathLike[str] | Campaign, name: str, *, ruleset: str | None = None,
                 rules_version: str | None = None, settings: Mapping[str, str] | None = None,
                 key: str | None = None) -> Campaign:
    """Start a campaign in a new file (`campaign new`); a refused one leaves no file behind.
    `ruleset`: relics (the default), beer-run, action-dice or decision-2d6. `path` may be a
    handle on the file already (the CLI's, bound to its options); its `started` is the report."""
    from campaign_ledger.errors import CampaignError
    from campaign_ledger.ledger import rulesets

    campaign = path if isinstance(path, Campaign) else Campaign(path)
    chosen = ruleset or rulesets.default_id()
    given = dict(settings or {})
    if os.path.exists(campaign.path) and os.path.getsize(campaign.path) and _holds_campaign(campaign):
        cli = " with --db" if campaign._bound is not None else ""  # the CLI names its option
        raise CampaignError(f"{campaign.path} already holds a campaign; choose another file{cli}.", 1,
                            "campaign-exists")
    fresh = not os.path.exists(campaign.path)
    try:
        campaign.started = campaign._write("new", {"name": name, "ruleset": chosen, "rules_version": rules_version, "settings": given},
                        lambda app: app.start(name, chosen, rules_version, given), key=key, must_exist=False)
    except CampaignError as e:
        if not fresh:
            raise
        for leftover in (campaign.path, campaign.path + "-wal", campaign.path + "-shm"):
            if os.path.exists(leftover):  # a refused campaign leaves no file behind
                os.remove(leftover)
        if campaign._call.get("recorded"):  # its first entry went with the file (a disk full after it)
            raise _unrecorded(campaign._call, e) from None
        raise
    return campaign


def _holds_campaign(campaign: Campaign) -> bool:
    def query(app: object, db: object) -> bool:
        try:
            app.campaign()  # type: ignore[attr-defined]
        except Exception:
            return False
        return True
    return campaign._opened(query, reading=False)


def _unrecorded(facts: dict[str, Any], e: Exception) -> Exception:
    """The refusal of a new campaign whose file was removed after its first entry: nothing was kept."""
    from campaign_ledger.errors import CampaignError
    from campaign_ledger.failures import FAILED, refusal

    facts["recorded"] = []
    failure = e.__context__ if e.__context__ is not None else e
    named = refusal(facts, failure)
    return CampaignError(*named) if named else CampaignError(
        f"the campaign could not be made ({type(failure).__name__}: {failure}); nothing was kept (its new file was "
        "removed).", 1, FAILED)


def import_campaign(export_path: str | os.PathLike[str], path: str | os.PathLike[str] | Campaign, *,
                    progress: Any = None) -> Campaign:
    """A new campaign file at `path` from a JSON Lines export (`campaign --db PATH import EXPORT`),
    every line's hash checked before anything is kept; refused when `path` exists. `path` may be a
    handle on the file already (the CLI's); its `started` is the report `import --json` prints.
    `progress(total)` gives a context manager whose value takes each step (the CLI's bar)."""
    campaign = path if isinstance(path, Campaign) else Campaign(path)
    campaign._imported(export_path, progress)
    return campaign


def demo_campaign(path: str | os.PathLike[str], ruleset: str | None = None) -> Campaign:
    """A sample campaign of `ruleset` in a new file at `path`, a short scene played (`campaign demo`)."""
    campaign = Campaign(path)
    campaign.demo(ruleset)
    return campaign
