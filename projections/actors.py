"""Who wrote each history row, as the read side gives it (issue 38; ledger/actors.py records it).

The history table keeps what each entry's command row said (projections/units.py `who_at`);
a row whose command kept none, written before, reads as the GM's by an unrecorded channel.
Every reader of history rows (history --json, a write's report, the exports, the live page)
shapes them here, so all say the same."""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.actors import GM, UNRECORDED
from campaign_ledger.ledger.words import who


def shaped(row: dict[str, Any]) -> dict[str, Any]:
    """A history row as `history --json` gives it: "unit" null outside every unit, "actor" and
    "channel" always, "confirmed_by" only when a GM accepted a player's action."""
    row["unit"] = row.get("unit") or None
    row["actor"] = row.get("actor") or GM
    row["channel"] = row.get("channel") or UNRECORDED
    if not row.get("confirmed_by"):
        row.pop("confirmed_by", None)
    return row


def label(row: dict[str, Any]) -> str:
    """`Kira · page` (see ledger/words.py `who`); empty for the GM's entries."""
    return who(row.get("actor"), row.get("channel"), row.get("confirmed_by"))


def tag(row: dict[str, Any]) -> str:
    """`[Kira · page] ` before a history line written by a player's seat; nothing for the GM's."""
    said = label(row)
    return f"[{said}] " if said else ""


def counted(db: Any) -> dict[str, int]:
    """Entries per actor (`audit`'s "actors"), the GM first: from the history rows, which the audit
    has just held to a rebuild from the verified chain."""
    rows = db.execute("SELECT coalesce(actor, 'gm') AS who, count(*) FROM history GROUP BY who").fetchall()
    found = {who: n for who, n in rows}
    return {**({GM: found.pop(GM)} if GM in found else {}), **dict(sorted(found.items()))}


def counted_text(counts: dict[str, int]) -> str:
    """`GM 62, seat Kira 3`: audit's line of entries per actor."""
    return ", ".join(f"{'GM' if actor == GM else actor.replace(':', ' ', 1)} {n}" for actor, n in counts.items()) \
        or "none"
