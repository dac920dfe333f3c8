"""Relics of the Moon: what the rules leave to a player for their own PC (seeds 000/001, RULES.md).

- The Huddle of a Cohort turn the PC leads (or may lead: no leader yet, or the leader Stressed
  Out): the PC's own traits activated and paid for (Destiny, Doom, or either), Destiny spent 1:1 on
  dice, and the roll, with the faces the player rolled or the program's ("Who rolls for the Cohort
  ... if consensus cannot be reached, the Leader rolls"): `relics.cohort_turn`.
- The Cohort pool waiting on its roll, or on its Simple modifiers' placement, when the PC leads:
  `relics.roll`, `relics.place` (the offered placement).
- Push the Limit, when the PC is Stressed Out: `relics.push`.
- Check This Out (a Cohort Tactic, paid with Destiny or Doom): `relics.check_this_out`.

The GM's: opening Challenges, the Challenge turn and its roll ("rolled by the GM"), the Challenge's
and the GM's traits (Doom), Stress spread across the group, Create an Opportunity, Supplies, Buy
Time and splitting (GM approval), and every override.
"""
from __future__ import annotations

from typing import Any

from campaign_ledger.players.common import (Given, Reader, Ready, chance, field, gm_only, not_yours, odds_or_none,
                                            offer, one_of, same)
from campaign_ledger.players.shapes import Field, PlayerAction

STRESSED_OUT = "Stressed Out"  # a sheet's status (projections/rulesets/relics/sheets.py)
ACTIVE = "active"
MODIFIERS = ("+1d6", "+1 / 1d", "-1 / 1d")  # Check This Out's rank 1 traits (docs/rulesets/relics.md)


def actions(campaign: Any, pc: str) -> list[PlayerAction]:
    """What PC may do now: Push the Limit when Stressed Out; else a Cohort turn to lead, a pool to
    roll or place, Check This Out in a Scene."""
    sheets = {s["name"]: s for s in campaign.sheet()}
    me = next((s for name, s in sheets.items() if same(name, pc)), None)
    if me is None or me.get("retired"):
        return []
    if me["status"] == STRESSED_OUT:
        return [offer("relics.push", "Push the Limit: Stress rolls over, +1 Agony", [], waiting=True)]
    if me["status"] != ACTIVE:
        return []
    status = campaign.status()
    found: list[PlayerAction] = []
    for ch in status["challenges"]:
        leads = same(ch["leader"], pc)
        if leads and ch["phase"] == "cohort-roll":
            found.append(_roll_offer(campaign, ch))
        elif leads and ch["phase"] == "cohort-place":
            found.append(offer("relics.place", f"Place the Simple modifiers on {ch['name']} as offered",
                               [one_of("challenge", "Challenge", [ch["name"]])], waiting=True))
        elif ch["phase"] == "cohort" and _may_lead(ch, me, sheets, status["turn"]):
            found.append(_huddle_offer(campaign, ch, me, leads))
    if status["stage"].get("scene") is not None:
        found.append(_check_this_out_offer(status))
    return found


def _may_lead(ch: dict[str, Any], me: dict[str, Any], sheets: dict[str, Any], turn: dict[str, Any] | None) -> bool:
    """Rank 2+ in the Challenge's type, no turn unfinished elsewhere, and no other leader still able."""
    if turn is not None and not same(turn["challenge"], ch["name"]):
        return False
    leader = sheets.get(ch["leader"]) if ch["leader"] else None
    return me["expertise"].get(ch["type"], 0) >= 2 and (
        leader is None or same(leader["name"], me["name"]) or leader["status"] != ACTIVE)


def _trait_fields(me: dict[str, Any], target: str) -> list[Field]:
    """One field per own trait on the `target` pool: a flag, or for Destiny-or-Doom the payment."""
    fields = []
    for trait in me["traits"]:
        if trait["target"] != target:
            continue
        name, label = f"trait:{trait['name']}", f"{trait['name']} ({trait['modifier']}"
        if trait["cost"] == "destiny-or-doom":
            fields.append(field(name, f"{label}), paid with", "choice", choices=["destiny", "doom"]))
        else:
            paid = {"destiny": ", 1 Destiny", "doom": ", 1 Doom"}.get(trait["cost"], "")
            fields.append(field(name, f"{label}{paid})", "flag"))
    return fields


def _huddle_offer(campaign: Any, ch: dict[str, Any], me: dict[str, Any], leads: bool) -> PlayerAction:
    answer: dict[str, Any] = {}
    odds = odds_or_none(lambda: answer.setdefault("r", campaign.odds(ch["name"], leader=me["name"])), _pool_line)
    dice = answer["r"]["pool"]["roll"] if "r" in answer else None
    fields = [one_of("challenge", "Challenge", [ch["name"]]), *_trait_fields(me, "cohort"),
              field("destiny", "Destiny spent for +1d6 each", "int"),
              field("faces", f"Faces of your {dice or ''}d6 (more with Destiny or Add Dice); empty: the program rolls",
                    "faces", dice=dice),
              field("best", "Place Simple modifiers as offered", "flag")]
    return offer("relics.cohort_turn", f"Lead the Cohort turn on {ch['name']}", fields, odds=odds, waiting=leads)


