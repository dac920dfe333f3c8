"""The odds of a roll in a campaign, one function per ruleset (and mode): each takes the ledger and
the values its roll or turn takes, and answers the figures `campaign odds` prints (exact Fractions).

campaign_ledger/odds.py chooses the function by the campaign's ruleset; every refusal here is the
CLI's, word for word (a malformed value is BadInput, exit 2 there).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from campaign_ledger.ledger.errors import BadInput

BySide = Mapping[str, int] | Sequence[tuple[str, int]]


def level_name(level: Any) -> str:
    """A step of decision-2d6's advantage scale as the JSON names it: `minor-advantage`."""
    return level.name.lower().replace("_", "-")


# --- Relics of the Moon -----------------------------------------------------------------------------

def relics(app: Any, challenge: str, *, challenge_turn: bool = False, leader: str | None = None,
           assists: Sequence[str] = (), traits: Sequence[str] = (), destiny: int = 0, opportunity: str | None = None,
           supplies: tuple[str, int, bool] | None = None, buy_time: bool = False,
           gm_motto: str | None = None) -> dict:
    """The pool waiting on a Challenge's turn, or the one this Huddle would build (as cohort-turn's
    values: traits "OWNER:TRAIT[=destiny|doom]", supplies (type, rank, traded)); `challenge_turn`:
    the Challenge's pool, with its traits."""
    from campaign_ledger.ledger.rulesets.relics import odds as odds_of
    from campaign_ledger.ledger.rulesets.relics.odds_pools import Huddle, relics_pool
    from campaign_ledger.ledger.rulesets.relics.turns import Tactics

    tactics = Tactics(opportunity, tuple(supplies) if supplies is not None else None, buy_time, gm_motto)  # type: ignore[arg-type]
    described = any((challenge_turn, leader, assists, traits, destiny, opportunity, supplies, buy_time, gm_motto))
    if challenge_turn and any((leader, assists, destiny, opportunity, supplies, buy_time, gm_motto)):
        raise BadInput("A Challenge turn's pool takes only --trait; the other options are the Cohort's Huddle.")
    if destiny < 0:
        raise BadInput("Destiny spent on dice cannot be negative.")
    from campaign_ledger.relics import trait_uses  # the one reader of OWNER:TRAIT=destiny

    huddle = Huddle(challenge_turn, leader, list(assists) or None, trait_uses(traits), destiny, tactics, described)
    found = relics_pool(app, challenge, huddle)
    pool = odds_of.pending_pool(found["pending"])
    if found["side"] == "cohort":
        context = odds_of.CohortContext(found["rules"], found["threat"], found["pcs"], found["destiny"],
                                        found["rating"], found["resolved"], (found["test"] or {}).get("needed"))
        figures = odds_of.cohort_odds(pool, context)
    else:
        figures = odds_of.challenge_odds(pool)
    return {"ruleset": "relics", "challenge": found["challenge"], "round": found["round"], "side": found["side"],
            "waiting": found["waiting"], "assumed_leader": found["assumed_leader"],
            "threat": found["threat"], "rating": found["rating"],
            "already_resolved": found["resolved"],
            "pool": {"roll": pool.rolled, "autos": list(pool.autos),
                     **({"cap": found["pending"]["pool"].get("cap"),
                         "lost_to_cap": found["pending"]["pool"].get("lost_to_cap", 0)}
                        if found["side"] == "cohort" else {}),
                     "simple": [{k: m[k] for k in ("label", "modifier", "polarity")}
                                for m in found["pending"].get("simple", [])]},
            **figures}


# --- decision-2d6 (seed 004) --------------------------------------------------------------------

