"""History lines of Relics events, the round each entry belongs to, and the tables naming PCs
and Challenges (the core history, projections/history.py, asks every ruleset for these)."""
from __future__ import annotations

from typing import Any, Callable

from sqlite_utils import Database

from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.rulesets.relics.bestiary import Bestiary
from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.rulesets.relics.character import Character
from campaign_ledger.ledger.words import faces
from campaign_ledger.projections.schema_cache import flush

TABLES: tuple[str, ...] = ()  # lines only: the history table is the core's
HANDLED = ()  # no table of its own (runner: `apply` never called)
NAMED = (("sheets", "name"), ("challenges", "name"))  # tables naming PCs and Challenges by id
NAMED_CHARACTERS = ("sheets",)  # of those, the tables of characters (`history --pc`; the rest: --challenge)
NAMED_THINGS = {"challenges": "a Challenge (campaign status shows it)"}  # `sheet NAME` of one: views.named_thing


def apply(db: Database, entry: int, e: Any) -> None:
    """Nothing of its own to keep: the history applies these lines."""


def round_of(db: Database, entry: int, e: Any, names: Any) -> str | None:
    """`Vault Guards:2` for every entry played in that round of that Challenge.

    An entry that names no Challenge but follows one about the same PC in the same breath
    (Stressed Out right after taking the Stress) belongs to the same round.
    """
    character, own = _KINDS.get(type(e)) or _kind(type(e))
    challenge = getattr(e, "challenge", None)
    if challenge is None and character:
        flush(db)  # the previous entry's history row may still be waiting
        previous = db.execute("SELECT round, about FROM history WHERE entry = ?", [entry - 1]).fetchone()
        return previous[0] if previous and previous[1] == e.originator_id.hex else None
    if own:
        challenge = names.me
    if not challenge or not isinstance(challenge, str):
        return None
    number = getattr(e, "round", None)
    if number is None:
        flush(db)  # the Challenge's row may have changes waiting
        row = db.execute("SELECT round FROM challenges WHERE name = ?", [challenge]).fetchone()
        number = row[0] if row else None
    return f"{challenge}:{number}" if number is not None else None


_KINDS: dict[type, tuple[bool, bool]] = {}


def _kind(kind: type) -> tuple[bool, bool]:
    """Is an event type a character's, and one a Challenge tells of itself (found once a type: a
    rebuild asks on every entry)."""
    _KINDS[kind] = (issubclass(kind, Character.Event),
                    issubclass(kind, Challenge.Event) and not issubclass(kind, (Challenge.Opened, Challenge.TraitGained)))
    return _KINDS[kind]



def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if abs(n) == 1 else 'es' if word.endswith('s') else 's'}"


def _pool(n: Any, e: Challenge.PoolBuilt) -> str:
    parts = [f"{c['role']} {c['pc']} +{c['dice']}d6" for c in e.contributors]
    parts += [f"{a['label']} {a['modifier']}" for a in e.activated]
    if e.pool.get("destiny"):
        parts.append(f"Destiny +{e.pool['destiny']}d6")
    if e.pool.get("lost_to_cap"):
        parts.append(f"{e.pool['lost_to_cap']} over the cap of {e.pool['cap']} lost")
    autos = f"; auto results {faces(e.autos)}" if e.autos else ""
    return f"{n.me} round {e.round}: {e.side.capitalize()} pool of {e.pool['size']}d6 ({', '.join(parts) or 'rating'}){autos}"


def _tally(n: Any, e: Challenge.RoundTallied) -> str:
    notes = [f"{k.replace('_', ' ')} {getattr(e, k)}" for k in ("criticals", "overpowering", "botches", "major_botches")
             if getattr(e, k)]
    extra = f" ({', '.join(notes)})" if notes else ""
    return f"{n.me} round {e.round}: {e.side.capitalize()} result {faces(e.results)} = {_plural(e.successes, 'success')}{extra}"


