"""The beer-run ruleset on the ledger: its commands, and a demo scene played with entered faces.

Aggregates: ledger/systems/beer_run_character.py (characters and difficulty pools, Intensity per
character), ledger/systems/beer_run_conflict.py (sides, goals, a round's rolls, pips due). The
steps: beer_run_play.py (settings, set-up, pricing and throwing a pool), beer_run_round.py (goals,
helping, pools, comparisons), beer_run_effects.py (pips, Cede, the end). Every rule:
ledger/rules/beer_run.py.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

from campaign_ledger.ledger import values
from campaign_ledger.ledger.errors import BadInput, NotFound, RuleViolation
from campaign_ledger.ledger.rulesets import Commands
from campaign_ledger.ledger.rulesets.beer_run import rules
from campaign_ledger.ledger.rulesets.beer_run import effects
from campaign_ledger.ledger.rulesets.beer_run import play
from campaign_ledger.ledger.rulesets.beer_run import round as round_
from campaign_ledger.ledger.rulesets.beer_run.character import CHARACTER, DIFFICULTY, BeerRunCharacter, character_id
from campaign_ledger.ledger.rulesets.beer_run.conflict import conflict_id
from campaign_ledger.ledger.rulesets.beer_run.play import Faces

RULESET = "beer-run"
DEMO_NAME = "The Beer Run"
DIFFICULTY_CATEGORY = "Difficulty"

Report = dict[str, Any]


def _unit(conflict: Any) -> str:
    """Everything played in one round of a conflict is one unit `campaign undo` can reverse."""
    return f"{conflict.name}:{conflict.round}"


class BeerRunCommands(Commands):
    """Commands of beer-run campaigns, mixed into CampaignLedger (they use self.run)."""

    run: Callable[..., Report]
    repository: Any

    def _beer_run(self, command: Callable[[Any], Report]) -> Report:
        @functools.wraps(command)  # the command log files it under the command's own name
        def checked(t: Any) -> Report:
            t.expect_ruleset(RULESET)
            return command(t)
        return self.run(checked)

    # --- characters ------------------------------------------------------------------------

    def beer_run_add_character(self, name: str, abilities: Sequence[tuple[str, str, str]],
                               intensity: int | None = None) -> Report:
        """abilities: (category, name, die) such as ("Physical", "Brawn", "d8"); Health is required."""
        name = values.name(name, "A character's name")
        if intensity is not None and intensity < 0:
            raise BadInput("Intensity cannot be negative.")
        if intensity is not None:
            values.integer(intensity, "Intensity", 0, rules.INTENSITY_MAX)

        def command(t: Any) -> Report:
            sheet = play.new_abilities(t, abilities)
            if rules.HEALTH not in [a.name for a in sheet]:
                raise RuleViolation(f"{name} needs a {rules.HEALTH} die, e.g. Physical:{rules.HEALTH}=d6.")
            if t.exists(character_id(name)):
                raise RuleViolation(f"There is already a character named {play.character(t, name).name}.")
            start = play.starting_intensity(t) if intensity is None else intensity
            t.add(BeerRunCharacter(name=name, kind=CHARACTER, abilities=[vars(a) for a in sheet], intensity=start))
            return {"character": name, "abilities": [vars(a) for a in sheet], "intensity": start}
        return self._beer_run(command)

    def beer_run_add_difficulty(self, name: str, dice: Sequence[tuple[str | None, str]]) -> Report:
        """A GM's static difficulty pool: dice (name or None, die), e.g. (None, "d8") is "Die 1"."""
        if not name.strip() or not dice:
            raise BadInput("A difficulty pool needs a name and at least one die.")
        name = values.name(name, "A difficulty pool's name")
        named = [(values.name(n, "A die's name") if (n or "").strip() else f"Die {i}", d)
                 for i, (n, d) in enumerate(dice, 1)]

        def command(t: Any) -> Report:
            if len({n.casefold() for n, _ in named}) != len(named):
                raise BadInput("A die of the difficulty pool is named twice.")
            sheet = [rules.Ability(n, DIFFICULTY_CATEGORY, rules.parse_die(d)) for n, d in named]
            if t.exists(character_id(name)):
                raise RuleViolation(f"There is already a character named {play.character(t, name).name}.")
            t.add(BeerRunCharacter(name=name, kind=DIFFICULTY, abilities=[vars(a) for a in sheet], intensity=0))
            return {"difficulty": name, "dice": [vars(a) for a in sheet]}
        return self._beer_run(command)

    def beer_run_intensity(self, name: str, change: int, reason: str) -> Report:
        """The GM gives (change > 0) or takes Intensity; the seed does not say where it comes from."""
        values.integer(change, "An Intensity change", -rules.INTENSITY_MAX, rules.INTENSITY_MAX)
        reason = values.text(reason)

        def command(t: Any) -> Report:
            ch = play.character(t, name)
            values.integer(ch.intensity + change, f"{ch.name}'s Intensity", high=rules.INTENSITY_MAX)
            ch.adjust_intensity(change, reason)
            return {"character": ch.name, "change": change, "intensity": ch.intensity}
        return self._beer_run(command)

    # --- a conflict ------------------------------------------------------------------------

    def beer_run_open_conflict(self, name: str, sides: Sequence[str], target: str | None = None) -> Report:
        def command(t: Any) -> Report:
            return {"conflict": play.open_conflict(t, name, sides, target).summary()}
        return self._beer_run(command)

    def beer_run_goal(self, conflict: str, side: str, text: str, ability: str | None = None,
                      situation: str | None = None, against: Sequence[str] = (),
                      replace: Sequence[int] = ()) -> Report:
        def command(t: Any) -> Report:
            c = play.conflict(t, conflict)
            unit = _unit(c)
            goal = round_.declare_goal(t, c, side, text, ability, situation, against, replace)
            return {"goal": goal, "conflict": c.summary(), "unit": unit}
        return self._beer_run(command)

    def beer_run_help(self, conflict: str, helper: str, ally: str, text: str, die: str,
                      against: Sequence[str] = (), replace: Sequence[int] = (), base: Sequence[str] = (),
                      extra: Sequence[str] = (), faces: Faces = Faces(), override: str | None = None) -> Report:
        def command(t: Any) -> Report:
            c = play.conflict(t, conflict)
            unit = _unit(c)
            result = round_.help_ally(t, c, helper, ally, text, die, against, replace, base, extra, faces, override)
            return {**result, "conflict": c.summary(), "unit": unit}
        return self._beer_run(command)

    def beer_run_roll(self, conflict: str, side: str, base: Sequence[str] = (), extra: Sequence[str] = (),
                      faces: Faces = Faces(), override: str | None = None) -> Report:
        def command(t: Any) -> Report:
            c = play.conflict(t, conflict)
            unit = _unit(c)
            result = round_.roll_pool(t, c, side, base, extra, faces, override)
            return {**result, "conflict": c.summary(), "unit": unit}
        return self._beer_run(command)

    def beer_run_pips(self, conflict: str, by: str, split: dict[str, int], on: str | None = None) -> Report:
        def command(t: Any) -> Report:
            c = play.conflict(t, conflict)
            unit = _unit(c)
            result = effects.land_pips(t, c, by, split, on)
            return {**result, "conflict": c.summary(), "unit": unit}
        return self._beer_run(command)

    def beer_run_cede(self, conflict: str, side: str) -> Report:
        def command(t: Any) -> Report:
            c = play.conflict(t, conflict)
            unit = _unit(c)
            result = effects.cede(t, c, side)
            return {**result, "conflict": c.summary(), "unit": unit}
        return self._beer_run(command)

    def beer_run_end_conflict(self, conflict: str, reason: str) -> Report:
        if not reason.strip():
            raise BadInput("Say why the conflict ends, e.g. --reason \"Ann is inside\".")

        def command(t: Any) -> Report:
            c = play.conflict(t, conflict)
            c.check_open()
            c.conflict_ended(c.round if c.rolls or c.helpers or c.due else c.round - 1, reason.strip())
            return {"conflict": c.summary()}
        return self._beer_run(command)

    # --- Outcome dice (seed "Outcome Dice") ---------------------------------------------------

    def beer_run_gain_outcome(self, name: str, category: str, ability: str, die: str, reason: str) -> Report:
        def command(t: Any) -> Report:
            ch = play.character(t, name)
            ch.check_character("gains outcome dice")
            ch.check_alive()
            existing = [a["name"] for a in ch.abilities if a["name"].casefold() == ability.strip().casefold()]
            gained = rules.Ability(existing[0] if existing else values.name(ability, "An ability's name"),
                                   play.category(t, category),
                                   rules.parse_die(die))
            ch.gain_outcome(gained, reason.strip())
            return {"character": ch.name, "gained": vars(gained)}
        return self._beer_run(command)

    def beer_run_inflict_outcome(self, name: str, die: str, reason: str) -> Report:
        def command(t: Any) -> Report:
            ch = play.character(t, name)
            ch.check_alive()
            ch.gain_penalty_dice((rules.inflict_outcome_die(rules.parse_die(die)),), reason.strip())
            return {"character": ch.name, "penalties": ch.penalties}
        return self._beer_run(command)

    def beer_run_lift_penalty(self, name: str, die: str, reason: str) -> Report:
        def command(t: Any) -> Report:
            ch = play.character(t, name)
            ch.lift_penalty(rules.parse_die(die), reason.strip())
            return {"character": ch.name, "penalties": ch.penalties}
        return self._beer_run(command)

    # --- reading a conflict's round (its state machine lives on the aggregate) -----------------

    def beer_run_conflict_state(self, name: str) -> Report:
        from eventsourcing.application import AggregateNotFoundError

        from campaign_ledger.ledger.reversible import unmade

        try:
            conflict = self.repository.get(conflict_id(name))
        except AggregateNotFoundError:
            conflict = None
        if conflict is None or unmade(conflict):
            raise NotFound(f"There is no conflict named '{name.strip()}' in this campaign.")
        return conflict.summary()


