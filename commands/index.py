"""Which module holds each `campaign` command, and the command's one-line help.

`campaign --help` prints this without importing a command module, and a command's run imports its
own module alone (commands/lazy.py). A new command module adds one line per command below (its
name, its module, its help's first sentence); `python3 -m campaign_ledger.commands.index` writes the index again
from the modules, and tests/test_cli_contract.py fails, naming the line, while it is not current.
"""
from __future__ import annotations

from typing import Iterator

import click

INDEX: dict[str, tuple[str, str]] = {
    # index: begin (written by `python3 -m campaign_ledger.commands.index`)
    'action-dice': ('campaign_ledger.commands.rulesets.action_dice', 'Action dice (seed 003): three dice against a difficulty 1-10, four outcome grades.'),
    'agony-trait': ('campaign_ledger.commands.rulesets.relics.gm', 'The semi-permanent Hindering trait an Agony brings, named by the GM.'),
    'anchor': ('campaign_ledger.commands.records', 'Print the head of the hash chain as one line to keep outside the file (a chat, a printout).'),
    'audit': ('campaign_ledger.commands.records', 'Verify the hash chain, command log, snapshots and read tables; list overrides, house rules, reversals, dice.'),
    'beer-run': ('campaign_ledger.commands.rulesets.beer_run', 'Beer Run campaigns: ability dice in categories, Intensity, opposed pools worn down by pips.'),
    'challenge': ('campaign_ledger.commands.rulesets.relics', 'Challenges.'),
    'challenge-turn': ('campaign_ledger.commands.rulesets.relics.turns', 'Play the Challenge turn: its pool, then (if given) the roll, placements and Stress.'),
    'check-this-out': ('campaign_ledger.commands.rulesets.relics.gm', 'Once a Scene: a temporary rank 1 trait for the Cohort (+1d6, +1 / 1d) or against a Challenge (-1 / 1d).'),
    'cohort-turn': ('campaign_ledger.commands.rulesets.relics.turns', 'Play the Cohort turn: Huddle and pool, then (if given) the roll and the placements.'),
    'decision-2d6': ('campaign_ledger.commands.rulesets.decision_2d6', 'Decision rolls (seed 004): 2d6 exploding + stat vs a target, supply dice, D100 trackers.'),
    'demo': ('campaign_ledger.commands.campaign', 'Create a sample campaign and play a short scene of its ruleset with entered faces.'),
    'disaster-trait': ('campaign_ledger.commands.rulesets.relics.gm', "After a Disaster, the GM's temporary trait: Hindering on the side that suffered it, or Beneficial opposite."),
    'downtime': ('campaign_ledger.commands.rulesets.relics.gm', 'Extended downtime: 3 Stress off every PC.'),
    'event': ('campaign_ledger.commands.rulesets.relics.setup', 'Events: one or more Challenges, faced one after another or at once.'),
    'export': ('campaign_ledger.commands.interchange', 'Export a session, a range of entries or the whole campaign as Markdown, HTML, JSON Lines or CSV.'),
    'growth-test': ('campaign_ledger.commands.rulesets.relics.gm', 'A Growth Test after a narrative quest: passing removes 1 Agony; each Agony adds its ranked modifier.'),
    'hand-of-doom': ('campaign_ledger.commands.rulesets.relics.gm', 'The GM spends 5 Doom during an Event.'),
    'history': ('campaign_ledger.commands.history', 'Show the campaign history: one line per ledger entry, with its number and time.'),
    'house-rule': ('campaign_ledger.commands.rulesets.relics.setup', 'House rules: amend a rule for this campaign; later entries use it, history shows when.'),
    'import': ('campaign_ledger.commands.interchange', "Import a JSON Lines export into a new campaign file (--db), checking every line's hash first."),
    'motto': ('campaign_ledger.commands.rulesets.relics.gm', 'Give a PC its Motto: A6 / 1d while it leads, Destiny or Doom, once a scenario (--trait PC:Motto=doom).'),
    'new': ('campaign_ledger.commands.campaign', 'Start a campaign in a new file.'),
    'note': ('campaign_ledger.commands.history', 'Append a note to the campaign: a ledger entry of its own, shown in history and exports, reversed by `campaign undo` like any other command.'),
    'odds': ('campaign_ledger.commands.odds', "Exact odds of a roll before the dice: of the pool waiting on a turn, or of one described with the options its turn or roll takes (the campaign's ruleset decides which)."),
    'pc': ('campaign_ledger.commands.rulesets.relics', 'Player characters.'),
    'place': ('campaign_ledger.commands.rulesets.relics.turns', 'Place the Simple modifiers of the rolled pool and tally it.'),
    'pools': ('campaign_ledger.commands.campaign', 'Show the pools: Destiny and Doom (Relics), Intensity (Beer Run), supply dice and trackers (decision-2d6); now or --at an entry or time.'),
    'push': ('campaign_ledger.commands.rulesets.relics.turns', 'A Stressed Out PC Pushes the Limit: Stress rolls over past 10 and the PC gains 1 Agony.'),
    'rebuild': ('campaign_ledger.commands.campaign', 'Re-derive every read table from the whole ledger, after verifying its hash chain.'),
    'recover': ('campaign_ledger.commands.rulesets.relics.gm', "Stress recovery at a Scene's end (set amount, or a Stallion Test)."),
    'replay': ('campaign_ledger.commands.replay', 'Re-run a recorded round or roll (default: the latest) on its own faces with other choices, side by side.'),
    'roll': ('campaign_ledger.commands.rulesets.relics.turns', "Roll the pool waiting on a Challenge (or enter the table's faces)."),
    'roster': ('campaign_ledger.commands.rulesets.relics.roster', "Rosters: a campaign's PCs, their traits and its bestiary, as a TOML file."),
    'scenario': ('campaign_ledger.commands.rulesets.relics.setup', 'Scenarios.'),
    'scene': ('campaign_ledger.commands.rulesets.relics.setup', 'Scenes: a Scene holds Events and free-flowing narrative; recovery comes at its end.'),
    'seat': ('campaign_ledger.commands.seats', "Player seats: a player's own link to the live page, acting for their character only."),
    'serve': ('campaign_ledger.commands.serve', 'Serve a live, read-only page of the campaign: pools, what is in play, the sheets, the last rounds and the notes, updated within a second of any command run in another window.'),
    'session': ('campaign_ledger.commands.campaign', 'Play sessions: the real-world sittings of the table.'),
    'sheet': ('campaign_ledger.commands.campaign', "Show the character sheets (or one character's), now or as they stood --at an entry or time."),
    'shell': ('campaign_ledger.commands.shell', 'Play in one warm process: every command without `campaign`, Tab to complete, history kept.'),
    'statement': ('campaign_ledger.commands.campaign', 'Every entry that changed a balance, with the running balance, like a bank statement.'),
    'status': ('campaign_ledger.commands.rulesets.relics.views', 'Show the unfinished turn (if any) and where each open Challenge stands.'),
    'stress': ('campaign_ledger.commands.rulesets.relics.turns', "Distribute the Challenge's Stress by consensus (or as the leader says)."),
    'trait': ('campaign_ledger.commands.rulesets.relics', 'Traits of PCs and Challenges.'),
    'undo': ('campaign_ledger.commands.records', 'Reverse the latest unit (or UNIT: a name from --list, e.g.'),
    # index: end
}


