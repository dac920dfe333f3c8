"""How odds are printed: exact fractions as strings for --json, percentages and bars for the table.

Why strings: a fraction like 767/1296 survives JSON exactly, where a float would not (the library
makes them: campaign_ledger/odds.py `jsonable`); the text view rounds for reading and draws the
distribution as a small bar chart.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from campaign_ledger.ledger.odds import percent

BAR_WIDTH = 30
SHOWN_FROM = Fraction(1, 2000)  # rows rarer than 0.05% are left out of a chart (the JSON has them all)


def text_of(r: dict[str, Any]) -> str:
    """The odds as the table reads them, by what the library answered (its ruleset, and its mode)."""
    if r["ruleset"] == "relics":
        return relics_text(r)
    if r["ruleset"] == "action-dice":
        return action_text(r)
    if r["ruleset"] == "beer-run":
        return beer_run_helping_text(r) if "helping" in r else beer_run_text(r)
    if "contest" in r:
        return contest_text(r)
    if "next_use" in r:
        return tracker_text(r)
    return supply_text(r) if "step_down" in r else decision_text(r)


def decimal(value: Fraction, places: int = 2) -> str:
    return f"{float(value):.{places}f}"


def chart(title: str, dist: Mapping[Any, Fraction], at_least: Mapping[Any, Fraction] | None = None,
          label: str = "at least") -> list[str]:
    """A bar per outcome, scaled to the likeliest; with `at_least`, P(>= k) beside each bar."""
    shown = [(k, p) for k, p in dist.items() if p >= SHOWN_FROM]
    if not shown:
        return [title]
    top = max(p for _, p in shown)
    width = max(len(str(k)) for k, _ in shown)
    lines = [title]
    for k, p in shown:
        bar = "\u2588" * max(1, round(float(p / top) * BAR_WIDTH))
        tail = f"   {label} {k}: {percent(at_least[k])}" if at_least is not None else ""
        lines.append(f"  {str(k):>{width}}  {bar:<{BAR_WIDTH}} {percent(p):>6}{tail}")
    left = len(dist) - len(shown)
    if left:
        lines.append(f"  ({left} rarer {'outcome' if left == 1 else 'outcomes'} under 0.05% not drawn)")
    return lines


def relics_text(r: dict[str, Any]) -> str:
    """A Relics pool's odds: the pool, the successes chart, Disaster, expectations, Tides or Stress."""
    pool = r["pool"]
    side = "the Cohort's pool" if r["side"] == "cohort" else "the Challenge's pool"
    state = "waiting for the roll" if r["waiting"] else \
        "as this Huddle would build it; nothing recorded" if r["challenge"] else "as described; nothing recorded"
    autos = f" + auto results {', '.join(map(str, pool['autos']))}" if pool["autos"] else ""
    placing = "; Simple modifiers placed as --best would: " + ", ".join(
        f"{m['label']} {m['modifier']}" for m in pool["simple"]) if pool["simple"] else ""
    e = r["expected"]
    where = f"{r['challenge']}, round {r['round']}" if r["challenge"] else "A pool described in full (no campaign)"
    lines = [f"{where}: {side} ({state})",
             f"  {pool['roll']}d6 to roll{autos}{placing}" + _capped(pool)]
    if r.get("assumed_leader"):
        lines.append(f"  Led by {r['assumed_leader']} (no leader yet: the highest rank facing it; choose with --leader)")
    lines += chart("Net successes", r["successes"], r["at_least"])
    lines.append(f"Disaster: {percent(r['disaster'])}.  Expected: {decimal(e['successes'])} successes, "
                 f"{decimal(e['criticals'])} criticals, {decimal(e['overpowering'])} overpowering, "
                 f"{decimal(e['botches'])} botches, {decimal(e['major_botches'])} major botches.")
    if r["side"] == "cohort":
        t = r["expected_tides"]
        lost = f" ({decimal(t['destiny_lost_to_cap'])} lost to the cap)" if t["destiny_lost_to_cap"] else ""
        lines.append(f"Tides: Destiny +{decimal(t['destiny'])}{lost}, Doom +{decimal(t['doom'])} expected"
                     + (" (none against a Common Threat)." if r["threat"] == "Common" else "."))
        lines += chart(f"Dice resolved toward the rating ({r['rating']}, {r['already_resolved']} resolved before)",
                       r["resolved"])
        lines.append(f"Resolves {r['challenge'] or 'the Challenge'} this turn: {percent(r['resolves_challenge'])}.")
        if r["passes_test"] is not None:
            lines.append(f"Passes the Test: {percent(r['passes_test'])}.")
    else:
        lines += chart("Stress for the group facing it", r["stress"])
        lines.append(f"Expected Stress: {decimal(r['expected_stress'])}.")
    return "\n".join(lines)


