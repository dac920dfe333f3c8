"""The campaign's own names for completion: PCs, Challenges, traits, rounds, read from the read tables.

One place serves both `campaign shell` (prompt_toolkit) and the shells' own completion (click's
`_CAMPAIGN_COMPLETE`): `attach` walks the click tree once and gives each parameter that takes a
name the matching callback, so the command modules stay as they are. Names come from the read
tables alone, opened read-only (commands/glance.py: no ledger, no sqlite-utils, a Tab must be
quick), and any failure offers nothing rather than an error in the middle of a line.
"""
from __future__ import annotations

import os
import re
from typing import Callable

import click

# Every ruleset's characters, one query each (a campaign has one ruleset; the others' tables are empty).
_CHARACTERS = ("SELECT name FROM sheets ORDER BY joined", "SELECT name FROM action_dice_characters ORDER BY joined",
               "SELECT name FROM beer_run_sheets ORDER BY joined", "SELECT name FROM d2d6_sheets ORDER BY joined")
_CHALLENGES = ("SELECT name FROM challenges ORDER BY phase IN ('resolved', 'ended'), opened",
               "SELECT name FROM beer_run_conflicts ORDER BY opened")
# Who may act (lead, assist, retire, be renamed, take a side): not a retired Relics PC, nor a dead Beer
# Run character (a difficulty pool is a side too); who holds Intensity and dice: a living one only.
_ACTIVE = ("SELECT name FROM sheets WHERE retired IS NULL ORDER BY joined", _CHARACTERS[1],
           "SELECT name FROM beer_run_sheets WHERE status != 'dead' ORDER BY joined", _CHARACTERS[3])
_LIVING = _ACTIVE[:2] + ("SELECT name FROM beer_run_sheets WHERE status = 'alive' ORDER BY joined", _CHARACTERS[3])
_RETIRED = ("SELECT name FROM sheets WHERE retired IS NOT NULL ORDER BY joined",)
# What a turn, a roll or the odds can be played on: the Challenges and conflicts still open.
_OPEN = ("SELECT name FROM challenges WHERE phase NOT IN ('resolved', 'ended') ORDER BY opened",
         "SELECT name FROM beer_run_conflicts WHERE status != 'ended' ORDER BY opened")
_TRAITS = ("SELECT owner || ':' || name FROM traits WHERE ended IS NULL AND owner IS NOT NULL ORDER BY entry",)
# Undo units and replayable rounds, newest first; a unit already reversed is not offered again.
_UNITS = ("SELECT unit FROM history WHERE unit != '' AND reversed_by IS NULL "
          "GROUP BY unit ORDER BY max(entry) DESC",)
# What replay re-runs: a Challenge's round (`Vault Guards:2`) or a single roll (`Mara's climb roll (#3)`).
_REPLAYS = _UNITS  # those REPLAYABLE matches (in Python: PostgreSQL has no GLOB)
REPLAYABLE = re.compile(r":[0-9]| roll")
_ROUNDS = ("SELECT round FROM history WHERE round IS NOT NULL AND round != '' GROUP BY round ORDER BY max(entry) DESC",)
_ITEMS = ("SELECT item FROM d2d6_supplies ORDER BY entry",)

QUERIES: dict[str, tuple[str, ...]] = {
    "pc": _CHARACTERS, "challenge": _CHALLENGES, "trait": _TRAITS, "unit": _UNITS, "replay": _REPLAYS, "round": _ROUNDS,
    "item": _ITEMS, "owner": _CHARACTERS + _CHALLENGES, "about": _CHARACTERS + _CHALLENGES,
    "pc=": _CHARACTERS, "trait=": _TRAITS, "active": _ACTIVE, "living": _LIVING, "retired": _RETIRED, "open": _OPEN,
}