def _placed(n: Any, e: Challenge.ModifiersPlaced) -> str:
    where = "; ".join(f"{label} on {'+'.join(str(d + 1) for d in dice) or 'no die'}"
                      for label, dice in e.placement.items())
    how = " (offered placement)" if e.offered else ""
    return f"{n.me} round {e.round}: placed {where}{how} -> {faces(e.results)}"


def _activated(n: Any, e: Campaign.TraitActivated) -> str:
    cost = {"free": "free", "destiny": "paid 1 Destiny"}.get(e.paid, "spent 1 Doom" if e.doom < 0 else "added 1 Doom")
    if e.owner == e.challenge:
        return f"The GM activated {e.trait} ({e.modifier}) for {e.challenge}: {cost}"
    return f"{e.owner} activated {e.trait} ({e.modifier}) on {e.challenge}: {cost}"


def _tides(n: Any, e: Campaign.TidesShifted) -> str:
    lost = f" ({e.destiny_lost} Destiny lost over the cap)" if e.destiny_lost else ""
    return f"The Tides shift after {e.challenge} round {e.round}: Destiny {e.destiny:+d}, Doom {e.doom:+d}{lost}"


def _scope_kind(scope: str) -> str:
    """'scene 3' -> scene; 'Vault Guards:2' -> round (a round's scope is the Challenge and its round)."""
    kind = scope.split(" ", 1)[0]
    return kind if kind in ("scene", "scenario", "event", "challenge") else "round"


def _trait(trait: dict[str, Any]) -> str:
    limits = [f"once a {trait['frequency']}"] if trait.get("frequency", "always") != "always" else []
    limits += [f"{'/'.join(trait['types'])} only"] if trait.get("types") else []
    extra = f" ({', '.join(limits)})" if limits else ""
    return f"{trait['modifier']} {trait['polarity']}, costs {trait['cost']}, targets the {trait['target']} pool{extra}"


def _lasts(trait: dict[str, Any]) -> str:
    return "for good (semi-permanent)" if trait.get("duration") == "semi-permanent" else f"the {trait['duration']}"


def _configured(e: Any) -> str:
    parts = [f"Event {e.encounter}"] if e.encounter else []
    parts += [f"faced by {', '.join(e.group)}"] if e.group else []
    parts += [f"timed, {e.rounds} rounds"] if e.rounds else []
    if e.test:
        parts.append(f"a Test needing {e.test['needed']}"
                     + (", unresolved dice as Stress" if e.test.get("stress_unresolved") else ""))
    return "; ".join(parts) or "an ordinary Challenge"


def _replaced(n: Any, e: Any) -> str:
    why = f": {e.reason}" if e.reason else ""
    pool = f", targets the {e.target} pool" if getattr(e, "target", None) else ""  # older entries kept it
    return f"Correction: {_own(n.me)} trait {e.name} is now {e.modifier} {e.polarity}{pool} (was {e.previous}){why}"


