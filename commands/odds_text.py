"""How odds are printed: exact fractions as strings for --json, percentages and bars for the table.

Why strings: a fraction like 767/1296 survives JSON exactly, where a float would not; the text
view rounds for reading and draws the distribution as a small bar chart.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from ledger.odds import percent

BAR_WIDTH = 30
SHOWN_FROM = Fraction(1, 2000)  # rows rarer than 0.05% are left out of a chart (the JSON has them all)


def jsonable(value: Any) -> Any:
    """Fractions become "n/d" strings, mapping keys strings, tuples lists; the rest as it is."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


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
    state = "waiting for the roll" if r["waiting"] else "as this Huddle would build it; nothing recorded"
    autos = f" + auto results {pool['autos']}" if pool["autos"] else ""
    placing = "; Simple modifiers placed as --best would: " + ", ".join(
        f"{m['label']} {m['modifier']}" for m in pool["simple"]) if pool["simple"] else ""
    e = r["expected"]
    lines = [f"{r['challenge']}, round {r['round']}: {side} ({state})",
             f"  {pool['roll']}d6 to roll{autos}{placing}"]
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
        lines.append(f"Resolves {r['challenge']} this turn: {percent(r['resolves_challenge'])}.")
        if r["passes_test"] is not None:
            lines.append(f"Passes the Test: {percent(r['passes_test'])}.")
    else:
        lines += chart("Stress for the group facing it", r["stress"])
        lines.append(f"Expected Stress: {decimal(r['expected_stress'])}.")
    return "\n".join(lines)


def decision_text(r: dict[str, Any]) -> str:
    """A decision roll's totals, P(success) at its level, and the same roll at every level."""
    against = "" if r["target"] is None else f" against {r['target']}" + (f" ({r['difficulty']})" if r["difficulty"] else "")
    extra = f", modifiers {r['modifier_total']:+d}" if r["modifier_total"] else ""
    lines = [f"{r['character']}'s {r['stat']} roll: {r['decision_dice']}d6 exploding + {r['stat']} "
             f"{r['stat_value']:+d}{extra}, {r['advantage']}{',' if against else ''}{against}"]
    lines += chart("Totals", r["totals"], r["at_least"])
    tail = r["tail"]
    lines.append(f"  {tail['from']} or more: {percent(tail['probability'])} (every explosion followed; nothing cut off)")
    success = "" if r["success"] is None else f"  Success ({r['target']} or more): {percent(r['success'])}."
    lines.append(f"Mean {decimal(r['mean'])}.{success}")
    lines.append("At every step of the advantage scale:")
    for level, v in r["levels"].items():
        chance_ = "" if v["success"] is None else f"success {percent(v['success']):>6}  "
        lines.append(f"  {level:<20} {chance_}mean {decimal(v['mean'])}")
    return "\n".join(lines)


def supply_text(r: dict[str, Any]) -> str:
    """A supply die: the chance it steps down on the next roll, the uses expected before Empty."""
    if r["step_down"] is None:
        return f"{r['item']} is Empty: no supply roll is left to make."
    uses = "it never runs out (no face steps it down)" if r["expected_uses"] is None else \
        f"about {decimal(r['expected_uses'])} uses expected before it is Empty"
    return (f"{r['item']}: {r['die']} (a roll of {r['threshold']} or lower steps it down). Next roll steps it "
            f"down: {percent(r['step_down'])}; {uses}.")


def action_text(r: dict[str, Any]) -> str:
    """Each outcome grade's chance, the binary test, and the test at every difficulty."""
    dice = ", ".join(f"d{d}" for d in r["dice"])
    lines = [f"{r['character']} {r['action']}: {dice} against difficulty {r['difficulty']}"]
    lines += chart("Outcome", r["grades"])
    lines.append(f"A pass/fail test passes (Mostly or Complete Success): {percent(r['test_passes'])}.")
    lines.append("  at difficulty " + ", ".join(f"{d}: {percent(p)}" for d, p in r["test_passes_at"].items()))
    lines += [f"Note: without a GM override the roll is refused: {why}" for why in r["refused_without_override"]]
    return "\n".join(lines)


def beer_run_text(r: dict[str, Any]) -> str:
    """Both pools, who gets the upper hand, each side's kept successes, and what they can zero."""
    def pool(s: dict[str, Any]) -> str:
        rolled = f"rolled {s['faces']}" if s["rolled"] else ", ".join(f"d{d}" for d in s["dice"]) or "no dice"
        penalty = s["opposing_penalty"]["dice"] + s["opposing_penalty"]["faces"]
        return f"{s['side']}: {rolled}" + (f" + penalty dice {penalty} from the other side" if penalty else "")

    first, second = r["sides"]
    hands = r["upper_hand"]
    lines = [f"{r['conflict']}, round {r['round']}: " + "  vs  ".join(pool(s) for s in (first, second)),
             f"Upper hand: {first['side']} {percent(hands['first'])}, {second['side']} {percent(hands['second'])}, "
             f"neither (every pair tied) {percent(hands['neither'])}."]
    for key, s, other in (("first", first, second), ("second", second, first)):
        lines += chart(f"{s['side']}'s kept successes", r["kept"][key], r["kept_at_least"][key])
        zero, goal = r["to_zero"][key], s.get("goal_ability")
        if zero:
            lines.append(f"  Kept successes enough to take {other['side']}'s ability to zero: " + ", ".join(
                f"{name}{' (the goal)' if name == goal else ''} {percent(p)}" for name, p in zero.items()))
    return "\n".join(lines)