# --- the demo: a short scene with faces entered at the table ------------------------------------

DOOR = "Back Door"


def play_demo(app: Any) -> None:
    """Ann gets past the Bouncer: a help that wins one use and a penalty die, an upper hand,
    every other success, a pool padded with a d1, then 3 pips that take Attention to zero."""
    app.start(DEMO_NAME, RULESET, None, {"categories": "Physical,Mental,Social"})
    app.beer_run_add_character("Ann", [("Physical", "Brawn", "d8"), ("Physical", "Health", "d6"),
                                       ("Mental", "Wits", "d6"), ("Social", "Charm", "d4")], 10)
    app.beer_run_add_character("Cal", [("Physical", "Health", "d6"), ("Physical", "Reflexes", "d4"),
                                       ("Mental", "Nerve", "d8"), ("Social", "Fast Talk", "d10")], 6)
    app.beer_run_add_character("Bouncer", [("Physical", "Muscle", "d10"), ("Physical", "Health", "d8"),
                                           ("Mental", "Attention", "d4"), ("Social", "Intimidate", "d6")], 8)
    app.beer_run_open_conflict(DOOR, ["Ann", "Bouncer"])
    app.beer_run_goal(DOOR, "Ann", "slip past the Bouncer", ability="Attention")
    app.beer_run_goal(DOOR, "Bouncer", "keep Ann out")
    # Round 1. Cal talks at the Bouncer for Ann: [9, 4, 2] vs three d6 [5, 5, 3]: Cal has the upper
    # hand (1 success, a d6 for Ann once); the difficulty scores 2 and keeps 1 (a penalty d6 for Cal).
    app.beer_run_help(DOOR, "Cal", "Ann", "distract the Bouncer", "d6",
                      base=["Reflexes", "Nerve", "Fast Talk"], faces=Faces((2, 4, 9), None, (5, 5, 3)))
    # Ann rolls Brawn, Wits, Charm and the d6: [7, 5, 4, 2]; the Bouncer [8, 5, 1] and a d1 showing 1.
    # 7<8 gives the Bouncer the upper hand, 5=5 is discarded, 4>1 and 2>1: Ann scores 2, keeps 1.
    app.beer_run_roll(DOOR, "Ann", faces=Faces((7, 5, 2, 4)))
    app.beer_run_roll(DOOR, "Bouncer", faces=Faces((8, 1, 5)))
    app.beer_run_pips(DOOR, "Bouncer", {"Health": 1})
    app.beer_run_pips(DOOR, "Ann", {"Attention": 1})
    # Round 2. Both add Health (1 extra die: 1 more Intensity). [8, 6, 3, 2] vs [5, 4, 3, 1]:
    # Ann wins the first pair and keeps all 3 successes; Attention d3 less 3 pips is gone.
    app.beer_run_roll(DOOR, "Ann", extra=["Health"], faces=Faces((8, 6, 3, 2)))
    app.beer_run_roll(DOOR, "Bouncer", extra=["Health"], faces=Faces((5, 3, 4, 1)))
    app.beer_run_pips(DOOR, "Ann", {"Attention": 3})
    app.beer_run_end_conflict(DOOR, "Ann is inside")
    app.beer_run_gain_outcome("Ann", "Social", "Six-pack", "d6", "bought the beer")
    app.beer_run_inflict_outcome("Bouncer", "d4", "laughed at by the whole queue")