# Which parameter takes which names. By parameter name where a name means one thing everywhere...
BY_PARAM = {
    "leader": "active", "assists": "active", "opportunity": "active", "gm_motto": "active", "pc_name": "pc",
    "pc": "pc", "character": "pc", "helper": "living", "ally": "living", "challenge_name": "open", "challenge": "challenge",
    "conflict": "open", "traits": "trait", "add": "trait", "drop": "trait", "round_name": "unit",
    "round_": "round", "item": "item", "owner": "owner", "about": "about", "stress": "pc=",
    "distribution": "pc=", "places": "trait=", "challenge_places": "trait=",
}
# ... and by command where `name` is a character that is already there (elsewhere it is a new name).
BY_COMMAND = {
    ("replay", "round_name"): "replay", ("push", "name"): "pc", ("sheet", "name"): "pc", ("check-this-out", "name"): "pc",
    ("pc retire", "name"): "active", ("pc rename", "old"): "active", ("pc return", "name"): "retired",
    ("pc expertise", "name"): "pc", ("challenge close", "name"): "open", ("challenge abandon", "name"): "open",
    ("challenge rate", "name"): "open", ("challenge split", "name"): "open",
    ("action-dice sheet", "name"): "pc", ("action-dice rolls", "name"): "pc",
    ("beer-run sheet", "name"): "pc", ("beer-run statement", "name"): "pc", ("beer-run intensity", "name"): "living",
    ("beer-run status", "conflict"): "challenge", ("beer-run conflict end", "name"): "open",
    ("beer-run outcome gain", "name"): "living", ("beer-run outcome inflict", "name"): "active",
    ("beer-run outcome lift", "name"): "active", ("beer-run conflict open", "sides"): "active",
    ("beer-run goal", "side"): "active", ("beer-run roll", "side"): "active", ("beer-run cede", "side"): "active",
    ("beer-run pips", "by"): "active",
    ("decision-2d6 roll", "name"): "pc", ("decision-2d6 sheet", "name"): "pc", ("decision-2d6 pools", "name"): "pc",
    ("decision-2d6 rolls", "name"): "pc", ("decision-2d6 pc-set", "name"): "pc",
    ("decision-2d6 contest", "first"): "pc", ("decision-2d6 contest", "second"): "pc",
    ("decision-2d6 item-add", "holder"): "pc", ("decision-2d6 tracker-add", "holder"): "pc",
}


def names(path: str, kind: str) -> list[str]:
    """The campaign's names of one kind, in the order a GM most likely wants them; [] when unreadable."""
    from campaign_ledger.commands import glance  # not on `campaign`'s start: only a Tab reads names

    found: list[str] = []
    try:
        with glance.opened(path) as conn:
            for sql in QUERIES[kind] if conn is not None else ():
                try:
                    found += [row[0] for row in conn.execute(sql) if row[0] and row[0] not in found]
                except glance.errors():  # a table this file does not have yet (an older or newer read side)
                    continue
    except glance.errors():
        return []
    if kind == "replay":
        found = [u for u in found if REPLAYABLE.search(u)]
    suffix = "=" if kind.endswith("=") else ""
    if kind == "trait=":  # a placement names the trait alone (OWNER:TRAIT only when two share a name)
        found = list(dict.fromkeys(n.split(":", 1)[1] for n in found))
    return [n + suffix for n in found]


def matching(candidates: list[str], incomplete: str) -> list[str]:
    """Those that start with what is typed, any case (a PC is `kira` as well as `Kira`)."""
    typed = incomplete.casefold()
    return [c for c in candidates if c.casefold().startswith(typed)]


def completer(kind: str) -> Callable[[click.Context, click.Parameter, str], list[str]]:
    """A click `shell_complete` callback offering the names of one kind from the campaign in `--db`."""
    def complete(ctx: click.Context, _: click.Parameter, incomplete: str) -> list[str]:
        path = ctx.find_root().params.get("db") or os.environ.get("CAMPAIGN_DB") or "campaign.db"
        return matching(names(path, kind), incomplete)
    return complete


def attach(group: click.Group) -> None:
    """Give every parameter that takes one of the campaign's names its completion callback.

    Sets what click's public `shell_complete=` argument sets (`_custom_shell_complete`), so the
    command modules need no edit; a parameter that already has its own callback keeps it."""
    for path, command in walk(group):
        for param in command.params:
            kind = BY_COMMAND.get((" ".join(path), param.name or "")) or BY_PARAM.get(param.name or "")
            if kind and getattr(param, "_custom_shell_complete", None) is None:
                param._custom_shell_complete = completer(kind)


def walk(group: click.Group, path: tuple[str, ...] = ()):
    """Every command under a group with its path of names (lazy groups included: they load here)."""
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from walk(command, path + (name,))
        elif command is not None:
            yield path + (name,), command