def _own(name: str) -> str:
    """The possessive a GM writes: Bo's, Vault Guards'."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _ranks(expertise: dict[str, int], primary: str) -> str:
    return ", ".join(f"{t} {r}" for t, r in expertise.items() if r) + f" (primary {primary})"


LINES: dict[type, Callable[[Any, Any], str]] = {
    Campaign.PCJoined: lambda n, e: f"{e.name} joined the Cohort",
    Campaign.ScenarioStarted: lambda n, e: f"Scenario '{e.title}' started: Destiny {e.destiny}, Doom {e.doom}",
    Campaign.TraitActivated: _activated,
    Campaign.DestinySpent: lambda n, e: f"{e.dice} Destiny spent for +{e.dice}d6 on {e.challenge}",
    Campaign.TidesShifted: _tides,
    Campaign.TurnBegan: lambda n, e: f"{e.challenge} round {e.round}: the {e.side.capitalize()} turn begins",
    Campaign.TurnEnded: lambda n, e: f"{e.challenge} round {e.round}: the {e.side.capitalize()} turn ends",
    Campaign.SceneStarted: lambda n, e: f"Scene {e.number} starts: {e.title}",
    Campaign.SceneEnded: lambda n, e: f"Scene {e.number} ({e.title}) ends" + (f": {e.reason}" if e.reason else ""),
    Campaign.EncounterStarted: lambda n, e: f"Event {e.number} starts: {e.title} ({e.mode} Challenges)",
    Campaign.EncounterChallengeAdded: lambda n, e: f"{e.challenge} joins Event {e.number}",
    Campaign.EncounterEnded: lambda n, e: f"Event {e.number} ({e.title}) ends" + (f": {e.reason}" if e.reason else ""),
    Campaign.CohortTraitGained: lambda n, e: f"The Cohort gained the trait {e.trait['name']}: {_trait(e.trait)}",
    Campaign.TemporaryTraitCreated: lambda n, e: f"{e.owner} gains the temporary trait {e.trait['name']} "
    f"({e.trait['source']}): {_trait(e.trait)}, lasts {_lasts(e.trait)}",
    Campaign.TraitExpired: lambda n, e: f"{_own(e.owner)} temporary trait {e.trait} ends",
    Campaign.TraitUsed: lambda n, e: f"{e.trait} is used for this {_scope_kind(e.scope)}",
    Campaign.OpportunityCreated: lambda n, e: f"{e.pc} creates an opportunity in {e.challenge} round {e.round}: "
    "contributes nothing this round, +1 Destiny at its end",
    Campaign.DestinyGained: lambda n, e: f"+{e.amount} Destiny: {e.reason}"
    + (f" ({e.lost} lost over the cap)" if e.lost else ""),
    Campaign.Paid: lambda n, e: f"{e.reason}: " + ", ".join(
        f"{k} {v:+d}" for k, v in (("Destiny", e.destiny), ("Doom", e.doom)) if v) if e.destiny or e.doom
    else f"{e.reason}: the GM waives the cost",
    Character.Joined: lambda n, e: f"{e.name}: " + ", ".join(f"{t} {r}" for t, r in e.expertise.items() if r)
    + f" (primary {e.primary})",
    Character.TraitGained: lambda n, e: f"{n.me} gained the trait {e.name}"
    + (f" \"{e.words}\"" if getattr(e, "words", "") else "") + f": {_trait(vars(e))}",
    Character.StressApplied: lambda n, e: f"{n.me} takes {e.amount} Stress from {e.challenge} (now {e.stress})",
    Character.StressedOut: lambda n, e: f"{n.me} is Stressed Out ({e.stress} Stress)",
    Character.PushedTheLimit: lambda n, e: f"{n.me} Pushes the Limit: Stress {e.stress_before} -> {e.stress}",
    Character.AgonyGained: lambda n, e: f"{n.me} gains Agony (now {e.agony})",
    Character.StressRecovered: lambda n, e: f"{n.me} recovers {e.amount} Stress ({e.why}), now {e.stress}",
    Character.GrowthTested: lambda n, e: f"{_own(n.me)} Growth Test: {e.pool}d6 show {faces(e.faces)} "
    f"({'entered from the table' if e.entered else 'rolled by the program'})"
    + (f", with {', '.join(e.modifiers)} for Agony" if e.modifiers else "")
    + f" -> {faces(e.results)} = {_plural(e.successes, 'success')}: {'passed' if e.passed else 'failed'}",
    Character.AgonyRecovered: lambda n, e: f"{n.me} recovers from Agony (now {e.agony})",
    Character.TakenOut: lambda n, e: f"{n.me} is out of the game for good ({e.agony} Agony)",
    Challenge.Opened: lambda n, e: f"Challenge {e.name} opened: {e.threat} {e.type} {e.rating}",
    Challenge.TraitGained: lambda n, e: f"{n.me} gained the trait {e.name}: {_trait(vars(e))}",
    Challenge.LeaderChosen: lambda n, e: f"{e.leader} leads {n.me}",
    Challenge.PoolBuilt: _pool,
    Challenge.PoolRolled: lambda n, e: f"{n.me} round {e.round}: {e.side.capitalize()} dice show {faces(e.faces)} "
    f"({'entered from the table' if e.entered else 'rolled by the program'})",
    Challenge.ModifiersPlaced: _placed,
    Challenge.RoundTallied: _tally,
    Challenge.DiceResolved: lambda n, e: f"{n.me}: {e.count} more {'die' if e.count == 1 else 'dice'} resolved "
    f"({e.resolved} in all)",
    Challenge.DisasterStruck: lambda n, e: f"{n.me} round {e.round}: Disaster on the {e.side.capitalize()} turn",
    Challenge.Resolved: lambda n, e: f"{n.me} is resolved",
    Challenge.Configured: lambda n, e: f"{n.me} is set up: " + _configured(e),
    Challenge.TimeBought: lambda n, e: f"{n.me} round {e.round}: the Cohort buys time ({e.rounds_left} rounds left)",
    Challenge.RoundSpent: lambda n, e: f"{n.me}: {e.rounds_left} rounds left",
    Challenge.Ended: lambda n, e: f"{n.me} ends unresolved after round {e.round}: {e.reason}",
    Challenge.TestStressDue: lambda n, e: f"{n.me}: {e.stress} unresolved dice become Stress",
    Challenge.TestDecided: lambda n, e: f"{n.me} (a Test) is {'passed' if e.passed else 'failed'}: "
    f"{_plural(e.successes, 'success')}, {e.needed} needed",
    Challenge.SplitOff: lambda n, e: f"{n.me} is split: {e.dice} of its dice become {e.into}, faced by "
    f"{', '.join(e.group)}; {n.me} keeps rating {e.rating}" + (f", faced by {', '.join(e.keeps)}" if e.keeps else ""),
    Challenge.SuppliesSpent: lambda n, e: f"{n.me} round {e.round}: the Cohort spends {e.type} Supplies rank {e.rank}"
    + (" (traded for a ranked Simple modifier)" if e.traded else f" (+{e.rank}d6 every Cohort turn)"),
    Challenge.DisasterTraitMade: lambda n, e: f"{n.me}: the Disaster of round {e.round} becomes {_own(e.owner)} "
    f"trait {e.trait}",
    Challenge.Rated: lambda n, e: f"Correction: {_own(n.me)} rating {e.previous} -> {e.rating}: {e.reason}",
    Challenge.Closed: lambda n, e: f"Correction: {n.me} is {e.outcome} after round {e.round}: {e.reason}",
    Challenge.TraitRemoved: lambda n, e: f"Correction: {n.me} loses the trait {e.name}: {e.reason}",
    Challenge.TraitReplaced: _replaced,
    Character.Renamed: lambda n, e: f"Correction: {e.old} is renamed {e.new} (lines before this one say {e.old})",
    Character.Retired: lambda n, e: f"Correction: {n.me} retires: {e.reason}",
    Character.Returned: lambda n, e: f"Correction: {n.me} returns to the table",
    Character.ExpertiseChanged: lambda n, e: f"Correction: {_own(n.me)} Expertise {_ranks(e.previous, e.previous_primary)}"
    f" -> {_ranks(e.expertise, e.primary)}: {e.reason}",
    Character.TraitRemoved: lambda n, e: f"Correction: {n.me} loses the trait {e.name}: {e.reason}",
    Character.TraitReplaced: _replaced,
    Bestiary.Started: lambda n, e: "The bestiary is started (Challenges defined, not yet opened)",
    Bestiary.Defined: lambda n, e: f"Bestiary: {e.challenge['name']}, {e.challenge['threat']} {e.challenge['type']} "
    f"{e.challenge['rating']}" + "".join(f"; trait {t['name']} {t['modifier']}" for t in e.challenge["traits"]),
    Campaign.PCRenamed: lambda n, e: f"{e.new} now names the PC first called {e.key}",
    Challenge.StressDistributed: lambda n, e: f"{n.me} round {e.round}: Stress distributed: "
    + (", ".join(f"{k} {v}" for k, v in e.distribution.items()) or "none"),
}
