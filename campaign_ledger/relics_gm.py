"""Relics of the Moon, what the GM calls on around the rounds, as calls: Mottos, Check This Out, the
Hand of Doom, Disaster and Agony traits, recovery, downtime and Growth Tests. Mixed into RelicsCalls
(relics.py)."""
from __future__ import annotations

from typing import Mapping, Sequence, TYPE_CHECKING

from campaign_ledger.ledger.values import given_faces
from campaign_ledger.handle import Core

if TYPE_CHECKING:
    from campaign_ledger.shapes import Report


class RelicsGmCalls(Core):
    """The GM's named rules (`campaign motto`, `hand-of-doom`, `recover`, `growth-test`...)."""

    def motto(self, pc: str, words: str, *, key: str | None = None) -> Report:
        """Give a PC its Motto (`campaign motto`): A6 / 1d while it leads, paid with Destiny or Doom,
        once a Scenario (a trait use "PC:Motto=doom")."""
        return self._write("motto", {"pc": pc, "words": words}, lambda app: app.set_motto(pc, words), key=key)

    def check_this_out(self, name: str, modifier: str, *, pay: str, against: str | None = None,
                       key: str | None = None, override: str | None = None) -> Report:
        """Once a Scene, a temporary rank 1 trait (`campaign check-this-out`), paid with `pay` ("destiny"
        or "doom"): for the Cohort ("+1 / 1d"), or `against` a Challenge ("-1 / 1d")."""
        target = "challenge" if against else "cohort"
        return self._write("check-this-out", {"name": name, "modifier": modifier, "pay": pay, "against": against},
                           lambda app: app.check_this_out(name, modifier, pay, target, against),
                           key=key, override=override)

    def hand_of_doom_stress(self, *, key: str | None = None, override: str | None = None) -> Report:
        """The GM spends 5 Doom during an Event (`campaign hand-of-doom stress`): 2 unavoidable Stress each PC."""
        return self._write("hand-of-doom stress", {}, lambda app: app.hand_of_doom("stress"), key=key,
                           override=override)

    def hand_of_doom_trait(self, name: str, modifier: str, *, on: str = "Cohort", key: str | None = None,
                           override: str | None = None) -> Report:
        """The GM spends 5 Doom during an Event (`campaign hand-of-doom trait`): a Hindering trait on the
        Cohort or a PC (`on`) for the rest of the Event."""
        return self._write("hand-of-doom trait", {"name": name, "modifier": modifier, "on": on},
                           lambda app: app.hand_of_doom("trait", name, modifier, on), key=key, override=override)

    def hand_of_doom_challenge(self, name: str, *, threat: str, type: str, rating: int,  # noqa: A002
                               key: str | None = None, override: str | None = None) -> Report:
        """The GM spends 5 Doom during an Event (`campaign hand-of-doom challenge`): a new Challenge in it."""
        spec = {"name": name, "threat": threat, "type": type, "rating": rating}
        return self._write("hand-of-doom challenge", spec, lambda app: app.hand_of_doom("challenge", challenge=spec),
                           key=key, override=override)

    def disaster_trait(self, challenge: str, name: str, modifier: str, *, on: str, lasts: str = "event",
                       key: str | None = None, override: str | None = None) -> Report:
        """After a Disaster, the GM's temporary trait (`campaign disaster-trait`): Hindering on the side
        that suffered it, or Beneficial opposite; `on` the Cohort, a PC or the Challenge; `lasts` a
        round, challenge, event, scene or scenario."""
        asked = {"challenge": challenge, "name": name, "modifier": modifier, "on": on, "lasts": lasts}
        return self._write("disaster-trait", asked, lambda app: app.disaster_trait(challenge, name, modifier, on, lasts),
                           key=key, override=override)

    def agony_trait(self, pc: str, name: str, modifier: str, *, key: str | None = None,
                    override: str | None = None) -> Report:
        """The semi-permanent Hindering trait an Agony brings, named by the GM (`campaign agony-trait`)."""
        return self._write("agony-trait", {"pc": pc, "name": name, "modifier": modifier},
                           lambda app: app.agony_trait(pc, name, modifier), key=key, override=override)

    def recover_set(self, stress: Mapping[str, int], *, key: str | None = None, override: str | None = None) -> Report:
        """Stress recovery at a Scene's end, the set amount (`campaign recover set`): 1 per PC with
        Stallion rank 2+, spread by consensus, e.g. {"Kira": 1}."""
        removal = dict(stress)
        return self._write("recover set", {"stress": removal}, lambda app: app.recover_set(removal), key=key,
                           override=override)

    def recover_test(self, *, key: str | None = None, override: str | None = None) -> Report:
        """Open the Stallion recovery Test (`campaign recover test`): play it with `cohort_turn`, then `recover_apply`."""
        return self._write("recover test", {}, lambda app: app.recover_test(), key=key, override=override)

    def recover_apply(self, stress: Mapping[str, int], *, key: str | None = None,
                      override: str | None = None) -> Report:
        """Each success of the recovery Test removes 1 Stress (`campaign recover apply`), spread by consensus."""
        removal = dict(stress)
        return self._write("recover apply", {"stress": removal}, lambda app: app.recover_apply(removal), key=key,
                           override=override)

    def downtime(self, *, key: str | None = None) -> Report:
        """Extended downtime (`campaign downtime`): 3 Stress off every PC."""
        return self._write("downtime", {}, lambda app: app.downtime(), key=key)

    def growth_test(self, pc: str, *, pool: int, faces: Sequence[int] | None = None, place: Sequence[int] | None = None,
                    key: str | None = None, override: str | None = None) -> Report:
        """A Growth Test after a narrative quest (`campaign growth-test`): passing removes 1 Agony; each
        Agony adds its ranked modifier, `place`d on dice numbered from 1 (default: the best placement).
        `faces` from the table, or the program rolls."""
        thrown = given_faces(faces) if faces is not None else None
        placement = {0: tuple(int(p) - 1 for p in place)} if place else None
        asked = {"pc": pc, "pool": pool, "faces": thrown, "place": list(place) if place else None}
        return self._write("growth-test", asked, lambda app: app.growth_test(pc, pool, thrown, placement),
                           key=key, override=override)
