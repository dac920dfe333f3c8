"""Every trait in play: each PC's, the Cohort's, each Challenge's, and the temporary ones; and the
last use of every trait limited to once a round, a scene or a scenario (`trait_uses`)."""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.rulesets.relics.character import Character
from campaign_ledger.ledger.ids import CAMPAIGN_ID
from campaign_ledger.ledger.reversible import Reversible
from campaign_ledger.projections.notes import note

TABLES = ("traits", "trait_uses")
OWNED = {"traits": "owner_id"}  # an unmade owner takes its traits: see runner.unmake
COHORT_ID = "cohort"
# What an undo restores that these rows show: the Cohort's traits, the temporary ones and the uses
# (the campaign's), and each PC's and Challenge's own traits.
RESTORED = {Campaign: ("cohort_traits", "temporary", "uses"), Character: ("traits",), Challenge: ("traits",)}


HANDLED = (Character.TraitGained, Challenge.TraitGained, Character.TraitRemoved, Challenge.TraitRemoved,
           Character.TraitReplaced, Challenge.TraitReplaced, Campaign.CohortTraitGained, Campaign.TemporaryTraitCreated,
           Campaign.TraitExpired, Campaign.PCRenamed, Campaign.TraitUsed, Reversible.Reversed)


def apply(db: Database, entry: int, e: Any) -> None:
    if isinstance(e, Reversible.Reversed):  # whichever aggregate's: a Disaster trait made and ended
        _forget_made(db, e.entries)  # inside an undone round leaves the campaign itself unchanged
    if isinstance(e, (Character.TraitGained, Challenge.TraitGained)):
        table = "sheets" if isinstance(e, Character.TraitGained) else "challenges"
        _insert(db, entry, e.originator_id.hex, db.table(table).get(e.originator_id.hex)["name"], vars_of(e))
    elif isinstance(e, (Character.TraitRemoved, Challenge.TraitRemoved)):
        db.execute("DELETE FROM traits WHERE owner_id = ? AND name = ? AND duration IS NULL",
                   [e.originator_id.hex, e.name])  # the history keeps when it was gained and removed
    elif isinstance(e, (Character.TraitReplaced, Challenge.TraitReplaced)):
        db.execute("UPDATE traits SET modifier = ?, polarity = ?, target = coalesce(?, target) "
                   "WHERE owner_id = ? AND name = ? AND duration IS NULL",
                   [e.modifier, e.polarity, getattr(e, "target", None), e.originator_id.hex, e.name])
    elif isinstance(e, Campaign.CohortTraitGained):
        _insert(db, entry, COHORT_ID, "Cohort", e.trait)
    elif isinstance(e, Campaign.TemporaryTraitCreated):
        _insert(db, entry, owner_id(db, e.owner), e.owner, e.trait)
    elif isinstance(e, Campaign.TraitExpired):
        db.execute("UPDATE traits SET ended = ? WHERE owner_id = ? AND name = ? AND ended IS NULL",
                   [entry, owner_id(db, e.owner), e.trait])
    elif isinstance(e, Campaign.PCRenamed):  # the campaign keys a trait's last use by its owner's name
        prefix = e.old.casefold() + ":"
        db.execute("UPDATE trait_uses SET key = ? || substr(key, ?), trait = ? || substr(trait, ?) "
                   "WHERE substr(key, 1, ?) = ?", [e.new.casefold() + ":", len(prefix) + 1, e.new + ":",
                                                 len(prefix) + 1, len(prefix), prefix])
    elif isinstance(e, Campaign.TraitUsed):
        _used(db, entry, e.trait, e.scope)
    elif isinstance(e, Reversible.Reversed) and e.originator_id == CAMPAIGN_ID:
        if "cohort_traits" in e.changes:
            _restore_owned(db, entry, COHORT_ID, e.changes["cohort_traits"])
        if "temporary" in e.changes:
            _restore_temporary(db, entry, e.changes["temporary"])
        if "uses" in e.changes:
            _restore_uses(db, entry, e.changes["uses"])
    elif isinstance(e, Reversible.Reversed) and "traits" in e.changes:
        _restore_owned(db, entry, e.originator_id.hex, e.changes["traits"])


def _used(db: Database, entry: int, trait: str, scope: str) -> None:
    """The campaign keeps one scope per trait, its last use (keyed as the ledger keys it)."""
    db.execute("INSERT INTO trait_uses (key, trait, scope, entry) VALUES (?, ?, ?, ?) "
               "ON CONFLICT(key) DO UPDATE SET trait = excluded.trait, scope = excluded.scope",
               [trait.casefold(), trait, scope, entry])


def _restore_uses(db: Database, entry: int, uses: dict[str, str]) -> None:
    """Make the rows match the uses an undo restored: a use it took away goes (the scratch campaign
    never had it), an earlier use it brought back shows its scope again, in its first-seen place, and
    a use keyed by a PC's name an undone rename changed keeps its row under the name restored (its
    owner's spelling follows when the PC's own reversal restores its name: see `uses_named`)."""
    rows = {r[0]: r[1] for r in db.execute("SELECT key, trait FROM trait_uses").fetchall()}
    gone = [key for key in rows if key not in uses]
    for key in [k for k in uses if k not in rows]:
        trait = key.partition(":")[2]
        renamed = next((g for g in gone if g.partition(":")[2] == trait), None)  # the same use, its PC renamed
        if renamed is None:
            db.execute("INSERT INTO trait_uses (key, trait, scope, entry) VALUES (?, ?, ?, ?)",
                       [key, key, uses[key], entry])
            continue
        gone.remove(renamed)
        db.execute("UPDATE trait_uses SET key = ?, trait = ? WHERE key = ?",
                   [key, _owned_by(key.partition(":")[0], rows[renamed]), renamed])
    for key in gone:
        db.execute("DELETE FROM trait_uses WHERE key = ?", [key])
    for key, scope in uses.items():
        db.execute("UPDATE trait_uses SET scope = ? WHERE key = ?", [scope, key])


