"""A character of an action-dice campaign (seed 003): assets, features, conditions, action rolls.

Checks run in the plain methods, before an event is triggered; event bodies only record
what was decided (they run again on every replay). Names are matched ignoring case.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import event

from campaign_ledger.ledger.errors import BadInput, NotFound, RuleViolation
from campaign_ledger.ledger.ids import pc_id
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.ledger.rulesets.action_dice import rules
from campaign_ledger.ledger.upcasts import condition_treated_v1_v2


def _name(text: str, what: str) -> str:
    name = str(text).strip()
    if not name:
        raise BadInput(f"{what} needs a name.")
    return name


class ActionCharacter(Reversible):
    """A character's sheet and every action roll it made."""

    @staticmethod
    def create_id(name: str) -> UUID:
        return pc_id(name)

    @event("Joined")
    def __init__(self, name: str, assets: dict[str, int], features: list[str]) -> None:
        self.name = name
        self.assets: dict[str, dict[str, Any]] = {a.casefold(): {"name": a, "die": d} for a, d in assets.items()}
        self.features: dict[str, str] = {f.casefold(): f for f in features}
        self.conditions: dict[str, dict[str, Any]] = {}
        self.rolls = 0

    @event("AssetSet")
    def asset_set(self, character: str, asset: str, die: int, was: int | None) -> None:
        self.assets[asset.casefold()] = {"name": asset, "die": die}

    @event("FeatureGained")
    def feature_gained(self, character: str, feature: str) -> None:
        self.features[feature.casefold()] = feature

    @event("ConditionSet")
    def condition_set(self, character: str, condition: str, level: int, impacts: list[str],
                      incapacitates: list[str], was: int | None) -> None:
        self.conditions[condition.casefold()] = {"name": condition, "level": level, "impacts": list(impacts),
                                                 "incapacitates": list(incapacitates)}

    class ConditionTreated(Reversible.Event):
        """v2: `eased` says the condition was eased below level 1 (gone), not treated."""

        class_version = 2
        upcast_v1_v2 = staticmethod(condition_treated_v1_v2)
        character: str
        condition: str
        was: int
        eased: bool

    @event(ConditionTreated)
    def condition_treated(self, character: str, condition: str, was: int, eased: bool) -> None:
        self.conditions.pop(condition.casefold(), None)

    @event("ActionRolled")
    def action_rolled(self, character: str, action: str, rating: str | None, base: int, advantages: int,
                      disadvantages: int, difficulty: int, assets: list[str], dice: list[int],
                      faces: list[int], entered: bool, successes: int, outcome: str, succeeded: bool,
                      test: bool, features: list[str], features_limit: int, overridden: list[str],
                      gm_override: str | None) -> None:
        self.rolls += 1

    # --- reading the sheet (commands only) ---------------------------------------------------

    def asset(self, name: str) -> dict[str, Any]:
        try:
            return self.assets[name.strip().casefold()]
        except KeyError:
            raise NotFound(f"{self.name} has no asset named '{name.strip()}'.") from None

    def feature(self, name: str) -> str:
        try:
            return self.features[name.strip().casefold()]
        except KeyError:
            raise NotFound(f"{self.name} has no feature named '{name.strip()}'.") from None

    def condition(self, name: str) -> rules.Condition:
        try:
            c = self.conditions[name.strip().casefold()]
        except KeyError:
            raise NotFound(f"{self.name} has no condition named '{name.strip()}'.") from None
        return rules.Condition(c["name"], c["level"], frozenset(c["impacts"]))

    def current_conditions(self) -> list[rules.Condition]:
        return [self.condition(c["name"]) for c in self.conditions.values()]

    # --- commands: checks first, then the event ---------------------------------------------

    def set_asset(self, asset: str, die: int | str) -> dict[str, Any]:
        asset, sides = _name(asset, "An asset"), rules.parse_die(die)
        was = self.assets.get(asset.casefold())
        if was and was["die"] == sides:
            raise RuleViolation(f"{self.name}'s {was['name']} is already a d{sides}.")
        self.asset_set(self.name, was["name"] if was else asset, sides, was["die"] if was else None)
        return {"character": self.name, "asset": was["name"] if was else asset, "die": sides,
                "was": was["die"] if was else None}

    def gain_feature(self, feature: str) -> dict[str, Any]:
        feature = _name(feature, "A feature")
        if feature.casefold() in self.features:
            raise RuleViolation(f"{self.name} already has the feature {self.features[feature.casefold()]}.")
        self.feature_gained(self.name, feature)
        return {"character": self.name, "feature": feature}

    def set_condition(self, name: str, level: int, impacts: list[str] | None) -> dict[str, Any]:
        """A new condition, or a known one at a new level (its impacts kept unless given)."""
        name = _name(name, "A condition")
        known = self.conditions.get(name.casefold())
        if impacts is None:
            impacts = known["impacts"] if known else []
        new = rules.Condition(known["name"] if known else name, level, frozenset(impacts))
        return self._record(new, known)

    def change_condition(self, name: str, steps: int) -> dict[str, Any]:
        """Worsen (steps > 0) or ease (steps < 0); eased below level 1 it is gone (`eased`, not treated)."""
        if steps == 0:
            raise BadInput("Change a condition by at least one level.")
        current = self.condition(name)
        changed = rules.change_condition(current, steps)
        if changed is None:
            return self.treat(current.name, eased=True)
        return self._record(changed, self.conditions[current.name.casefold()])

    def treat(self, name: str, eased: bool = False) -> dict[str, Any]:
        """The condition is gone: treated, or eased below level 1 (`eased`)."""
        current = self.condition(name)
        self.condition_treated(self.name, current.name, current.level, eased)
        return {"character": self.name, "condition": current.name, "level": None, "was": current.level,
                "impacts": sorted(current.impacts), "incapacitates": []}

    def _record(self, new: rules.Condition, known: dict[str, Any] | None) -> dict[str, Any]:
        impacts = sorted(new.impacts)
        if known and (known["level"], sorted(known["impacts"])) == (new.level, impacts):
            raise RuleViolation(f"{self.name}'s {new.name} is already at level {new.level}"
                                + (" (its top)." if new.level == rules.MAX_CONDITION_LEVEL else "."))
        incapacitates = [a for a in impacts if new.incapacitates(a)]  # seed "Incapacitated"
        self.condition_set(self.name, new.name, new.level, impacts, incapacitates,
                           known["level"] if known else None)
        return {"character": self.name, "condition": new.name, "level": new.level,
                "was": known["level"] if known else None, "impacts": impacts, "incapacitates": incapacitates}
