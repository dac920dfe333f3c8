"""The GM's notes (issue 13): free text on the Campaign, about a thing, a round or an entry.

A note belongs to every ruleset, so it is an event of the Campaign aggregate. It changes no
game state: undo reverses it like any unit (its entries are marked reversed), and nothing a
later command does depends on it. What it is about must exist when it is taken, so a typo
in a name is refused instead of leaving a note about nothing.
"""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger import rulesets, values
from campaign_ledger.ledger.errors import BadInput, NotFound
from campaign_ledger.ledger.table import Table

TAG_MAX = 40


def take(app: Any, text: str, tags: tuple[str, ...] = (), about: str | None = None,
         round_: str | None = None, entry: int | None = None, gm_only: bool = False) -> dict[str, Any]:
    """Append one note; every check runs before anything is recorded."""
    text = values.text(text, "A note")
    if not text:
        raise BadInput("A note cannot be empty.")
    if sum(x is not None for x in (about, round_, entry)) > 1:
        raise BadInput("A note is about one thing: give at most one of --about, --round and --entry.")
    clean = list(dict.fromkeys(tag_of(t) for t in tags))
    round_ = _round(app, round_) if round_ is not None else None
    entry = _entry(app, entry) if entry is not None else None

    def command(t: Table) -> dict[str, Any]:
        subject = _about(t, about) if about is not None else None
        t.campaign.note_taken(text, clean, subject, round_, entry, gm_only)
        target = subject or round_ or (f"on entry {entry}" if entry is not None else None)
        return {"note": text, "tags": clean, "about": subject, "round": round_, "entry": entry,
                "gm_only": gm_only, "unit": f"note {target}" if target else "note"}
    return app.run(command, "note")


def tag_of(tag: str) -> str:
    """A tag as stored: one word or phrase, without a leading '#', compared without case."""
    tag = values.name(tag.strip().lstrip("#"), "A tag")
    if len(tag) > TAG_MAX:
        raise BadInput(f"A tag is at most {TAG_MAX} characters: '{tag[:TAG_MAX]}...'.")
    return tag.casefold()


def _about(t: Table, name: str) -> str:
    """The name of the PC, Challenge or other thing of the campaign's ruleset the note is about."""
    name = values.name(name, "--about")
    ruleset = rulesets.find(t.campaign.ruleset)
    for path in ruleset.named:
        id_ = ruleset.attribute(path)(t.pc_key(name))  # a renamed PC answers to its new name too
        if t.exists(id_):
            return getattr(t.load(id_, ""), "name", None) or name
    if name.casefold() == t.campaign.name.casefold():
        return t.campaign.name
    raise NotFound(f"Nothing in this campaign is named '{name}'; a note can be about a character, "
                   "a Challenge or another thing the campaign has made.")


def _round(app: Any, wanted: str) -> str:
    """A round played and not undone, as `undo --list` names it (`Vault Guards:2`)."""
    from campaign_ledger.ledger import units

    key = values.name(wanted, "--round").casefold()
    for unit in units.live_units(app.recorder):
        if units.ROUND.match(unit.key) and unit.key.casefold() == key:
            return unit.key
    raise no_round(wanted)


def no_round(wanted: str) -> NotFound:
    """The one refusal of a round no one played, for notes and `history --round` alike."""
    return NotFound(f"There is no round '{wanted}' in this campaign (rounds are named CHALLENGE:N, as "
                    "`campaign undo --list` and `campaign history` show them).")


def _entry(app: Any, number: int) -> int:
    newest = app.recorder.max_notification_id() or 0
    if not 1 <= number <= newest:
        raise NotFound(f"There is no entry #{number}; the ledger holds #1-#{newest}.")
    return number