def _capped(pool: dict[str, Any]) -> str:
    """The pool cap, said whenever it took dice away, so a smaller pool than described is never a surprise."""
    lost = pool.get("lost_to_cap") or 0
    return f" ({pool['cap'] + lost} dice, capped at {pool['cap']} by the PCs in the game: {lost} not rolled)" \
        if lost else ""


def scale(level: str) -> str:
    """A step of the advantage scale as the seed names it (`Minor Advantage`), not as typed (`minor-advantage`)."""
    return level.replace("-", " ").title()


def decision_text(r: dict[str, Any]) -> str:
    """A decision roll's totals, P(success) at its level, and the same roll at every level."""
    against = "" if r["target"] is None else f" against {r['target']}" + (f" ({r['difficulty']})" if r["difficulty"] else "")
    extra = f", modifiers {r['modifier_total']:+d}" if r["modifier_total"] else ""
    whose = f"{r['character']}'s" if r["character"] else "A"
    lines = [f"{whose} {r['stat']} roll: {r['decision_dice']}d6 exploding + {r['stat']} "
             f"{r['stat_value']:+d}{extra}, {scale(r['advantage'])}{',' if against else ''}{against}"]
    lines += chart("Totals", r["totals"], r["at_least"])
    tail = r["tail"]
    lines.append(f"  {tail['from']} or more: {percent(tail['probability'])} (every explosion followed; nothing cut off)")
    success = "" if r["success"] is None else f"  Success ({r['target']} or more): {percent(r['success'])}."
    lines.append(f"Mean {decimal(r['mean'])}.{success}")
    lines.append("At every step of the advantage scale:")
    for level, v in r["levels"].items():
        chance_ = "" if v["success"] is None else f"success {percent(v['success']):>6}  "
        lines.append(f"  {scale(level):<20} {chance_}mean {decimal(v['mean'])}")
    return "\n".join(lines)


def supply_text(r: dict[str, Any]) -> str:
    """A supply die: the chance it steps down on the next roll, the uses expected before Empty."""
    if r["step_down"] is None:
        return f"{r['item'] or 'The item'} is Empty: no supply roll is left to make."
    uses = "it never runs out (no face steps it down)" if r["expected_uses"] is None else \
        f"about {decimal(r['expected_uses'])} uses expected before it is Empty"
    return (f"{r['item'] or 'A supply die'}: {r['die']} (a roll of {r['threshold']} or lower steps it down). Next roll steps it "
            f"down: {percent(r['step_down'])}; {uses}.")


def tracker_text(r: dict[str, Any]) -> str:
    """A D100 tracker: the chance the next use goes ahead, and how many uses it has left."""
    if r["next_use"] is None:
        return f"{r['tracker'] or 'The tracker'} is at 0%: no use is left until it is refilled."
    lines = [f"{r['tracker'] or 'A tracker'}: {r['value']}%, each use that goes ahead costs {r['step']} points. "
             f"Next use goes ahead: {percent(r['next_use'])}."]
    if r["expected_uses"] is None:
        return lines[0] + " It never runs out (100% and a use costs nothing)."
    lines += chart("Uses before it runs out", r["uses"], r["uses_at_least"])
    if r["tail"]:
        lines.append(f"  {r['tail']['from']} or more: {percent(r['tail']['probability'])}")
    lines.append(f"Expected uses: {decimal(r['expected_uses'])}.")
    return "\n".join(lines)


def contest_text(r: dict[str, Any]) -> str:
    """A contest: each side's roll, who wins the first roll or ties, who wins in the end."""
    first, second = r["contest"]

    def side(s: dict[str, Any]) -> str:
        extra = f" {s['modifier_total']:+d}" if s["modifier_total"] else ""
        return f"{s['name']} ({s['decision_dice']}d6 exploding + {s['stat']} {s['stat_value']:+d}{extra}, {scale(s['advantage'])})"
    roll = r["first_roll"]
    return "\n".join([
        f"Contest: {side(first)} vs {side(second)}",
        f"First roll: {first['name']} higher {percent(roll['first'])}, tie {percent(roll['tie'])}, "
        f"{second['name']} higher {percent(roll['second'])}.",
        f"Wins (a tie rerolls the dice until one wins): {first['name']} {percent(r['wins']['first'])}, "
        f"{second['name']} {percent(r['wins']['second'])}; {decimal(r['expected_rolls'])} rolls expected."])