def uses_named(db: Database, owner: str) -> None:
    """The uses of an owner's traits name it as it is spelled now (the campaign keys them casefolded)."""
    prefix = owner.casefold() + ":"
    for key, trait in db.execute("SELECT key, trait FROM trait_uses WHERE substr(key, 1, ?) = ?",
                                 [len(prefix), prefix]).fetchall():
        db.execute("UPDATE trait_uses SET trait = ? WHERE key = ?", [_owned_by(owner, trait), key])


def _owned_by(owner: str, trait: str) -> str:
    """A use's `Owner:Trait` under another spelling of its owner (in Python: PostgreSQL has no instr)."""
    return owner + trait[trait.index(":"):] if ":" in trait else trait


def _restore_owned(db: Database, entry: int, owner_id_: str, restored: dict[str, dict[str, Any]]) -> None:
    """Undo of a PC's or a Challenge's trait: its own rows (not the temporary ones) match the traits
    the reversal restores: an added one goes, a replaced one (a second of one name) comes back."""
    held = {r[0]: r[1] for r in db.execute("SELECT name, owner FROM traits WHERE owner_id = ? AND duration IS NULL",
                                           [owner_id_]).fetchall()}
    wanted = {t["name"]: t for t in restored.values()}
    for name in held.keys() - wanted.keys():
        db.execute("DELETE FROM traits WHERE owner_id = ? AND name = ? AND duration IS NULL", [owner_id_, name])
    owner = next(iter(held.values()), None) or _owner_name(db, owner_id_)
    for name, trait in wanted.items():
        if name not in held:
            _insert(db, entry, owner_id_, owner, trait)
            continue
        db.execute("UPDATE traits SET modifier = ?, polarity = ?, cost = ?, target = ?, frequency = ?, types = ? "
                   "WHERE owner_id = ? AND name = ? AND duration IS NULL",
                   [trait["modifier"], trait["polarity"], trait["cost"], trait["target"],
                    trait.get("frequency", "always"), json.dumps(trait.get("types") or []), owner_id_, name])


def _owner_name(db: Database, owner_id_: str) -> str:
    if owner_id_ == COHORT_ID:
        return "Cohort"
    for table in ("sheets", "challenges"):
        row = db.execute(f"SELECT name FROM {table} WHERE id = ?", [owner_id_]).fetchone()
        if row:
            return row[0]
    return owner_id_


def _forget_made(db: Database, undone: list[int]) -> None:
    """A temporary trait the undone entries made has no row, whether or not the campaign's list of
    them changed (made and ended within the undone play, the list is the same before and after, and
    the undo may hold no reversal of the campaign at all: only the Challenge's)."""
    if undone:
        db.execute(f"DELETE FROM traits WHERE duration IS NOT NULL AND entry IN ({','.join('?' * len(undone))})",
                   list(undone))


def _restore_temporary(db: Database, entry: int, temporary: list[dict[str, Any]]) -> None:
    """Make the temporary rows match the restored list, as a campaign that never played the undone
    entries holds them (the rows they made are gone already: `_forget_made`): a trait they ended is
    open again in its first-seen row; one ended by play kept stays ended."""
    held = {(owner_id(db, t["owner"]), t["name"]): t for t in temporary}
    for rowid, owner, name, ended in db.execute(
            "SELECT rowid, owner_id, name, ended FROM traits WHERE duration IS NOT NULL").fetchall():
        if (owner, name) in held:
            db.execute("UPDATE traits SET ended = NULL WHERE rowid = ?", [rowid])
            held.pop((owner, name))
        elif ended is None:
            db.execute("UPDATE traits SET ended = ? WHERE rowid = ?", [entry, rowid])
    for (owner, _), trait in held.items():  # held again, its row gone (a later one of its name took it)
        _insert(db, entry, owner, trait["owner"], trait)


def vars_of(e: Any) -> dict[str, Any]:
    return {k: getattr(e, k, None) for k in ("name", "modifier", "polarity", "cost", "target", "frequency", "types",
                                             "words")}  # words: a Motto's (none on older entries)


def _insert(db: Database, entry: int, owner_id_: str, owner: str, trait: dict[str, Any]) -> None:
    """A trait row; a second of one name for one owner (ledgers from before validation) replaces
    the first, as the aggregates' own state does, and the entry is noted instead of stopping here."""
    first = db.execute("SELECT entry FROM traits WHERE owner_id = ? AND name = ?", [owner_id_, trait["name"]]).fetchone()
    if first is not None:
        note(db, entry, f"{owner} already had a trait named '{trait['name']}' (from entry #{first[0]}); "
                        "the read tables keep this later one.")
        db.execute("DELETE FROM traits WHERE owner_id = ? AND name = ?", [owner_id_, trait["name"]])
    db.table("traits").insert({"owner_id": owner_id_, "owner": owner, "name": trait["name"],
                         "modifier": trait["modifier"], "polarity": trait["polarity"], "cost": trait["cost"],
                         "target": trait["target"], "entry": entry, "frequency": trait.get("frequency", "always"),
                         "types": json.dumps(trait.get("types") or []), "duration": trait.get("duration"),
                         "source": trait.get("source"), "words": trait.get("words") or None})


def owner_id(db: Database, owner: str) -> str:
    """The id a trait's owner has in the read tables: a PC's, a Challenge's, or the Cohort's."""
    for table in ("sheets", "challenges"):
        row = db.execute(f"SELECT id FROM {table} WHERE name = ?", [owner]).fetchone()
        if row:
            return row[0]
    return COHORT_ID