def _roll_offer(campaign: Any, ch: dict[str, Any]) -> PlayerAction:
    answer: dict[str, Any] = {}
    odds = odds_or_none(lambda: answer.setdefault("r", campaign.odds(ch["name"])), _pool_line)
    dice = answer["r"]["pool"]["roll"] if "r" in answer else None
    fields = [one_of("challenge", "Challenge", [ch["name"]]),
              field("faces", f"Faces of the Cohort's {dice or ''}d6; empty: the program rolls", "faces", dice=dice),
              field("best", "Place Simple modifiers as offered", "flag")]
    return offer("relics.roll", f"Roll the Cohort pool on {ch['name']}", fields, odds=odds, waiting=True)


def _check_this_out_offer(status: dict[str, Any]) -> PlayerAction:
    against = [ch["name"] for ch in status["challenges"]]
    fields = [field("trait", "The new trait's name", "text", required=True),
              field("modifier", "Its modifier (-1 / 1d only against a Challenge)", "choice", choices=list(MODIFIERS),
                    required=True),
              field("pay", "Paid with", "choice", choices=["destiny", "doom"], required=True),
              field("against", "Against a Challenge (empty: for the Cohort)", "choice", choices=against)]
    return offer("relics.check_this_out", "Check This Out (once a Scene)", fields)


def _pool_line(r: dict[str, Any]) -> str:
    """A Relics pool's exact odds in one line: the dice, at least one success, a Disaster."""
    pool = r["pool"]
    autos = f" + auto results {', '.join(map(str, pool['autos']))}" if pool["autos"] else ""
    return (f"{pool['roll']}d6 to roll{autos}: at least 1 success {chance(r['at_least'].get('1', '0'))}, "
            f"Disaster {chance(r['disaster'])}")


# --- reading and running each action ------------------------------------------------------------

def _challenge(campaign: Any, given: Given) -> dict[str, Any]:
    """The open Challenge the action names (one not open: the library refuses it in its own words)."""
    named = given.text("challenge", required=True)
    return next((ch for ch in campaign.status()["challenges"] if same(ch["name"], named)),
                {"name": named, "leader": None, "phase": None})


def _led_by_me(ch: dict[str, Any], pc: str, step: str) -> None:
    if ch["phase"] in ("challenge-roll", "challenge-place"):
        raise gm_only(f"The Challenge's {step} on {ch['name']}")
    if ch["leader"] and not same(ch["leader"], pc):
        raise not_yours(f"{ch['leader']} leads {ch['name']}: the Cohort's {step} is theirs, not {pc}'s.")


def _cohort_turn(campaign: Any, pc: str, given: Given) -> Ready:
    ch = _challenge(campaign, given)
    sheets = {s["name"].casefold(): s for s in campaign.sheet()}
    leader = sheets.get((ch["leader"] or "").casefold())
    if leader is not None and not same(leader["name"], pc) and leader["status"] == ACTIVE:
        raise not_yours(f"{leader['name']} leads {ch['name']}: the Cohort turn is theirs to lead, not {pc}'s.")
    uses = _uses(given, pc)
    destiny = given.number("destiny", default=0, low=0) or 0
    faces, best = given.faces(), given.flag("best")
    name = ch["name"]
    return Ready(lambda key: campaign.cohort_turn(name, leader=pc, traits=uses, destiny=destiny, faces=faces,
                                                  roll=faces is None, best=best, key=key),
                 lambda: campaign.odds(name, leader=pc, traits=uses, destiny=destiny))


def _uses(given: Given, pc: str) -> list[str]:
    """The PC's own traits activated ("trait:NAME" on, or its payment): "PC:NAME[=destiny|doom]"."""
    uses = []
    for name in given.names("trait:"):
        owner, colon, _ = name.partition(":")
        if colon and not same(owner, pc):
            raise not_yours(f"{owner}'s traits are not yours to activate; you play {pc}.")
        trait = name.partition(":")[2] if colon else name
        value = given.values[f"trait:{name}"]
        if isinstance(value, str) and value.strip().lower() in ("destiny", "doom"):
            given.read.add(f"trait:{name}")
            uses.append(f"{pc}:{trait}={value.strip().lower()}")
        elif given.flag(f"trait:{name}"):
            uses.append(f"{pc}:{trait}")
    return uses


def _roll(campaign: Any, pc: str, given: Given) -> Ready:
    ch = _challenge(campaign, given)
    _led_by_me(ch, pc, "roll")
    faces, best = given.faces(), given.flag("best")
    return Ready(lambda key: campaign.roll(ch["name"], faces=faces, best=best, key=key))


def _place(campaign: Any, pc: str, given: Given) -> Ready:
    ch = _challenge(campaign, given)
    _led_by_me(ch, pc, "placement")
    return Ready(lambda key: campaign.place(ch["name"], best=True, key=key))


def _push(campaign: Any, pc: str, given: Given) -> Ready:
    return Ready(lambda key: campaign.push(pc, key=key))


def _check_this_out(campaign: Any, pc: str, given: Given) -> Ready:
    name = given.text("trait", required=True)
    modifier = given.choice("modifier", MODIFIERS, required=True)
    pay = given.choice("pay", ("destiny", "doom"), required=True)
    against = given.text("against")
    return Ready(lambda key: campaign.check_this_out(name, modifier, pay=pay, against=against, key=key))


READERS: dict[str, Reader] = {"relics.cohort_turn": _cohort_turn, "relics.roll": _roll, "relics.place": _place,
                              "relics.push": _push, "relics.check_this_out": _check_this_out}
