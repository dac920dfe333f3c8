"""The steps of a round at the table (000 "Resolving a Challenge", steps 1-10).

Each step checks the rules, then records events on the aggregates it touches. A
command runs as many steps as its input allows, so a turn can be played in one
command or one step at a time; what is still missing is reported, not guessed.
The steps live by stage: the Huddle and the pool in huddle.py, the roll and the Simple
modifiers' placement here, the final result and all that follows in outcome.py. This module
is where a command finds them (`turns.cohort_huddle`, `turns.advance`, `turns.distribute`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaign_ledger.ledger import dice
from campaign_ledger.ledger.errors import BadInput, NotFound, RuleViolation
from campaign_ledger.ledger.rulesets.relics import rules as relics
from campaign_ledger.ledger.rulesets.relics.challenge import CHALLENGE, COHORT, NEXT_STEP, Challenge
from campaign_ledger.ledger.rulesets.relics.huddle import (  # noqa: F401  (the turn's steps, for the commands)
    MOTTO, Tactics, TraitUse, activate, challenge_huddle, cohort_huddle, pay)
from campaign_ledger.ledger.rulesets.relics.outcome import (  # noqa: F401
    distribute, end_round, everyone_stressed_out, facing, tally_turn)
from campaign_ledger.ledger.table import Table
from campaign_ledger.ledger.words import faces
from campaign_ledger.ledger.rulesets.relics.tally import tally_of


@dataclass(frozen=True)
class Throw:
    """What the table says about the dice: entered faces, 'roll them', or not yet."""

    faces: tuple[int, ...] | None = None
    roll: bool = False

    @property
    def given(self) -> bool:
        return self.faces is not None or self.roll


@dataclass(frozen=True)
class Placing:
    """Simple modifier placements by trait label (1-based dice), and whether to complete them."""

    given: tuple[tuple[str, tuple[int, ...]], ...] = ()
    best: bool = False

    @property
    def stated(self) -> bool:
        return bool(self.given) or self.best



# --- Step 4: roll ----------------------------------------------------------------------------

def roll(t: Table, ch: Challenge, throw: Throw) -> None:
    side = _side(ch)
    ch.expect(f"{side}-roll")
    pending = ch.pending or {}
    count = pending["pool"]["size"] - len(pending["autos"])
    if throw.faces is not None and len(throw.faces) != count and pending["autos"]:
        raise BadInput(f"This pool rolls {count} {'die' if count == 1 else 'dice'}: {pending['pool']['size']} in "
                       f"the pool, {len(pending['autos'])} of them auto results ({faces(pending['autos'])}) that are not "
                       f"rolled; you entered {len(throw.faces)} {'face' if len(throw.faces) == 1 else 'faces'}.")
    rolled = dice.entered(throw.faces, count) if throw.faces is not None else t.dice.roll(count)
    ch.pool_rolled(side, ch.round, list(rolled.faces), rolled.entered)


def _side(ch: Challenge) -> str:
    return ch.pending["side"] if ch.pending else (COHORT if ch.phase.startswith(COHORT) else CHALLENGE)


# --- Steps 5-6: Simple modifiers and the final result ---------------------------------------

def pool_dice(ch: Challenge) -> list[int]:
    pending = ch.pending or {}
    return list(pending.get("autos", [])) + list(pending.get("faces", []))


def offer(ch: Challenge, placing: Placing) -> dict[int, tuple[int, ...]]:
    """The placement the program offers: the given parts, the rest best for each side."""
    mods = [relics.parse_modifier(a["modifier"], a["polarity"]) for a in (ch.pending or {})["simple"]]
    given = _given(ch, placing)
    return relics.best_placement(pool_dice(ch), mods, given)


def _given(ch: Challenge, placing: Placing) -> dict[int, tuple[int, ...]]:
    simple = (ch.pending or {})["simple"]
    given: dict[int, tuple[int, ...]] = {}
    for label, positions in placing.given:
        matches = [i for i, a in enumerate(simple) if _label_matches(a["label"], label)]
        if not matches:
            names = ", ".join(a["label"] for a in simple) or "none"
            raise NotFound(f"No Simple modifier '{label}' is in this pool (in it: {names}).")
        if len(matches) > 1:
            raise BadInput(f"'{label}' names more than one modifier; write OWNER:TRAIT.")
        given[matches[0]] = tuple(p - 1 for p in positions)
    return given


def _label_matches(label: str, wanted: str) -> bool:
    wanted = wanted.strip().casefold()
    return label.casefold() == wanted or label.split(":", 1)[1].casefold() == wanted


def place(t: Table, ch: Challenge, placing: Placing) -> bool:
    """Place and tally if the placement is stated (or nothing needs placing); else wait."""
    side = _side(ch)
    ch.expect(f"{side}-place")
    simple = (ch.pending or {})["simple"]
    if simple and not placing.stated:
        return False
    mods = [relics.parse_modifier(a["modifier"], a["polarity"]) for a in simple]
    placement = offer(ch, placing) if placing.best else _given(ch, placing)
    dice = pool_dice(ch)
    results = t.allow(lambda: relics.apply_simple(dice, mods, placement),
                      fallback=relics.apply_simple(dice, mods, placement, strict=False))
    if simple:
        labels = {simple[i]["label"]: list(d) for i, d in placement.items()}
        ch.modifiers_placed(side, ch.round, labels, list(results), placing.best)
    tally_turn(t, ch, side, results)
    return True




# --- Running as many steps as the input allows ------------------------------------------------

def advance(t: Table, ch: Challenge, throw: Throw, placing: Placing, stress: dict[str, int] | None,
            stop_before: str | None = None) -> dict[str, Any]:
    """Run the steps the input allows; the report says where the table now waits.

    `stop_before` ("place" or "stress") keeps a refused command's program roll without
    guessing the step that was refused (not even the lone PC's Stress).
    """
    report: dict[str, Any] = {"challenge": ch.name, "round": ch.round, "side": (ch.pending or {}).get("side"),
                              "unit": f"{ch.name}:{ch.round}", "pool": dict(ch.pending or {})}
    if ch.phase.endswith("-roll") and throw.given:
        check_before_rolling(t, ch, placing, stress)
        roll(t, ch, throw)
    if ch.phase.endswith("-place") and stop_before != "place":
        report["pool"] = dict(ch.pending or {})
        if not place(t, ch, placing):
            report["offered"] = {str(i): [d + 1 for d in ds] for i, ds in offer(ch, placing).items()}
    if ch.phase == "challenge-stress" and stop_before is None:
        report["pool"] = dict(ch.pending or {})
        if stress is not None or len(t.pcs_in_game()) == 1:
            distribute(t, ch, stress)
            stress = None  # distributed
    if stress is not None and stop_before is None:
        unused_stress(ch, report["side"], stress)
    report.update(phase=ch.phase, resolved=ch.resolved, rating=ch.rating,
                  destiny=t.campaign.destiny, doom=t.campaign.doom, tally=tally_of(t, ch, report["pool"]))
    return report



# --- A program roll is a fact (issue: a refused command must not let the dice be thrown again) ----

def check_before_rolling(t: Table, ch: Challenge, placing: Placing, stress: dict[str, int] | None) -> None:
    """Refuse what the dice cannot change before they are thrown: placements name modifiers of this
    pool and fit its stacking rules (which never depend on the faces), and Stress goes to PCs facing
    the Challenge. Only the Stress total is left to check after the roll. A GM override checks later."""
    if t.override is not None:
        return
    pending = ch.pending or {}
    simple = pending.get("simple", [])
    given = _given(ch, placing)
    if simple and given and not placing.best:
        size = pending["pool"]["size"]
        mods = [relics.parse_modifier(a["modifier"], a["polarity"]) for a in simple]
        relics.apply_simple((1,) * size, mods, given)
    if stress is not None and _side(ch) != CHALLENGE:
        unused_stress(ch, _side(ch), stress)
    if stress is not None and _side(ch) == CHALLENGE:
        group = facing(t, ch)
        named = {t.pc(name).name: n for name, n in stress.items()}
        relics.check_distribution(sum(named.values()), named, group)


def unused_stress(ch: Challenge, side: str | None, stress: dict[str, int]) -> None:
    """`--stress` this step did not distribute is refused, never dropped in silence: a Cohort turn
    deals none, a Challenge turn that scored none has none, and one still waiting for its placement
    has none yet (the README pairs `--stress` with `--roll --best`)."""
    given = ",".join(f"{name}={n}" for name, n in stress.items())
    if side != CHALLENGE:
        raise RuleViolation(f"{ch.name}'s Cohort turn deals no Stress; give --stress {given} to its Challenge turn.")
    if ch.phase == "challenge-place":
        raise RuleViolation(f"--stress {given} waits for the Simple modifiers to be placed; add --place or --best.")
    raise RuleViolation(f"The Challenge scored no Stress this turn; --stress {given} has nothing to distribute.")


def roll_stands(report: dict[str, Any]) -> dict[str, Any]:
    """A kept roll's report, saying what the turn waits for now (the refusal says the roll stands)."""
    return {**report, "stands": f"{report['challenge']} is waiting for {NEXT_STEP[report['phase']]} "
                                "(see `campaign status`)."}
