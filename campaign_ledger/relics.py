"""Relics of the Moon, as calls: the Cohort and its PCs, Scenarios and Challenges, the rounds' turns.

Dice are facts: give `faces` read at the table (a list of ints), or `roll=True` for the program to
roll them; a turn with neither stops at its pool, waiting for `roll`. Placements are
`{"Keen Eye": [5], "Blaster": [1, 4]}` (dice numbered from 1), or `best=True` for the offered one.
Stress is `{"Kira": 2, "Bo": 1}`.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from campaign_ledger.handle import Core
from campaign_ledger.shapes import Report

Faces = Sequence[int]
Places = Mapping[str, Sequence[int]] | Sequence[tuple[str, Sequence[int]]]  # by trait label; pairs keep a label twice


def _throw(faces: Faces | None, roll: bool) -> Any:
    from campaign_ledger.ledger.errors import BadInput
    from campaign_ledger.ledger.rulesets.relics.turns import Throw

    if faces is not None and roll:
        raise BadInput("Give faces from the table or roll, not both.")
    return Throw(tuple(int(f) for f in faces) if faces is not None else None, roll)


def _placing(places: Places | None, best: bool) -> Any:
    from campaign_ledger.ledger.rulesets.relics.turns import Placing

    pairs = places.items() if isinstance(places, Mapping) else places or ()
    return Placing(tuple((label, tuple(int(d) for d in dice)) for label, dice in pairs), best)


def _uses(traits: Sequence[str] | None) -> list[Any]:
    """Trait uses as the CLI writes them, "OWNER:TRAIT" or "OWNER:TRAIT=destiny"."""
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


class RelicsCalls(Core):
    """Relics of the Moon (`campaign pc`, `trait`, `scenario`, `challenge`, `cohort-turn`, ...)."""

    def pc_add(self, name: str, expertise: Mapping[str, int], primary: str, *, key: str | None = None) -> Report:
        """Add a PC to the Cohort (`campaign pc add`): Expertise ranks by type, and the Primary one."""
        ranks = dict(expertise)
        return self._write("pc add", {"name": name, "expertise": ranks, "primary": primary},
                           lambda app: app.add_pc(name, ranks, primary), key=key)

    def scenario_start(self, title: str, *, key: str | None = None) -> Report:
        """Start a Scenario (`campaign scenario start`): Destiny and Doom are set to the number of PCs."""
        return self._write("scenario start", {"title": title}, lambda app: app.start_scenario(title), key=key)

    def challenge_open(self, name: str, *, threat: str | None = None, type: str | None = None,  # noqa: A002
                       rating: int | None = None, group: Sequence[str] = (), rounds: int | None = None,
                       test: bool = False, needed: int = 1, stress_unresolved: bool = False,
                       key: str | None = None, override: str | None = None) -> Report:
        """Open a Challenge (`campaign challenge open`), in the Event going on if any; a roster's
        bestiary gives what is not given. `test`: one round, `needed` successes."""
        names = list(group)
        shape = {"needed": needed, "stress_unresolved": stress_unresolved} if test else None

        def call(app: Any) -> Report:
            from campaign_ledger.ledger.errors import BadInput

            if not test and (stress_unresolved or needed != 1):
                raise BadInput("needed and stress_unresolved are for a Test (test=True).")
            return app.open_challenge(name, threat, type, rating, names, rounds, shape)
        return self._write("challenge open", {"name": name, "threat": threat, "type": type, "rating": rating,
                                              "group": names, "rounds": rounds, "test": shape},
                           call, key=key, override=override)

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
            challenge, leader, list(assists) if assists else None, _uses(traits), destiny, _throw(faces, roll),
            _placing(places, best), tactics), key=key, override=override)

    def challenge_turn(self, challenge: str, *, traits: Sequence[str] = (), faces: Faces | None = None,
                       roll: bool = False, places: Places | None = None, best: bool = False,
                       stress: Mapping[str, int] | None = None, key: str | None = None,
                       override: str | None = None) -> Report:
        """The Challenge turn (`campaign challenge-turn`): its pool, then the roll, placements and Stress."""
        spread = dict(stress) if stress is not None else None
        asked = {"challenge": challenge, "traits": list(traits), "faces": faces, "roll": roll, "places": places,
                 "best": best, "stress": spread}
        return self._write("challenge-turn", asked, lambda app: app.challenge_turn(
            challenge, _uses(traits), _throw(faces, roll), _placing(places, best), spread),
            key=key, override=override)

    def push(self, name: str, *, key: str | None = None, override: str | None = None) -> Report:
        """A Stressed Out PC Pushes the Limit (`campaign push`): Stress rolls over, +1 Agony."""
        return self._write("push", {"name": name}, lambda app: app.push_the_limit(name), key=key, override=override)
