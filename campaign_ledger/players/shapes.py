"""What a player's page is offered: the actions the rules leave to a player for their own character,
each with the fields it takes (campaign_ledger/players/__init__.py `actions`).

A page draws one button per PlayerAction and one input per Field; it sends back the action's id and
the fields' values (`perform`), and the server checks every one of them again: the page is never
trusted to have offered only what it was given.
"""
from __future__ import annotations

from typing import Literal, TypedDict

FieldKind = Literal["faces", "int", "choice", "text", "flag"]


class Field(TypedDict):
    """One value an action takes. `faces`: the faces read off the player's own dice, in the order
    the label gives (left empty, the program rolls; `dice` says how many, None when the count
    depends on the other fields); `choice`: one of `choices`; `flag`: true or false."""

    name: str
    label: str
    kind: FieldKind
    choices: list[str]
    required: bool
    dice: int | None


class PlayerAction(TypedDict):
    """One thing a player may do now. `action` is the stable id `perform` takes ("relics.roll");
    `label` is in the GM's words; `odds` is the exact odds of the pool the action rolls (None when
    it rolls nothing, or the odds call refused the pool as too large); `waiting` is true when the
    table waits on this player (their roll, their pips): such actions come first."""

    action: str
    label: str
    fields: list[Field]
    odds: str | None
    waiting: bool
