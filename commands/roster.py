"""`campaign roster`: load a roster file (PCs, their traits, a bestiary of Challenges) in one unit,
or dump the campaign's back out in the same format (issue 13)."""
from __future__ import annotations

from typing import Any

import click

from campaign_ledger.commands.plumbing import json_option, read_view, write_command
from campaign_ledger.ledger.errors import BadInput, RuleViolation

COMMANDS = click.Group()  # added to `campaign` by cli.py


@COMMANDS.group()
def roster() -> None:
    """Rosters: a campaign's PCs, their traits and its bestiary, as a TOML file."""


@roster.command("load")
@click.argument("path", metavar="FILE.toml")
@json_option
@click.pass_context
def roster_load(ctx: click.Context, path: str) -> None:
    """Add the file's PCs (with their traits) and its Challenges (to the bestiary, not opened) in one
    unit: one `undo` takes it all back. A bad file is refused with its line and key; nothing is added.

    Example: campaign roster load heist.toml
    """
    text = _read(path)
    write_command(ctx, lambda app: app.load_roster(text, path))


@roster.command("dump")
@click.argument("path", metavar="[FILE]", required=False)
@json_option
@click.pass_context
def roster_dump(ctx: click.Context, path: str | None) -> None:
    """Write the campaign's PCs, their traits and the bestiary as a roster file (or to the screen);
    `roster load` in another campaign gives the same sheets.

    Example: campaign roster dump heist.toml
    """
    from campaign_ledger.ledger.roster import dumps

    if path is not None:
        _named(path)

    def query(app: Any, db: Any) -> dict[str, Any]:
        data = _roster_of(db)
        if path is not None:
            try:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(dumps(data))
            except OSError as e:
                raise BadInput(f"Cannot write the roster {path}: {e.strerror or e}.") from None
        return data

    def text(data: dict[str, Any]) -> str:
        if path is None:
            return dumps(data).rstrip("\n")
        pcs, challenges = len(data.get("pc", [])), len(data.get("challenge", []))
        return (f"Wrote {pcs} PC{'s' * (pcs != 1)} and {challenges} Challenge{'s' * (challenges != 1)} "
                f"to {path}.")
    read_view(ctx, query, text)


def _read(path: str) -> str:
    """The file's text; a byte-order mark (as some editors save UTF-8) is not part of it."""
    _named(path)
    try:
        with open(path, encoding="utf-8-sig") as f:
            return f.read()
    except UnicodeDecodeError as e:
        raise BadInput(f"Cannot read the roster {path}: it is not UTF-8 text (byte {e.object[e.start]:#04x} "
                       f"at offset {e.start}); save it as UTF-8.") from None
    except OSError as e:
        raise BadInput(f"Cannot read the roster {path}: {e.strerror or e}.") from None


def _named(path: str) -> None:
    if not path.strip():
        raise BadInput("Name the roster file, e.g. heist.toml.")


def _roster_of(db: Any) -> dict[str, Any]:
    """The roster the read tables hold: every PC's sheet (its permanent traits) and the bestiary."""
    from campaign_ledger.projections import views
    from campaign_ledger.projections.rulesets.relics import bestiary

    ruleset = views.campaign(db).get("ruleset")
    if ruleset != "relics":
        raise RuleViolation(f"Rosters are for relics campaigns so far; this is a {ruleset} campaign.")
    pcs = []
    for sheet in views.sheets(db):
        pc = {"name": sheet["name"], "primary": sheet["primary"], "expertise": sheet["expertise"]}
        pc.update({"retired": sheet["retired"]} if sheet.get("retired") else {})
        kept = [_trait(t) for t in sheet["traits"] if not t.get("duration")]
        pcs.append({**pc, "trait": kept} if kept else pc)
    challenges = []
    for row in bestiary.rows(db):
        challenge = {k: row[k] for k in ("name", "threat", "type", "rating")}
        challenges.append({**challenge, "trait": [_trait(t) for t in row["traits"]]} if row["traits"] else challenge)
    return {k: v for k, v in (("pc", pcs), ("challenge", challenges)) if v}


def _trait(trait: dict[str, Any]) -> dict[str, Any]:
    """A trait as the file writes it: defaults left out, polarity only where the sign cannot say it."""
    written = {"name": trait["name"], "modifier": trait["modifier"]}
    if trait["modifier"].startswith("A"):
        written["polarity"] = trait["polarity"]
    written.update({k: trait[k] for k, default in (("cost", "free"), ("frequency", "always")) if trait[k] != default})
    written.update({"target": trait["target"]})
    written.update({"types": trait["types"]} if trait.get("types") else {})
    written.update({"words": trait["words"]} if trait.get("words") else {})  # a Motto's
    return written
