"""Stable ids: one campaign per file, PCs and Challenges found by name.

Ids derive from names (case-insensitive), so a command can load `Kira` without a
lookup table and two processes naming the same new PC collide in the ledger
(a version conflict) instead of creating two.
"""
from uuid import NAMESPACE_URL, UUID, uuid5

_ROOT = uuid5(NAMESPACE_URL, "campaign-ledger")
CAMPAIGN_ID: UUID = uuid5(_ROOT, "campaign")


def pc_id(name: str) -> UUID:
    return uuid5(_ROOT, "pc:" + name.strip().casefold())


def challenge_id(name: str) -> UUID:
    return uuid5(_ROOT, "challenge:" + name.strip().casefold())


def seat_id(character_id: UUID) -> UUID:
    """A player's seat at the table, one per character: from the character's own id, so a renamed
    character keeps its seat and two GMs seating the same character at once collide in the ledger."""
    return uuid5(_ROOT, f"seat:{character_id.hex}")
