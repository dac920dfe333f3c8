"""The CLI's words for Beer Run: name lists, dice positions `1,3`, abilities `Physical:Brawn=d8`,
difficulty dice (`odds` reads them as the commands do)."""
from __future__ import annotations

from campaign_ledger.ledger.errors import BadInput


def br_list(text: str | None) -> list[str]:
    """'Brawn,Wits' -> ['Brawn', 'Wits']."""
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def br_positions(text: str | None, pool: str = "--against") -> list[int]:
    """`--replace 1,3`: dice of a goal's difficulty pool, numbered from 1 (not faces: a face's
    message told the GM to give faces)."""
    from campaign_ledger.ledger.values import is_number

    numbers = br_list(text)
    if any(not is_number(n) or len(n) > 3 or int(n) < 1 for n in numbers):
        raise BadInput(f"--replace names dice of {pool} by number from 1, e.g. 1,3; not '{text}'.")
    return [int(n) for n in numbers]


def br_abilities(values: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """'Physical:Brawn=d8,Physical:Health=d6' (repeatable) -> [(category, name, die), ...]."""
    result = []
    for value in values:
        for part in br_list(value):
            head, eq, die = part.rpartition("=")
            category, colon, name = head.partition(":")
            if not eq or not colon or not category.strip() or not name.strip():
                raise BadInput(f"Write an ability as CATEGORY:NAME=dN, e.g. Physical:Brawn=d8, not '{part}'.")
            result.append((category.strip(), name.strip(), die.strip()))
    return result


def br_dice(text: str) -> list[tuple[str | None, str]]:
    """'d8,Lock=d10' -> [(None, 'd8'), ('Lock', 'd10')]."""
    return [(n.strip() or None, d.strip()) if eq else (None, n.strip())
            for n, eq, d in (p.partition("=") for p in br_list(text))]
