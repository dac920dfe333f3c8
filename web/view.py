"""What the live page shows, built from the read tables at one entry of the ledger.

The core part (the campaign's name, the last rounds as the HTML export's cards, the notes) is the
same for every ruleset; what a ruleset shows of its own (pools, the Challenge or conflict in play,
the short sheets) comes from its `table_view.view(app, db, show_gm)` in
`projections/rulesets/<ruleset>/`, so this module names no ruleset; its optional
`gm_entries(db)` names the entries only the GM may see (a Challenge's traits before they are
played), left out of the page's rounds unless `--show-gm`. A ruleset without one still gets the
rounds and the notes.
"""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from campaign_ledger.projections import views
from campaign_ledger.projections.export_cards import cards

ROUNDS = 6          # cards shown, newest first
WINDOW = 400        # entries read back to find them (a round longer than this shows its tail)
NOTES = 10          # notes shown, newest first
EMPTY = {"stage": [], "pools": [], "challenges": [], "sheets": []}


@dataclass(frozen=True)
class TableView:
    """The page's content at one entry: plain values, and the rounds already rendered as cards."""

    entry: int
    name: str
    ruleset: str
    own: dict[str, Any] = field(default_factory=lambda: dict(EMPTY))
    rounds: tuple[str, ...] = ()
    notes: tuple[dict[str, Any], ...] = ()
    warning: str | None = None


def build(app: Any, db: Database, show_gm: bool, warning: str | None = None) -> TableView:
    """The view of the campaign as its read tables stand (caught up by the caller)."""
    campaign = views.campaign(db)
    entry = db.execute("SELECT max(entry) FROM history").fetchone()[0] or 0
    ruleset = campaign.get("ruleset") or ""
    module = _table_view(ruleset)
    hidden = frozenset() if show_gm or not hasattr(module, "gm_entries") else frozenset(module.gm_entries(db))
    return TableView(entry=entry, name=campaign.get("name") or "Campaign", ruleset=ruleset,
                     own=_own(app, db, module, show_gm), rounds=_rounds(db, entry, show_gm, hidden),
                     notes=_notes(db, show_gm), warning=warning)


def _own(app: Any, db: Database, module: Any, show_gm: bool) -> dict[str, Any]:
    """The ruleset's own part of the page, from its table_view module (none: an empty part)."""
    return {**EMPTY, **module.view(app, db, show_gm)} if module else dict(EMPTY)


def _table_view(ruleset: str) -> Any:
    from campaign_ledger.ledger import rulesets
    from campaign_ledger.ledger.errors import BadInput

    try:
        package = rulesets.find(ruleset).package.rsplit(".", 1)[-1]
    except BadInput:  # a campaign not yet made
        return None
    name = f"campaign_ledger.projections.rulesets.{package}.table_view"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:  # a ruleset from elsewhere (a plug-in, a test's toy) without one
        if e.name in (name, name.rpartition(".")[0]):
            return None
        raise


def _rounds(db: Database, last: int, show_gm: bool, hidden: frozenset[int]) -> tuple[str, ...]:
    """The last rounds (and stretches between them), newest first, as the export renders them."""
    if not last:
        return ()
    first = max(1, last - WINDOW + 1)
    day = (db.execute("SELECT time FROM history WHERE entry = ?", [last]).fetchone() or [""])[0][:10]
    shown = [html for _, html in cards(db, first, last, day, show_gm, hidden=hidden)][-ROUNDS:]
    return tuple(reversed(shown))


def _notes(db: Database, show_gm: bool) -> tuple[dict[str, Any], ...]:
    """The notes standing (not undone), newest first; GM-only ones only when the GM asks."""
    rows = db.execute("SELECT entry, text, tags, about, round, target_entry, gm_only FROM notes "
                      f"WHERE reversed_at IS NULL {'' if show_gm else 'AND gm_only = 0'} "
                      "ORDER BY entry DESC LIMIT ?", [NOTES]).fetchall()
    return tuple({"entry": e, "text": text, "tags": json.loads(tags or "[]"), "about": about, "round": round_,
                  "target_entry": target, "gm_only": bool(gm)} for e, text, tags, about, round_, target, gm in rows)
