"""The decision-2d6 ruleset on the ledger (seed 004): its commands and its demo.

Aggregates and events live in `decision_2d6_model`, decision and contested rolls in
`decision_2d6_rolls`; every rule is a call into `ledger.rulesets.decision_2d6.rules`.
Campaign settings (`campaign new X --ruleset decision-2d6 --setting KEY=VALUE`):
`supply_threshold` (default 3: a supply roll of 3 or lower lowers the die) and `d100_step`
(default 10: the points a D100 tracker loses per use; see `d100_use`).
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Sequence

from campaign_ledger.ledger import values
from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets import Commands
from campaign_ledger.ledger.rulesets.decision_2d6 import rules as d2
from campaign_ledger.ledger.rulesets.decision_2d6 import rolls
from campaign_ledger.ledger.rulesets.decision_2d6.model import ATTRIBUTE, CORE, FORT, LEVEL, STAT, WILL, Hero
from campaign_ledger.ledger.rulesets.decision_2d6.pools import PoolCommands, whole
from campaign_ledger.ledger.rulesets.decision_2d6.rolls import Side, Stated

if TYPE_CHECKING:
    from campaign_ledger.ledger.table import Table

RULESET = "decision-2d6"
DEMO_NAME = "The Heavy Gate"
Report = dict[str, Any]

__all__ = ["Decision2d6Commands", "DEMO_NAME", "RULESET", "Side", "Stated", "play_demo"]


class Decision2d6Commands(PoolCommands, Commands):
    """Commands of decision-2d6 campaigns, mixed into CampaignLedger (they use self.run)."""

    run: Callable[[Callable[[Table], Report]], Report]

    def _decision_2d6(self, command: Callable[[Table], Report]) -> Report:
        @functools.wraps(command)  # the command log files it under the command's own name
        def checked(t: Table) -> Report:
            t.expect_ruleset(RULESET)
            return command(t)
        return self.run(checked)

    # --- characters: seed "Decision Rolls", "The Rounding Rule" ---------------------------

    def d2d6_add_character(self, name: str, level: int, will: int, fort: int,
                           stats: dict[str, int] | None = None,
                           attributes: dict[str, int] | None = None) -> Report:
        """A character with Level, Will, Fort (Stress and Vitality follow) and its stats."""
        def command(t: Table) -> Report:
            if not name.strip():
                raise BadInput("A character needs a name.")
            clean = values.name(name, "A character's name")
            if t.exists(Hero.create_id(clean)):
                raise RuleViolation(f"There is already a character named {clean}.")
            scores = _scores(level, will, fort, stats or {}, attributes or {})
            hero = t.add(Hero(name=clean, level=level, will=will, fort=fort, stats=scores[STAT],
                              attributes=scores[ATTRIBUTE], stress=d2.stress(level, will),
                              vitality=d2.vitality(level, fort)))
            return _sheet(hero)
        return self._decision_2d6(command)

    def d2d6_change(self, name: str, level: int | None = None, will: int | None = None,
                    fort: int | None = None, stats: dict[str, int] | None = None,
                    attributes: dict[str, int] | None = None, why: str = "") -> Report:
        """Change scores on a sheet: one event per score that changes (new stats may be added)."""
        def command(t: Table) -> Report:
            hero = rolls.hero(t, name)
            wanted = [(k, CORE[k], v) for k, v in ((LEVEL, level), (WILL, will), (FORT, fort)) if v is not None]
            wanted += [(STAT, n.strip(), v) for n, v in (stats or {}).items()]
            wanted += [(ATTRIBUTE, n.strip(), v) for n, v in (attributes or {}).items()]
            changed = []
            for kind, label, value in wanted:
                whole(value, label)
                if kind in CORE:
                    _not_negative(label, value)
                have = hero.scores().get(label.casefold())
                if not have:
                    _check_name(label, kind)
                elif have[0] != kind:
                    if have[0] in CORE:
                        raise BadInput(f"{have[1]} is set with its own option, not as a {kind}.")
                    raise BadInput(f"{hero.name}'s {have[1]} is one of the {have[0]}s, not the {kind}s.")
                before = have[2] if have else None
                if before == value:
                    continue
                lvl, wil, frt = (value if kind == k else getattr(hero, k) for k in (LEVEL, WILL, FORT))
                hero.score_changed(hero.name, have[1] if have else label, kind, before, value,
                                   d2.stress(lvl, wil), d2.vitality(lvl, frt), why.strip())
                changed.append({"score": have[1] if have else label, "before": before, "after": value})
            if not changed:
                raise BadInput(f"Nothing changes on {hero.name}'s sheet.")
            return {**_sheet(hero), "changed": changed}
        return self._decision_2d6(command)

    # --- decision rolls: seed "Decision Rolls", "Advantage", "Success and Failure" ---------

    def d2d6_roll(self, name: str, stat: str, *, target: int | None = None,
                  difficulty: str | None = None, modifiers: Sequence[Stated] = (),
                  advantage: str = "neutral", grants: int = 0, faces: Sequence[int] | None = None,
                  purpose: str = "") -> Report:
        """2d6 (exploding) + stat + modifiers vs a target; faces entered, or rolled die by die."""
        def command(t: Table) -> Report:
            return rolls.decision(t, rolls.hero(t, name), stat, target, difficulty, modifiers,
                                  advantage, grants, faces, purpose.strip())
        return self._decision_2d6(command)

    def d2d6_contest(self, first: Side, second: Side, *, favoured: tuple[str, str] | None = None,
                     grants: Sequence[str] = (), rounds: Sequence[tuple[Sequence[int], Sequence[int]]] | None = None,
                     purpose: str = "") -> Report:
        """A contested roll; a tie rerolls the decision dice until one side wins (all kept)."""
        def command(t: Table) -> Report:
            return rolls.contested(t, (first, second), favoured, grants, rounds, purpose.strip())
        return self._decision_2d6(command)


# --- helpers -----------------------------------------------------------------------------------

def _check_name(label: str, kind: str) -> None:
    if not label:
        raise BadInput(f"A {kind} needs a name.")
    values.name(label, f"A {kind}'s name")
    if kind in (STAT, ATTRIBUTE) and label.casefold() in CORE:
        raise BadInput(f"{CORE[label.casefold()]} is set with its own option, not as a {kind}.")


def _not_negative(label: str, value: int) -> None:
    """Level, Will and Fort start at 0: Stress and Vitality (half their sums) are never negative."""
    if value < 0:
        raise BadInput(f"A character's {label} cannot be negative ({value}).")


def _scores(level: int, will: int, fort: int, stats: dict[str, int],
            attributes: dict[str, int]) -> dict[str, dict[str, int]]:
    for label, value in (("Level", level), ("Will", will), ("Fort", fort)):
        _not_negative(label, whole(value, label))
    seen: set[str] = set()
    result: dict[str, dict[str, int]] = {STAT: {}, ATTRIBUTE: {}}
    for kind, given in ((STAT, stats), (ATTRIBUTE, attributes)):
        for raw, value in given.items():
            label = raw.strip()
            _check_name(label, kind)
            if label.casefold() in seen:
                raise BadInput(f"{label} is named twice among the stats and attributes.")
            seen.add(label.casefold())
            result[kind][label] = whole(value, label)
    return result


def _sheet(hero: Hero) -> Report:
    return {"character": hero.name, "level": hero.level, "will": hero.will, "fort": hero.fort,
            "stress": hero.stress, "vitality": hero.vitality, "stats": dict(hero.stats),
            "attributes": dict(hero.attributes)}


def play_demo(app: Any) -> None:
    """Billy holds the heavy gate (the seed's own roll), slips past the ogre after a tied
    contest, burns his torches down to Empty, and looses a few arrows. Faces are entered."""
    app.start(DEMO_NAME, RULESET, None, {"supply_threshold": "3"})
    app.d2d6_add_character("Billy", 3, 2, 3, {"Strength": 0, "Agility": 1}, {"Stealth": 2})
    app.d2d6_add_character("Ogre", 4, 1, 5, {"Strength": 3, "Wits": -1})
    app.d2d6_roll("Billy", "Strength", difficulty="challenging", faces=(3, 6, 6, 2),
                  purpose="hold the gate up while his friends escape")
    app.d2d6_contest(Side("Billy", "Stealth"), Side("Ogre", "Wits"), grants=["Billy"],
                     rounds=[((1, 3), (5, 5)), ((6, 2, 1), (4, 3))], purpose="slip past the ogre")
    app.d2d6_roll("Ogre", "Strength", target=14, modifiers=[Stated("penalty", -2)],
                  advantage="major-disadvantage", faces=(6, 4), purpose="force the gate, half asleep")
    app.d2d6_change("Billy", level=4, why="levelled up after the gate")
    app.d2d6_add_item("Torches", "D6", holder="Billy")
    for face in (2, 4, 1):
        app.d2d6_supply_roll("Torches", (face,), purpose="light the tunnel")
    app.d2d6_add_tracker("Arrows", 60, holder="Billy")
    app.d2d6_tracker_roll("Arrows", (37,), purpose="cover the retreat")
    app.d2d6_tracker_roll("Arrows", (88,), purpose="loose one more volley")
