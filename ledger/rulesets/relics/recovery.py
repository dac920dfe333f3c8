"""Recovering from Stress and Agony (001 "Removing Stress", "Removing Agony"; RULES.md rulings).

At a Scene's end the Cohort recovers a set amount (1 Stress per PC with Stallion rank 2+)
or tests for it (a Stallion Test whose successes each remove 1); extended downtime removes
3 more per PC; a Growth Test after a narrative quest removes 1 Agony, each Agony adding its
ranked Simple modifier to the test. Every removal is distributed by consensus and stored.
"""
from __future__ import annotations

from typing import Any, Callable

from campaign_ledger.ledger import dice, values
from campaign_ledger.ledger.rulesets.relics import traits
from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.ids import challenge_id
from campaign_ledger.ledger.rulesets.relics import rules as relics
from campaign_ledger.ledger.table import Table
from campaign_ledger.ledger.rulesets.relics.house_rules import in_play

Report = dict[str, Any]


class RecoveryCommands:
    """Mixed into CampaignLedger."""

    _relics: Callable[..., Report]

    def recover_set(self, removal: dict[str, int]) -> Report:
        """The set amount: 1 Stress per PC with Stallion rank 2+, distributed by consensus."""
        def command(t: Table) -> Report:
            _check_scene_over(t)
            amount = relics.set_recovery([pc.rank("Stallion") for pc in t.pcs_in_game()])
            return _remove(t, removal, amount, "the Scene's set recovery")
        return self._relics(command)

    def recover_test(self) -> Report:
        """Open the Stallion recovery Test; play it with cohort-turn; then `recover apply`."""
        def command(t: Table) -> Report:
            camp = _check_scene_over(t)
            name = f"Recovery after Scene {camp.scenes}"
            if t.exists(challenge_id(name)):
                raise RuleViolation(f"{name} is already open; play it with cohort-turn.")
            ch = t.add(Challenge(name=name, threat="Common", type="Stallion", rating=len(t.pcs_in_game()) * 10))
            ch.configured(None, [], None, {"needed": 1, "stress_unresolved": False, "recovery": True})
            return {"challenge": name}
        return self._relics(command)

    def recover_apply(self, removal: dict[str, int]) -> Report:
        """Each success of the recovery Test removes 1 Stress, distributed by consensus."""
        def command(t: Table) -> Report:
            camp = t.campaign
            if camp.scenes == 0:
                raise RuleViolation("Stress is recovered at a Scene's end; no Scene has been played yet.")
            name = f"Recovery after Scene {camp.scenes}"
            if not t.exists(challenge_id(name)) or t.challenge(name).outcome is None:
                raise RuleViolation(f"Play {name} first (recover test, then cohort-turn).")
            ch = t.challenge(name)
            if camp.uses.get(f"{traits.COHORT}:{name}".casefold()) == "applied":
                t.refuse(f"{name} has already been applied.")
            camp.trait_used(f"{traits.COHORT}:{name}", "applied")
            return _remove(t, removal, max(0, ch.resolved), name)
        return self._relics(command)

    def downtime(self) -> Report:
        """Extended downtime: 3 Stress off every PC (never below 0)."""
        def command(t: Table) -> Report:
            removed = {}
            for pc in t.pcs_in_game():
                if pc.stress:
                    removed[pc.name] = min(relics.DOWNTIME_STRESS, pc.stress)
                    pc.recover_stress(in_play(t), removed[pc.name], "extended downtime")
            return {"removed": removed}
        return self._relics(command)

    def growth_test(self, name: str, pool: int, faces: tuple[int, ...] | None, placement: dict[int, tuple[int, ...]]
                    | None) -> Report:
        """A Growth Test after a narrative quest: the GM sets the pool; each Agony helps; passing removes 1."""
        if pool < 1:
            raise BadInput("A Growth Test rolls at least 1 die.")
        values.integer(pool, "A Growth Test's pool", 1, relics.MOST_DICE)

        def command(t: Table) -> Report:
            pc = t.pc(name)
            t.allow(pc.check_in_game)
            if pc.agony < 1:
                t.refuse(f"{pc.name} has no Agony to recover.")
            mods = relics.growth_bonus(in_play(t), pc.agony)
            if placement is not None and t.override is None:  # the stacking rules never read the faces
                relics.apply_simple((1,) * pool, mods, placement)
            thrown = dice.entered(faces, pool) if faces is not None else t.dice.roll(pool)
            chosen = placement if placement is not None else relics.best_placement(thrown.faces, mods, {})
            results = t.allow(lambda: relics.apply_simple(thrown.faces, mods, chosen),
                              fallback=relics.apply_simple(thrown.faces, mods, chosen, strict=False))
            result = relics.tally(results)
            passed = result.successes >= 1
            pc.growth_tested(pool, list(thrown.faces), thrown.entered, [str(m) for m in mods],
                             {str(k): list(v) for k, v in chosen.items()}, list(results), result.successes, passed)
            if passed and pc.agony:
                pc.agony_recovered(pc.agony - 1)
            return {"pc": pc.name, "results": list(results), "successes": result.successes, "passed": passed,
                    "agony": pc.agony, "unit": f"Growth Test {pc.name}"}
        return self._relics(command)

    def agony_trait(self, pc: str, name: str, modifier: str) -> Report:
        """Each Agony brings a semi-permanent Hindering trait the GM names."""
        def command(t: Table) -> Report:
            owner = t.pc(pc)
            mod = relics.parse_modifier(modifier, relics.HINDERING)
            if mod.polarity != relics.HINDERING:
                t.refuse("An Agony's trait is Hindering.")
            carried = sum(1 for x in t.campaign.temporary
                          if x["owner"] == owner.name and x["source"].startswith("Agony"))
            if not owner.agony:  # "has 0 Agony and already carries 0 Agony traits" said it backwards
                t.refuse(f"{owner.name} has no Agony: an Agony trait comes with each Agony gained "
                         "(Pushing the Limit).")
            if carried >= owner.agony:
                t.refuse(f"{owner.name} has {owner.agony} Agony and already carries {carried} Agony "
                         f"{'trait' if carried == 1 else 'traits'}.")
            made = traits.create(t, None, owner.name, name, str(mod), relics.HINDERING, "cohort", "semi-permanent",
                                 f"Agony {owner.agony}")
            return {"trait": made, "unit": f"agony trait {owner.name}"}
        return self._relics(command)


def _check_scene_over(t: Table) -> Any:
    camp = t.campaign
    if camp.scene is not None or camp.scenes == 0:
        t.refuse("Stress is recovered at a Scene's end; end the Scene first.")
    done = camp.uses.get(f"{traits.COHORT}:Scene recovery".casefold())
    if done == f"scene {camp.scenes}":
        t.refuse(f"The Cohort has already recovered after Scene {camp.scenes}.")
    camp.trait_used(f"{traits.COHORT}:Scene recovery", f"scene {camp.scenes}")
    return camp


def _remove(t: Table, removal: dict[str, int], amount: int, why: str) -> Report:
    group = [pc.name for pc in t.pcs_in_game()]
    named = {t.pc(n).name: v for n, v in removal.items()}
    t.allow(lambda: relics.check_distribution(amount, named, group, f"{why.capitalize()} removes {amount} Stress"))
    removed = {}
    for name, n in named.items():
        pc = t.pc(name)
        take = min(n, pc.stress)
        if take:
            pc.recover_stress(in_play(t), take, why)
            removed[name] = take
    return {"amount": amount, "removed": removed}

