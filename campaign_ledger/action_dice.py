"""Action dice (seed 003), as calls: `action_dice_roll` is `campaign action-dice roll`.

Assets are `{"Athletics": "d8", "Nerve": "d10"}`; a roll's faces are the table's, in pool order
(assets first, then d4s), e.g. `[7, 3, 2]`, or none for the program to roll.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence, TYPE_CHECKING

from campaign_ledger.ledger.values import given_faces
from campaign_ledger.handle import Core

if TYPE_CHECKING:
    from campaign_ledger.shapes import ActionDiceSheet, Report, Row

RULESET = "action-dice"


def _before_opening(check: Any) -> Any:
    """A malformed call refused before the campaign is opened, as the CLI refuses it: `check()`'s
    answer, or its failure as the one CampaignError."""
    from campaign_ledger.errors import refused

    try:
        return check()
    except Exception as e:
        raise refused(e, {}) from None


def _steps(steps: int) -> int:
    """A condition's steps, 1 or more (the CLI's --steps takes no other)."""
    from campaign_ledger.ledger import values

    return values.integer(steps, "--steps", 1)


def difficulty_ladder(rating: str | None, difficulty: int | None, advantages: int,
                      disadvantages: int) -> list[Row]:
    """The difficulty a challenge rating gives with these circumstances; without a rating or a
    difficulty, the whole ladder (each rating, then ++ at 7-10). `rating` "-" in a row: none given."""
    from campaign_ledger.ledger.rulesets.action_dice import rules
    from campaign_ledger.ledger.rulesets.action_dice.commands import base_difficulty

    if rating is None and difficulty is None:
        ladder: list[tuple[Any, int | None]] = [(r.value, None) for r in rules.ChallengeRating
                                                if r is not rules.ChallengeRating.PLUS]
        ladder += [("++", d) for d in range(7, rules.MAX_DIFFICULTY + 1)]
    else:
        ladder = [(rating, difficulty)]
    rows = []
    for r, chosen in ladder:
        rated, base = base_difficulty(r, chosen)
        rows.append({"rating": rated or "-", "base": base, "advantages": advantages,
                     "disadvantages": disadvantages,
                     "difficulty": rules.action_difficulty(base, advantages, disadvantages)})
    return rows


class ActionDiceCalls(Core):
    """Action dice (`campaign action-dice ...`)."""

    # --- the sheet -----------------------------------------------------------------------------

    def action_dice_character(self, name: str, *, assets: Mapping[str, str | int] | None = None,
                              features: Sequence[str] = (), key: str | None = None) -> Report:
        """Add a character with its assets (die sizes d4-d12) and features (`campaign action-dice character`)."""
        return self._write("action-dice character", {"name": name, "assets": assets, "features": features},
                           lambda app: app.add_action_character(name, dict(assets or {}), list(features)), key=key)

    def action_dice_asset(self, character: str, asset: str, die: str | int, *, key: str | None = None) -> Report:
        """Give a character an asset, or change an asset's die (`campaign action-dice asset`)."""
        return self._write("action-dice asset", {"character": character, "asset": asset, "die": die},
                           lambda app: app.set_action_asset(character, asset, die), key=key)

    def action_dice_feature(self, character: str, feature: str, *, key: str | None = None) -> Report:
        """Give a character a feature it can invoke on its rolls (`campaign action-dice feature`)."""
        return self._write("action-dice feature", {"character": character, "feature": feature},
                           lambda app: app.add_action_feature(character, feature), key=key)

    # --- conditions ----------------------------------------------------------------------------

    def action_dice_condition(self, character: str, condition: str, *, level: int,
                              impacts: Sequence[str] | None = None, key: str | None = None) -> Report:
        """Give a character a condition, or set its level (`campaign action-dice condition`): 1 to 3,
        and the actions it impacts (`impacts` None keeps them as they were)."""
        return self._write("action-dice condition", {"character": character, "condition": condition,
                                                     "level": level, "impacts": impacts},
                           lambda app: app.set_action_condition(character, condition, level, impacts), key=key)

    def action_dice_worsen(self, character: str, condition: str, *, steps: int = 1,
                           key: str | None = None) -> Report:
        """Raise a condition's level (`campaign action-dice worsen`); it stops at 3, where it
        incapacitates the actions it impacts."""
        raised = _before_opening(lambda: _steps(steps))
        return self._write("action-dice worsen", {"character": character, "condition": condition, "steps": raised},
                           lambda app: app.change_action_condition(character, condition, raised), key=key)

    def action_dice_ease(self, character: str, condition: str, *, steps: int = 1, key: str | None = None) -> Report:
        """Lower a condition's level (`campaign action-dice ease`); eased below level 1 it is gone."""
        lowered = _before_opening(lambda: _steps(steps))
        return self._write("action-dice ease", {"character": character, "condition": condition, "steps": lowered},
                           lambda app: app.change_action_condition(character, condition, -lowered), key=key)

    def action_dice_treat(self, character: str, condition: str, *, key: str | None = None) -> Report:
        """Treat a condition (`campaign action-dice treat`): it is gone, and any incapacitation it caused."""
        return self._write("action-dice treat", {"character": character, "condition": condition},
                           lambda app: app.treat_action_condition(character, condition), key=key)

    # --- the action roll -----------------------------------------------------------------------

    def action_dice_roll(self, character: str, action: str, *, rating: str | None = None,
                         difficulty: int | None = None, advantages: int = 0, disadvantages: int = 0,
                         assets: Sequence[str] = (), features: Sequence[str] = (),
                         faces: Sequence[int] | None = None, roll: bool = False, test: bool = False,
                         override: str | None = None, key: str | None = None) -> Report:
        """Make an action roll (`campaign action-dice roll`): three dice against the difficulty of
        `rating` (XX, D4-D12, or ++ with `difficulty` 7-10) or `difficulty` 1-10 itself, moved by
        the circumstances. `test`: pass/fail; `override`: the GM's reason to allow a refused roll."""
        from campaign_ledger.ledger.errors import BadInput

        def thrown() -> list[int] | None:
            if faces is not None and roll:
                raise BadInput("Give --faces from the table or --roll, not both.")
            return None if faces is None else list(given_faces(faces))
        entered = _before_opening(thrown)
        asked = {"character": character, "action": action, "rating": rating, "difficulty": difficulty,
                 "advantages": advantages, "disadvantages": disadvantages, "assets": assets, "features": features,
                 "faces": entered, "test": test, "override": override}
        return self._write("action-dice roll", asked, lambda app: app.roll_action(
            character, action, rating=rating, difficulty=difficulty, advantages=advantages,
            disadvantages=disadvantages, assets=list(assets), features=list(features), faces=entered, test=test,
            gm_override=override), key=key)

    # --- what a GM reads -----------------------------------------------------------------------

    def action_dice_difficulty(self, rating: str | None = None, *, difficulty: int | None = None,
                               advantages: int = 0, disadvantages: int = 0) -> list[Row]:
        """The difficulty a challenge rating gives (`campaign action-dice difficulty --json`);
        without a rating, the whole ladder. Reads nothing of the campaign."""
        return _before_opening(lambda: difficulty_ladder(rating, difficulty, advantages, disadvantages))

    def action_dice_sheet(self, name: str | None = None) -> ActionDiceSheet | list[ActionDiceSheet]:
        """The character sheets (`campaign action-dice sheet --json`): NAME's as an object, else a list."""
        from campaign_ledger.projections.rulesets.action_dice import tables
        from campaign_ledger.views import known_character, one_or_all, only_ruleset

        def query(app: Any, db: Any) -> Any:
            only_ruleset(db, RULESET)
            return one_or_all(name, known_character(name, tables.sheets(db, name), db))
        return self._read(query)

    def action_dice_rolls(self, name: str | None = None, *, limit: int | None = None) -> list[Row]:
        """The action rolls, or one character's, the last `limit` of them (`campaign action-dice rolls --json`)."""
        from campaign_ledger.ledger import values
        from campaign_ledger.projections.rulesets.action_dice import tables

        from campaign_ledger.views import known_character, only_ruleset

        def query(app: Any, db: Any) -> list[Any]:
            if limit is not None:
                values.integer(limit, "--limit", 1, 10**9)
            only_ruleset(db, RULESET)
            known_character(name, tables.sheets(db, name))
            return tables.rolls(db, name, limit)
        return self._read(query)