def decision(app: Any, name: str | None = None, stat: str | None = None, *, target: int | None = None,
             difficulty: str | None = None, bonuses: Sequence[int] = (), penalties: Sequence[int] = (),
             modifiers: Sequence[int] = (), advantage: str = "neutral", grants: int = 0, item: str | None = None,
             tracker: str | None = None) -> dict:
    """A character's decision roll (as `decision-2d6 roll` takes it) at its level and every other;
    or, instead, an item's supply die (`item`) or a D100 tracker (`tracker`)."""
    from campaign_ledger.decision_2d6 import stated
    from campaign_ledger.ledger.rulesets.decision_2d6 import odds as odds_of
    from campaign_ledger.ledger.rulesets.decision_2d6 import rolls
    from campaign_ledger.ledger.rulesets.decision_2d6 import rules as d2
    from campaign_ledger.ledger.rulesets.decision_2d6.odds_pools import decision_score, supply_item, tracker_state

    if tracker is not None:
        if name or stat or item:
            raise BadInput("Give --tracker alone, or a CHARACTER and a STAT for a decision roll.")
        found = tracker_state(app, tracker)
        return {"ruleset": "decision-2d6", **found, **odds_of.tracker_odds(found["value"], found["step"])}
    if item is not None:
        if name or stat:
            raise BadInput("Give --item alone, or a CHARACTER and a STAT for a decision roll.")
        found = supply_item(app, item)
        figures = odds_of.supply_odds(found["die"], found["threshold"])
        die = "Empty" if found["die"] is d2.SupplyDie.EMPTY else found["die"].name
        return {"ruleset": "decision-2d6", "item": found["item"], "die": die, "threshold": found["threshold"],
                **figures}
    if not name or not stat:
        raise BadInput("Name the CHARACTER and the STAT of the roll (or --item ITEM for a supply die).")
    if grants < 0:
        raise BadInput("Count the effects that grant advantage: 0 or more.")
    rules_mods = [s.rule() for s in stated(bonuses, penalties, modifiers)]
    level = d2.grant_advantage(rolls.advantage(advantage), grants)
    number, label = rolls.target(target, difficulty)
    found = decision_score(app, name, stat)
    figures = odds_of.decision_odds(found["stat_value"], rules_mods, level, number)
    return {"ruleset": "decision-2d6", **found, "modifier_total": d2.counted_modifiers(rules_mods),
            "advantage": level_name(level), "decision_dice": level.decision_dice,
            "target": number, "difficulty": label, **figures,
            "levels": {k.lower().replace("_", "-"): v for k, v in
                       odds_of.every_level(found["stat_value"], rules_mods, number).items()}}


def contest(app: Any, first: tuple[str, str], second: tuple[str, str], *, advantage: tuple[str, str] | None = None,
            grants: Sequence[str] = (), bonuses: BySide | None = None, penalties: BySide | None = None,
            modifiers: BySide | None = None) -> dict:
    """A contest before its dice (as `decision-2d6 contest` takes it): who wins the first roll, and
    in the end. Sides are (character, stat); `advantage` is (side, "minor" or "major")."""
    from campaign_ledger.decision_2d6 import contest_sides
    from campaign_ledger.ledger.rulesets.decision_2d6 import odds as odds_of
    from campaign_ledger.ledger.rulesets.decision_2d6.odds_pools import contest_sides as contenders

    sides = contest_sides(first, second, bonuses, penalties, modifiers)
    favoured = (advantage[0].strip(), advantage[1].strip()) if advantage is not None else None
    found = contenders(app, sides, favoured, list(grants))
    figures = odds_of.contest_odds(*found["people"])
    return {"ruleset": "decision-2d6", "contest": found["sides"], "position": level_name(found["position"]),
            **figures}


# --- action dice (seed 003) -----------------------------------------------------------------------

def action(app: Any, character: str, action: str, *, rating: str | None = None, difficulty: int | None = None,
           advantages: int = 0, disadvantages: int = 0, assets: Sequence[str] = (),
           features: Sequence[str] = ()) -> dict:
    """An action roll (as `action-dice roll` takes it): each outcome grade's chance."""
    from campaign_ledger.ledger.rulesets.action_dice import odds as odds_of
    from campaign_ledger.ledger.rulesets.action_dice.odds_pools import action_roll

    found = action_roll(app, character, action, rating, difficulty, advantages, disadvantages,
                        list(assets), list(features))
    return {"ruleset": "action-dice", **found, **odds_of.outcome_odds(found["dice"], found["difficulty"])}


