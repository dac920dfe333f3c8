"""Decision rolls: what the rules leave to a player for their own character (seed 004, RULES.md).

- A decision roll of one of their own stats or attributes against the target or difficulty the GM
  named, with the advantage and modifiers in play, and the faces they rolled (explosions included)
  or the program's: `decision_2d6.roll`, one offer per stat.
- A supply roll of an item their character holds, and a use of a D100 tracker it holds:
  `decision_2d6.supply_roll`, `decision_2d6.tracker_roll`.

The GM's: characters and their scores, contests (two characters), items and trackers (adding,
restocking, setting), and the override that uses an Empty item or a tracker at 0%.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from campaign_ledger.players.common import (Given, Reader, Ready, chance, field, gm_only, not_yours, odds_or_none,
                                            offer, one_of, same)
from campaign_ledger.players.shapes import PlayerAction

DIFFICULTIES = {"simple": 6, "challenging": 12, "strenuous": 18, "impossible": 20}  # the seed's named targets
ADVANTAGE = ("major-advantage", "minor-advantage", "neutral", "minor-disadvantage", "major-disadvantage")


def actions(campaign: Any, pc: str) -> list[PlayerAction]:
    """A decision roll per stat and attribute, and the supply rolls and trackers the character holds."""
    sheet = campaign.decision_2d6_sheet(pc)
    found = [_roll_offer(campaign, sheet["name"], stat, value)
             for stat, value in {**sheet["stats"], **sheet["attributes"]}.items()]
    pools = campaign.decision_2d6_pools()
    found += [_supply_offer(campaign, s["item"], s["die"]) for s in pools["supplies"]
              if same(s["holder"], sheet["name"]) and s["die"] != "Empty"]
    found += [_tracker_offer(campaign, t["tracker"], t["value"]) for t in pools["trackers"]
              if same(t["holder"], sheet["name"]) and t["value"] > 0]
    return found


def _roll_offer(campaign: Any, pc: str, stat: str, value: int) -> PlayerAction:
    odds = odds_or_none(lambda: campaign.odds(pc, stat), _decision_line)
    fields = [one_of("stat", "Stat", [stat]),
              field("difficulty", "Difficulty", "choice", choices=list(DIFFICULTIES)),
              field("target", "Or the target number", "int"),
              field("advantage", "Advantage", "choice", choices=list(ADVANTAGE)),
              field("bonus", "A bonus (+)", "int"), field("penalty", "A penalty (-)", "int"),
              field("purpose", "What for", "text"),
              field("faces", "Faces in the order they came up, every explosion included; empty: the program rolls",
                    "faces")]
    return offer("decision_2d6.roll", f"Roll {stat} ({value:+d})", fields, odds=odds)


def _decision_line(r: dict[str, Any]) -> str:
    """A decision roll at Neutral: its mean and the chance of each named difficulty, exactly."""
    at = ", ".join(f"{name} ({n}+) {chance(r['at_least'].get(str(n), '0'))}" for name, n in DIFFICULTIES.items())
    return f"{r['decision_dice']}d6 exploding {r['stat_value']:+d}: mean {r['mean']} ({float(Fraction(r['mean'])):.1f}); {at}"


def _supply_offer(campaign: Any, item: str, die: str) -> PlayerAction:
    odds = odds_or_none(lambda: campaign.odds(item=item),
                        lambda r: f"{r['die']}: steps down on this roll {chance(r['step_down'])}")
    fields = [one_of("item", "Item", [item]), field("faces", f"The {die}'s face; empty: the program rolls", "faces",
                                                    dice=1), field("purpose", "What for", "text")]
    return offer("decision_2d6.supply_roll", f"Supply roll: {item} ({die})", fields, odds=odds)


def _tracker_offer(campaign: Any, tracker: str, value: int) -> PlayerAction:
    odds = odds_or_none(lambda: campaign.odds(tracker=tracker),
                        lambda r: f"{r['value']}%: this use goes ahead {chance(r['next_use'])}")
    fields = [one_of("tracker", "Tracker", [tracker]),
              field("faces", "The d100's face; empty: the program rolls", "faces", dice=1),
              field("purpose", "What for", "text")]
    return offer("decision_2d6.tracker_roll", f"Use {tracker} ({value}%)", fields, odds=odds)


# --- reading and running each action ------------------------------------------------------------

def _roll(campaign: Any, pc: str, given: Given) -> Ready:
    stat = given.text("stat", required=True)
    difficulty = given.choice("difficulty", DIFFICULTIES)
    target = given.number("target")
    advantage = given.choice("advantage", ADVANTAGE) or "neutral"
    bonus, penalty = given.number("bonus"), given.number("penalty")
    purpose, faces = given.text("purpose") or "", given.faces()
    chosen = {"target": target, "difficulty": difficulty, "advantage": advantage,
              "bonuses": [bonus] if bonus is not None else [], "penalties": [penalty] if penalty is not None else []}
    return Ready(lambda key: campaign.decision_2d6_roll(pc, stat, **chosen, faces=faces, purpose=purpose, key=key),
                 lambda: campaign.odds(pc, stat, **chosen))


def _held(rows: list[dict[str, Any]], key: str, named: str | None, pc: str, what: str) -> str | None:
    """The item or tracker, checked to be held by PC: another's is not yours, no one's is the GM's."""
    row = next((r for r in rows if same(r[key], named)), None)
    if row is None:
        return named  # the library refuses an unknown name in its own words
    if row["holder"] is None:
        raise gm_only(f"A {what} no character holds ({row[key]})")
    if not same(row["holder"], pc):
        raise not_yours(f"{row[key]} is {row['holder']}'s, not {pc}'s.")
    return str(row[key])


def _supply_roll(campaign: Any, pc: str, given: Given) -> Ready:
    item = _held(campaign.decision_2d6_pools()["supplies"], "item", given.text("item", required=True), pc, "supply roll of an item")
    faces, purpose = given.faces(), given.text("purpose") or ""
    return Ready(lambda key: campaign.decision_2d6_supply_roll(item, faces=faces, purpose=purpose, key=key))


def _tracker_roll(campaign: Any, pc: str, given: Given) -> Ready:
    tracker = _held(campaign.decision_2d6_pools()["trackers"], "tracker", given.text("tracker", required=True), pc,
                    "use of a tracker")
    faces, purpose = given.faces(), given.text("purpose") or ""
    return Ready(lambda key: campaign.decision_2d6_tracker_roll(tracker, faces=faces, purpose=purpose, key=key))


READERS: dict[str, Reader] = {"decision_2d6.roll": _roll, "decision_2d6.supply_roll": _supply_roll,
                              "decision_2d6.tracker_roll": _tracker_roll}
