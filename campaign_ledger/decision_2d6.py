"""Decision rolls with supply dice (seed 004), as calls: `decision_2d6_roll` is `campaign decision-2d6 roll`.

Dice are facts: give `faces` read at the table (a list of ints, explosions included, in order), or
leave them out (or `roll=True`) for the program to roll. Stats and attributes are `{"Strength": 0}`.
A decision roll's modifiers are lists of ints (`bonuses=[2]`, `penalties=[-1]`, `modifiers=[1]`);
a contest's are by side (`bonuses={"Billy": 1}`, or pairs to give one side two), its sides
`("Billy", "Stealth")` and its advantage `("Billy", "minor")`.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence, TYPE_CHECKING

from campaign_ledger.ledger.values import given_faces
from campaign_ledger.handle import Core

if TYPE_CHECKING:
    from campaign_ledger.shapes import Decision2d6Sheet, Report, Row

RULESET = "decision-2d6"
Faces = Sequence[int]
BySide = Mapping[str, int] | Sequence[tuple[str, int]]  # a contest's modifiers: pairs keep a name twice


def stated(bonuses: Sequence[int] = (), penalties: Sequence[int] = (), modifiers: Sequence[int] = ()) -> list[Any]:
    """A roll's modifiers as the table states them (a bonus, a penalty with its sign, a plain one)."""
    from campaign_ledger.ledger.rulesets.decision_2d6.commands import Stated

    return ([Stated("bonus", int(v)) for v in bonuses] + [Stated("penalty", int(v)) for v in penalties]
            + [Stated("modifier", int(v)) for v in modifiers])


def contest_sides(first: tuple[str, str], second: tuple[str, str], bonuses: BySide | None = None,
                  penalties: BySide | None = None, modifiers: BySide | None = None) -> tuple[Any, Any]:
    """The two sides of a contest, (character, stat) each, with the modifiers stated for each; a
    modifier for anyone else is refused (it would be silently dropped)."""
    from campaign_ledger.ledger.errors import BadInput
    from campaign_ledger.ledger.rulesets.decision_2d6.commands import Side, Stated

    said = [(who.strip(), Stated(kind, int(value)))
            for kind, given in (("bonus", bonuses), ("penalty", penalties), ("modifier", modifiers))
            for who, value in _pairs(given)]

    def side(pair: tuple[str, str]) -> Any:
        name, stat = pair
        return Side(name.strip(), stat.strip(), tuple(m for who, m in said if who.casefold() == name.strip().casefold()))
    sides = (side(first), side(second))
    named = {s.name.casefold() for s in sides}
    for who, _ in said:
        if who.casefold() not in named:
            raise BadInput(f"{who} is not one of the two sides of this contest.")
    return sides


def _pairs(given: BySide | None) -> list[tuple[str, int]]:
    return list(given.items()) if isinstance(given, Mapping) else list(given or ())


def _faces(faces: Faces | None, roll: bool) -> tuple[int, ...] | None:
    from campaign_ledger.ledger.errors import BadInput

    if faces is not None and roll:
        raise BadInput("Give faces from the table or roll, not both.")
    return given_faces(faces) if faces is not None else None