def build() -> dict[str, tuple[str, str]]:
    """The index as the command modules stand: every module's `COMMANDS`, imported."""
    import importlib
    import pkgutil

    from campaign_ledger import commands
    from campaign_ledger.commands import rulesets

    found: dict[str, tuple[str, str]] = {}
    modules = [*pkgutil.iter_modules(commands.__path__, "campaign_ledger.commands."),
               *pkgutil.iter_modules(rulesets.__path__, "campaign_ledger.commands.rulesets.")]  # a package each
    for info in sorted(modules, key=lambda i: i.name):
        group = getattr(importlib.import_module(info.name), "COMMANDS", None)
        for name, command in (group.commands.items() if group is not None else ()):
            if name in found:
                raise ValueError(f"{name} is a command of both {found[name][0]} and {info.name}.")
            found[name] = (home(info.name, command), command.get_short_help_str(limit=10_000))
    return dict(sorted(found.items()))


def home(module: str, command: click.Command) -> str:
    """The module to import for `command`: the one module of a package that defines it (and all its
    subcommands), so a Relics turn does not import the ruleset's other five command modules (3.5 ms);
    the package itself (every module's commands joined) when they are spread over several."""
    defined = set(_defining_modules(command))
    inside = {m for m in defined if m.startswith(module + ".")}
    return inside.pop() if len(inside) == 1 and defined == inside else module


def _defining_modules(command: click.Command) -> Iterator[str]:
    if command.callback is not None:
        yield command.callback.__module__
    for sub in getattr(command, "commands", {}).values():
        yield from _defining_modules(sub)


def line(name: str, module: str, short_help: str) -> str:
    return f"    {name!r}: ({module!r}, {short_help!r}),"


def write() -> None:
    """Write the index block of this file from the modules."""
    import os

    path = os.path.abspath(__file__)
    with open(path) as f:
        text = f.read()
    head, rest = text.split("    # index: begin", 1)
    _, tail = rest.split("    # index: end", 1)
    lines = [line(name, *entry) for name, entry in build().items()]
    body = "    # index: begin (written by `python3 -m campaign_ledger.commands.index`)\n" + "\n".join(lines) + "\n    # index: end"
    with open(path, "w") as f:
        f.write(head + body + tail)


if __name__ == "__main__":
    write()
