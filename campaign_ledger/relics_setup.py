"""Relics of the Moon, setting up as calls: PCs and their corrections, traits, house rules, Challenges
outside the rounds, Scenes and Events, and rosters. Mixed into RelicsCalls (relics.py)."""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence, TYPE_CHECKING, TypeVar

from campaign_ledger.handle import Core

if TYPE_CHECKING:
    from campaign_ledger.shapes import Report

T = TypeVar("T")


class RelicsSetupCalls(Core):
    """The Cohort, its traits and the frame of play (`campaign pc`, `trait`, `scene`, `event`, `roster`...)."""

    # --- PCs ----------------------------------------------------------------------------------

    def pc_add(self, name: str, expertise: Mapping[str, int], primary: str, *, key: str | None = None) -> Report:
        """Add a PC to the Cohort (`campaign pc add`): Expertise ranks by type, and the Primary one."""
        ranks = dict(expertise)
        return self._write("pc add", {"name": name, "expertise": ranks, "primary": primary},
                           lambda app: app.add_pc(name, ranks, primary), key=key)

    def pc_rename(self, old: str, new: str, *, key: str | None = None) -> Report:
        """Rename a PC (`campaign pc rename`): the same PC under a new name; the old name still finds it."""
        return self._write("pc rename", {"old": old, "new": new}, lambda app: app.rename_pc(old, new), key=key)

    def pc_retire(self, name: str, *, reason: str, key: str | None = None) -> Report:
        """Retire a PC from play (`campaign pc retire`): no leading, assisting, Stress or counting to the caps."""
        return self._write("pc retire", {"name": name, "reason": reason},
                           lambda app: app.retire_pc(name, reason), key=key)

    def pc_return(self, name: str, *, key: str | None = None) -> Report:
        """Bring a retired PC back to the table, as they left it (`campaign pc return`)."""
        return self._write("pc return", {"name": name}, lambda app: app.return_pc(name), key=key)

    def pc_expertise(self, name: str, ranks: Mapping[str, int] | None = None, *, primary: str | None = None,
                     reason: str, key: str | None = None) -> Report:
        """Change a PC's Expertise (`campaign pc expertise`): the ranks given are set (0 takes a type
        away), the others stay; `primary` names a new Primary Expertise."""
        given = dict(ranks or {})
        return self._write("pc expertise", {"name": name, "ranks": given, "primary": primary, "reason": reason},
                           lambda app: app.change_expertise(name, given, primary, reason), key=key)

    # --- traits -------------------------------------------------------------------------------

    def trait_add(self, owner: str, name: str, modifier: str, *, polarity: str | None = None, cost: str = "free",
                  target: str | None = None, challenge: bool = False, frequency: str = "always",
                  types: Sequence[str] = (), key: str | None = None) -> Report:
        """Give a PC, the Cohort (owner "Cohort") or, with `challenge`, a Challenge a trait
        (`campaign trait add`), its modifier in the seeds' notation ("+1 / 1d")."""
        kinds = list(types)
        asked = {"owner": owner, "name": name, "modifier": modifier, "polarity": polarity, "cost": cost,
                 "target": target, "challenge": challenge, "frequency": frequency, "types": kinds}
        return self._write("trait add", asked, lambda app: app.add_trait(
            owner, name, modifier, polarity, cost, target, challenge, frequency, kinds), key=key)

    def trait_remove(self, owner: str, name: str, *, reason: str, key: str | None = None) -> Report:
        """Take a trait off a PC or a Challenge (`campaign trait remove`); the history keeps when it came."""
        return self._write("trait remove", {"owner": owner, "name": name, "reason": reason},
                           lambda app: app.remove_trait(owner, name, reason), key=key)

    def trait_replace(self, owner: str, name: str, modifier: str, *, polarity: str | None = None,
                      target: str | None = None, reason: str = "", key: str | None = None) -> Report:
        """Give a PC's or a Challenge's trait another modifier (`campaign trait replace`); cost and limits stay."""
        asked = {"owner": owner, "name": name, "modifier": modifier, "polarity": polarity, "target": target,
                 "reason": reason}
        return self._write("trait replace", asked,
                           lambda app: app.replace_trait(owner, name, modifier, polarity, reason, target), key=key)

    # --- the frame of play --------------------------------------------------------------------

    def scenario_start(self, title: str, *, key: str | None = None) -> Report:
        """Start a Scenario (`campaign scenario start`): Destiny and Doom are set to the number of PCs."""
        return self._write("scenario start", {"title": title}, lambda app: app.start_scenario(title), key=key)

    def house_rule_set(self, rule: str, value: str, *, reason: str = "", key: str | None = None) -> Report:
        """Amend a rule for this campaign (`campaign house-rule set`), e.g. ("lead_dice", "2"); later
        entries use it and the history shows when."""
        return self._write("house-rule set", {"rule": rule, "value": value, "reason": reason},
                           lambda app: app.set_house_rule(rule, value, reason), key=key)

    def scene_start(self, title: str, *, key: str | None = None) -> Report:
        """Start a Scene (`campaign scene start`)."""
        return self._write("scene start", {"title": title}, lambda app: app.start_scene(title), key=key)

    def scene_end(self, *, reason: str = "", key: str | None = None) -> Report:
        """End the Scene and the Event going on (`campaign scene end`); traits lasting the Scene end too."""
        return self._write("scene end", {"reason": reason}, lambda app: app.end_scene(reason), key=key)

    def event_start(self, title: str, *, simultaneous: bool = False, key: str | None = None) -> Report:
        """Start an Event (`campaign event start`): Challenges opened now belong to it, faced one after
        another or, `simultaneous`, at once."""
        mode = "simultaneous" if simultaneous else "serial"
        return self._write("event start", {"title": title, "mode": mode},
                           lambda app: app.start_encounter(title, mode), key=key)

    def event_end(self, *, reason: str = "", key: str | None = None) -> Report:
        """End the Event (`campaign event end`): its unresolved Challenges end with it."""
        return self._write("event end", {"reason": reason}, lambda app: app.end_encounter(reason), key=key)

    # --- Challenges outside the rounds --------------------------------------------------------

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

    def challenge_split(self, name: str, *, into: str, dice: int, group: Sequence[str], pay: str,
                        key: str | None = None, override: str | None = None) -> Report:
        """Split a Challenge between two groups of the Cohort (`campaign challenge split`): `dice`
        unresolved dice move to `into`, faced by `group`; `pay` is "destiny" or "doom"."""
        names = list(group)
        return self._write("challenge split", {"name": name, "into": into, "dice": dice, "group": names, "pay": pay},
                           lambda app: app.split_challenge(name, into, dice, names, pay), key=key, override=override)

    def challenge_rate(self, name: str, rating: int, *, reason: str, key: str | None = None) -> Report:
        """Change a Challenge's rating between turns (`campaign challenge rate`), above its resolved dice."""
        return self._write("challenge rate", {"name": name, "rating": rating, "reason": reason},
                           lambda app: app.rate_challenge(name, rating, reason), key=key)

    def challenge_close(self, name: str, *, reason: str, key: str | None = None) -> Report:
        """Close a Challenge before it resolves (`campaign challenge close`): the Cohort got past it another way."""
        return self._write("challenge close", {"name": name, "reason": reason},
                           lambda app: app.finish_challenge(name, "closed", reason), key=key)

    def challenge_abandon(self, name: str, *, reason: str, key: str | None = None) -> Report:
        """Abandon a Challenge (`campaign challenge abandon`): the Cohort walks away from it unresolved."""
        return self._write("challenge abandon", {"name": name, "reason": reason},
                           lambda app: app.finish_challenge(name, "abandoned", reason), key=key)

    # --- rosters ------------------------------------------------------------------------------

    def roster_load(self, path: str, *, text: str | None = None, key: str | None = None) -> Report:
        """Add a roster file's PCs (with their traits) and Challenges (to the bestiary, not opened) in
        one unit (`campaign roster load`); a bad file is refused with its line and key. `text`: the
        file's contents when they are at hand (then `path` only names it)."""
        from campaign_ledger.relics_roster import read_roster

        if text is None:
            text = _before_the_call(lambda: read_roster(path))
        given = text
        return self._write("roster load", {"path": path, "text": given},
                           lambda app: app.load_roster(given, path), key=key)

    def roster_dump(self, path: str | None = None) -> dict[str, Any]:
        """The campaign's PCs, their permanent traits and the bestiary, as a roster (`campaign roster
        dump --json`); with `path`, also written there as TOML, which `roster_load` reads back."""
        from campaign_ledger import relics_roster

        if path is not None:
            _before_the_call(lambda: relics_roster.named(path))
        return self._read(lambda app, db: relics_roster.dump(db, path))


def _before_the_call(check: Callable[[], T]) -> T:
    """A check the CLI made before opening the campaign, refused as every call's refusals are."""
    from campaign_ledger.errors import refused

    try:
        return check()
    except Exception as e:
        raise refused(e, {}) from None