def action_text(r: dict[str, Any]) -> str:
    """Each outcome grade's chance, the binary test, and the test at every difficulty."""
    dice = ", ".join(f"d{d}" for d in r["dice"])
    who = f"{r['character']} {r['action']}" if r["character"] else "An action roll"
    lines = [f"{who}: {dice} against difficulty {r['difficulty']}"]
    lines += chart("Outcome", r["grades"])
    lines.append(f"A pass/fail test passes (Mostly or Complete Success): {percent(r['test_passes'])}.")
    lines.append("  at difficulty " + ", ".join(f"{d}: {percent(p)}" for d, p in r["test_passes_at"].items()))
    lines += [f"Note: without a GM override the roll is refused: {why}" for why in r["refused_without_override"]]
    return "\n".join(lines)


def _dice(sizes: Any) -> str:
    """Die sizes as a GM writes them: d8, d6, d6."""
    return ", ".join(f"d{d}" for d in sizes) or "no dice"


def beer_run_text(r: dict[str, Any]) -> str:
    """Both pools, who gets the upper hand, each side's kept successes, and what they can zero."""
    def pool(s: dict[str, Any]) -> str:
        rolled = f"rolled {', '.join(map(str, s['faces']))}" if s["rolled"] else _dice(s["dice"])
        penalty = s["opposing_penalty"]
        shown = ", ".join([f"d{d}" for d in penalty["dice"]] + [f"one showing {f}" for f in penalty["faces"]])
        return f"{s['side']}: {rolled}" + (f" + penalty dice {shown} from the other side" if shown else "")

    first, second = r["sides"]
    hands = r["upper_hand"]
    where = f"{r['conflict']}, round {r['round']}" if r["conflict"] else "No campaign"
    lines = [f"{where}: " + "  vs  ".join(pool(s) for s in (first, second)),
             f"Upper hand: {first['side']} {percent(hands['first'])}, {second['side']} {percent(hands['second'])}, "
             f"neither (every pair tied) {percent(hands['neither'])}."]
    for key, s, other in (("first", first, second), ("second", second, first)):
        lines += chart(f"{s['side']}'s kept successes", r["kept"][key], r["kept_at_least"][key])
        zero, goal = r["to_zero"][key], s.get("goal_ability")
        if zero:
            lines.append(f"  Kept successes enough to take {other['side']}'s ability to zero: " + ", ".join(
                f"{name}{' (the goal)' if name == goal else ''} {percent(p)}" for name, p in zero.items()))
        situational = r.get("situational_goal", {}).get(key)
        if situational:
            lines.append(f"  {s['side']}'s situational goal (d{situational['die']}, for later rolls; it lands no pips):")
            lines += _goal_lines(situational, s["side"])
    return "\n".join(lines)


def _goal_lines(g: dict[str, Any], roller: str) -> list[str]:
    """Uses of the die a goal seeks and penalty dice for the roller, as charts."""
    lines = chart(f"  Uses of the d{g['die']} gained", g["uses"], g["uses_at_least"])
    lines += chart(f"  Penalty dice d{g['die']} for {roller}", g["penalties"])
    lines.append(f"  Expected: {decimal(g['expected_uses'])} uses, {decimal(g['expected_penalties'])} penalty dice; "
                 f"no use at all: {percent(g['uses'].get(0, Fraction(0)))}.")
    return lines


def beer_run_helping_text(r: dict[str, Any]) -> str:
    """A helping roll: the helper's pool against the goal's difficulty, the uses the ally gains."""
    h = r["helping"]
    pool = _dice(h["dice"])
    penalty = f" + penalty dice {_dice(h['penalty'])}" if h["penalty"] else ""
    where = f"{h['conflict']}, round {h['round']}" if h["conflict"] else "No campaign"
    cost = f"costs {h['cost']} Intensity of {h['intensity']}; " if h["cost"] is not None else ""
    lines = [f"{where}: {h['helper']} helps {h['ally']} toward a d{h['die']} ({cost}nothing recorded)",
             f"  {h['helper']} rolls {pool}  vs  difficulty {', '.join(f'd{d}' for d in h['difficulty'])}{penalty}",
             f"  Each kept success: {h['ally']} rolls the d{h['die']} once, this round first; "
             f"each of the difficulty's: a penalty d{h['die']} for {h['helper']}'s next roll."]
    return "\n".join(lines + _goal_lines(h, h["helper"]))
