"""The action-dice ruleset (seed 003) on the ledger: characters, conditions and action rolls.

The rules themselves live in ledger.rulesets.action_dice.rules; this module loads the character,
gathers the pool from its sheet, takes the faces entered at the table or rolls them (the
Table's dice box is the only way the program rolls), and records the result as one event.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable

from campaign_ledger.ledger import values
from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets import Commands
from campaign_ledger.ledger.ids import pc_id
from campaign_ledger.ledger.rulesets.action_dice import rules
from campaign_ledger.ledger.rulesets.action_dice.character import ActionCharacter

if TYPE_CHECKING:
    from campaign_ledger.ledger.table import Table

RULESET = "action-dice"
Report = dict[str, Any]


FEATURES_LIMIT_MAX = 100  # the seed leaves it to the table; past this it is a typo


def features_limit(settings: dict[str, Any]) -> int:
    """The campaign setting `features_limit`: features one character may invoke on a roll."""
    value = settings.get("features_limit", rules.DEFAULT_FEATURES_LIMIT)
    try:
        limit = int(str(value).strip())
    except ValueError:
        limit = -1
    if limit < 0:
        raise BadInput(f"The campaign setting features_limit must be a whole number from 0 up, not '{value}'.")
    return values.integer(limit, "The campaign setting features_limit", high=FEATURES_LIMIT_MAX)


def check_campaign_settings(t: Table) -> None:
    """Read every setting once when the campaign is made, so a bad one is refused now, not later."""
    check_settings(t.campaign.settings)


def check_settings(settings: dict[str, Any]) -> None:
    """Refuse an unreadable action-dice setting when the campaign is created (for `start`)."""
    features_limit(settings)


def base_difficulty(rating: str | None, difficulty: int | None) -> tuple[str | None, int]:
    """The GM's challenge rating (++ with a chosen 7-10), or a difficulty given straight (1-10)."""
    if rating is None:
        if difficulty is None:
            raise BadInput("Give the challenge rating (--rating XX, D4-D12 or ++) or the difficulty (1-10).")
        if isinstance(difficulty, int) and not rules.MIN_DIFFICULTY <= difficulty <= rules.MAX_DIFFICULTY:
            # a typed value off the option's 1-10 range is malformed input (exit 2), as in the other rulesets
            raise BadInput(f"Difficulty runs from 1 to 10, so {difficulty} is off the scale.")
        return None, rules.action_difficulty(difficulty)  # no step
    chosen = rules.parse_challenge_rating(rating)
    return chosen.value, rules.base_difficulty(chosen, difficulty)


def _unique(names: Sequence[str], what: str) -> None:
    seen = [n.strip().casefold() for n in names]
    twice = next((n for i, n in enumerate(names) if seen[i] in seen[:i]), None)
    if twice is not None:
        raise BadInput(f"The {what} {twice.strip()} is named twice.")


def _undoable(pc: ActionCharacter, change: Callable[[ActionCharacter], Report]) -> Report:
    """A condition change is a unit `campaign undo` can reverse."""
    report = change(pc)
    return {**report, "unit": f"condition {pc.name} {report['condition']}"}