class Decision2d6Calls(Core):
    """Decision rolls (`campaign decision-2d6 ...`): characters, rolls and contests, supply dice,
    D100 trackers and their views."""

    # --- characters ---------------------------------------------------------------------------

    def decision_2d6_pc_add(self, name: str, *, will: int, fort: int, level: int = 1,
                            stats: Mapping[str, int] | None = None, attributes: Mapping[str, int] | None = None,
                            key: str | None = None) -> Report:
        """Add a character with Level, Will, Fort, stats and attributes (`campaign decision-2d6 pc-add`)."""
        scores, extra = dict(stats or {}), dict(attributes or {})
        return self._write("decision-2d6 pc-add", {"name": name, "level": level, "will": will, "fort": fort,
                                                   "stats": scores, "attributes": extra},
                           lambda app: app.d2d6_add_character(name, level, will, fort, scores, extra), key=key)

    def decision_2d6_pc_set(self, name: str, *, level: int | None = None, will: int | None = None,
                            fort: int | None = None, stats: Mapping[str, int] | None = None,
                            attributes: Mapping[str, int] | None = None, reason: str = "",
                            key: str | None = None) -> Report:
        """Change a character's scores, one entry per score that changes (`campaign decision-2d6 pc-set`);
        a stat or attribute not on the sheet yet is added."""
        scores, extra = dict(stats or {}), dict(attributes or {})
        return self._write("decision-2d6 pc-set", {"name": name, "level": level, "will": will, "fort": fort,
                                                   "stats": scores, "attributes": extra, "reason": reason},
                           lambda app: app.d2d6_change(name, level, will, fort, scores, extra, reason), key=key)

    # --- rolls --------------------------------------------------------------------------------

    def decision_2d6_roll(self, name: str, stat: str, *, target: int | None = None, difficulty: str | None = None,
                          bonuses: Sequence[int] = (), penalties: Sequence[int] = (), modifiers: Sequence[int] = (),
                          advantage: str = "neutral", grants: int = 0, faces: Faces | None = None,
                          roll: bool = False, purpose: str = "", key: str | None = None) -> Report:
        """A decision roll (`campaign decision-2d6 roll`): 2d6 exploding + stat + modifiers against a
        target number or a named difficulty; `grants` counts effects granting advantage."""
        asked = {"name": name, "stat": stat, "target": target, "difficulty": difficulty, "bonuses": list(bonuses),
                 "penalties": list(penalties), "modifiers": list(modifiers), "advantage": advantage,
                 "grants": grants, "faces": faces, "roll": roll, "purpose": purpose}
        return self._write("decision-2d6 roll", asked, lambda app: app.d2d6_roll(
            name, stat, target=target, difficulty=difficulty, modifiers=stated(bonuses, penalties, modifiers),
            advantage=advantage, grants=grants, faces=_faces(faces, roll), purpose=purpose), key=key)

    def decision_2d6_contest(self, first: tuple[str, str], second: tuple[str, str], *,
                             advantage: tuple[str, str] | None = None, grants: Sequence[str] = (),
                             bonuses: BySide | None = None, penalties: BySide | None = None,
                             modifiers: BySide | None = None, rounds: Sequence[tuple[Faces, Faces]] | None = None,
                             roll: bool = False, purpose: str = "", key: str | None = None) -> Report:
        """A contest between two characters (`campaign decision-2d6 contest`), each side (character,
        stat): the higher total wins, a tie rerolls (each roll kept). `rounds`: the table's faces, one
        (first, second) pair per roll; `advantage`: (side, "minor" or "major")."""
        granted = list(grants)
        asked = {"first": first, "second": second, "advantage": advantage, "grants": granted,
                 "bonuses": _pairs(bonuses), "penalties": _pairs(penalties), "modifiers": _pairs(modifiers),
                 "rounds": rounds, "roll": roll, "purpose": purpose}

        def call(app: Any) -> Report:
            from campaign_ledger.ledger.errors import BadInput

            if rounds and roll:
                raise BadInput("Give faces from the table or roll, not both.")
            sides = contest_sides(first, second, bonuses, penalties, modifiers)
            thrown = [(given_faces(a), given_faces(b)) for a, b in rounds or ()]
            favoured = (advantage[0].strip(), advantage[1].strip()) if advantage is not None else None
            return app.d2d6_contest(sides[0], sides[1], favoured=favoured, grants=granted, rounds=thrown or None,
                                    purpose=purpose)
        return self._write("decision-2d6 contest", asked, call, key=key)

    # --- supply dice and trackers -------------------------------------------------------------

    def decision_2d6_item_add(self, name: str, *, die: str, holder: str | None = None,
                              key: str | None = None) -> Report:
        """Add an item whose supplies are a die, D12 to D4 or Empty (`campaign decision-2d6 item-add`)."""
        return self._write("decision-2d6 item-add", {"name": name, "die": die, "holder": holder},
                           lambda app: app.d2d6_add_item(name, die, holder), key=key)

    def decision_2d6_supply_roll(self, item: str, *, faces: Faces | None = None, roll: bool = False,
                                 purpose: str = "", override: str | None = None, key: str | None = None) -> Report:
        """Use an item that needs a supply roll (`campaign decision-2d6 supply-roll`): at or under the
        campaign's threshold its die steps down; `override` (the GM's reason) uses an Empty one."""
        return self._write("decision-2d6 supply-roll", {"item": item, "faces": faces, "roll": roll,
                                                        "purpose": purpose, "override": override},
                           lambda app: app.d2d6_supply_roll(item, _faces(faces, roll), purpose, override), key=key)

    def decision_2d6_restock(self, item: str, die: str, *, reason: str = "", key: str | None = None) -> Report:
        """Set an item's supply die, resupplied (`campaign decision-2d6 restock`)."""
        return self._write("decision-2d6 restock", {"item": item, "die": die, "reason": reason},
                           lambda app: app.d2d6_restock(item, die, reason), key=key)

    def decision_2d6_tracker_add(self, name: str, *, value: int = 100, step: int | None = None,
                                 holder: str | None = None, key: str | None = None) -> Report:
        """Add a D100 percentage tracker, e.g. ammunition (`campaign decision-2d6 tracker-add`); `step`:
        the points a use costs (default: the campaign's d100_step setting)."""
        return self._write("decision-2d6 tracker-add", {"name": name, "value": value, "step": step, "holder": holder},
                           lambda app: app.d2d6_add_tracker(name, value, step, holder), key=key)

    def decision_2d6_tracker_roll(self, name: str, *, faces: Faces | None = None, roll: bool = False,
                                  purpose: str = "", override: str | None = None, key: str | None = None) -> Report:
        """Use a tracker (`campaign decision-2d6 tracker-roll`): a d100 at or under its value goes ahead
        and costs its step, over it runs out; `override` (the GM's reason) allows a use at 0%."""
        return self._write("decision-2d6 tracker-roll", {"name": name, "faces": faces, "roll": roll,
                                                         "purpose": purpose, "override": override},
                           lambda app: app.d2d6_tracker_roll(name, _faces(faces, roll), purpose, override), key=key)

    def decision_2d6_tracker_set(self, name: str, value: int, *, reason: str = "", key: str | None = None) -> Report:
        """Set a tracker's percentage, a refill (`campaign decision-2d6 tracker-set`)."""
        return self._write("decision-2d6 tracker-set", {"name": name, "value": value, "reason": reason},
                           lambda app: app.d2d6_tracker_set(name, value, reason), key=key)

    # --- what the GM reads --------------------------------------------------------------------

    def decision_2d6_sheet(self, name: str | None = None) -> Decision2d6Sheet | list[Decision2d6Sheet]:
        """The character sheets with Stress and Vitality (`campaign decision-2d6 sheet --json`): one
        dict for `name`, a list for all."""
        from campaign_ledger.projections.rulesets.decision_2d6 import tables
        from campaign_ledger.views import known_character, one_or_all, only_ruleset

        def query(app: Any, db: Any) -> Any:
            only_ruleset(db, RULESET)
            return one_or_all(name, known_character(name, tables.sheets(db, name), db))
        return self._read(query)

    def decision_2d6_pools(self, name: str | None = None) -> Row:
        """Supply dice and trackers (`campaign decision-2d6 pools --json`); with `name`, every change
        of that item or tracker ({"name", "rows"})."""
        from campaign_ledger.projections.rulesets.decision_2d6 import tables
        from campaign_ledger.views import only_ruleset

        def query(app: Any, db: Any) -> Row:
            from campaign_ledger.ledger.errors import NotFound

            only_ruleset(db, RULESET)
            if not name:
                return tables.pools(db)
            rows = tables.statement(db, name)
            if not rows:  # refused as `sheet` and `rolls` refuse an unknown name
                raise NotFound(f"There is no item or tracker named '{name}' in this campaign.")
            return {"name": name, "rows": rows}
        return self._read(query)

    def decision_2d6_rolls(self, name: str | None = None, *, limit: int | None = None) -> list[Row]:
        """The decision rolls standing, oldest first, or one character's (`campaign decision-2d6 rolls
        --json`): dice as they exploded, modifiers, total, target; `limit`: only the last ones."""
        from campaign_ledger.ledger import values
        from campaign_ledger.projections.rulesets.decision_2d6 import tables
        from campaign_ledger.views import known_character, only_ruleset

        def query(app: Any, db: Any) -> list[Row]:
            if limit is not None:
                values.integer(limit, "limit", 1)
            only_ruleset(db, RULESET)
            known_character(name, tables.sheets(db, name))
            return tables.rolls(db, name, limit)
        return self._read(query)
