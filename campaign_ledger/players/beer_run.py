"""Beer Run: what the rules leave to a player for their own character (seed 002, RULES.md).

- Roll their side's pool in a conflict once its goal is stated, paying Intensity for extra dice,
  with the faces they rolled or the program's: `beer_run.roll`.
- Land the pips their kept successes earned on the opposing abilities, split as they like:
  `beer_run.pips` (the table waits on it, upper hand first).
- Cede between rounds: `beer_run.cede`.

The GM's: characters and difficulty pools, conflicts (open, end), goals, helping, Intensity,
outcome dice, and every override (an Intensity shortfall, the base pool's make-up).
"""
from __future__ import annotations

from typing import Any

from campaign_ledger.players.common import (Given, Reader, Ready, chance, dice_words, field, odds_or_none,
                                            offer, one_of, same)
from campaign_ledger.players.shapes import PlayerAction


def actions(campaign: Any, pc: str) -> list[PlayerAction]:
    """The open conflicts PC is a side of: pips due from PC, PC's roll, a cede between rounds."""
    found: list[PlayerAction] = []
    for c in campaign.beer_run_status():
        side = next((s for s in c["sides"] if same(s, pc)), None)
        if side is None or c["sides"][side]["out"]:
            continue
        due = c["next_pips"]
        if due and same(due["by"], side):
            found.append(_pips_offer(campaign, c["conflict"], due))
        elif c["phase"] == "rolling" and f"{side}'s roll" in c["waiting_for"]:
            found.append(_roll_offer(campaign, c["conflict"], side))
        if c["phase"] == "rolling" and not any(s["rolled"] for s in c["sides"].values()):
            found.append(offer("beer_run.cede", f"Cede {c['conflict']}: the other side gains its goal",
                               [one_of("conflict", "Conflict", [c["conflict"]])]))
    return found


def _roll_offer(campaign: Any, conflict: str, side: str) -> PlayerAction:
    answer: dict[str, Any] = {}
    odds = odds_or_none(lambda: answer.setdefault("r", campaign.odds(conflict, side)), _comparison_line)
    mine = answer["r"]["sides"][0] if "r" in answer else None
    base = mine["abilities"] if mine else []
    extras = [field(f"extra:{name}", f"Extra die: {name} (d{size})", "flag")
              for name, size in (mine["sheet"] if mine else {}).items() if size > 0 and name not in base]
    pool = dice_words(mine["dice"]) if mine else "your pool"
    fields = [one_of("conflict", "Conflict", [conflict]), *extras,
              field("faces", f"Faces of {pool} in that order, then any extra dice; empty: the program rolls", "faces",
                    dice=len(mine["dice"]) if mine else None)]
    penalty = answer["r"]["sides"][1]["opposing_penalty"]["dice"] if "r" in answer else []
    if penalty:  # the side's own penalty dice, rolled with its pool, join the other side's
        fields.append(field("penalty_faces", f"Faces of your penalty dice {dice_words(penalty)} (they join the other "
                                             "side's pool); with your faces only", "faces", dice=len(penalty)))
    cost = f" (costs {mine['cost']} Intensity of {mine['intensity']})" if mine and mine.get("cost") is not None else ""
    return offer("beer_run.roll", f"Roll in {conflict}{cost}", fields, odds=odds, waiting=True)


def _pips_offer(campaign: Any, conflict: str, due: dict[str, Any]) -> PlayerAction:
    sheet = campaign.beer_run_sheet(due["on"])
    live = [(a["name"], a["size"]) for group in sheet["abilities"].values() for a in group if a["size"] > 0]
    fields = [one_of("conflict", "Conflict", [conflict]),
              *(field(f"pips:{name}", f"Pips on {due['on']}'s {name} (d{size})", "int") for name, size in live)]
    plural = "s" * (due["kept"] != 1)
    return offer("beer_run.pips", f"Land {due['kept']} pip{plural} on {due['on']} in {conflict}", fields, waiting=True)


def _comparison_line(r: dict[str, Any]) -> str:
    """A comparison's exact odds in one line: both pools, the upper hand, a kept success or more."""
    mine, theirs = r["sides"]
    pool = f"rolled {', '.join(map(str, theirs['faces']))}" if theirs["rolled"] else dice_words(theirs["dice"])
    return (f"{dice_words(mine['dice'])} vs {theirs['side']}'s {pool}: upper hand "
            f"{chance(r['upper_hand']['first'])}, at least 1 kept success {chance(r['kept_at_least']['first'].get('1', '0'))}")


# --- reading and running each action ------------------------------------------------------------

def _roll(campaign: Any, pc: str, given: Given) -> Ready:
    named = given.text("conflict", required=True)
    extra = [name for name in given.names("extra:") if given.flag(f"extra:{name}")]
    faces, penalty = given.faces(), given.faces("penalty_faces")
    return Ready(lambda key: campaign.beer_run_roll(named, pc, extra=extra, faces=faces, penalty_faces=penalty, key=key),
                 lambda: campaign.odds(named, pc, extra=extra))


def _pips(campaign: Any, pc: str, given: Given) -> Ready:
    """Pips landed `by` the seat's own character: the library refuses them unless they are the ones due
    (no check here of whose turn it is, so a repeated submission is answered as a repeat)."""
    named = given.text("conflict", required=True)
    split = {name: n for name in given.names("pips:") if (n := given.number(f"pips:{name}", low=0))}
    return Ready(lambda key: campaign.beer_run_pips(named, pc, split, key=key))


def _cede(campaign: Any, pc: str, given: Given) -> Ready:
    named = given.text("conflict", required=True)
    return Ready(lambda key: campaign.beer_run_cede(named, pc, key=key))


READERS: dict[str, Reader] = {"beer_run.roll": _roll, "beer_run.pips": _pips, "beer_run.cede": _cede}
