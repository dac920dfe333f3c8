"""The player actions catalogue: what the rules let a player decide for their own character, from a
seat (campaign_ledger/seats.py), mapped onto the library's calls. One module per ruleset (relics.py,
beer_run.py, action_dice.py, decision_2d6.py) knows its rules; this one dispatches.

    from campaign_ledger.players import actions, perform, check

    seat = camp.seat_by_token(token)                   # {"seat", "pc", "player", "state", "generation", "actor"}
    for a in actions(camp, seat):                      # what applies now, what waits on this player first
        print(a["action"], a["label"], a["odds"])
    perform(camp.acting(seat["actor"], "page"), seat, "relics.roll", {"challenge": "Dogs", "faces": [6, 5, 2]}, key)

`perform` runs the library call for the seat's own character only; the page is never trusted: a
field naming another character is refused (rule `not-your-character`), so is anything the rules
leave to the GM (rule `gm-only`: opening Challenges, the GM's traits, overrides, undo, house rules,
notes, seats) and an action that does not exist (code 2). Every refusal is a CampaignError and
appends nothing.
"""
from __future__ import annotations

import inspect
from types import ModuleType
from typing import TYPE_CHECKING, Any, Mapping

from campaign_ledger.errors import CampaignError
from campaign_ledger.players.common import (GM_ONLY, NOT_YOUR_CHARACTER, SEAT_INACTIVE, Given, Ready, gm_only,
                                            malformed)
from campaign_ledger.players.shapes import Field, PlayerAction
from campaign_ledger.shapes import Report, SeatListed

if TYPE_CHECKING:
    from campaign_ledger.campaign import Campaign

__all__ = ["actions", "perform", "check", "PlayerAction", "Field", "GM_ONLY", "NOT_YOUR_CHARACTER", "SEAT_INACTIVE"]

# The catalogue of each ruleset, by its id (each module's READERS has its action ids).
MODULES = {"relics": "relics", "beer-run": "beer_run", "action-dice": "action_dice", "decision-2d6": "decision_2d6"}
# The GM's words a page might send that are no Campaign call (or not on every branch: the seats').
GM_WORDS = ("override", "gm_override", "seat_add", "seat_list", "seat_revoke", "seat_rotate", "seat_links")


def actions(campaign: Campaign, seat: SeatListed) -> list[PlayerAction]:
    """What the seat's player may do now for their own character, those the table waits on first
    (`waiting`), each with its fields and, for a roll, the exact odds of the pool (one odds call each).
    A seat no longer open (revoked, or rotated since `seat` was read) has none."""
    try:
        pc = _seated(campaign, seat)
    except CampaignError:
        return []
    found = _catalogue(campaign).actions(campaign, pc)
    return sorted(found, key=lambda a: not a["waiting"])


def perform(campaign: Campaign, seat: SeatListed, action: str, fields: Mapping[str, Any],
            key: str | None) -> Report:
    """Run `action` for the seat's own character with the values the page sent (`campaign` is the
    handle acting as the seat: `camp.acting(seat["actor"], "page")`). Refused, appending nothing:
    code 2 for an unknown action or a malformed field; rule `not-your-character` for a field naming
    another character, `gm-only` for what the rules leave to the GM, `seat-inactive` for a seat
    revoked or rotated since it was read, and the library's own rules."""
    return _ready(campaign, seat, action, fields).run(key)


def check(campaign: Campaign, seat: SeatListed, action: str, fields: Mapping[str, Any]) -> None:
    """The refusals `perform` would meet, without writing (before an action waits on the GM's
    confirmation). It checks the action, the fields, whose character it is and what is the GM's,
    and, where the library has a what-if for the call, runs it: the odds call of a Relics Cohort
    turn or a Beer Run roll (which build the pool with every rule check and save nothing), of an
    action-dice roll (its refusals without an override) and of a decision roll. Other actions (a
    roll of a pool already built, placing, Push the Limit, cede, pips, Check This Out) are checked
    for fields, ownership and GM-only only: the library's own rules refuse them at `perform`."""
    ready = _ready(campaign, seat, action, fields)
    if ready.what_if is not None:
        try:
            ready.what_if()
        except CampaignError as e:
            if "works out at most" not in str(e):  # a pool too large for exact odds is still a legal one
                raise


def _ready(campaign: Campaign, seat: SeatListed, action: str, fields: Mapping[str, Any]) -> Ready:
    pc = _seated(campaign, seat)
    catalogue = _catalogue(campaign)
    name = _action_id(action, catalogue)
    reader = catalogue.READERS.get(name)
    if reader is None:
        raise _not_a_player_action(name, catalogue)
    given = Given(fields, pc)
    ready: Ready = reader(campaign, pc, given)
    given.done()
    return ready


def _seated(campaign: Campaign, seat: SeatListed) -> str:
    """The seat's character, read again from the campaign: a seat revoked, or given a new link, since
    the caller read it (a page left open, a request racing the GM) is refused."""
    now = next((s for s in campaign.seat_list() if s["seat"] == seat.get("seat")), None)
    if now is None or now["state"] != "active" or now["generation"] != seat.get("generation") or \
            seat.get("state") != "active":
        raise CampaignError(f"The seat of {seat.get('pc')} is closed (revoked, or given a new link); ask the GM for "
                            "the link as it stands.", 1, SEAT_INACTIVE)
    return str(now["pc"])


def _catalogue(campaign: Campaign) -> ModuleType:
    import importlib

    ruleset = campaign.ruleset()
    return importlib.import_module(f"campaign_ledger.players.{MODULES[ruleset]}")


def _action_id(action: object, catalogue: ModuleType) -> str:
    """The action's id in this catalogue: "relics.roll", or "roll" for short."""
    if not isinstance(action, str) or not action.strip():
        raise malformed("Name the action, e.g. relics.roll.")
    name = action.strip()
    return name if "." in name else f"{_prefix(catalogue)}.{name}"


def _not_a_player_action(name: str, catalogue: ModuleType) -> CampaignError:
    """GM-only when the name is one of the GM's calls (`relics.challenge_open`, `undo`,
    `house_rule_set`, `seat_add`, `note`...) or an override; an action of another ruleset, or of
    none, is unknown (code 2)."""
    from campaign_ledger.campaign import Campaign

    prefix, _, words = name.rpartition(".")
    words = words.lower().replace("-", "_").replace(" ", "_")
    ours = _prefix(catalogue)
    calls = [getattr(Campaign, w, None) for w in (words, f"{ours}_{words}") if not w.startswith("_")]
    if prefix == ours and (words in GM_WORDS or any(inspect.isfunction(c) for c in calls)):
        return gm_only(f"'{words.replace('_', ' ')}'")
    return malformed(f"There is no player action '{name}' in this {ours.replace('_', '-')} campaign.")


def _prefix(catalogue: ModuleType) -> str:
    return next(iter(catalogue.READERS)).partition(".")[0]
