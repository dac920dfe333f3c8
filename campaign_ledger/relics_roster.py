"""Relics rosters as files (issue 13): reading one for `roster_load`, and the roster the read tables
hold for `roster_dump`, in the format `roster load` reads back (ledger/roster.py writes it)."""
from __future__ import annotations

from typing import Any


def read_roster(path: str) -> str:
    """The file's text; a byte-order mark (as some editors save UTF-8) is not part of it."""
    from campaign_ledger.ledger.errors import BadInput

    named(path)
    try:
        with open(path, encoding="utf-8-sig") as f:
            return f.read()
    except UnicodeDecodeError as e:
        raise BadInput(f"Cannot read the roster {path}: it is not UTF-8 text (byte {e.object[e.start]:#04x} "
                       f"at offset {e.start}); save it as UTF-8.") from None
    except OSError as e:
        raise BadInput(f"Cannot read the roster {path}: {e.strerror or e}.") from None


def named(path: str) -> None:
    """A roster's path names a file (an empty one names none)."""
    from campaign_ledger.ledger.errors import BadInput

    if not path.strip():
        raise BadInput("Name the roster file, e.g. heist.toml.")


def dump(db: Any, path: str | None) -> dict[str, Any]:
    """The roster the read tables hold; with `path`, written there too."""
    from campaign_ledger.ledger.errors import BadInput
    from campaign_ledger.ledger.roster import dumps

    data = roster_of(db)
    if path is not None:
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(dumps(data))
        except OSError as e:
            raise BadInput(f"Cannot write the roster {path}: {e.strerror or e}.") from None
    return data


def roster_of(db: Any) -> dict[str, Any]:
    """Every PC's sheet (its permanent traits) and the bestiary."""
    from campaign_ledger.ledger.errors import RuleViolation
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