class ActionDiceCommands(Commands):
    """Commands of action-dice campaigns, mixed into CampaignLedger (they use self.run)."""

    run: Callable[[Callable[["Table"], Report]], Report]

    def _action_dice(self, command: Callable[["Table"], Report]) -> Report:
        @functools.wraps(command)  # the command log files it under the command's own name
        def checked(t: "Table") -> Report:
            t.expect_ruleset(RULESET)
            return command(t)
        return self.run(checked)

    @staticmethod
    def _character(t: "Table", name: str) -> ActionCharacter:
        pc = t.load(pc_id(name), f"There is no character named '{name.strip()}' in this campaign.")
        if not isinstance(pc, ActionCharacter):
            raise RuleViolation(f"{name.strip()} is not an action-dice character.")
        return pc

    # --- the sheet ------------------------------------------------------------------------------

    def add_action_character(self, name: str, assets: dict[str, str | int] | None = None,
                             features: Sequence[str] = ()) -> Report:
        def command(t: "Table") -> Report:
            if not name.strip():
                raise BadInput("A character needs a name.")
            clean = values.name(name, "A character's name")
            if t.exists(pc_id(clean)):
                raise RuleViolation(f"There is already a character named {self._character(t, clean).name}.")
            _unique(list(assets or {}), "asset")
            _unique(list(features), "feature")
            sizes = {a.strip(): rules.parse_die(d) for a, d in (assets or {}).items()}
            if any(not a for a in sizes) or any(not f.strip() for f in features):
                raise BadInput("Every asset and feature needs a name.")
            for a in sizes:
                values.name(a, "An asset's name")
            named = [values.name(f, "A feature") for f in features]
            t.add(ActionCharacter(name=clean, assets=sizes, features=named))
            return {"character": clean, "assets": sizes, "features": named}
        return self._action_dice(command)

    def set_action_asset(self, character: str, asset: str, die: str | int) -> Report:
        if asset.strip():
            values.name(asset, "An asset's name")
        return self._action_dice(lambda t: self._character(t, character).set_asset(asset, die))

    def add_action_feature(self, character: str, feature: str) -> Report:
        if feature.strip():
            values.name(feature, "A feature")
        return self._action_dice(lambda t: self._character(t, character).gain_feature(feature))

    def set_action_condition(self, character: str, condition: str, level: int,
                             impacts: Sequence[str] | None = None) -> Report:
        listed = None if impacts is None else list(impacts)
        if condition.strip():
            values.name(condition, "A condition's name")
        values.integer(level, "A condition's level")
        if isinstance(level, int) and not 1 <= level <= rules.MAX_CONDITION_LEVEL:
            # a typed level off the 1-3 scale is malformed input (exit 2), as --difficulty 0 is
            raise BadInput(f"A condition's level runs from 1 to 3, not {level}.")
        return self._action_dice(lambda t: _undoable(self._character(t, character),
                                                     lambda pc: pc.set_condition(condition, level, listed)))

    def change_action_condition(self, character: str, condition: str, steps: int) -> Report:
        """Worsen (steps > 0) or ease (steps < 0) a condition; eased below 1 it is gone."""
        return self._action_dice(lambda t: _undoable(self._character(t, character),
                                                     lambda pc: pc.change_condition(condition, steps)))

    def treat_action_condition(self, character: str, condition: str) -> Report:
        return self._action_dice(lambda t: _undoable(self._character(t, character), lambda pc: pc.treat(condition)))

    # --- the action roll --------------------------------------------------------------------------

    def roll_action(self, character: str, action: str, *, rating: str | None = None,
                    difficulty: int | None = None, advantages: int = 0, disadvantages: int = 0,
                    assets: Sequence[str] = (), features: Sequence[str] = (),
                    faces: Sequence[int] | None = None, test: bool = False,
                    gm_override: str | None = None) -> Report:
        """One action roll: three dice (assets, then a d4 each) against the personal difficulty."""
        def command(t: "Table") -> Report:
            rated, base = base_difficulty(rating, difficulty)
            target = rules.action_difficulty(base, advantages, disadvantages)
            pc = self._character(t, character)
            _unique(list(assets), "asset")
            _unique(list(features), "feature")
            chosen = [pc.asset(a) for a in assets]
            dice = rules.action_pool([a["die"] for a in chosen])
            invoked = [pc.feature(f) for f in features]
            limit = features_limit(t.campaign.settings)
            reason = None if gm_override is None else gm_override.strip()
            if reason == "":
                raise BadInput("A GM override needs a reason.")
            breaks = rules.rule_breaks(action, pc.current_conditions(), invoked, limit)
            if breaks and reason is None:  # refused before any die is rolled
                raise RuleViolation(breaks[0].rstrip(".") + " (the GM may allow it with --gm-override REASON).")
            if faces is not None:
                thrown, entered = rules.check_faces(dice, list(faces)), True
            else:
                thrown, entered = tuple(t.dice.roll(1, sides).faces[0] for sides in dice), False
            result = rules.resolve_action(action, target, dice, thrown, conditions=pc.current_conditions(),
                                          features=invoked, features_limit=limit, gm_override=reason)
            fact = {"character": pc.name, "action": result.action, "rating": rated, "base": base,
                    "advantages": advantages, "disadvantages": disadvantages, "difficulty": target,
                    "assets": [a["name"] for a in chosen], "dice": list(result.dice),
                    "faces": list(result.faces), "entered": entered, "successes": result.successes,
                    "outcome": result.outcome.value, "succeeded": result.succeeded, "test": test,
                    "features": list(result.features), "features_limit": limit,
                    "overridden": list(result.overridden), "gm_override": result.gm_override}
            pc.action_rolled(**fact)
            return {**fact, "unit": f"{pc.name}'s {result.action} roll (#{pc.rolls})"}
        return self._action_dice(command)


# --- the demo: a short scene with faces entered at the table ------------------------------------

DEMO_NAME = "The Drowned Archive"


def play_demo(app: Any) -> None:
    """Two characters in a flooded library: every grade, a binary test, an incapacitation
    set aside by the GM, and a condition treated."""
    app.start(DEMO_NAME, RULESET, None, {"features_limit": "2"})
    app.add_action_character("Mara", {"Athletics": "d8", "Lockpicks": "d6", "Nerve": "d10"}, ["Cat-like"])
    app.add_action_character("Tobin", {"Lore": "d12", "Charm": "d6"}, ["Scholar", "Old Debts"])
    app.roll_action("Mara", "sneak", rating="D4", advantages=1, assets=["Lockpicks", "Nerve", "Athletics"],
                    features=["Cat-like"], faces=[4, 6, 3])                     # Complete Success
    app.roll_action("Mara", "climb", rating="D6", assets=["Athletics", "Nerve"], faces=[7, 9, 2])
    app.set_action_condition("Mara", "Sprained Ankle", 2, ["climb", "run"])
    app.change_action_condition("Mara", "Sprained Ankle", 1)                    # level 3: incapacitated
    app.roll_action("Tobin", "decipher", rating="D10", disadvantages=1, assets=["Lore"],
                    features=["Scholar"], faces=[11, 3, 4], test=True)          # Mostly Failure: fails
    app.roll_action("Mara", "climb", rating="XX", assets=["Athletics"], faces=[5, 2, 1],
                    gm_override="Tobin holds the rope from above")             # Mostly Success
    app.treat_action_condition("Mara", "Sprained Ankle")
    app.roll_action("Tobin", "persuade", rating="++", difficulty=8, assets=["Charm"],
                    features=["Old Debts"], faces=[3, 2, 1])                    # Complete Failure