# --- Beer Run (seed 002) ----------------------------------------------------------------------------

def beer_run(app: Any, conflict: str, side: str, *, base: Sequence[str] = (), extra: Sequence[str] = (),
             against: str | None = None, against_base: Sequence[str] = (), against_extra: Sequence[str] = (),
             situation: str | None = None, helping: str | None = None, die: str | None = None,
             goal_against: Sequence[str] = (), replace: Sequence[int] = ()) -> dict:
    """SIDE's roll against the side it faces (abilities as `beer-run roll` takes them), with a
    situational goal if `situation` names its die; or, instead, SIDE `helping` an ally toward `die`.
    `replace`: dice of `goal_against` (numbered from 1) that become the die sought."""
    from campaign_ledger.ledger.rulesets.beer_run import odds as odds_of
    from campaign_ledger.ledger.rulesets.beer_run.odds_pools import Opposed, beer_run_pools, helping_pools

    positions = positions_from_one(replace)
    if helping is not None:
        if die is None:
            raise BadInput("A helping goal needs the die it seeks for the ally: --die dN.")
        if situation or against or against_base or against_extra:
            raise BadInput("A helping roll is against the goal's difficulty pool alone; leave out --situation and "
                           "--against (give the GM's pool with --goal-against).")
        found = helping_pools(app, conflict, side, helping, die, list(goal_against), positions, list(base), list(extra))
        figures = odds_of.goal_odds(odds_of.Side(tuple(found["dice"])),
                                    odds_of.Side(tuple(found["difficulty"] + found["penalty"])))
        return {"ruleset": "beer-run", "helping": {**found, **figures}}
    if die is not None:
        raise BadInput("--die is the die a helping goal seeks; with --helping ALLY (a situational goal: --situation dN).")
    found = beer_run_pools(app, conflict, Opposed(side, list(base), list(extra), against, list(against_base),
                                                  list(against_extra), situation, list(goal_against), positions))
    first, second = found["sides"]
    pools = [odds_of.Side(tuple(s["dice"] + s["opposing_penalty"]["dice"]),
                          tuple(s["faces"] + s["opposing_penalty"]["faces"])) for s in (first, second)]
    figures = odds_of.opposed_odds(pools[0], pools[1], _live(first, second), _live(second, first))
    figures["situational_goal"] = {key: _situational(s, other) for key, s, other in
                                   (("first", first, second), ("second", second, first))}
    return {"ruleset": "beer-run", **found, **figures}


def positions_from_one(replace: Sequence[int]) -> list[int]:
    """Dice of a goal's difficulty pool, numbered from 1 (the CLI's `--replace 1,3`)."""
    numbers = [int(n) for n in replace]
    if any(n < 1 for n in numbers):
        raise BadInput(f"--replace names dice of --goal-against by number from 1, e.g. 1,3; not "
                       f"'{','.join(map(str, numbers))}'.")
    return numbers


def _situational(side: dict, other: dict) -> dict | None:
    """A side with a situational goal rolls the same faces against the goal's difficulty pool and its own
    penalty dice (which sit in the other side's `opposing_penalty`): the uses it gains, the penalties."""
    from campaign_ledger.ledger.rulesets.beer_run import odds as odds_of

    goal = side["situational_goal"]
    if goal is None:
        return None
    own = odds_of.Side(tuple(side["dice"]), tuple(side["faces"]))
    against = odds_of.Side(tuple(goal["difficulty"] + other["opposing_penalty"]["dice"]),
                           tuple(goal["difficulty_faces"] + other["opposing_penalty"]["faces"]))
    return {"die": goal["die"], **odds_of.goal_odds(own, against)}


def _live(side: dict, striker: dict) -> dict[str, int]:
    """The abilities of `side` the other side's pips could reach (none if its goal is situational)."""
    return {name: size for name, size in side["sheet"].items() if size > 0} if striker["strikes"] else {}
