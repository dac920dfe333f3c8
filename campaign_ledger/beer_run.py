"""Beer Run, as calls: characters and difficulties, conflicts and their rounds, Intensity.
Each method is `campaign beer-run ...` with its words joined: `beer_run_roll` is `beer-run roll`.

Abilities are `(category, name, die)` triples, `[("Physical", "Brawn", "d8"), ...]`, or by category,
`{"Physical": {"Brawn": "d8", "Health": "d6"}}`. Dice are faces read at the table (lists of ints) or
none, for the program to roll. Pips are `{"Attention": 2}`.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence, TYPE_CHECKING

from campaign_ledger.handle import Core
from campaign_ledger.ledger.values import given_faces

if TYPE_CHECKING:
    from campaign_ledger.shapes import BeerRunSheet, Report, Row

Abilities = Sequence[tuple[str, str, str]] | Mapping[str, Mapping[str, str]]
Dice = Sequence[str | tuple[str | None, str]] | Mapping[str, str]  # "d8", (None, "d8"), ("Lock", "d8")
Faces = Sequence[int] | None

RULESET = "beer-run"
CONFLICT_FIELDS = ("name", "sides", "target", "round", "out", "status", "result")  # of `beer-run conflicts`


def _abilities(abilities: Abilities) -> list[tuple[str, str, str]]:
    if isinstance(abilities, Mapping):
        return [(category, name, die) for category, dice in abilities.items() for name, die in dice.items()]
    return [(category, name, die) for category, name, die in abilities]


def _dice(dice: Dice) -> list[tuple[str | None, str]]:
    if isinstance(dice, Mapping):
        return list(dice.items())
    return [(None, d) if isinstance(d, str) else (d[0], d[1]) for d in dice]


def _numbers(given: Sequence[int]) -> list[int]:
    """Dice positions (numbered from 1), whole numbers as faces are."""
    return list(given_faces(given, "Dice positions"))


def _faces(faces: Faces, penalty: Faces, difficulty: Faces, roll: bool) -> Any:
    """The faces a roll was given (its own, the penalty dice's, the difficulty's), or none: the program rolls."""
    from campaign_ledger.ledger.rulesets.beer_run.play import Faces as Given

    def read(given: Faces) -> tuple[int, ...] | None:
        return None if given is None else given_faces(given)  # a string or a name is refused, not split
    return Given(read(faces), read(penalty), read(difficulty), roll)


def _intensity_change(gain: int, lose: int) -> int:
    """Intensity gained less lost; no change at all is a malformed call (exit 2), refused before
    the campaign is opened, as the CLI always has."""
    from campaign_ledger.errors import refused
    from campaign_ledger.ledger.errors import BadInput

    try:
        if gain < 0 or lose < 0:
            raise BadInput("Give --gain and --lose as positive numbers.")
        if gain == lose:  # nothing to record: a malformed command (exit 2), as a missing amount is elsewhere
            raise BadInput("Give an amount of Intensity to gain or lose, e.g. --gain 3.")
    except Exception as e:
        raise refused(e, {}) from None
    return gain - lose


class BeerRunCalls(Core):
    """Beer Run (`campaign beer-run ...`)."""

    # --- the group, difficulties, Intensity and outcome dice -----------------------------------

    def beer_run_character_add(self, name: str, abilities: Abilities, *, intensity: int | None = None,
                               key: str | None = None) -> Report:
        """Add a character with ability dice in categories (`campaign beer-run character add`).
        Health is required; Intensity defaults to the campaign's setting, else 10."""
        return self._write("beer-run character add", {"name": name, "abilities": abilities, "intensity": intensity},
                           lambda app: app.beer_run_add_character(name, _abilities(abilities), intensity), key=key)

    def beer_run_difficulty_add(self, name: str, dice: Dice, *, key: str | None = None) -> Report:
        """Add the GM's static difficulty pool (`campaign beer-run difficulty add`): it rolls all its
        dice each round and pays no Intensity. Dice: ["d8", "d6"] or {"Lock": "d8", "Bars": "d6"}."""
        return self._write("beer-run difficulty add", {"name": name, "dice": dice},
                           lambda app: app.beer_run_add_difficulty(name, _dice(dice)), key=key)

    def beer_run_intensity(self, name: str, *, gain: int = 0, lose: int = 0, reason: str = "",
                           key: str | None = None) -> Report:
        """Give or take Intensity (`campaign beer-run intensity`): the GM's word, a line of the statement."""
        change = _intensity_change(gain, lose)
        return self._write("beer-run intensity", {"name": name, "change": change, "reason": reason},
                           lambda app: app.beer_run_intensity(name, change, reason), key=key)

    def beer_run_outcome_gain(self, name: str, category: str, ability: str, die: str, *, reason: str = "",
                              key: str | None = None) -> Report:
        """A character gains a die for good (`campaign beer-run outcome gain`): a new ability, or a gone one back."""
        return self._write("beer-run outcome gain", {"name": name, "ability": [category, ability, die],
                                                     "reason": reason},
                           lambda app: app.beer_run_gain_outcome(name, category, ability, die, reason), key=key)

    def beer_run_outcome_inflict(self, name: str, die: str, *, reason: str = "", key: str | None = None) -> Report:
        """Inflict a lasting penalty die (`campaign beer-run outcome inflict`): it opposes every roll until lifted."""
        return self._write("beer-run outcome inflict", {"name": name, "die": die, "reason": reason},
                           lambda app: app.beer_run_inflict_outcome(name, die, reason), key=key)

    def beer_run_outcome_lift(self, name: str, die: str, *, reason: str = "", key: str | None = None) -> Report:
        """Lift a lasting penalty die (`campaign beer-run outcome lift`)."""
        return self._write("beer-run outcome lift", {"name": name, "die": die, "reason": reason},
                           lambda app: app.beer_run_lift_penalty(name, die, reason), key=key)

    # --- a conflict and its rounds -------------------------------------------------------------

    def beer_run_conflict_open(self, name: str, sides: Sequence[str], *, target: str | None = None,
                               key: str | None = None) -> Report:
        """Open a conflict (`campaign beer-run conflict open`); with more than two sides, `target` is
        the side every other side opposes."""
        return self._write("beer-run conflict open", {"name": name, "sides": sides, "target": target},
                           lambda app: app.beer_run_open_conflict(name, list(sides), target), key=key)

    def beer_run_conflict_end(self, name: str, *, reason: str, key: str | None = None) -> Report:
        """End a conflict, the GM's call (`campaign beer-run conflict end`), saying how it ended."""
        return self._write("beer-run conflict end", {"name": name, "reason": reason},
                           lambda app: app.beer_run_end_conflict(name, reason), key=key)

    def beer_run_goal(self, conflict: str, side: str, text: str, *, ability: str | None = None,
                      situation: str | None = None, against: Sequence[str] = (), replace: Sequence[int] = (),
                      key: str | None = None) -> Report:
        """State a side's goal for the round (`campaign beer-run goal`): `ability`, the opposing one it
        takes to zero; or `situation`, a die to gain, against the GM's pool `against` (dice such as
        "d6"), whose dice numbered from 1 in `replace` become that die."""
        return self._write("beer-run goal", {"conflict": conflict, "side": side, "text": text, "ability": ability,
                                             "situation": situation, "against": against, "replace": replace},
                           lambda app: app.beer_run_goal(conflict, side, text, ability, situation, list(against),
                                                         _numbers(replace)), key=key)

    def beer_run_helping(self, conflict: str, helper: str, ally: str, text: str, *, die: str,
                         against: Sequence[str] = (), replace: Sequence[int] = (), base: Sequence[str] = (),
                         extra: Sequence[str] = (), faces: Faces = None, penalty_faces: Faces = None,
                         difficulty_faces: Faces = None, roll: bool = False, override: str | None = None,
                         key: str | None = None) -> Report:
        """A helping goal, rolled before the round's pools (`campaign beer-run helping`): each success
        is a use of `die` for the ally. `override`: the GM's reason to let a refused pool through."""
        asked = {"conflict": conflict, "helper": helper, "ally": ally, "text": text, "die": die, "against": against,
                 "replace": replace, "base": base, "extra": extra, "faces": [faces, penalty_faces, difficulty_faces],
                 "roll": roll, "override": override}
        return self._write("beer-run helping", asked, lambda app: app.beer_run_help(
            conflict, helper, ally, text, die, list(against), _numbers(replace), list(base), list(extra),
            _faces(faces, penalty_faces, difficulty_faces, roll), override), key=key)

    def beer_run_roll(self, conflict: str, side: str, *, base: Sequence[str] = (), extra: Sequence[str] = (),
                      faces: Faces = None, penalty_faces: Faces = None, difficulty_faces: Faces = None,
                      roll: bool = False, override: str | None = None, key: str | None = None) -> Report:
        """Pay Intensity and roll a side's pool (`campaign beer-run roll`); once every side has rolled,
        the pools are compared. `base`: one ability per category (default: the biggest die left in
        each); `extra`: k more cost k(k+1)/2 Intensity. Faces in pool order, or none to let it roll."""
        asked = {"conflict": conflict, "side": side, "base": base, "extra": extra,
                 "faces": [faces, penalty_faces, difficulty_faces], "roll": roll, "override": override}
        return self._write("beer-run roll", asked, lambda app: app.beer_run_roll(
            conflict, side, list(base), list(extra), _faces(faces, penalty_faces, difficulty_faces, roll), override),
            key=key)

    def beer_run_pips(self, conflict: str, by: str, split: Mapping[str, int], *, on: str | None = None,
                      key: str | None = None) -> Report:
        """Land a side's kept successes as pips on opposing abilities (`campaign beer-run pips`),
        upper hand first: `split` is {"Attention": 2, "Intimidate": 1}; `on` checks the side hit."""
        return self._write("beer-run pips", {"conflict": conflict, "by": by, "split": split, "on": on},
                           lambda app: app.beer_run_pips(conflict, by, dict(split), on), key=key)

    def beer_run_cede(self, conflict: str, side: str, *, key: str | None = None) -> Report:
        """Cede between rounds (`campaign beer-run cede`): the opposition gains its goal."""
        return self._write("beer-run cede", {"conflict": conflict, "side": side},
                           lambda app: app.beer_run_cede(conflict, side), key=key)

    # --- what a GM reads -----------------------------------------------------------------------

    def beer_run_sheet(self, name: str | None = None) -> BeerRunSheet | list[BeerRunSheet]:
        """The character sheets (`campaign beer-run sheet --json`): NAME's as an object, else a list."""
        from campaign_ledger.projections.rulesets.beer_run import tables
        from campaign_ledger.views import known_character, one_or_all, only_ruleset

        def query(app: Any, db: Any) -> Any:
            only_ruleset(db, RULESET)
            return one_or_all(name, known_character(name, tables.sheets(db, name), db))
        return self._read(query)

    def beer_run_pools(self) -> list[Row]:
        """Each character's Intensity and held situation and penalty dice (`campaign beer-run pools --json`)."""
        from campaign_ledger.projections.rulesets.beer_run import tables
        from campaign_ledger.views import only_ruleset

        def query(app: Any, db: Any) -> list[Row]:
            only_ruleset(db, RULESET)
            return tables.pools(db)
        return self._read(query)

    def beer_run_statement(self, name: str | None = None) -> list[Row]:
        """Every change of Intensity with the balance after it (`campaign beer-run statement --json`),
        one character's or all; a name no one has is refused, not an empty statement."""
        from campaign_ledger.projections.rulesets.beer_run import tables
        from campaign_ledger.views import known_character, only_ruleset

        def query(app: Any, db: Any) -> list[Any]:
            only_ruleset(db, RULESET)
            return known_character(name, tables.sheets(db, name)) and tables.statement(db, name)
        return self._read(query)

    def beer_run_status(self, conflict: str | None = None) -> list[Row]:
        """The open conflicts, or one (`campaign beer-run status --json`): goals, who has rolled, and
        what the round waits for."""
        from campaign_ledger.projections.rulesets.beer_run import tables
        from campaign_ledger.views import only_ruleset

        def query(app: Any, db: Any) -> list[Any]:
            only_ruleset(db, RULESET)
            names = [conflict] if conflict else [c["name"] for c in tables.conflicts(db, open_only=True)]
            return [app.beer_run_conflict_state(n) for n in names]
        return self._read(query)

    def beer_run_conflicts(self, *, open_only: bool = False) -> list[Row]:
        """Every conflict, open or ended (`campaign beer-run conflicts --json`): sides, round, who left
        and how it ended; `open_only`: those still going on."""
        from campaign_ledger.projections.rulesets.beer_run import tables
        from campaign_ledger.views import only_ruleset

        def query(app: Any, db: Any) -> list[Any]:
            only_ruleset(db, RULESET)
            return [{k: c[k] for k in CONFLICT_FIELDS} for c in tables.conflicts(db, open_only)]
        return self._read(query)
