"""Relics of the Moon, as calls: the Cohort and its PCs, Scenarios and Challenges, the rounds' turns.

Dice are facts: give `faces` read at the table (a list of ints), or `roll=True` for the program to
roll them; a turn with neither stops at its pool, waiting for `roll`. Placements are
`{"Keen Eye": [5], "Blaster": [1, 4]}` (dice numbered from 1), or `best=True` for the offered one.
Stress is `{"Kira": 2, "Bo": 1}`. Trait uses are written as at the table: "Kira:Keen Eye",
"Kira:Motto=doom" (`trait_uses` reads them, for the CLI too).

The setting up is in relics_setup.py, the GM's named rules in relics_gm.py; RelicsCalls has them all.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence, TYPE_CHECKING

from campaign_ledger.ledger.values import given_faces
from campaign_ledger.relics_gm import RelicsGmCalls
from campaign_ledger.relics_setup import RelicsSetupCalls

if TYPE_CHECKING:
    from campaign_ledger.shapes import Report, Row

Faces = Sequence[int]
Places = Mapping[str, Sequence[int]] | Sequence[tuple[str, Sequence[int]]]  # by trait label; pairs keep a label twice


def trait_uses(traits: Sequence[str] | None) -> list[Any]:
    """Trait uses as the table says them, "OWNER:TRAIT" or "OWNER:TRAIT=destiny" (or =doom): the one
    reading of them, for the library's calls and the CLI's --trait alike."""
    from campaign_ledger.ledger.errors import BadInput
    from campaign_ledger.ledger.rulesets.relics.turns import TraitUse

    uses = []
    for value in traits or ():
        owner, colon, rest = value.partition(":")
        if not colon or not owner.strip() or not rest.strip():
            raise BadInput(f"Name a trait as OWNER:TRAIT (optionally =destiny or =doom), not '{value}'.")
        name, _, paid = rest.partition("=")
        uses.append(TraitUse(owner.strip(), name.strip(), paid.strip().lower() or None))
    return uses


def _throw(faces: Faces | None, roll: bool) -> Any:
    from campaign_ledger.ledger.errors import BadInput
    from campaign_ledger.ledger.rulesets.relics.turns import Throw

    if faces is not None and roll:
        raise BadInput("Give faces from the table or roll, not both.")
    return Throw(given_faces(faces) if faces is not None else None, roll)


def _placing(places: Places | None, best: bool) -> Any:
    from campaign_ledger.ledger.rulesets.relics.turns import Placing

    pairs = places.items() if isinstance(places, Mapping) else places or ()
    return Placing(tuple((label, given_faces(dice, 'Dice placed')) for label, dice in pairs), best)


def _spread(stress: Mapping[str, int] | None) -> dict[str, int] | None:
    return dict(stress) if stress is not None else None


class RelicsCalls(RelicsSetupCalls, RelicsGmCalls):
    """Relics of the Moon (`campaign pc`, `trait`, `scenario`, `challenge`, `cohort-turn`, ...)."""

    def cohort_turn(self, challenge: str, *, leader: str | None = None, assists: Sequence[str] | None = None,
                    traits: Sequence[str] = (), destiny: int = 0, opportunity: str | None = None,
                    supplies: tuple[str, int, bool] | None = None, buy_time: bool = False,
                    gm_motto: str | None = None, faces: Faces | None = None, roll: bool = False,
                    places: Places | None = None, best: bool = False, key: str | None = None,
                    override: str | None = None) -> Report:
        """The Cohort turn (`campaign cohort-turn`): Huddle and pool, then, with faces or roll, the roll
        and placements. `supplies` is (type, rank, traded)."""
        from campaign_ledger.ledger.rulesets.relics.turns import Tactics

        tactics = Tactics(opportunity, supplies, buy_time, gm_motto)
        asked = {"challenge": challenge, "leader": leader, "assists": assists, "traits": list(traits),
                 "destiny": destiny, "tactics": [opportunity, supplies, buy_time, gm_motto], "faces": faces,
                 "roll": roll, "places": places, "best": best}
        return self._write("cohort-turn", asked, lambda app: app.cohort_turn(
            challenge, leader, list(assists) if assists else None, trait_uses(traits), destiny, _throw(faces, roll),
            _placing(places, best), tactics), key=key, override=override)

    def challenge_turn(self, challenge: str, *, traits: Sequence[str] = (), faces: Faces | None = None,
                       roll: bool = False, places: Places | None = None, best: bool = False,
                       stress: Mapping[str, int] | None = None, key: str | None = None,
                       override: str | None = None) -> Report:
        """The Challenge turn (`campaign challenge-turn`): its pool, then the roll, placements and Stress."""
        spread = _spread(stress)
        asked = {"challenge": challenge, "traits": list(traits), "faces": faces, "roll": roll, "places": places,
                 "best": best, "stress": spread}
        return self._write("challenge-turn", asked, lambda app: app.challenge_turn(
            challenge, trait_uses(traits), _throw(faces, roll), _placing(places, best), spread),
            key=key, override=override)

    def roll(self, challenge: str, *, faces: Faces | None = None, places: Places | None = None, best: bool = False,
             stress: Mapping[str, int] | None = None, key: str | None = None, override: str | None = None) -> Report:
        """Roll the pool waiting on a Challenge (`campaign roll`), or enter the table's `faces`; then,
        if given, the placements and the Stress."""
        spread = _spread(stress)
        asked = {"challenge": challenge, "faces": faces, "places": places, "best": best, "stress": spread}
        return self._write("roll", asked, lambda app: app.roll(
            challenge, _throw(faces, False), _placing(places, best), spread), key=key, override=override)

    def place(self, challenge: str, *, places: Places | None = None, best: bool = False,
              stress: Mapping[str, int] | None = None, key: str | None = None, override: str | None = None) -> Report:
        """Place the Simple modifiers of the rolled pool and tally it (`campaign place`)."""
        spread = _spread(stress)
        asked = {"challenge": challenge, "places": places, "best": best, "stress": spread}
        return self._write("place", asked, lambda app: app.place(challenge, _placing(places, best), spread),
                           key=key, override=override)

    def stress(self, challenge: str, spread: Mapping[str, int], *, key: str | None = None,
               override: str | None = None) -> Report:
        """Spread the Challenge's Stress by consensus, or as the leader says (`campaign stress`), e.g.
        {"Kira": 2, "Bo": 1}."""
        given = dict(spread)
        return self._write("stress", {"challenge": challenge, "stress": given},
                           lambda app: app.distribute(challenge, given), key=key, override=override)

    def push(self, name: str, *, key: str | None = None, override: str | None = None) -> Report:
        """A Stressed Out PC Pushes the Limit (`campaign push`): Stress rolls over, +1 Agony."""
        return self._write("push", {"name": name}, lambda app: app.push_the_limit(name), key=key, override=override)

    def status(self) -> Row:
        """The unfinished turn, if any, and where each open Challenge stands, with Destiny and Doom
        (`campaign status --json`)."""
        return self._read(_status)


def _status(app: Any, db: Any) -> Row:
    from campaign_ledger.ledger.errors import RuleViolation
    from campaign_ledger.ledger.ids import challenge_id
    from campaign_ledger.ledger.rulesets.relics.challenge import NEXT_STEP
    from campaign_ledger.ledger.rulesets.relics.odds import pool_line
    from campaign_ledger.projections import views
    from campaign_ledger.projections.rulesets.relics import state as relics_state

    camp = app.campaign()
    if camp.ruleset != "relics":
        raise RuleViolation(f"This is {'an' if camp.ruleset[0] in 'aeiou' else 'a'} {camp.ruleset} campaign; "
                            f"see `campaign {camp.ruleset} --help` (and `campaign sheet`, `pools`, `history`).")
    rows = views.challenges(db, open_only=True)
    for row in rows:
        ch = app.repository.get(challenge_id(row["name"]))
        row.update(phase=ch.phase, waiting_for=NEXT_STEP[ch.phase], pending=ch.pending,
                   odds=pool_line(ch.pending) if ch.phase.endswith("-roll") else None)
    return {"turn": camp.turn, "challenges": rows, **views.pools(db), **relics_state.status_fields(db)}
